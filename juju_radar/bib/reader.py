"""Read BibTeX text as pybtex reads it, keeping where each entry, key and field is.

sphinxcontrib-bibtex reads ``references.bib`` with pybtex's parser, so the .bib checks
must see exactly the entries and values that parser sees: a check that reads otherwise
is where a hostile file gets through. This reader follows pybtex's own grammar token by
token, with pybtex's own token patterns (``LowLevelParser.NAME``, ``KEY_BRACE``...):

* a command starts at any ``@`` (not only one that starts a line), and text between
  commands is skipped; ``@comment`` ends at its opening delimiter, as in pybtex, so an
  ``@`` inside a comment starts a command too;
* an entry's key may be followed by its fields with or without a comma, and commas may
  repeat; ``@string`` defines one macro, ``@preamble`` holds one value;
* a value is ``part # part # ...``, each a ``{...}`` or ``"..."`` text (at most 100
  nested braces), a number or a macro; macros (``@string``, and pybtex's month names)
  are case-insensitive and expanded as pybtex expands them.

What pybtex builds, this reader measures first: a value's length is the sum of its parts'
lengths, known before it is built, and no value longer than
:data:`~juju_radar.bib.entry_records.MAX_VALUE_CHARS` is built (a dozen doubling
``@string`` lines would otherwise make a string of millions).
The whole file may expand to at most twice its length plus :data:`EXPANSION_ALLOWANCE`
characters: past that, reading stops
(:attr:`~juju_radar.bib.entry_records.BibReading.expansion_line`).

Where pybtex meets a syntax error it reports it and goes on where it stopped; the file
is refused either way, and this reader goes on at the next ``@`` that starts a line,
so that one broken entry does not hide the entries after it. On every text pybtex reads
without an error, the entries, keys, field names and expanded values read here are
those pybtex reads (``tests/test_bib_reader.py`` proves it on generated text).
What it reads is held in :mod:`juju_radar.bib.entry_records`; the entries' keys,
identifier fields and texts are taken from the reading by
:mod:`juju_radar.bib.file_entries`.
Nothing here imports Sphinx or docutils, and nothing raises on any input.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from juju_radar.bib.entry_records import (
    MAX_VALUE_CHARS,
    NON_ENTRY_COMMANDS,
    BibEntry,
    BibField,
    BibReading,
    Macro,
)
from juju_radar.bib.identifiers import URL_FIELDS

EXPANSION_ALLOWANCE = 1_000_000
"""The file's values may hold, after expansion, twice the file's length plus this many
characters in all (what pybtex would build): past that, reading stops."""
MAX_NESTED_BRACES = 100
"""pybtex's ``parse_string(max_level=100)``: a deeper value is a syntax error."""

_LINE_START_AT = re.compile(r"^[ \t]*@", re.MULTILINE)
_URL_COMMAND = re.compile(r"\\url\s*\{[^{}]*\}")
# The characters that matter inside a delimited value (everything else is skipped at once).
_BRACE = re.compile(r"[{}]")
_BRACE_OR_QUOTE = re.compile(r'[{}"]')
_PERCENT = re.compile("%")


@cache
def _pybtex() -> Any:
    """pybtex's BibTeX tokenizer (its patterns and month macros), imported when first read."""
    from pybtex.database.input import bibtex

    return bibtex


