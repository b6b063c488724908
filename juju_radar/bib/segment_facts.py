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
(:func:`~juju_radar.bib.reader.remember_entries`).

A segment is used when every ``@`` in it starts a command read to its closing delimiter:
the reader then reads it as it does in the whole file. A command that does not close in
its segment (a value with a line that starts with ``@``) is read with the segments after
it, :data:`MAX_JOINED` at most. A file where that does not help (an unreadable command),
where pybtex finds a syntax error, or past a limit, is checked whole, as by the
reference, and nothing of it is kept. ``tests/test_bib_segments.py`` proves on generated
files and edits that the problems, keys and entries equal the reference's.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import version
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from juju_radar.bib import check, reader, typesetting
from juju_radar.bib.check import (
    DEFAULT_BIB_LIMITS,
    BibLimits,
    PybtexComplaint,
    PybtexReading,
    anchor_clash_problems,
    bib_syntax_problems,
    check_bib_text,
    conversion_problem,
    crossref_problems,
    duplicate_field_problems,
    duplicate_key_problems,
    entries_to_convert,
    internal_error,
    long_field_problems,
    missing_field_problems,
    needs_conversion,
    pybtex_parse,
    unbalanced_brace_problems,
    unconverted_keys,
    unescaped_percent_problems,
    unsafe_url_problems,
    untypesettable_problems,
)
from juju_radar.bib.reader import (
    EXPANSION_ALLOWANCE,
    NON_ENTRY_COMMANDS,
    BibEntry,
    BibField,
    BibReading,
    Macro,
    entry_keys,
    month_macros,
    parse_bib_keys,
    read_segment,
    remember_entries,
    segment_starts,
)
from juju_radar.model import anchors, messages, page
from juju_radar.model.anchors import citation_anchor
from juju_radar.model.messages import current_language
from juju_radar.model.page import forbidden_characters, page_lines
from juju_radar.model.problems import Problem, Severity

ProblemRow = tuple[int, Severity, str, str]
"""A problem without its file: line (in its segment), severity, code, message."""


class EntryFacts(NamedTuple):
    """What the rules between entries read of one command, kept with its segment."""

    entry_type: str
    line: int
    start: int
    end: int
    key: str | None
    key_line: int
    braces_balanced: bool
    closed_properly: bool
    crossref: BibField | None
    longest_field: int
    anchor: str
    needs_conversion: bool
    converted: bool
    """Its LaTeX was converted with its segment's own pybtex entry (it has no crossref)."""
    latex_problem: ProblemRow | None
    identifiers: dict[str, str]
    """Its fields that identify the work (an entry's only)."""
    order: int
    """Its place among its segment's commands."""
    segment: int = 0
    """Its segment's place in the file, once placed there."""

    @property
    def is_citable(self) -> bool:
        return self.entry_type not in NON_ENTRY_COMMANDS and self.key is not None


EntryRow = tuple[Any, ...]
"""An :class:`EntryFacts` as kept, relative to its segment and without it: a plain tuple
unpickles four times faster than a named one."""


def placed_entry(row: EntryRow, segment: int, lines: int, chars: int) -> EntryFacts:
    """The entry at its place in the file, after ``lines`` lines and ``chars`` characters."""
    kind, line, start, end, key, key_line, balanced, closed, crossref, *rest = row
    longest, anchor, needs, converted, latex, identifiers, order = rest
    return EntryFacts(
        kind,
        line + lines,
        start + chars,
        end + chars,
        key,
        key_line + lines if key is not None else key_line,
        balanced,
        closed,
        None if crossref is None else placed_field(crossref, lines, chars),
        longest,
        anchor,
        needs,
        converted,
        latex,
        identifiers,
        order,
        segment,
    )


class SegmentFacts(NamedTuple):
    """What one segment gives, lines and offsets relative to it (kept as a plain tuple)."""

    entries: tuple[EntryRow, ...]
    line_breaks: int
    entry_count: int
    expanded_chars: int
    reader_macros: tuple[tuple[str, Macro], ...]
    """The ``@string`` macros it defines, as the reader reads them."""
    pybtex_macros: tuple[tuple[str, str], ...]
    """The same, as pybtex builds them."""
    problems: tuple[tuple[int, ProblemRow], ...]
    """Its commands' own problems: (the rule's place in :data:`OWN_RULES`, problem)."""
    complaints: tuple[PybtexComplaint, ...]
    pybtex_keys: tuple[str, ...]
    """The keys of the entries pybtex added, folded, in order."""


class FactsCache(Protocol):
    """Where segments' facts are kept: a dict, or a namespace of the build cache."""

    def get(self, key: str, /) -> Any: ...
    def __setitem__(self, key: str, value: Any, /) -> None: ...


