"""The segments of a .bib file, each with its facts kept in a cache under a key of its
text, of the segment that last defined a macro before it, and of the checker's version;
or read now, and parsed and kept."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from juju_radar.bib.entry_records import Macro
from juju_radar.bib.pybtex_parser import pybtex_parse
from juju_radar.bib.reader import month_macros, read_segment, segment_starts
from juju_radar.bib.segment_facts import Segment, SegmentFacts, segment_facts


class FactsCache(Protocol):
    """Where segments' facts are kept: a dict, or a namespace of the build cache."""

    def get(self, key: str, /) -> Any: ...
    def __setitem__(self, key: str, value: Any, /) -> None: ...


def segment_key(salt: str, macros_from: str, text: str) -> str:
    """A segment's facts are known by its text and the segment that last defined a macro
    before it (``macros_from``: its key, or "" for none)."""
    hasher = hashlib.sha1(f"{salt}\0{macros_from}\0".encode())
    hasher.update(text.encode())
    return hasher.hexdigest()


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
