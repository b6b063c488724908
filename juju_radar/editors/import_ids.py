"""The ids ``radar import`` gives: each item's id (the one its editor chose, else one
made from its title's Latin words) and each source's citation key (``<item id>-<n>``,
or the key an earlier import of the same item made), unique against the archive and the
.bib file, whose ids and keys are kept current while a backlog is imported."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from itertools import chain, count

from juju_radar.bib.entry_notes import note_digest
from juju_radar.bib.file_entries import scan_entries
from juju_radar.bib.identifiers import EDITORS_NOTE_FIELD
from juju_radar.editors.check_cache import BibFacts, CheckCache
from juju_radar.editors.export_reader import ExportIssue
from juju_radar.editors.page_writer import (
    render_bib_entry,
    source_fields,
    source_note,
    source_title,
)
from juju_radar.editors.site_files import Site
from juju_radar.model.anchors import PAGE_ID_PREFIXES, is_reserved_id
from juju_radar.model.issue_records import LATIN_WORD_RE
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

MAX_ID_WORDS = 4
MAX_ID_CHARS = 40


class TakenIds:
    """The ids an issue cannot take: every other issue's, and those given already."""

    def __init__(self, counts: Counter[str], own: Sequence[str]) -> None:
        self.counts = counts
        self.own = Counter(own)
        self.given: set[str] = set()

    def __contains__(self, item_id: object) -> bool:
        return item_id in self.given or self.counts[item_id] > self.own[item_id]  # type: ignore[index]


class InEither:
    """Whether a name is in one of two sets, without copying them."""

    def __init__(self, first: set[str], second: set[str]) -> None:
        self.first, self.second = first, second

    def __contains__(self, name: object) -> bool:
        return name in self.first or name in self.second


class ArchiveIds:
    """Item ids of every issue file, kept current while a backlog is imported."""

    def __init__(self, by_path: dict[str, list[str]]) -> None:
        self.by_path = by_path
        self.counts: Counter[str] = Counter(i for ids in by_path.values() for i in ids)

    @classmethod
    def of_site(cls, site: Site, cache: CheckCache) -> ArchiveIds:
        """From the check cache: an issue file changed since the last run is read again."""
        return cls(
            {
                relative: cache.item_ids(path, relative)
                for path in site.issue_files()
                for relative in [site.relative(path)]
            }
        )

    def taken(self, except_path: str) -> TakenIds:
        return TakenIds(self.counts, self.by_path.get(except_path, ()))

    def replace(self, path: str, ids: Sequence[str]) -> None:
        self.counts.subtract(self.by_path.get(path, ()))
        self.by_path[path] = list(ids)
        self.counts.update(ids)


@dataclass
class References:
    """The .bib file's keys and imported notes, kept current while a backlog is imported."""

    text: str
    facts: BibFacts
    taken: set[str] = field(default_factory=set)  # keys, folded
    key_by_note: dict[bytes, str] = field(default_factory=dict)
    new_entries: list[str] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)  # the file each new entry is for

    def __post_init__(self) -> None:
        self.taken = self.facts.folded_keys()
        self.key_by_note = dict(self.facts.key_by_note)


def chosen_id_problems(export: ExportIssue, taken: TakenIds, display: str) -> list[Problem]:
    """A chosen id another item of the archive (or of this issue) has already."""
    problems = []
    for item in export.items:
        if not item.chosen_id:
            continue
        if item.chosen_id in taken:
            message = _("item id '{id}' is taken by another item: choose another").format(
                id=item.chosen_id
            )
            problems.append(Problem(display, item.line, "error", "duplicate-id", message))
        taken.given.add(item.chosen_id)
    return problems


def assign_item_ids(export: ExportIssue, taken: TakenIds) -> list[str]:
    """Each item's id: the one its editor chose, else one made from its title."""
    taken.given.update(item.chosen_id for item in export.items if item.chosen_id)
    ids: list[str] = []
    for position, item in enumerate(export.items, start=1):
        ids.append(item.chosen_id or item_id_for(item.title, export.date, position, taken))
        taken.given.add(ids[-1])
    return ids


def item_id_for(title: str, date: dt.date, position: int, taken: Container[str]) -> str:
    """A readable ASCII id from the title's Latin words, unique among ``taken``."""
    base = _id_from_words(title)
    if not base or base.startswith(PAGE_ID_PREFIXES):
        base = f"item-{date:%Y%m%d}-{position}"
    candidates = chain(
        [base, f"{base}-{date:%Y%m%d}"], (f"{base}-{date:%Y%m%d}-{n}" for n in count(2))
    )
    return next(
        candidate
        for candidate in candidates
        if candidate not in taken and not is_reserved_id(candidate)
    )


def _id_from_words(title: str) -> str:
    runs: list[str] = []
    for word in LATIN_WORD_RE.findall(title):
        ascii_word = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
        runs += re.findall(r"[a-z0-9]+", ascii_word.lower())
    while runs and not runs[0][0].isalpha():
        runs.pop(0)
    slug = ""
    for run in runs[:MAX_ID_WORDS]:
        if len(slug) + len(run) + 1 > MAX_ID_CHARS:
            break
        slug = f"{slug}-{run}" if slug else run
    return slug if len(slug) >= 3 else ""


def assign_citation_keys(
    export: ExportIssue, ids: Sequence[str], references: References
) -> tuple[list[list[str]], list[tuple[str, str, bytes]]]:
    """One key per source label, reusing the entry an earlier import of the same item made.
    Returns the keys and the new entries, each as (key, text, digest of its note)."""
    given: set[str] = set()
    keys: list[list[str]] = []
    new_entries: list[tuple[str, str, bytes]] = []
    for item, item_id in zip(export.items, ids, strict=True):
        item_keys = []
        for position, source in enumerate(item.sources, start=1):
            note = source_note(export.date, item_id, item.title, source.label)
            as_read = render_bib_value_for_lookup(note)
            key = references.key_by_note.get(note_digest(as_read))
            if key is None:
                key = citation_key_for(item_id, position, InEither(references.taken, given))
                given.add(key.lower())
                title = source_title(item.title, source.label)
                fields = source_fields(source.address, export.date)
                entry = render_bib_entry(key, title, note, fields)
                new_entries.append((key, entry, note_digest(as_read)))
            item_keys.append(key)
        keys.append(item_keys)
    return keys, new_entries


def citation_key_for(item_id: str, position: int, taken_folded: Container[str]) -> str:
    """``<item id>-<n>``; BibTeX keys compare case-insensitively."""
    base = f"{item_id}-{position}"
    candidates = chain([base], (f"{base}-{n}" for n in count(2)))
    return next(key for key in candidates if key.lower() not in taken_folded)


def render_bib_value_for_lookup(note: str) -> str:
    """The note as the bibliography scanner reads it back from an entry we wrote."""
    entry_text = render_bib_entry("lookup", "t", note)
    entries = scan_entries(entry_text)
    return (entries[0].field_value(EDITORS_NOTE_FIELD) or "") if entries else note
