"""What one segment of a .bib file gives the check by segment
(:mod:`juju_radar.bib.segment_check`): its commands' records, their own problems,
pybtex's complaints and the conversion of their LaTeX, with lines and offsets relative
to the segment, and how they are placed in the file."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from juju_radar.bib.entry_notes import entry_note_digests
from juju_radar.bib.entry_records import (
    NON_ENTRY_COMMANDS,
    BibEntry,
    BibField,
    BibReading,
    Macro,
)
from juju_radar.bib.entry_rules import PER_ENTRY_RULES
from juju_radar.bib.latex_conversion import (
    conversion_problem,
    entries_to_convert,
    needs_conversion,
)
from juju_radar.bib.pybtex_parser import PybtexComplaint, PybtexReading
from juju_radar.bib.size_limits import long_field_problems
from juju_radar.model.anchors import citation_anchor
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
    note_digests: tuple[bytes, ...]
    """What an import knows it by (:func:`~juju_radar.bib.entry_notes.entry_note_digests`)."""
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
    longest, anchor, needs, converted, latex, identifiers, notes, order = rest
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
        notes,
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


OWN_RULES = (
    "unbalanced braces",
    "unescaped %",
    "LaTeX specials",
    "repeated fields",
    "missing title or identifier",
    "unsafe URLs",
    "invisible characters",
    "escaped addresses",
    "fields too long",
    "control characters",
)
"""The rules that read one command (or line) at a time, in the reference's order: their
problems are kept by rule, and placed among the others in that order."""


def own_problems(
    text: str, entries: list[BibEntry], max_field_chars: int
) -> Iterator[tuple[int, ProblemRow]]:
    found = (
        *(rule(entries, "") for rule in PER_ENTRY_RULES),
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
        entry_note_digests(entry),
        order,
    )


def as_row(problem: Problem) -> ProblemRow:
    return problem.line, problem.severity, problem.code, problem.message


def as_problem(path: str, row: ProblemRow, lines: int) -> Problem:
    line, severity, code, message = row
    return Problem(path, line + lines, severity, code, message)
