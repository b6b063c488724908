"""``radar refs missing``: the entries without a DOI, arXiv id, URL or ISBN, each with
the items citing it (which ``complete`` also walks by)."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from dataclasses import dataclass

from juju_radar.bib.entry_records import BibEntry
from juju_radar.bib.file_entries import citable_entries
from juju_radar.editors.exit_status import EXIT_OK
from juju_radar.editors.refs_entry import lacks_identifier, read_bib
from juju_radar.editors.site_files import Site, SiteError, open_site, read_text
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.messages import _, ngettext


@dataclass(frozen=True)
class Citing:
    path: str
    line: int
    item: str
    issued: dt.date


def run_missing(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    text, _bom = read_bib(site)
    citing = citing_items(site)
    missing = [
        (entry, citing.get((entry.key or "").lower(), []))
        for entry in citable_entries(text)
        if lacks_identifier(entry)
    ]
    if args.format == "json":
        rows = [
            {
                "key": entry.key,
                "path": site.bibfiles[0],
                "line": entry.line,
                "title": entry.field_value("title") or "",
                "cited_by": [
                    {"path": each.path, "line": each.line, "item": each.item} for each in cited_by
                ],
            }
            for entry, cited_by in missing
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for entry, cited_by in missing:
            print_entry(site, entry, cited_by)
    count = len(missing)
    summary = ngettext(
        "{count} entry lacks a DOI, arXiv id, URL or ISBN",
        "{count} entries lack a DOI, arXiv id, URL or ISBN",
        count,
    )
    print(summary.format(count=count), file=sys.stderr)
    return EXIT_OK


def print_entry(site: Site, entry: BibEntry, cited_by: list[Citing]) -> None:
    print(f"{site.bibfiles[0]}:{entry.line}: {entry.key}: {entry.field_value('title')}")
    for each in cited_by:
        where = f"{each.path}:{each.line}"
        print("    " + _("cited by {where} ({item})").format(where=where, item=each.item))
    if not cited_by:
        print("    " + _("cited by no issue"))


def citing_items(site: Site) -> dict[str, list[Citing]]:
    """Citation key (lower case) -> the items citing it, at their ``:sources:`` line."""
    found: dict[str, list[Citing]] = {}
    for path in site.issue_files():
        relative = site.relative(path)
        try:
            issue, _problems = parse_issue(
                read_text(path), relative, site.vocabulary, site.date_span
            )
        except SiteError:
            continue
        if issue is None:
            continue
        for item in issue.items:
            for key in dict.fromkeys(item.citation_keys):
                line = item.sources_line or item.line
                citing = Citing(relative, line, item.id, issue.date)
                found.setdefault(key.lower(), []).append(citing)
    return found
