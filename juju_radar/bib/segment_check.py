"""The .bib check by segment: what each segment of the file gives is kept, and only the
rules between entries run over the whole file each time.

Adding an issue appends a dozen entries to a file of thousands, and the whole-file check
(:func:`juju_radar.bib.check.check_bib_text`, the reference) reads and parses all of them
again. Here the file is cut where the reader starts again after a command it cannot read
(:func:`~juju_radar.bib.reader.segment_starts`: a line whose first character is ``@``).
Each segment is read alone by the same reader and parsed alone by pybtex, with the
``@string`` macros in effect before it; what its commands give (keys and places, their
own problems, pybtex's complaints, the conversion of their LaTeX) is kept under a digest
of the segment's text, of the segment that last defined a macro before it, and of the
checker's version, with lines and offsets relative to the segment. The rules between
entries (keys used twice, anchors that clash, crossrefs, the file's limits, which entry a
complaint or a conversion belongs to) run over all the segments' records each time, and
the records are remembered for the build's other uses of the file
(:func:`~juju_radar.bib.file_entries.remember_entries`). What one segment gives is
found in :mod:`juju_radar.bib.segment_facts`, and kept or taken from the cache in
:mod:`juju_radar.bib.segment_cache`.

A segment is used when every ``@`` in it starts a command read to its closing delimiter:
the reader then reads it as it does in the whole file. A command that does not close in
its segment (a value with a line that starts with ``@``) is read with the segments after
it, :data:`~juju_radar.bib.segment_cache.MAX_JOINED` at most. A file where that does
not help (an unreadable command), where pybtex finds a syntax error, or past a limit, is
checked whole, as by the reference, and nothing of it is kept.
``tests/test_bib_segments.py`` proves on generated files and edits that the problems,
keys and entries equal the reference's.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

from juju_radar.bib import entry_notes, segment_cache, segment_facts, typesetting
from juju_radar.bib.check import CHECKER_MODULES, check_bib_text, internal_error
from juju_radar.bib.cross_entry_rules import (
    anchor_clash_problems,
    bib_syntax_problems,
    crossref_problems,
    duplicate_key_problems,
)
from juju_radar.bib.entry_rules import PER_ENTRY_RULES
from juju_radar.bib.file_entries import entry_keys, parse_bib_keys, remember_entries
from juju_radar.bib.latex_conversion import conversion_problem, entries_to_convert, unconverted_keys
from juju_radar.bib.pybtex_parser import PybtexComplaint, PybtexReading, pybtex_parse
from juju_radar.bib.reader import EXPANSION_ALLOWANCE, read_segment
from juju_radar.bib.segment_cache import FactsCache, complete_facts, read_segments
from juju_radar.bib.segment_facts import (
    OWN_RULES,
    EntryFacts,
    Segment,
    SegmentFacts,
    as_problem,
    placed_complaint,
    placed_entry,
)
from juju_radar.bib.size_limits import DEFAULT_BIB_LIMITS, BibLimits
from juju_radar.model import anchors, messages, page
from juju_radar.model.messages import current_language
from juju_radar.model.problems import Problem

PER_ENTRY_COUNT = len(PER_ENTRY_RULES)
"""The rules of :data:`OWN_RULES` the reference reports before the crossrefs."""

SEGMENT_CHECKER_MODULES: tuple[ModuleType, ...] = (
    *CHECKER_MODULES,
    entry_notes,
    segment_facts,
    segment_cache,
    sys.modules[__name__],
)
"""The code of the .bib check by segment: what is kept of a file's check is kept under a
digest of their sources."""


@dataclass(frozen=True)
class BibCheck:
    """The check of a .bib file: its problems and its entries' keys."""

    problems: list[Problem]
    keys: dict[str, int]
    """Entry key -> line of its first occurrence, as :func:`parse_bib_keys` gives it."""
    segment_keys: list[str] | None
    """The facts this check used; None when it checked the file whole."""
    entries: Sequence[EntryFacts] = ()
    """What the check by segment read of each command (none when it checked whole)."""
    expanded_chars: int = 0
    """What the values hold once ``@string`` macros are expanded (by segment only)."""


@functools.cache
def checker_version() -> str:
    """Changes with the code the facts come from, the messages' catalogue, and pybtex
    and pylatexenc."""
    modules = (*SEGMENT_CHECKER_MODULES, typesetting, anchors, messages, page)
    sources = [Path(module.__file__ or "") for module in modules]
    hasher = hashlib.sha1()
    for source in [*sources, messages.CATALOGUE]:
        hasher.update(source.read_bytes() if source.is_file() else b"")
    for name in ("pybtex", "pylatexenc"):
        hasher.update(version(name).encode())
    return hasher.hexdigest()


def within_limits(text: str, segments: Sequence[Segment], limits: BibLimits) -> bool:
    """Whether the whole file reads to its end (else the reference says where it stops)."""
    entry_count = expanded = 0
    for segment in segments:
        counted = segment.facts if segment.facts is not None else segment.reading
        assert counted is not None
        entry_count += counted.entry_count
        expanded += counted.expanded_chars
    allowance = 2 * len(text) + EXPANSION_ALLOWANCE
    return entry_count <= limits.max_entries and expanded <= allowance


