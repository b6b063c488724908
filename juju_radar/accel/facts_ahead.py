"""The issues' facts (which are drafts), parsed in a forked process at the start of a
clean build (``paging.note_drafts_ahead`` collects them through ``FACTS_PARSED_AHEAD``).

In a clean build of thousands of issues, parsing them for their facts takes seconds
(5 s at 3,650), the first of the build on one core. A forked process parses them while
this one checks and parses the .bib files. It is a daemon: a build that stops before
collecting its parse (an unreadable .bib) does not wait for it.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util.parallel import parallel_available

from juju_radar.model.vocabulary import Vocabulary
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.paging import (
    FACTS_PARSED_AHEAD,
    ISSUE_FACTS,
    IssueFile,
    KnownFile,
    is_archive,
    known_issue_files,
    parse_facts,
)
from juju_radar.sphinx_ext.preview import is_preview
from juju_radar.store.cache import build_cache

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

FORK_FACTS_FROM = 500  # issues to parse before a second process is worth forking

# Parses forked at the start of a build, by source folder, for ``note_drafts_ahead`` to collect:
# the process and the end of the pipe it sends its parse through.
parsing_ahead: dict[Path, tuple[BaseProcess, Connection]] = {}


def connect(app: Sphinx, steps: Steps) -> None:
    steps.offer("parse-facts-ahead", parse_facts_ahead)
    app.connect(FACTS_PARSED_AHEAD, lambda _app, srcdir: parsed_ahead(srcdir))


def parse_facts_ahead(app: Sphinx) -> None:
    srcdir = Path(app.srcdir)
    if not is_archive(srcdir) or not parallel_available or app.parallel < 2:
        return
    if is_preview(app.config):
        return
    store = build_cache(app.doctreedir).store(ISSUE_FACTS)
    if len(store) >= FORK_FACTS_FROM:
        return  # an earlier build parsed them (few are new): spare listing them twice
    vocab = vocabulary(app.config)
    missing = [file for file in known_issue_files(srcdir, vocab) if file[2] not in store]
    if len(missing) < FORK_FACTS_FROM:
        return
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=send_facts, args=(send, missing, vocab), daemon=True)
    process.start()
    send.close()  # the child's is the only sending end: its end of the pipe tells its death
    parsing_ahead[srcdir] = (process, receive)


def send_facts(send: Connection, files: list[KnownFile], vocab: Vocabulary) -> None:
    send.send(parse_facts(files, vocab))


def parsed_ahead(srcdir: Path) -> dict[str, IssueFile | None] | None:
    """The forked parse, or None if there was none or its process failed: the files are
    then parsed by ``note_drafts_ahead``."""
    process, receive = parsing_ahead.pop(srcdir, (None, None))
    if process is None or receive is None:
        return None
    try:
        parsed: dict[str, IssueFile | None] = receive.recv()
        return parsed
    except (EOFError, OSError):
        return None
    finally:
        receive.close()
        process.join(timeout=1)
        if process.is_alive():
            process.kill()
