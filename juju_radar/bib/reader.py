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
lengths, known before it is built, and no value longer than :data:`MAX_VALUE_CHARS` is
built (a dozen doubling ``@string`` lines would otherwise make a string of millions).
The whole file may expand to at most twice its length plus :data:`EXPANSION_ALLOWANCE`
characters: past that, reading stops (:attr:`BibReading.expansion_line`).

Where pybtex meets a syntax error it reports it and goes on where it stopped; the file
is refused either way, and this reader goes on at the next ``@`` that starts a line,
so that one broken entry does not hide the entries after it. On every text pybtex reads
without an error, the entries, keys, field names and expanded values read here are
those pybtex reads (``tests/test_bib_reader.py`` proves it on generated text).
The entries' keys, identifier fields and texts are taken from the reading here too
(:func:`entry_keys`, :func:`bib_entry_identifiers`, :func:`bib_entry_texts`).
Nothing here imports Sphinx or docutils, and nothing raises on any input.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

NON_ENTRY_COMMANDS = frozenset({"comment", "string", "preamble"})

IDENTIFIER_FIELDS = ("doi", "url", "eprint", "isbn", "issn")
"""Fields any one of which lets a reader find the cited work."""

REPORTED_IDENTIFIER_FIELDS = ("doi", "url", "eprint", "archiveprefix", "isbn", "issn", "note")
"""Fields returned by :func:`bib_entry_identifiers` (``note`` often holds an arXiv id)."""

MAX_VALUE_CHARS = 1_000_000
"""No expanded value longer than this is built; ``radar_bib_max_field_chars`` is at most this."""
EXPANSION_ALLOWANCE = 1_000_000
"""The file's values may hold, after expansion, twice the file's length plus this many
characters in all (what pybtex would build): past that, reading stops."""
MAX_NESTED_BRACES = 100
"""pybtex's ``parse_string(max_level=100)``: a deeper value is a syntax error."""

_LINE_START_AT = re.compile(r"^[ \t]*@", re.MULTILINE)
_URL_COMMAND = re.compile(r"\\url\s*\{[^{}]*\}")
_WHITESPACE_RUN = re.compile(r"\s+")
# The characters that matter inside a delimited value (everything else is skipped at once).
_BRACE = re.compile(r"[{}]")
_BRACE_OR_QUOTE = re.compile(r'[{}"]')
_PERCENT = re.compile("%")


@cache
def _pybtex() -> Any:
    """pybtex's BibTeX tokenizer (its patterns and month macros), imported when first read."""
    from pybtex.database.input import bibtex

    return bibtex


@dataclass(frozen=True)
class BibField:
    """One ``name = value`` pair of an entry, or the value of an ``@string``/``@preamble``."""

    name: str
    """Lower-case field name (for ``@string``, the macro's name; ``@preamble``, "preamble")."""
    value: str
    """The value's parts without their delimiters, macros expanded, joined; whitespace
    kept as written (pybtex then makes each run one space). A value longer than
    :data:`MAX_VALUE_CHARS` is not built: this is then the value as written."""
    line: int
    """Line of the field name."""
    unescaped_percent_lines: tuple[int, ...]
    """Lines of each ``%`` that pybtex would read as the start of a comment."""
    name_start: int = 0
    """Offset of the field name in the text."""
    value_span: tuple[int, int] = (0, 0)
    """Offsets of the value in the text, delimiters included."""
    length: int = 0
    """Length of the expanded value (known even when it was not built)."""

    @property
    def is_built(self) -> bool:
        """False when the expanded value was too long to build (``value`` is as written)."""
        return self.length <= MAX_VALUE_CHARS


