"""No test reads the live archive: the issues, references.bib and pages editors change
every day, nor the live build's output; tests read the sites they own (tests/roots).

A pytest plugin. An audit hook (PEP 578) notes every file opened and every folder listed
under the repository's live content, in the test process and, through this folder's
``sitecustomize`` put on ``PYTHONPATH``, in every Python process a test starts (a
``radar`` or ``sphinx-build`` run in the repository root reads the live site without
naming it). The test during which a read happened fails at its teardown, naming the
files. A test marked ``live_content`` reads the live archive on purpose. Programs that
are not Python (ruff, Pagefind, Chromium) are not watched, nor ``stat``.

Live content is whatever the site's layout does not leave out at the repository's root
(``juju_radar.model.site_layout.NOT_SITE``: the package, the tests, the docs...), and
the live build's output (``_build``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_content_watch import NOT_LIVE_ENV, READS_ENV, ROOT_ENV, SEPARATOR, watch

__all__ = ["NOT_LIVE_ENV", "ROOT_ENV", "SEPARATOR"]

MARK = "live_content"


def guard() -> None:
    """Watch this process and the Python processes it starts (for the repository and
    patterns that ``ROOT_ENV`` and ``NOT_LIVE_ENV`` name); this process and those it
    starts note into a file of their own (each test worker has one)."""
    handle, reads = tempfile.mkstemp(prefix="radar-live-reads-", suffix=".log")
    os.close(handle)
    guard_folder = str(Path(__file__).resolve().parent)
    paths = [guard_folder, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ.update({READS_ENV: reads, "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))})
    watch()


def reads_since(offset: int) -> list[str]:
    """The reads noted since ``offset`` bytes of the notes."""
    with open(os.environ[READS_ENV], "rb") as log:
        log.seek(offset)
        return log.read().decode("utf-8").splitlines()


def pytest_configure(config: pytest.Config) -> None:
    """Guards the repository ``ROOT_ENV`` names, if it names one."""
    config.addinivalue_line("markers", f"{MARK}: reads the live archive on purpose")
    if os.environ.get(ROOT_ENV):
        guard()


def pytest_unconfigure(config: pytest.Config) -> None:
    if READS_ENV in os.environ:
        Path(os.environ.pop(READS_ENV)).unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def live_content_untouched(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails the test that read the live archive (unless it is marked ``live_content``)."""
    if READS_ENV not in os.environ:
        yield
        return
    start = os.path.getsize(os.environ[READS_ENV])
    yield
    reads = reads_since(start)
    if reads and request.node.get_closest_marker(MARK) is None:
        shown = "\n".join(reads[:10])
        message = f"read the live archive (tests read the sites they own):\n{shown}"
        pytest.fail(message, pytrace=False)
