"""``radar entities suggest``: candidate entities from the archive's stories, with their
counts and the stories where they occur, for editors to confirm into ``entities.yaml``.
It only prints: nothing reaches the site until an editor registers it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from juju_radar.editors.check_cache import CheckCache
from juju_radar.editors.exit_status import EXIT_OK
from juju_radar.editors.help_text import add_command
from juju_radar.editors.site_files import Site, open_site
from juju_radar.model.entities import REGISTRY_FILE, Registry, read_registry
from juju_radar.model.entity_suggest import Candidate, suggestions
from juju_radar.model.issue_records import Issue
from juju_radar.model.messages import N_, _
from juju_radar.model.page_files import read_utf8

HEADINGS = {
    "latin": N_("Latin proper names and model names"),
    "title": N_("Titles in 《》"),
    "term": N_("Terms the search dictionary does not know"),
}
SHOWN_STORIES = 3  # stories listed beside each candidate (all of them with --format json)


def add_parser(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    entities = add_command(
        commands,
        common,
        "entities",
        _("the entities' registry (entities.yaml): suggestions"),
        _("Work with the editors' registry of entities, entities.yaml."),
        "radar entities suggest",
    )
    actions = entities.add_subparsers(
        dest="entities_command", required=True, metavar="ACTION", title="actions"
    )
    suggest = add_command(
        actions,
        common,
        "suggest",
        _("candidate names from the archive, with counts and stories"),
        _(
            "List names the stories use that entities.yaml lacks: Latin proper names and "
            "model names with versions, titles in 《》, and frequent terms the search "
            "dictionary does not know; each with its count and the stories where it "
            "occurs. Nothing is written: register the ones you confirm in entities.yaml."
        ),
        "radar entities suggest",
        "radar entities suggest --min-terms 5 --format json",
    )
    suggest.add_argument(
        "--min-terms",
        type=int,
        default=2,
        help=_("list an unknown term only if it occurs this many times (default: 2)"),
    )
    suggest.add_argument(
        "--format", choices=("text", "json"), default="text", help=_("text or json")
    )
    suggest.set_defaults(run=run_suggest)


def run_suggest(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    found = suggestions(site_issues(site), site_registry(site), args.min_terms)
    print_suggestions(found, args.format, sys.stdout)
    return EXIT_OK


def site_issues(site: Site) -> list[Issue]:
    """The site's issues as ``radar check`` reads them (through its cache)."""
    cache = CheckCache(site)
    issues = []
    for path in site.issue_files():
        issue = cache.page(path, site.relative(path)).issue
        if issue is not None:
            issues.append(issue)
    cache.save(complete=False)
    return issues


def site_registry(site: Site) -> Registry:
    """The registry as it reads (its problems are ``radar check``'s to report)."""
    path = site.root / REGISTRY_FILE
    if not path.is_file():
        return Registry()
    text, _problems = read_utf8(path, REGISTRY_FILE)
    return read_registry(text)[0] if text is not None else Registry()


def print_suggestions(found: list[Candidate], form: str, out: TextIO) -> None:
    if form == "json":
        rows = [
            {"name": c.name, "kind": c.kind, "count": c.count, "stories": list(c.stories)}
            for c in found
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2), file=out)
        return
    if not found:
        print(_("No candidates: every name found is in entities.yaml."), file=out)
        return
    kind = ""
    for candidate in found:
        if candidate.kind != kind:
            kind = candidate.kind
            print(f"\n{_(HEADINGS[kind])}:", file=out)
        stories = ", ".join(candidate.stories[:SHOWN_STORIES])
        more = len(candidate.stories) - SHOWN_STORIES
        if more > 0:
            stories += _(" and {count} more").format(count=more)
        print(f"  {candidate.name}  ×{candidate.count}  {stories}", file=out)