def check_bib_segments(
    text: str,
    path: str,
    cache: FactsCache,
    limits: BibLimits = DEFAULT_BIB_LIMITS,
) -> BibCheck:
    """:func:`check_bib_text` of ``text``, with the facts of segments kept in ``cache``."""
    try:
        salt = f"{checker_version()}\0{current_language()}\0{limits.max_field_chars}"
        segments = read_segments(text, cache, salt)
        if segments is not None and within_limits(text, segments, limits):
            facts = complete_facts(segments, cache, limits.max_field_chars)
            if facts is not None:
                return assembled_check(text, path, limits, segments, facts)
    except Exception as error:  # a bug in a checker: reported, never swallowed
        return BibCheck([internal_error(path, error)], {}, None)
    return BibCheck(check_bib_text(text, path, limits), parse_bib_keys(text), None)


def assembled_check(
    text: str,
    path: str,
    limits: BibLimits,
    segments: Sequence[Segment],
    facts: Sequence[SegmentFacts],
) -> BibCheck:
    """The problems of all segments, placed, with those between entries, in the
    reference's order."""
    entries: list[EntryFacts] = []
    own: list[list[Problem]] = [[] for _ in OWN_RULES]
    complaints: list[PybtexComplaint] = []
    owners: dict[str, int] = {}  # folded key -> the segment of pybtex's entry
    for number, (segment, found) in enumerate(zip(segments, facts, strict=True)):
        lines, chars = segment.lines_before, segment.start
        entries += (placed_entry(row, number, lines, chars) for row in found.entries)
        for rule, row in found.problems:
            own[rule].append(as_problem(path, row, lines))
        complaints += (placed_complaint(c, lines, chars) for c in found.complaints)
        for key in found.pybtex_keys:
            owners.setdefault(key, number)
    citable = [entry for entry in entries if entry.is_citable]
    crossrefs = list(crossref_problems(entries, path))
    problems = [  # in the reference's order: problems on one line keep it once sorted
        *duplicate_key_problems(citable, path),
        *anchor_clash_problems(citable, path, anchor_of=lambda entry: entry.anchor),
        *(problem for rule in own[:PER_ENTRY_COUNT] for problem in rule),
        *crossrefs,
        *(problem for rule in own[PER_ENTRY_COUNT:] for problem in rule),
        *bib_syntax_problems(text, entries, complaints, path),
    ]
    skipped = unconverted_keys(citable, limits.max_field_chars, bool(crossrefs))
    for entry in entries_to_convert(entries, owners, skipped):
        if entry.needs_conversion:
            problem = latex_problem_of(entry, path, segments, owners)
            if problem is not None:
                problems.append(problem)
    problems.sort(key=lambda problem: problem.line)
    remember_entries(text, entries)  # the build's other uses of the file read them here
    expanded = sum(found.expanded_chars for found in facts)
    keys = [segment.key for segment in segments]
    return BibCheck(problems, entry_keys(entries), keys, entries, expanded)


def latex_problem_of(
    entry: EntryFacts, path: str, segments: Sequence[Segment], owners: Mapping[str, int]
) -> Problem | None:
    """The entry's conversion, kept with its segment when it depends on it alone."""
    segment = segments[entry.segment]
    owner = owners[(entry.key or "").lower()]
    if entry.converted and owner == entry.segment:
        row = entry.latex_problem
        return None if row is None else as_problem(path, row, segment.lines_before)
    problem = conversion_across_segments(entry, segments, owners)
    return None if problem is None else replace(problem, path=path)


def conversion_across_segments(
    entry: EntryFacts, segments: Sequence[Segment], owners: Mapping[str, int]
) -> Problem | None:
    """Converted now: the entry has a crossref, or pybtex's entry of its key is in another
    segment. pybtex's entries it needs, and those their crossrefs name, are parsed again
    from their segments."""
    from pybtex.database import BibliographyData

    parsed: dict[int, PybtexReading] = {}

    def pybtex_entry(folded: str) -> tuple[str, Any] | None:
        number = owners.get(folded)
        if number is None:
            return None
        if number not in parsed:
            segment = segments[number]
            parsed[number] = pybtex_parse(segment.text, segment.pybtex_macros)
        entries = parsed[number].data.entries
        return next((key, found) for key, found in entries.items() if key.lower() == folded)

    first = pybtex_entry((entry.key or "").lower())
    assert first is not None
    data = BibliographyData()
    following: tuple[str, Any] | None = first
    while following is not None and following[0].lower() not in data.entries:
        data.add_entry(*following)
        crossref = following[1].fields.get("crossref")
        following = None if crossref is None else pybtex_entry(crossref.lower())
    segment = segments[entry.segment]
    read = read_segment(segment.text, segment.reader_macros).entries[entry.order]
    problem = conversion_problem("", read, first[0], first[1], data)
    if problem is None:
        return None
    return replace(problem, line=problem.line + segment.lines_before)