@dataclass
class BibEntry:
    """One ``@type{...}`` command of the file."""

    entry_type: str
    """Lower-case entry type or command (``misc``, ``string``, ``comment``...)."""
    line: int
    """Line of the ``@``."""
    start: int
    """Offset of the ``@`` in the text."""
    end: int
    """Offset just past the closing delimiter; for an entry pybtex cannot read, the next
    ``@`` that starts a line (or the end of the text)."""
    key: str | None = None
    key_line: int = 0
    fields: list[BibField] = field(default_factory=list)
    braces_balanced: bool = True
    closed_properly: bool = False
    """True when the entry was read up to its closing delimiter without a syntax error."""
    closing: int = -1
    """Offset of the entry's closing delimiter, when it was found."""
    type_span: tuple[int, int] = (0, 0)
    """Offsets of the type name (``misc`` in ``@misc{``)."""

    @property
    def is_citable(self) -> bool:
        return self.entry_type not in NON_ENTRY_COMMANDS and self.key is not None

    @property
    def crossref(self) -> BibField | None:
        """The first ``crossref`` field (the one pybtex keeps)."""
        return next((f for f in self.fields if f.name == "crossref"), None)

    @property
    def longest_field(self) -> int:
        """The length of the entry's longest value, after expansion."""
        return max((bib_field.length for bib_field in self.fields), default=0)

    @property
    def identifiers(self) -> dict[str, str]:
        """Its fields that identify the work (:data:`REPORTED_IDENTIFIER_FIELDS`)."""
        return identifier_fields_of(self)

    def field_value(self, name: str) -> str | None:
        """The first value of field ``name`` (lower-case), as pybtex gives it."""
        for bib_field in self.fields:
            if bib_field.name == name:
                return normalize_whitespace(bib_field.value)
        return None

    def has_nonblank_field(self, name: str) -> bool:
        value = self.field_value(name)
        return bool(value and value.strip("{} "))


