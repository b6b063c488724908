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

from juju_radar.editors.help_text import add_command
from juju_radar.editors.refs_accept import run_accept, run_set
from juju_radar.editors.refs_complete import run_complete
from juju_radar.editors.refs_lookup import run_lookup
from juju_radar.editors.refs_missing import run_missing
from juju_radar.model.messages import _


def add_parser(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    refs = add_command(
        commands,
        common,
        "refs",
        _("complete references: DOI, arXiv id, URL"),
        _(
            "Complete the entries of references.bib with their DOI, arXiv id or URL, one "
            "entry at a time, never guessing: every other byte of the file stays as it was."
        ),
        "radar refs missing",
        "radar refs complete --since 2026-09-01",
    )
    actions = refs.add_subparsers(
        dest="refs_command", required=True, metavar="ACTION", title="actions"
    )
    missing = add_command(
        actions,
        common,
        "missing",
        _("entries without DOI/arXiv id/URL/ISBN, with their items"),
        _("List the entries without an identifier, with the items citing them."),
        "radar refs missing --format json",
    )
    missing.add_argument(
        "--format", choices=("text", "json"), default="text", help=_("text or json")
    )
    missing.set_defaults(run=run_missing)
    lookup = add_command(
        actions,
        common,
        "lookup",
        _("propose numbered candidates from doi.org, arXiv, Crossref"),
        _(
            "Ask doi.org, the arXiv API and Crossref about an entry and show numbered "
            "candidates (kept in _build/refs/KEY.json for radar refs accept)."
        ),
        "radar refs lookup rise2026paper",
    )
    lookup.add_argument("key", help=_("the entry's key"))
    lookup.add_argument(
        "--format", choices=("text", "json"), default="text", help=_("text or json")
    )
    lookup.set_defaults(run=run_lookup)
    accept = add_command(
        actions,
        common,
        "accept",
        _("write candidate N of the last lookup into the entry"),
        _("Write candidate N of the last lookup into the entry, after asking."),
        "radar refs accept rise2026paper 1",
    )
    accept.add_argument("key", help=_("the entry's key"))
    accept.add_argument("number", type=int, metavar="N", help=_("the candidate's number"))
    accept.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    accept.set_defaults(run=run_accept)
    setting = add_command(
        actions,
        common,
        "set",
        _("record an identifier you found yourself"),
        _("Record a DOI, arXiv id or URL you found yourself in the entry."),
        "radar refs set rise2026paper --arxiv 2609.01234",
    )
    setting.add_argument("key", help=_("the entry's key"))
    found = setting.add_mutually_exclusive_group(required=True)
    found.add_argument("--doi", help=_("a DOI (10.xxxx/...)"))
    found.add_argument("--arxiv", help=_("an arXiv id"))
    found.add_argument("--url", help=_("an http(s) address"))
    setting.set_defaults(run=run_set)
    complete = add_command(
        actions,
        common,
        "complete",
        _("look up each entry lacking an identifier, newest issue first, and ask"),
        _(
            "Walk the entries lacking an identifier, newest issue first, look each up and "
            "ask what to do."
        ),
        "radar refs complete",
        "radar refs complete --yes-conclusive",
    )
    which = complete.add_mutually_exclusive_group()
    which.add_argument("keys", nargs="*", default=[], metavar="KEY", help=_("only these entries"))
    which.add_argument(
        "--since", type=dt.date.fromisoformat, metavar="YYYY-MM-DD", help=_("cited on or after")
    )
    complete.add_argument(
        "--yes-conclusive",
        action="store_true",
        help=_("accept conclusive matches without asking"),
    )
    complete.add_argument(
        "--revisit", action="store_true", help=_("walk the entries skipped before too")
    )
    complete.set_defaults(run=run_complete)
    archive = add_command(
        actions,
        common,
        "archive",
        _("have the Internet Archive capture each source url; record the snapshot"),
        _(
            "Ask the Internet Archive to capture each source address and record the "
            "snapshot in the entry."
        ),
        "radar refs archive --all",
    )
    archive.add_argument("keys", nargs="*", default=[], metavar="KEY", help=_("only these entries"))
    archive.add_argument(
        "--all", action="store_true", help=_("every entry with a url and no archived copy yet")
    )
    archive.set_defaults(run=run_archive)


def run_archive(args: argparse.Namespace) -> int:
    from juju_radar.editors.archive_sources import run_archive as archive

    return archive(args)
