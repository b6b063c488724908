"""``radar refs``: complete references with their DOI, arXiv id or URL, never guessing.

``missing`` lists what lacks an identifier; ``lookup`` asks doi.org, the arXiv API and
Crossref and keeps the numbered candidates it shows (``_build/refs/KEY.json``);
``accept`` writes one of them into the .bib file after the editor confirms; ``set``
records an identifier an editor found; ``complete`` walks the entries lacking one, newest
issue first, asking for each what to do. Only ``accept``, ``set`` and ``complete`` write,
and only one entry at a time: every other byte of the file stays as it was.
"""

from __future__ import annotations

import argparse
import datetime as dt

from juju_radar.editors.refs_accept import run_accept, run_set
from juju_radar.editors.refs_complete import run_complete
from juju_radar.editors.refs_lookup import run_lookup
from juju_radar.editors.refs_missing import run_missing


def add_parser(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    refs = commands.add_parser(
        "refs", parents=[common], help="complete references: DOI, arXiv id, URL"
    )
    actions = refs.add_subparsers(dest="refs_command", required=True, metavar="ACTION")
    missing = actions.add_parser(
        "missing", parents=[common], help="entries without DOI/arXiv id/URL/ISBN, with their items"
    )
    missing.add_argument("--format", choices=("text", "json"), default="text")
    missing.set_defaults(run=run_missing)
    lookup = actions.add_parser(
        "lookup", parents=[common], help="propose numbered candidates from doi.org, arXiv, Crossref"
    )
    lookup.add_argument("key")
    lookup.add_argument("--format", choices=("text", "json"), default="text")
    lookup.set_defaults(run=run_lookup)
    accept = actions.add_parser(
        "accept", parents=[common], help="write candidate N of the last lookup into the entry"
    )
    accept.add_argument("key")
    accept.add_argument("number", type=int, metavar="N")
    accept.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    accept.set_defaults(run=run_accept)
    setting = actions.add_parser(
        "set", parents=[common], help="record an identifier you found yourself"
    )
    setting.add_argument("key")
    found = setting.add_mutually_exclusive_group(required=True)
    found.add_argument("--doi")
    found.add_argument("--arxiv")
    found.add_argument("--url")
    setting.set_defaults(run=run_set)
    complete = actions.add_parser(
        "complete",
        parents=[common],
        help="look up each entry lacking an identifier, newest issue first, and ask",
    )
    which = complete.add_mutually_exclusive_group()
    which.add_argument("keys", nargs="*", default=[], metavar="KEY")
    which.add_argument(
        "--since", type=dt.date.fromisoformat, metavar="YYYY-MM-DD", help="cited on or after"
    )
    complete.add_argument(
        "--yes-conclusive", action="store_true", help="accept conclusive matches without asking"
    )
    complete.add_argument(
        "--revisit", action="store_true", help="walk the entries skipped before too"
    )
    complete.set_defaults(run=run_complete)
    archive = actions.add_parser(
        "archive",
        parents=[common],
        help="have the Internet Archive capture each source url; record the snapshot",
    )
    archive.add_argument("keys", nargs="*", default=[], metavar="KEY")
    archive.add_argument(
        "--all", action="store_true", help="every entry with a url and no archived copy yet"
    )
    archive.set_defaults(run=run_archive)


def run_archive(args: argparse.Namespace) -> int:
    from juju_radar.editors.archive_sources import run_archive as archive

    return archive(args)
