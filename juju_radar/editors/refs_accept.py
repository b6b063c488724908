"""``radar refs accept`` and ``radar refs set``: the fields a looked-up candidate, or an
identifier an editor found, writes into an entry, and their writing."""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Callable
from zoneinfo import ZoneInfo

from juju_radar.bib.edit import EditError
from juju_radar.bib.entry_records import BibEntry
from juju_radar.bib.identifiers import (
    LABEL_FIELD,
    SOURCE_FIELD,
    is_arxiv_id,
    is_doi,
    normalize_arxiv,
    normalize_doi,
    web_url,
)
from juju_radar.editors.exit_status import EXIT_USAGE
from juju_radar.editors.lookup.candidates import Candidate
from juju_radar.editors.refs_entry import Refused, current_entry, fail, write_entry
from juju_radar.editors.refs_lookup import Lookups
from juju_radar.editors.site_files import open_site
from juju_radar.model.messages import _

NEWSROOM_TIMEZONE = ZoneInfo("Asia/Shanghai")
JOURNAL_TYPES = frozenset({"journal-article", "article-journal", "article"})


def today() -> str:
    return dt.datetime.now(NEWSROOM_TIMEZONE).date().isoformat()


def accepted_fields(entry: BibEntry, candidate: Candidate) -> tuple[dict[str, str], str | None]:
    """The fields the candidate states, its title replacing the editors' (kept in
    ``radarlabel``), and the entry type."""
    values = title_fields(entry, candidate.title)
    if candidate.doi:
        values["doi"] = candidate.doi
    if candidate.eprint:
        values["eprint"] = candidate.eprint
        values["archiveprefix"] = "arXiv"
    if candidate.url:
        values["url"] = candidate.url
    if candidate.authors:
        values["author"] = " and ".join(candidate.authors)
    if candidate.year:
        values["year"] = candidate.year
    entry_type = None
    if candidate.container:
        if candidate.kind in JOURNAL_TYPES and candidate.source != "arXiv":
            values["journal"] = candidate.container
            entry_type = None if entry.entry_type == "article" else "article"
        elif entry.entry_type == "article":
            values["journal"] = candidate.container
        else:
            values["howpublished"] = candidate.container
    values["urldate"] = today()
    values[SOURCE_FIELD] = f"{candidate.source} {candidate.record} ({today()})"
    return values, entry_type


def title_fields(entry: BibEntry, title: str) -> dict[str, str]:
    """The work's own title, the editors' one kept in ``radarlabel`` (once: a second
    accept keeps the first label)."""
    label = entry.field_value("title") or ""
    if " ".join(label.replace("{", "").replace("}", "").split()) == title:
        return {}
    if entry.has_nonblank_field(LABEL_FIELD) or not label.strip():
        return {"title": title}
    return {"title": title, LABEL_FIELD: label}


def accept(lookups: Lookups, key: str, number: int, ask: Callable[[str], str] | None) -> int:
    """Write candidate ``number`` of the last lookup of ``key`` into the entry; the exit
    status (a failure is told on the standard error)."""
    try:
        entry, digest = current_entry(lookups.site, key)
        candidate = lookups.saved_candidate(key, number, digest)
    except EditError as error:
        return fail(str(error))
    except Refused as error:
        return fail(str(error), error.status)
    values, entry_type = accepted_fields(entry, candidate)
    return write_entry(lookups.site, key, values, entry_type, ask)


def run_accept(args: argparse.Namespace) -> int:
    with Lookups(open_site(args.root)) as lookups:
        return accept(lookups, args.key, args.number, None if args.yes else input)


def run_set(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    try:
        values = identifier_fields(doi=args.doi, arxiv=args.arxiv, url=args.url)
    except Refused as error:
        return fail(str(error), error.status)
    return write_entry(site, args.key, values, None, None)


def identifier_fields(
    doi: str | None = None, arxiv: str | None = None, url: str | None = None
) -> dict[str, str]:
    """The fields ``set`` writes for the one identifier given, checked for its shape."""
    values: dict[str, str] = {}
    if doi is not None:
        if not is_doi(doi):
            raise Refused(_("'{doi}' is not a DOI (10.NNNN/…)").format(doi=doi), EXIT_USAGE)
        values["doi"] = normalize_doi(doi)
    elif arxiv is not None:
        if not is_arxiv_id(arxiv):
            raise Refused(
                _("'{arxiv}' is not an arXiv id (2409.01234)").format(arxiv=arxiv), EXIT_USAGE
            )
        values |= {"eprint": normalize_arxiv(arxiv), "archiveprefix": "arXiv"}
    else:
        if url is None or web_url(url) is None:
            raise Refused(_("'{url}' is not an http(s) address").format(url=url), EXIT_USAGE)
        values["url"] = url.strip()
    values["urldate"] = today()
    return values
