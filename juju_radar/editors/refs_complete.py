"""``radar refs complete``: walk the entries lacking an identifier, newest issue first,
look each up and ask the editor what to do: accept a candidate, set an identifier found
by hand, skip (remembered in ``_build/refs/skipped.json`` until the entry changes) or
quit."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from juju_radar.bib.edit import EditError, find_entry
from juju_radar.bib.file_entries import citable_entries
from juju_radar.bib.identifiers import is_arxiv_id, is_doi, web_url
from juju_radar.editors.exit_status import EXIT_OFFLINE, EXIT_OK, EXIT_PROBLEMS
from juju_radar.editors.lookup.candidates import Ranking
from juju_radar.editors.refs_accept import accept, identifier_fields
from juju_radar.editors.refs_entry import (
    current_entry,
    entry_digest,
    fail,
    lacks_identifier,
    note,
    read_bib,
    write_entry,
)
from juju_radar.editors.refs_lookup import LOOKUPS, Lookups, print_candidates
from juju_radar.editors.refs_missing import Citing, citing_items, print_entry
from juju_radar.editors.site_files import Site, atomic_write, open_site
from juju_radar.model.messages import _

if TYPE_CHECKING:  # the HTTP client loads only for a lookup
    from juju_radar.editors.public_net import NetworkUnavailable

SKIPPED = LOOKUPS / "skipped.json"
"""Entries an editor skipped (key -> digest of the entry's text), left out next time."""


@dataclass(frozen=True)
class Answer:
    action: str  # "accept", "set", "skip" or "quit"
    number: int = 0
    values: dict[str, str] = field(default_factory=dict)


OUTCOMES = ("accepted", "set by hand", "skipped", "failed")


def run_complete(args: argparse.Namespace) -> int:
    from juju_radar.editors.lookup.client import ServiceError

    site = open_site(args.root)
    try:
        queue = entries_to_complete(site, args.keys, args.since, args.revisit)
    except EditError as error:
        return fail(f"{site.bibfiles[0]}: {error}")
    tally: Counter[str] = Counter()
    left = 0
    offline: NetworkUnavailable | None = None
    with Lookups(site) as lookups:
        for position, (key, cited_by) in enumerate(queue):
            print(f"\n[{position + 1}/{len(queue)}]")
            try:
                outcome = complete_one(lookups, key, cited_by, args.yes_conclusive)
            except ServiceError as error:
                offline = error.offline
                fail(
                    _("lookup of '{key}' failed: {error}; stopped, what was written stays").format(
                        key=key, error=error if offline is None else offline.line()
                    )
                )
                tally["failed"] += 1
                left = len(queue) - position - 1
                break
            if outcome == "quit":
                left = len(queue) - position
                break
            tally[outcome] += 1
    counts = _(
        "{accepted} accepted, {by_hand} set by hand, {skipped} skipped, {failed} failed, "
        "{left} left"
    ).format(
        accepted=tally["accepted"],
        by_hand=tally["set by hand"],
        skipped=tally["skipped"],
        failed=tally["failed"],
        left=left,
    )
    print(f"radar refs complete: {counts}", file=sys.stderr)
    if offline is not None:
        return EXIT_OFFLINE
    return EXIT_PROBLEMS if tally["failed"] else EXIT_OK


def entries_to_complete(
    site: Site, keys: list[str], since: dt.date | None, revisit: bool
) -> list[tuple[str, list[Citing]]]:
    """The entries to walk: ``keys`` as given, else those lacking an identifier (cited
    on or after ``since``), the newest issue first, without those skipped before."""
    text, _bom = read_bib(site)
    citing = citing_items(site)
    if keys:
        return chosen_entries(site, text, keys, citing)
    skipped = {} if revisit else load_skipped(site)
    queue, left_out = [], 0
    for entry in citable_entries(text):
        key = entry.key or ""
        cited_by = citing.get(key.lower(), [])
        if not lacks_identifier(entry) or not cited_since(cited_by, since):
            continue
        if skipped.get(key.lower()) == entry_digest(text, entry):
            left_out += 1
            continue
        queue.append((key, cited_by))
    if left_out:
        note(
            _(
                "{count} skipped before, left out (`--revisit` walks them too; {path} lists them)"
            ).format(count=left_out, path=SKIPPED.as_posix())
        )
    return sorted(queue, key=lambda pair: -newest_issue(pair[1]).toordinal())


def chosen_entries(
    site: Site, text: str, keys: list[str], citing: dict[str, list[Citing]]
) -> list[tuple[str, list[Citing]]]:
    chosen = []
    for key in dict.fromkeys(keys):
        entry = find_entry(text, key)
        if lacks_identifier(entry):
            chosen.append((entry.key or key, citing.get(key.lower(), [])))
        else:
            where = f"{site.bibfiles[0]}:{entry.line}"
            note(
                _("{where}: '{key}' has a DOI, arXiv id, URL or ISBN already; left out").format(
                    where=where, key=entry.key
                )
            )
    return chosen


def cited_since(cited_by: list[Citing], since: dt.date | None) -> bool:
    return since is None or any(each.issued >= since for each in cited_by)


def newest_issue(cited_by: list[Citing]) -> dt.date:
    return max((each.issued for each in cited_by), default=dt.date.min)


def complete_one(lookups: Lookups, key: str, cited_by: list[Citing], yes_conclusive: bool) -> str:
    """Look entry ``key`` up, ask what to do and do it: one of :data:`OUTCOMES`, or
    "quit". Raises ``ServiceError`` when a service fails."""
    try:
        entry, digest = current_entry(lookups.site, key)
    except EditError as error:
        fail(str(error))
        return "failed"
    print_entry(lookups.site, entry, cited_by)
    _facts, ranking = lookups.look_up(key)
    print_candidates(ranking)
    print(verdict(ranking))
    if yes_conclusive and ranking.conclusive:
        print(_("conclusive: accepting candidate 1"))
        answer = Answer("accept", 1)
    else:
        answer = ask_answer(len(ranking.candidates))
    return carry_out(lookups, key, answer, digest)


def verdict(ranking: Ranking) -> str:
    if not ranking.candidates:
        return _("no candidate found")
    if ranking.conclusive:
        return _("best match: {why}").format(why=ranking.why)
    return _("inconclusive: {why}").format(why=ranking.why)


def ask_answer(candidates: int) -> Answer:
    """The editor's answer, asked again until it is one; the end of the input quits."""
    if candidates > 1:
        prompt = _("1-{count} accept, s skip, q quit, or a DOI, arXiv id or URL: ").format(
            count=candidates
        )
    elif candidates:
        prompt = _("1 accept, s skip, q quit, or a DOI, arXiv id or URL: ")
    else:
        prompt = _("s skip, q quit, or a DOI, arXiv id or URL: ")
    while True:
        try:
            text = input(prompt)
        except EOFError:
            print()
            return Answer("quit")
        answer = read_answer(text, candidates)
        if answer is not None:
            return answer
        print(_("not an answer: '{text}'").format(text=text.strip()))


def read_answer(text: str, candidates: int) -> Answer | None:
    answer = text.strip()
    if answer.lower() in ("s", "skip", "跳过"):
        return Answer("skip")
    if answer.lower() in ("q", "quit", "退出"):
        return Answer("quit")
    if answer.isdigit():
        return Answer("accept", int(answer)) if 1 <= int(answer) <= candidates else None
    if is_doi(answer):
        return Answer("set", values=identifier_fields(doi=answer))
    if is_arxiv_id(answer):
        return Answer("set", values=identifier_fields(arxiv=answer))
    if web_url(answer):
        return Answer("set", values=identifier_fields(url=answer))
    return None


def carry_out(lookups: Lookups, key: str, answer: Answer, digest: str) -> str:
    if answer.action == "quit":
        return "quit"
    if answer.action == "skip":
        remember_skipped(lookups.site, key, digest)
        return "skipped"
    if answer.action == "set":
        status = write_entry(lookups.site, key, answer.values, None, None)
        return "set by hand" if status == EXIT_OK else "failed"
    status = accept(lookups, key, answer.number, None)
    return "accepted" if status == EXIT_OK else "failed"


def load_skipped(site: Site) -> dict[str, str]:
    try:
        data = json.loads((site.root / SKIPPED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(key): str(digest) for key, digest in data.items()} if isinstance(data, dict) else {}


def remember_skipped(site: Site, key: str, digest: str) -> None:
    skipped = load_skipped(site) | {key.lower(): digest}
    try:
        atomic_write(site.root / SKIPPED, json.dumps(skipped, ensure_ascii=False, indent=1))
    except OSError as error:
        note(_("the skip was not recorded: {error}").format(error=error))
