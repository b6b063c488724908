"""``radar serve`` on a site, run as an editor runs it, and pages read from it over HTTP.

Used by the preview tests and by ``bench/preview_bench.py``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

POLL_SECONDS = 0.05
# How long the tests wait for the preview to serve, to show a save, or to answer: a guard
# against a hang only (a loaded machine is slow, not wrong; bench/preview_bench.py times
# the preview).
HANG_GUARD = 600


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LivePreview:
    port: int
    process: subprocess.Popen[bytes]

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def page(self, path: str) -> str | None:
        """The served page, or None while it is not there or being rewritten (the file
        changed while it was sent)."""
        try:
            with urllib.request.urlopen(self.url(path), timeout=HANG_GUARD) as response:
                return str(response.read().decode("utf-8", errors="replace"))
        except (urllib.error.HTTPError, http.client.IncompleteRead):
            return None

    def seconds_until_shown(
        self, path: str, text: str, since: float, timeout: float = HANG_GUARD
    ) -> float:
        """Poll ``path`` until it holds ``text``: seconds from ``since`` (a
        ``time.monotonic()``) to the first answer that does."""
        while True:
            page = self.page(path)
            now = time.monotonic()
            if page is not None and text in page:
                return now - since
            assert self.process.poll() is None, "radar serve stopped"
            assert now - since < timeout, f"{path} did not show {text!r} in {timeout} s"
            time.sleep(POLL_SECONDS)


def serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    try:
        listed = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii")
    except OSError:
        return []
    return [int(child) for child in listed.split()]


# Seconds radar serve has to save its state and exit once sent SIGTERM (it takes one or
# two): a guard against a hang.
STOP_TIMEOUT = 300


@contextlib.contextmanager
def radar_serve(
    srcdir: Path, *, start_timeout: float = HANG_GUARD, output: IO[bytes] | int = subprocess.DEVNULL
) -> Iterator[LivePreview]:
    """``radar serve`` on a free port, once it serves (after its first build); stopped
    with SIGTERM as a service manager stops it, and whatever is left of it killed. One
    that has not exited ``STOP_TIMEOUT`` seconds after SIGTERM fails the test with the
    stack of each thread of its processes (faulthandler, on SIGABRT), where ``output`` is
    not given."""
    port = free_port()
    command = [sys.executable, "-m", "juju_radar", "--root", str(srcdir), "serve"]
    with tempfile.TemporaryFile() as said:
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            stdout=output,
            stderr=subprocess.STDOUT if output != subprocess.DEVNULL else said,
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
            start_new_session=True,  # no terminal's Ctrl-C; its process group is killed below
        )
        try:
            deadline = time.monotonic() + start_timeout
            while not serving(port):
                assert process.poll() is None, "radar serve stopped before serving"
                assert time.monotonic() < deadline, (
                    f"radar serve did not serve in {start_timeout} s"
                )
                time.sleep(0.2)
            yield LivePreview(port, process)
        finally:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                for pid in (*children(process.pid), process.pid):  # one after the other
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGABRT)
                    time.sleep(2)
                process.wait(timeout=30)
                said.seek(0)
                stacks = said.read().decode(errors="replace")[-8000:]
                raise AssertionError(
                    f"radar serve did not stop {STOP_TIMEOUT} s after SIGTERM:\n{stacks}"
                ) from None
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)


def replace_once(path: Path, old: str, new: str) -> float:
    """Save ``path`` with ``old`` replaced by ``new``; the ``time.monotonic()`` of the save."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return time.monotonic()
