"""Pagefind as a service (the acceleration ``pagefind-service``): the process keeps
``pagefind --service`` processes, one for each piece of the search index being indexed
at once, and sends them every piece its builds index, instead of starting Pagefind's
command line for each.

Pagefind's command line loads its Chinese word segmenter (charabia) in every run:
about 0.18 s of each, against 0.01 s for a handful of English pages. Its service, which
its Node and Python APIs drive, loads it once a process: kept between builds, the
preview's rebuilds and the tests' builds in one process never load it again. The
official Python client (``pagefind`` 1.5.2) waits 0.1 s before reading each answer
(``_wait_for_responses``), four answers an index, so this speaks the service's protocol
itself: requests and answers are base64 JSON, each followed by a comma. A bundle
written so equals the command line's (``tests/test_pagefind_service.py``). The protocol
is not documented: the register runs this only with the Pagefind it was written for.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import subprocess
import tempfile
import threading
from contextlib import suppress
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from juju_radar.outputs.search.records import pagefind_executable

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps


class ServiceError(RuntimeError):
    """The service answered with an error, or ended."""


class PagefindService:
    """One ``pagefind --service`` process; one request at a time."""

    def __init__(self, executable: Path) -> None:
        self.said: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close)
        self.process = subprocess.Popen(
            [str(executable), "--service"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.said,
        )
        self.sent = 0
        self.broken = False

    def index(self, site: Path, bundle: Path) -> None:
        """Index ``site`` into ``bundle``, as ``pagefind --site SITE --output-path
        BUNDLE`` does (which fails when it finds no page)."""
        index_id = self.call(type="NewIndex", config=None)["index_id"]
        try:
            indexed = self.call(type="AddDir", index_id=index_id, path=str(site), glob=None)
            if not indexed.get("page_count"):
                raise ServiceError(f"pagefind found no page to index in {site}")
            files = self.call(type="GetFiles", index_id=index_id)["files"]
        finally:
            self.call(type="DeleteIndex", index_id=index_id)
        write_bundle(bundle, files)

    def usable(self) -> bool:
        """Still running, with no answer pending (a call ended halfway breaks it)."""
        return not self.broken and self.process.poll() is None

    def call(self, **payload: Any) -> dict[str, Any]:
        self.sent += 1
        self.broken = True  # until its answer is read
        request = json.dumps({"message_id": self.sent, "payload": payload})
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(base64.b64encode(request.encode("utf-8")) + b",")
            stdin.flush()
        except BrokenPipeError:
            raise ServiceError(self._ended()) from None
        answer = bytearray()
        while not answer.endswith(b","):
            chunk = os.read(stdout.fileno(), 1 << 16)
            if not chunk:
                raise ServiceError(self._ended())
            answer += chunk
        said = json.loads(base64.b64decode(bytes(answer[:-1])))
        if said.get("message_id") != self.sent:
            raise ServiceError(f"pagefind answered message {said.get('message_id')}")
        self.broken = False
        if said["payload"].get("type") == "Error":
            raise ServiceError(f"pagefind: {said['payload'].get('message')}")
        return dict(said["payload"])

    def _ended(self) -> str:
        status = self.process.wait()
        self.said.seek(0)
        last = self.said.read().decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"the pagefind service ended (exit {status}){': ' + last[0] if last else ''}"

    def close(self) -> None:
        """Its end of input ends the service."""
        if self.process.stdin is not None:
            with suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.said.close()


def write_bundle(bundle: Path, files: list[dict[str, str]]) -> None:
    """Write under ``bundle`` the files the service answered ``GetFiles`` with (paths
    within the bundle, contents in base64). Not ``WriteFiles``: it answers before its
    writes have all landed (tokio writes a file from a background thread, and Pagefind
    does not flush it before answering: Pagefind/pagefind#1271, fixed by #1272 after
    1.5.2), so a bundle read at once could hold an empty ``pagefind-entry.json``; the
    command line's exit waits for them."""
    root = bundle.resolve()
    contents = {(root / file["path"]).resolve(): file["content"] for file in files}
    outside = [target for target in contents if not target.is_relative_to(root)]
    if outside:  # checked before any is written: no half-written bundle
        raise ServiceError(f"pagefind answered a file outside its bundle: {outside[0]}")
    for target, content in contents.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(content))


class ServicePool:
    """Services for the pieces being indexed: a piece takes an idle one, or starts one
    when all are busy, and gives it back once indexed."""

    def __init__(self, executable: Path) -> None:
        self.executable = executable
        self.idle: list[PagefindService] = []
        self.started: list[PagefindService] = []
        self.lock = threading.Lock()

    def __call__(self, site: Path, bundle: Path) -> None:
        service = self._take()
        try:
            service.index(site, bundle)
        finally:
            if service.usable():
                with self.lock:
                    self.idle.append(service)
            else:
                self._drop(service)

    def _take(self) -> PagefindService:
        """An idle service still running (one may have ended since), else a new one."""
        while True:
            with self.lock:
                service = self.idle.pop() if self.idle else None
            if service is None:
                service = PagefindService(self.executable)
                with self.lock:
                    self.started.append(service)
                return service
            if service.usable():
                return service
            self._drop(service)

    def _drop(self, service: PagefindService) -> None:
        with self.lock:
            self.started.remove(service)
        service.close()

    def close(self) -> None:
        with self.lock:
            started, self.started, self.idle = self.started, [], []
        for service in started:
            service.close()


_pool: ServicePool | None = None


def process_services() -> ServicePool:
    """The services of this process, for every update of the index it makes."""
    global _pool
    if _pool is None:
        _pool = ServicePool(pagefind_executable())
        atexit.register(_pool.close)
    return _pool


def _forget_pool() -> None:
    """In a forked child: the services are its parent's."""
    global _pool
    _pool = None


os.register_at_fork(after_in_child=_forget_pool)


def connect(app: Sphinx, steps: Steps) -> None:
    from juju_radar.sphinx_ext.outputs.search import SEARCH_INDEXER

    app.connect(SEARCH_INDEXER, lambda _app: process_services())