class EntryRecord(Protocol):
    """What the archive-wide checks read of a command: a :class:`BibEntry`, or what a
    cache kept of one."""

    @property
    def entry_type(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def key(self) -> str | None: ...
    @property
    def key_line(self) -> int: ...
    @property
    def braces_balanced(self) -> bool: ...
    @property
    def closed_properly(self) -> bool: ...
    @property
    def is_citable(self) -> bool: ...
    @property
    def crossref(self) -> BibField | None: ...
    @property
    def longest_field(self) -> int: ...
    @property
    def identifiers(self) -> Mapping[str, str]: ...


@dataclass
class BibReading:
    """What :func:`read_bib` read: the commands in file order, and why it stopped early."""

    entries: list[BibEntry]
    entry_count: int = 0
    """Citable-type entries read (``@misc``, ``@article``...: not string/preamble/comment)."""
    stopped_after: int | None = None
    """The ``stop_after`` reading was asked to stop at."""
    entries_line: int = 0
    """Line of the entry one past ``stop_after``, where reading stopped (0: it did not)."""
    expansion_line: int = 0
    """Line where the file's expansion passed its allowance and reading stopped (0: it did not)."""
    expanded_chars: int = 0
    """Characters in the values read, after expansion."""
    definitions: list[tuple[str, Macro]] = field(default_factory=list)
    """The ``@string`` macros read, in order (lower-case name, macro)."""
    unsettled: int = 0
    """``@`` signs where no command was read up to its closing delimiter: a stray ``@``,
    or a command with a syntax error."""

    @property
    def stopped(self) -> bool:
        return bool(self.entries_line or self.expansion_line)


def normalize_whitespace(value: str) -> str:
    """pybtex's ``textutils.normalize_whitespace``."""
    return _WHITESPACE_RUN.sub(" ", value.strip())


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

    ``url`` is never read as LaTeX; in ``howpublished`` a ``%`` inside
    ``\\url{...}`` is part of the address.
    """
    if field_name == "url" or "%" not in value:
        return []
    exempt = offsets_inside_url_commands(value) if field_name == "howpublished" else set()
    return [
        offset
        for match in _PERCENT.finditer(value)
        if not is_escaped(value, offset := match.start()) and offset not in exempt
    ]


@dataclass(frozen=True)
class Macro:
    """A macro's expanded length, and its text when it was not too long to build."""

    length: int
    text: str | None


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
_KEPT_READINGS = 2  # the build reads the same file for several outputs


def read_bib(text: str, stop_after: int | None = None) -> BibReading:
    """The commands of ``text``, read as pybtex reads them; with ``stop_after``, reading
    stops at the entry one past that many. One reading per file version is kept."""
    for key in ((text, None), (text, stop_after)):
        if key in _READINGS:
            _READINGS.move_to_end(key)
            return _READINGS[key]
    reading = _Reader(text, stop_after).read()
    _READINGS[(text, None if not reading.entries_line else stop_after)] = reading
    while len(_READINGS) > _KEPT_READINGS:
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


def scan_entries(text: str) -> list[BibEntry]:
    """The commands of ``text`` in file order (a fresh list), read as pybtex reads them."""
    return list(read_bib(text).entries)


def citable_entries(text: str) -> list[BibEntry]:
    return [entry for entry in scan_entries(text) if entry.is_citable]


# What the checks, the editors' tools and the bibliography pages take from the entries.


def parse_bib_keys(text: str) -> dict[str, int]:
    """Entry key -> line of its first occurrence, in file order."""
    return entry_keys(citable_entries(text))


def entry_keys(entries: Iterable[EntryRecord]) -> dict[str, int]:
    """Entry key -> line of its first occurrence, in file order, of ``entries``."""
    keys: dict[str, int] = {}
    folded_keys: set[str] = set()
    for entry in entries:
        if not entry.is_citable:
            continue
        key = entry.key or ""
        if key.lower() not in folded_keys:
            folded_keys.add(key.lower())
            keys[key] = entry.key_line
    return keys


def bib_entry_identifiers(text: str) -> dict[str, dict[str, str]]:
    """Entry key -> {field: value} for its identifier fields (doi, url, eprint...).

    Every entry appears, with an empty mapping when it has none of them; a
    repeated key keeps its first entry, as pybtex does.
    """
    return first_identifiers(read_entries(text))


def first_identifiers(entries: Iterable[EntryRecord]) -> dict[str, dict[str, str]]:
    identifiers: dict[str, dict[str, str]] = {}
    folded_keys: set[str] = set()
    for entry in entries:
        if not entry.is_citable:
            continue
        key = entry.key or ""
        if key.lower() not in folded_keys:
            folded_keys.add(key.lower())
            identifiers[key] = dict(entry.identifiers)
    return identifiers


def identifier_fields_of(entry: BibEntry) -> dict[str, str]:
    found: dict[str, str] = {}
    for name in REPORTED_IDENTIFIER_FIELDS:
        value = entry.field_value(name)
        if value is not None:
            found[name] = value
    return found


def bib_macro_texts(text: str) -> list[str]:
    """The ``@string`` and ``@preamble`` entries, which other entries' formatting uses."""
    return macro_texts(text, read_entries(text))


def macro_texts(text: str, entries: Iterable[EntryRecord]) -> list[str]:
    return [
        text[entry.start : entry.end].strip()
        for entry in entries
        if entry.entry_type in ("string", "preamble")
    ]


def bib_entry_texts(text: str) -> dict[str, str]:
    """Entry key -> the entry exactly as written in the file (for per-issue downloads)."""
    return entry_texts(text, read_entries(text))


def entry_texts(text: str, entries: Iterable[EntryRecord]) -> dict[str, str]:
    return {
        entry.key: text[entry.start : entry.end].strip() + "\n"
        for entry in entries
        if entry.is_citable and entry.key
    }


# What the .bib check by segment read of a file (juju_radar.bib.segment_facts): the same
# commands, with their places and identifiers, so that the build's other uses of the file
# need not read it again.
_KNOWN_ENTRIES: OrderedDict[str, Sequence[EntryRecord]] = OrderedDict()


def remember_entries(text: str, entries: Sequence[EntryRecord]) -> None:
    """``text``'s commands as read segment by segment, the same as :func:`read_bib`'s."""
    _KNOWN_ENTRIES[text] = entries
    _KNOWN_ENTRIES.move_to_end(text)
    while len(_KNOWN_ENTRIES) > _KEPT_READINGS:
        _KNOWN_ENTRIES.popitem(last=False)


def read_entries(text: str) -> Sequence[EntryRecord]:
    """``text``'s commands, as remembered or read now."""
    known = _KNOWN_ENTRIES.get(text)
    return known if known is not None else read_bib(text).entries
