"""What the reader (:func:`juju_radar.bib.reader.read_bib`) reads of a .bib file: its
commands, their fields and ``@string`` macros, and the reading as a whole; and what the
checks between entries read of a command (:class:`EntryRecord`). Nothing here imports
Sphinx or docutils."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

NON_ENTRY_COMMANDS = frozenset({"comment", "string", "preamble"})

IDENTIFIER_FIELDS = ("doi", "url", "eprint", "isbn", "issn")
"""Fields any one of which lets a reader find the cited work."""

REPORTED_IDENTIFIER_FIELDS = ("doi", "url", "eprint", "archiveprefix", "isbn", "issn", "note")
"""Fields returned by :func:`~juju_radar.bib.file_entries.bib_entry_identifiers`
(``note`` often holds an arXiv id)."""

MAX_VALUE_CHARS = 1_000_000
"""No expanded value longer than this is built; ``radar_bib_max_field_chars`` is at most this."""

_WHITESPACE_RUN = re.compile(r"\s+")


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


Record = TypeVar("Record", bound=EntryRecord)
"""A :class:`BibEntry` or another :class:`EntryRecord`, as a rule is given it."""


@dataclass(frozen=True)
class Macro:
    """A macro's expanded length, and its text when it was not too long to build."""

    length: int
    text: str | None


@dataclass
class BibReading:
    """What :func:`~juju_radar.bib.reader.read_bib` read: the commands in file order, and
    why it stopped early."""

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


def identifier_fields_of(entry: BibEntry) -> dict[str, str]:
    found: dict[str, str] = {}
    for name in REPORTED_IDENTIFIER_FIELDS:
        value = entry.field_value(name)
        if value is not None:
            found[name] = value
    return found