@dataclass(frozen=True)
class BibCheck:
    """The check of a .bib file: its problems and its entries' keys."""

    problems: list[Problem]
    keys: dict[str, int]
    """Entry key -> line of its first occurrence, as :func:`parse_bib_keys` gives it."""
    segment_keys: list[str] | None
    """The facts this check used; None when it checked the file whole."""


def placed_field(bib_field: BibField, lines: int, chars: int) -> BibField:
    return replace(
        bib_field,
        line=bib_field.line + lines,
        unescaped_percent_lines=tuple(line + lines for line in bib_field.unescaped_percent_lines),
        name_start=bib_field.name_start + chars,
        value_span=(bib_field.value_span[0] + chars, bib_field.value_span[1] + chars),
    )


def placed_complaint(complaint: PybtexComplaint, lines: int, chars: int) -> PybtexComplaint:
    line, offset = complaint.line, complaint.entry_offset
    return replace(
        complaint,
        line=None if line is None else line + lines,
        entry_offset=None if offset is None else offset + chars,
    )


# ---------------------------------------------------------------------------
# The file's segments, read
# ---------------------------------------------------------------------------


@functools.cache
def checker_version() -> str:
    """Changes with the code the facts come from, the messages' catalogue, and pybtex
    and pylatexenc."""
    modules = (check, reader, typesetting, anchors, messages, page)
    sources = [Path(__file__), *(Path(module.__file__ or "") for module in modules)]
    hasher = hashlib.sha1()
    for source in [*sources, messages.CATALOGUE]:
        hasher.update(source.read_bytes() if source.is_file() else b"")
    for name in ("pybtex", "pylatexenc"):
        hasher.update(version(name).encode())
    return hasher.hexdigest()


def segment_key(salt: str, macros_from: str, text: str) -> str:
    """A segment's facts are known by its text and the segment that last defined a macro
    before it (``macros_from``: its key, or "" for none)."""
    hasher = hashlib.sha1(f"{salt}\0{macros_from}\0".encode())
    hasher.update(text.encode())
    return hasher.hexdigest()


