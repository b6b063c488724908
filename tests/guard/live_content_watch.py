"""The watch of the live archive (tests/guard/live_content_guard.py says why): an audit
hook (PEP 578) noting every file opened and every folder listed under the repository's
live content. It imports nothing but the standard library: every Python process a test
starts loads it (sitecustomize.py)."""

from __future__ import annotations

import os
import sys
from fnmatch import fnmatch

ROOT_ENV = "RADAR_TEST_LIVE_ROOT"
NOT_LIVE_ENV = "RADAR_TEST_NOT_LIVE"
READS_ENV = "RADAR_TEST_LIVE_READS"
SEPARATOR = "|"
WATCHED_EVENTS = frozenset({"open", "os.listdir", "os.scandir"})
WATCHING: dict[str, bool] = {"installed": False, "noting": False}


def live_path(path: str, root: str, not_live: str) -> str | None:
    """``path`` made absolute (from the working folder) if it is there, under ``root``,
    in a top-level entry none of ``not_live``'s patterns (``SEPARATOR``-joined) matches;
    otherwise None."""
    if not os.path.isabs(path):
        try:
            path = os.path.join(os.getcwd(), path)
        except OSError:  # the working folder was removed: not the repository
            return None
    absolute = os.path.normpath(path)
    prefix = root.rstrip(os.sep) + os.sep
    if not absolute.startswith(prefix):
        return None
    top = absolute[len(prefix) :].split(os.sep, 1)[0]
    if any(fnmatch(top, pattern) for pattern in not_live.split(SEPARATOR)):
        return None
    # The import system looks for names that are not there (an editable install's hook).
    return absolute if os.path.exists(absolute) else None


def note_live_reads(event: str, args: tuple) -> None:
    """The audit hook: a read of live content is appended to the file ``READS_ENV``
    names (read again at each event: a test worker sets its own after it started)."""
    if event not in WATCHED_EVENTS or not args or WATCHING["noting"]:
        return
    root, reads = os.environ.get(ROOT_ENV), os.environ.get(READS_ENV)
    if not isinstance(args[0], str | bytes | os.PathLike) or not root or not reads:
        return
    target = os.fsdecode(args[0])
    # os.open gives no mode, and its relative name may be relative to a folder's
    # descriptor (``dir_fd``, as shutil.rmtree opens), not to the working folder.
    if event == "open" and args[1] is None and not os.path.isabs(target):
        return
    path = live_path(target, root, os.environ.get(NOT_LIVE_ENV, ""))
    if path is None:
        return
    WATCHING["noting"] = True
    try:
        with open(reads, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {event} {path}\n")
    finally:
        WATCHING["noting"] = False


def watch() -> None:
    """Install the audit hook in this process, once."""
    if not WATCHING["installed"]:
        WATCHING["installed"] = True
        sys.addaudithook(note_live_reads)
