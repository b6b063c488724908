"""A page saved while the build read it is read again by the next build.

Sphinx decides that a page changed when its file is newer than the time it *finished*
reading it (``env.all_docs``), so a save between the read of the file and the end of
its parse is never seen: the page stays as first read until it is saved again
(sphinx-doc/sphinx#11556 asks for content digests instead). Editors save while
``radar serve`` or ``make html`` is building. Here each page's read start is kept, and
a page whose file is newer than that start is read again (once: its next read starts
after the save).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

READ_STARTED = "radar_read_started"
# Written when reading starts: its time is the filesystem's clock, the one a save is
# stamped with (a tick behind time.time_ns(), so a page written just before the read,
# as the period pages are, could look saved after it).
CLOCK_PROBE = "radar-read-started"


def read_started(env: BuildEnvironment) -> dict[str, int]:
    """docname -> when (the filesystem's ns since the epoch) the build that last read it
    started reading."""
    started: dict[str, int] | None = getattr(env, READ_STARTED, None)
    if started is None:
        started = {}
        setattr(env, READ_STARTED, started)
    return started


def note_read_start(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``, last: the pages this build reads, from now."""
    probe = Path(app.doctreedir, CLOCK_PROBE)
    probe.write_bytes(b"")
    now = probe.stat().st_mtime_ns
    started = read_started(env)
    for docname in docnames:
        started[docname] = now


def forget_unsaved(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: every read has ended, so a page not saved since its read started
    is forgotten (a later save is newer than the end of its read, which Sphinx sees).
    Done here, before Sphinx stores the environment: a build that reads nothing does not
    store it, and would look at every page of the last clean build again each time."""
    started = read_started(env)
    for docname, read_at in list(started.items()):
        if docname not in env.found_docs or not _saved_since(env, docname, read_at):
            del started[docname]
    return []


def read_saved_again(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``, after the drafts are left out and before the summary counts
    the changes: the pages saved after their read started join ``changed``. Only the
    pages left by ``forget_unsaved`` are looked at."""
    forget_unsaved(app, env)
    for docname in read_started(env):
        if docname not in added:
            changed.add(docname)
    return []


def _saved_since(env: BuildEnvironment, docname: str, read_at: int) -> bool:
    try:
        return os.stat(env.doc2path(docname)).st_mtime_ns > read_at
    except OSError:
        return False