def line_breaks(text: str) -> int:
    """As :class:`~juju_radar.bib.reader.LineIndex` counts them."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


@dataclass
class Segment:
    """One segment of the file, its place and its facts (or, not known yet, its reading)."""

    text: str
    start: int
    key: str
    reader_macros: Mapping[str, Macro]
    """The macros in effect before it."""
    facts: SegmentFacts | None
    reading: BibReading | None
    lines_before: int = 0
    pybtex_macros: Mapping[str, str] | None = None

    @property
    def definitions(self) -> Sequence[tuple[str, Macro]]:
        """The macros it defines, as the reader reads them."""
        if self.facts is not None:
            return self.facts.reader_macros
        assert self.reading is not None
        return self.reading.definitions

    @property
    def line_breaks(self) -> int:
        return self.facts.line_breaks if self.facts is not None else line_breaks(self.text)


MAX_JOINED = 16
"""Segments joined at most into one, to read a command that spans them (a value with a
line that starts with ``@``)."""


def read_segments(text: str, cache: FactsCache, salt: str) -> list[Segment] | None:
    """The file's segments, with their kept facts or read now; None when one of them does
    not read as it does in the whole file."""
    segments: list[Segment] = []
    bounds = [*segment_starts(text), len(text)]
    macros: Mapping[str, Macro] = month_macros()
    macros_from, lines, first = "", 0, 0
    while first < len(bounds) - 1:
        found = settled_segment(
            text, bounds[first : first + 1 + MAX_JOINED], cache, salt, macros_from, macros
        )
        if found is None:
            return None
        segment, joined = found
        first += joined
        segment.lines_before = lines
        segments.append(segment)
        if segment.definitions:
            macros, macros_from = {**macros, **dict(segment.definitions)}, segment.key
        lines += segment.line_breaks
    return segments


def settled_segment(
    text: str,
    bounds: list[int],
    cache: FactsCache,
    salt: str,
    macros_from: str,
    macros: Mapping[str, Macro],
) -> tuple[Segment, int] | None:
    """The segment from ``bounds[0]`` to ``bounds[1]``, joined with those up to the
    following bounds until it reads alone as in the whole file: its kept facts or its
    reading, and how many segments it joins."""
    start = bounds[0]
    for joined, end in enumerate(bounds[1:], 1):
        segment_text = text[start:end]
        key = segment_key(salt, macros_from, segment_text)
        known = cache.get(key)
        if isinstance(known, tuple):
            return Segment(segment_text, start, key, macros, SegmentFacts(*known), None), joined
        reading = read_segment(segment_text, macros)
        if not reading.unsettled:
            return Segment(segment_text, start, key, macros, None, reading), joined
    return None


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


# ---------------------------------------------------------------------------
# One segment's facts
# ---------------------------------------------------------------------------

OWN_RULES = (
    "unbalanced braces",
    "unescaped %",
    "LaTeX specials",
    "repeated fields",
    "missing title or identifier",
    "unsafe URLs",
    "fields too long",
    "control characters",
)
"""The rules that read one command (or line) at a time, in the reference's order: their
problems are kept by rule, and placed among the others in that order."""


def own_problems(
    text: str, entries: list[BibEntry], max_field_chars: int
) -> Iterator[tuple[int, ProblemRow]]:
    found = (
        unbalanced_brace_problems(entries, ""),
        unescaped_percent_problems(entries, ""),
        untypesettable_problems(entries, ""),
        duplicate_field_problems(entries, ""),
        missing_field_problems(entries, ""),
        unsafe_url_problems(entries, ""),
        long_field_problems(entries, "", max_field_chars),
        iter(forbidden_characters(text, page_lines(text), "")),
    )
    for rule, problems in enumerate(found):
        for problem in problems:
            yield rule, (problem.line, problem.severity, problem.code, problem.message)


def segment_facts(segment: Segment, parsed: PybtexReading, max_field_chars: int) -> SegmentFacts:
    reading = segment.reading
    assert reading is not None and segment.pybtex_macros is not None
    pybtex_entries = {key.lower(): (key, entry) for key, entry in parsed.data.entries.items()}
    converted: dict[int, ProblemRow | None] = {}
    for index, entry in own_conversions(reading.entries, pybtex_entries, max_field_chars):
        key, pybtex_entry = pybtex_entries[(entry.key or "").lower()]
        problem = conversion_problem("", entry, key, pybtex_entry, parsed.data)
        converted[index] = None if problem is None else as_row(problem)
    before = segment.pybtex_macros
    return SegmentFacts(
        entries=tuple(
            entry_row(entry, index, converted) for index, entry in enumerate(reading.entries)
        ),
        line_breaks=line_breaks(segment.text),
        entry_count=reading.entry_count,
        expanded_chars=reading.expanded_chars,
        reader_macros=tuple(reading.definitions),
        pybtex_macros=tuple(
            (name, value) for name, value in parsed.macros.items() if before.get(name) != value
        ),
        problems=tuple(own_problems(segment.text, reading.entries, max_field_chars)),
        complaints=tuple(parsed.complaints),
        pybtex_keys=tuple(pybtex_entries),
    )


def own_conversions(
    entries: list[BibEntry], pybtex_entries: Mapping[str, Any], max_field_chars: int
) -> Iterator[tuple[int, BibEntry]]:
    """The entries whose conversion depends on their segment alone: the first of each key
    here, holding LaTeX, without a crossref, not too long."""
    firsts = set(map(id, entries_to_convert(entries, pybtex_entries, ())))
    for index, entry in enumerate(entries):
        if (
            id(entry) in firsts
            and needs_conversion(entry)
            and entry.crossref is None
            and entry.longest_field <= max_field_chars
        ):
            yield index, entry


def entry_row(entry: BibEntry, order: int, converted: Mapping[int, ProblemRow | None]) -> EntryRow:
    return (
        entry.entry_type,
        entry.line,
        entry.start,
        entry.end,
        entry.key,
        entry.key_line,
        entry.braces_balanced,
        entry.closed_properly,
        entry.crossref,
        entry.longest_field,
        citation_anchor(entry.key) if entry.key is not None else "",
        needs_conversion(entry),
        order in converted,
        converted.get(order),
        entry.identifiers if entry.is_citable else {},
        order,
    )


def as_row(problem: Problem) -> ProblemRow:
    return problem.line, problem.severity, problem.code, problem.message


def as_problem(path: str, row: ProblemRow, lines: int) -> Problem:
    line, severity, code, message = row
    return Problem(path, line + lines, severity, code, message)


def complete_facts(
    segments: Sequence[Segment], cache: FactsCache, max_field_chars: int
) -> list[SegmentFacts] | None:
    """Every segment's facts, those not kept yet parsed with pybtex and kept; None when
    pybtex finds a syntax error in one."""
    macros: Mapping[str, str] = {name: macro.text or "" for name, macro in month_macros().items()}
    found = []
    for segment in segments:
        segment.pybtex_macros = macros
        facts = segment.facts
        if facts is None:
            parsed = pybtex_parse(segment.text, macros)
            if parsed.data is None or any(c.syntax_error for c in parsed.complaints):
                return None
            facts = segment_facts(segment, parsed, max_field_chars)
            cache[segment.key] = tuple(facts)
        if facts.pybtex_macros:
            macros = {**macros, **dict(facts.pybtex_macros)}
        found.append(facts)
    return found


# ---------------------------------------------------------------------------
# The rules between entries
# ---------------------------------------------------------------------------


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
        *own[0],
        *own[1],
        *own[2],
        *own[3],
        *own[4],
        *own[5],
        *crossrefs,
        *own[6],
        *own[7],
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
    return BibCheck(problems, entry_keys(entries), [segment.key for segment in segments])


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