class LineIndex:
    """Maps text offsets to 1-based line numbers (``\\n``, ``\\r\\n`` and ``\\r`` end a line)."""

    def __init__(self, text: str) -> None:
        self._line_starts = [0] + [match.end() for match in re.finditer(r"\r\n|\r|\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset)


def braces_balance(chunk: str) -> bool:
    """True when every ``}`` closes an earlier ``{`` and none is left open.

    BibTeX counts every brace, escaped or not, so this does too.
    """
    depth = 0
    for match in _BRACE.finditer(chunk):
        if match.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def is_escaped(text: str, offset: int) -> bool:
    """True when the character at ``offset`` follows an odd run of backslashes."""
    backslashes = 0
    position = offset - 1
    while position >= 0 and text[position] == "\\":
        backslashes += 1
        position -= 1
    return backslashes % 2 == 1


def offsets_inside_url_commands(value: str) -> set[int]:
    """Offsets within ``value`` that lie inside a ``\\url{...}``."""
    inside: set[int] = set()
    for match in _URL_COMMAND.finditer(value):
        inside.update(range(match.start(), match.end()))
    return inside


def unescaped_percent_offsets(value: str, field_name: str) -> list[int]:
    """Offsets in ``value`` of each ``%`` that would start a LaTeX comment.

    An address (:data:`~juju_radar.bib.identifiers.URL_FIELDS`) is never read as LaTeX;
    in ``howpublished`` a ``%`` inside
    ``\\url{...}`` is part of the address.
    """
    if field_name in URL_FIELDS or "%" not in value:
        return []
    exempt = offsets_inside_url_commands(value) if field_name == "howpublished" else set()
    return [
        offset
        for match in _PERCENT.finditer(value)
        if not is_escaped(value, offset := match.start()) and offset not in exempt
    ]


@dataclass(frozen=True)
class _Part:
    """One part of a value: a span of the text (``{...}``/``"..."`` contents, a number),
    or a macro."""

    start: int
    end: int
    literal: bool
    macro: Macro | None = None

    @property
    def length(self) -> int:
        return self.macro.length if self.macro is not None else self.end - self.start


class _SyntaxError(Exception):
    """pybtex would report a syntax error here (it is the one reporting it)."""


class _Stop(Exception):
    """Reading stops: too many entries, or the expansion passed its allowance."""


class _Reader:
    """One pass over the text, as pybtex's ``LowLevelParser.parse_bibliography``."""

    def __init__(
        self,
        text: str,
        stop_after: int | None,
        macros: Mapping[str, Macro] | None = None,
        allowance: int | None = None,
    ) -> None:
        bibtex = _pybtex()
        self.name = bibtex.LowLevelParser.NAME.match
        self.key_brace = bibtex.LowLevelParser.KEY_BRACE.match
        self.key_paren = bibtex.LowLevelParser.KEY_PAREN.match
        self.number = bibtex.LowLevelParser.NUMBER.match
        self.whitespace = bibtex.LowLevelParser.WHITESPACE.match
        self.text = text
        self.end = len(text)
        self.pos = 0
        self.lines = LineIndex(text)
        self.macros = dict(month_macros() if macros is None else macros)
        self.reading = BibReading([], stopped_after=stop_after)
        self.allowance = 2 * len(text) + EXPANSION_ALLOWANCE if allowance is None else allowance

    # --- tokens (pybtex's Scanner.get_token: whitespace, then one pattern) -------------

    def skip_whitespace(self) -> None:
        # pybtex's WHITESPACE is r"\s+", whose characters are exactly those str.isspace() takes.
        if self.pos < self.end and self.text[self.pos].isspace():
            match = self.whitespace(self.text, self.pos)
            if match:
                self.pos = match.end()

    def token(self, match_at: Any) -> str | None:
        self.skip_whitespace()
        match = match_at(self.text, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return str(match.group())

    def literal(self, character: str) -> bool:
        self.skip_whitespace()
        if self.pos < self.end and self.text[self.pos] == character:
            self.pos += 1
            return True
        return False

    def required(self, character: str) -> None:
        if not self.literal(character):
            raise _SyntaxError

    # --- commands ------------------------------------------------------------------

    def read(self) -> BibReading:
        try:
            while (at := self.text.find("@", self.pos)) >= 0:
                self.pos = at + 1
                self.command(at)
        except _Stop:
            pass
        return self.reading

    def command(self, at: int) -> None:
        self.skip_whitespace()
        type_start = self.pos
        name = self.token(self.name)
        if name is None:
            self.reading.unsettled += 1
            return  # pybtex: "a valid name expected", and it goes on from here
        type_span = (type_start, self.pos)
        if self.literal("{"):
            closing = "}"
        elif self.literal("("):
            closing = ")"
        else:
            self.reading.unsettled += 1
            return  # pybtex: "'(' or '{' expected"
        command = name.lower()
        entry = BibEntry(
            entry_type=command,
            line=self.lines.line_of(at),
            start=at,
            end=self.pos,
            type_span=type_span,
        )
        self.reading.entries.append(entry)
        if command == "comment":
            entry.closed_properly = True  # pybtex reads on right after the delimiter
            return
        if command not in NON_ENTRY_COMMANDS:
            self.reading.entry_count += 1
            stop_after = self.reading.stopped_after
            if stop_after is not None and self.reading.entry_count > stop_after:
                self.reading.entries_line = entry.line
                raise _Stop
        try:
            if command == "string":
                self.string_body(entry)
            elif command == "preamble":
                self.preamble_body(entry)
            else:
                self.entry_body(entry, closing)
            self.required(closing)
        except _SyntaxError:
            self.reading.unsettled += 1
            following = _LINE_START_AT.search(self.text, at + 1)
            entry.end = self.pos = following.start() if following else self.end
        else:
            entry.closed_properly = True
            entry.closing = self.pos - 1
            entry.end = self.pos
        entry.braces_balanced = braces_balance(self.text[entry.start : entry.end])

    def string_body(self, entry: BibEntry) -> None:
        self.skip_whitespace()
        name_start = self.pos
        name = self.token(self.name)
        if name is None:
            raise _SyntaxError
        self.required("=")
        bib_field = self.value(name.lower(), name_start)
        entry.fields.append(bib_field)
        built = bib_field.value if bib_field.is_built else None
        self.macros[name.lower()] = macro = Macro(bib_field.length, built)
        self.reading.definitions.append((name.lower(), macro))

    def preamble_body(self, entry: BibEntry) -> None:
        self.skip_whitespace()
        entry.fields.append(self.value("preamble", self.pos))

    def entry_body(self, entry: BibEntry, closing: str) -> None:
        self.skip_whitespace()
        key_start = self.pos
        key = self.token(self.key_paren if closing == ")" else self.key_brace)
        if key is None:
            raise _SyntaxError
        entry.key = key
        entry.key_line = self.lines.line_of(key_start)
        while True:
            self.skip_whitespace()
            name_start = self.pos
            name = self.token(self.name)
            if name is not None:
                self.required("=")
                entry.fields.append(self.value(name.lower(), name_start))
            if not self.literal(","):
                return

    # --- values --------------------------------------------------------------------

    def value(self, name: str, name_start: int) -> BibField:
        """``part # part # ...``, after the ``=``."""
        self.skip_whitespace()
        value_start = self.pos
        parts = [self.value_part()]
        value_end = self.pos
        while self.literal("#"):
            parts.append(self.value_part())
            value_end = self.pos
        return self.make_field(name, name_start, parts, (value_start, value_end))

    def value_part(self) -> _Part:
        self.skip_whitespace()
        opener = self.text[self.pos] if self.pos < self.end else ""
        if opener in ('"', "{"):
            self.pos += 1
            start = self.pos
            self.delimited('"' if opener == '"' else "}")
            return _Part(start, self.pos - 1, literal=True)
        start = self.pos
        if self.token(self.number) is not None:
            return _Part(start, self.pos, literal=False)
        name = self.token(self.name)
        if name is None:
            raise _SyntaxError
        # An undefined macro is pybtex's "undefined string" error; it reads on with "".
        macro = self.macros.get(name.lower(), Macro(0, ""))
        return _Part(start, self.pos, literal=False, macro=macro)

    def delimited(self, closing: str) -> None:
        """Past the closing ``}`` or ``"`` of a value part (pybtex's ``parse_string``)."""
        depth = 0
        while True:
            special = _BRACE_OR_QUOTE if closing == '"' and depth == 0 else _BRACE
            match = special.search(self.text, self.pos)
            if match is None:
                raise _SyntaxError  # premature end of file
            self.pos = match.end()
            character = match.group()
            if depth == 0 and character == closing:
                return
            if character == "{":
                depth += 1
                if depth > MAX_NESTED_BRACES:
                    raise _SyntaxError  # too many nested braces
            elif depth == 0:
                raise _SyntaxError  # a "}" closing nothing inside "..."
            else:
                depth -= 1

    def make_field(
        self, name: str, name_start: int, parts: list[_Part], value_span: tuple[int, int]
    ) -> BibField:
        length = sum(part.length for part in parts)
        self.reading.expanded_chars += length
        if self.reading.expanded_chars > self.allowance:
            self.reading.expansion_line = self.lines.line_of(name_start)
            raise _Stop
        if length <= MAX_VALUE_CHARS:  # then so is each macro in it: each was built
            value = "".join(
                (part.macro.text or "") if part.macro else self.text[part.start : part.end]
                for part in parts
            )
        else:
            value = self.text[value_span[0] : value_span[1]]
        percent_lines = [
            self.lines.line_of(part.start + offset)
            for part in parts
            if part.literal
            for offset in unescaped_percent_offsets(self.text[part.start : part.end], name)
        ]
        return BibField(
            name=name,
            value=value,
            line=self.lines.line_of(name_start),
            unescaped_percent_lines=tuple(percent_lines),
            name_start=name_start,
            value_span=value_span,
            length=length,
        )


_READINGS: OrderedDict[tuple[str, int | None], BibReading] = OrderedDict()
KEPT_READINGS = 2
"""Readings of a file kept at once: the build reads the same file for several outputs."""


def read_bib(text: str, stop_after: int | None = None) -> BibReading:
    """The commands of ``text``, read as pybtex reads them; with ``stop_after``, reading
    stops at the entry one past that many. One reading per file version is kept."""
    full = _READINGS.get((text, None))
    if full is not None and (stop_after is None or full.entry_count <= stop_after):
        _READINGS.move_to_end((text, None))  # a reading that would not have stopped
        return full
    if (text, stop_after) in _READINGS:
        _READINGS.move_to_end((text, stop_after))
        return _READINGS[(text, stop_after)]
    reading = _Reader(text, stop_after).read()
    _READINGS[(text, None if not reading.entries_line else stop_after)] = reading
    while len(_READINGS) > KEPT_READINGS:
        _READINGS.popitem(last=False)
    return reading


def month_macros() -> dict[str, Macro]:
    """The macros in effect at the start of a file: pybtex's month names."""
    return {name.lower(): Macro(len(value), value) for name, value in _pybtex().month_names.items()}


def segment_starts(text: str) -> list[int]:
    """Where ``text`` may be cut into segments: its start, and each line whose first
    character other than a space or tab is ``@`` (where reading goes on after a command
    it cannot read). A segment read alone (:func:`read_segment`) with no unsettled ``@``
    reads as it does in the text."""
    return [0, *(match.start() for match in _LINE_START_AT.finditer(text) if match.start())]


def read_segment(text: str, macros: Mapping[str, Macro]) -> BibReading:
    """The commands of ``text``, one segment of a file, read alone with ``macros`` in
    effect; never stopped (the limits are the whole file's).

    When :attr:`BibReading.unsettled` is 0, every command was read up to its closing
    delimiter without looking past it, and every ``@`` started one: the segment's
    commands are read exactly as in the whole file, at the segment's place."""
    return _Reader(text, None, macros, allowance=sys.maxsize).read()
