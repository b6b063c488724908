"""Check a BibTeX file's raw text for problems that pybtex would otherwise swallow.

pybtex keeps going (or silently loses text) on several mistakes editors make:
a bare ``%`` ends a field value as a LaTeX comment, a repeated key stops strict
parsing, an unbalanced brace swallows the entries after it.  This module scans
the text itself so each problem comes with the line where it occurs, and runs
pybtex's own parser to report whatever else it rejects.

Entries are found at lines that start with ``@type{`` or ``@type(``; each such
line starts a chunk that runs to the next one, so one broken entry cannot hide
the entries after it.  Nothing here imports Sphinx or docutils, and no public
function raises on any input.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from juju_radar.model.anchors import citation_anchor
from juju_radar.model.problems import Problem

IDENTIFIER_FIELDS = ("doi", "url", "eprint", "isbn", "issn")
"""Fields any one of which lets a reader find the cited work."""

REPORTED_IDENTIFIER_FIELDS = ("doi", "url", "eprint", "archiveprefix", "isbn", "issn", "note")
"""Fields returned by :func:`bib_entry_identifiers` (``note`` often holds an arXiv id)."""

NON_ENTRY_COMMANDS = frozenset({"comment", "string", "preamble"})

_ENTRY_START = re.compile(r"^[ \t]*@[ \t]*([A-Za-z][\w\-]*)[ \t\r\n]*([{(])", re.MULTILINE)
_FIELD_NAME = re.compile(r"[^\s=,{}()\"#%]+")
_BARE_VALUE = re.compile(r"[^\s,#{}()\"]+")
_URL_COMMAND = re.compile(r"\\url\s*\{[^{}]*\}")
_WHITESPACE_RUN = re.compile(r"\s+")
# The characters that matter inside a delimited value (everything else is skipped at once).
_BRACE = re.compile(r"[{}]")
_BRACE_OR_QUOTE = re.compile(r'[{}"]')
_PERCENT = re.compile("%")


@dataclass(frozen=True)
class BibField:
    """One ``name = value`` pair of an entry, as written."""

    name: str
    """Lower-case field name."""
    value: str
    """The value's parts without their delimiters, joined; whitespace kept as written."""
    line: int
    """Line of the field name."""
    unescaped_percent_lines: tuple[int, ...]
    """Lines of each ``%`` that pybtex would read as the start of a comment."""
    name_start: int = 0
    """Offset of the field name in the text."""
    value_span: tuple[int, int] = (0, 0)
    """Offsets of the value in the text, delimiters included."""


@dataclass
class BibEntry:
    """One ``@type{...}`` chunk of the file."""

    entry_type: str
    """Lower-case entry type or command (``misc``, ``string``, ``comment``...)."""
    line: int
    """Line of the ``@``."""
    start: int
    """Offset of the ``@`` in the text."""
    end: int
    """Offset where the next chunk (or the text) starts."""
    key: str | None = None
    key_line: int = 0
    fields: list[BibField] = field(default_factory=list)
    braces_balanced: bool = True
    closed_properly: bool = False
    """True when the field list ended at the entry's closing delimiter."""
    closing: int = -1
    """Offset of the entry's closing delimiter, when it was found."""

    @property
    def is_citable(self) -> bool:
        return self.entry_type not in NON_ENTRY_COMMANDS and self.key is not None

    def field_value(self, name: str) -> str | None:
        """The first value of field ``name`` (lower-case), whitespace-normalized."""
        for bib_field in self.fields:
            if bib_field.name == name:
                return normalize_whitespace(bib_field.value)
        return None

    def has_nonblank_field(self, name: str) -> bool:
        value = self.field_value(name)
        return bool(value and value.strip("{} "))


def normalize_whitespace(value: str) -> str:
    return _WHITESPACE_RUN.sub(" ", value).strip()


class LineIndex:
    """Maps text offsets to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self._line_starts = [0] + [match.end() for match in re.finditer(r"\r\n|\r|\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset)


# ---------------------------------------------------------------------------
# Scanning the text into entries
# ---------------------------------------------------------------------------


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
    if field_name == "url":
        return []
    exempt = offsets_inside_url_commands(value) if field_name == "howpublished" else set()
    return [
        offset
        for match in _PERCENT.finditer(value)
        if not is_escaped(value, offset := match.start()) and offset not in exempt
    ]


class EntryScanner:
    """Reads one entry chunk the way BibTeX does, without ever raising."""

    def __init__(self, text: str, lines: LineIndex, entry: BibEntry, body_start: int) -> None:
        self.text = text
        self.lines = lines
        self.entry = entry
        self.pos = body_start
        self.end = entry.end
        self.value_end = body_start

    def close_entry(self) -> None:
        self.entry.closed_properly = True
        self.entry.closing = self.pos

    def skip_whitespace(self) -> None:
        while self.pos < self.end and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < self.end else ""

    def read_key(self, closing: str) -> None:
        self.skip_whitespace()
        stop_characters = ",\t\n\r " + ("}" if closing == "}" else "")
        key_start = self.pos
        while self.pos < self.end and self.text[self.pos] not in stop_characters:
            self.pos += 1
        if self.pos > key_start:
            self.entry.key = self.text[key_start : self.pos]
            self.entry.key_line = self.lines.line_of(key_start)

    def read_delimited(self, closing: str) -> tuple[int, int] | None:
        """Read a ``{...}`` or ``"..."`` part; return its content span, or None if unclosed."""
        content_start = self.pos
        depth = 0
        special = _BRACE if closing == "}" else _BRACE_OR_QUOTE
        while match := special.search(self.text, self.pos, self.end):
            character = match.group()
            self.pos = match.end()
            if character == "{":
                depth += 1
            elif character == "}":
                if depth == 0:
                    return (content_start, self.pos - 1) if closing == "}" else None
                depth -= 1
            elif character == closing and depth == 0:
                return content_start, self.pos - 1
        self.pos = self.end
        return None

    def read_value_part(self) -> tuple[int, int] | None:
        """Read one part of a value; return its span (delimiters excluded)."""
        self.skip_whitespace()
        opener = self.peek()
        if opener in ("{", '"'):
            self.pos += 1
            return self.read_delimited("}" if opener == "{" else '"')
        match = _BARE_VALUE.match(self.text, self.pos, self.end)
        if not match:
            return None
        self.pos = match.end()
        return match.span()

    def read_value(self) -> list[tuple[int, int]] | None:
        """Read ``part # part # ...``; None when the value is broken."""
        parts: list[tuple[int, int]] = []
        while True:
            part = self.read_value_part()
            if part is None:
                return None
            parts.append(part)
            self.value_end = self.pos
            self.skip_whitespace()
            if self.peek() != "#":
                return parts
            self.pos += 1

    def make_field(
        self, name: str, name_start: int, parts: list[tuple[int, int]], value_start: int
    ) -> BibField:
        percent_lines: list[int] = []
        for part_start, part_end in parts:
            value_part = self.text[part_start:part_end]
            percent_lines.extend(
                self.lines.line_of(part_start + offset)
                for offset in unescaped_percent_offsets(value_part, name)
            )
        return BibField(
            name=name,
            value="".join(self.text[start:end] for start, end in parts),
            line=self.lines.line_of(name_start),
            unescaped_percent_lines=tuple(percent_lines),
            name_start=name_start,
            value_span=(value_start, self.value_end),
        )

    def read_fields(self, closing: str) -> None:
        """Read ``name = value`` pairs up to the entry's closing delimiter."""
        while True:
            self.skip_whitespace()
            if self.peek() == closing:
                self.close_entry()
                return
            name_match = _FIELD_NAME.match(self.text, self.pos, self.end)
            if not name_match:
                return
            self.pos = name_match.end()
            self.skip_whitespace()
            if self.peek() != "=":
                return
            self.pos += 1
            self.skip_whitespace()
            value_start = self.pos
            parts = self.read_value()
            if parts is None:
                return
            self.entry.fields.append(
                self.make_field(name_match.group().lower(), name_match.start(), parts, value_start)
            )
            self.skip_whitespace()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() == closing:
                self.close_entry()
                return
            else:
                return


def find_entry_starts(text: str) -> list[re.Match[str]]:
    return list(_ENTRY_START.finditer(text))


def scan_entries(text: str) -> list[BibEntry]:
    """Split ``text`` into entries and read each one's key and fields (a fresh list)."""
    return list(_scan_entries(text))


@lru_cache(maxsize=2)
def _scan_entries(text: str) -> tuple[BibEntry, ...]:
    """One scan per file version: the build reads the same file for several outputs."""
    return tuple(_scan(text))


def _scan(text: str) -> list[BibEntry]:
    lines = LineIndex(text)
    starts = find_entry_starts(text)
    entries: list[BibEntry] = []
    for index, start_match in enumerate(starts):
        chunk_end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        at_offset = text.index("@", start_match.start())
        entry = BibEntry(
            entry_type=start_match.group(1).lower(),
            line=lines.line_of(at_offset),
            start=at_offset,
            end=chunk_end,
        )
        if entry.entry_type != "comment":
            entry.braces_balanced = braces_balance(text[at_offset:chunk_end])
            read_entry_body(text, lines, entry, start_match)
        entries.append(entry)
    return entries


def read_entry_body(text: str, lines: LineIndex, entry: BibEntry, start: re.Match[str]) -> None:
    closing = "}" if start.group(2) == "{" else ")"
    scanner = EntryScanner(text, lines, entry, start.end())
    if entry.entry_type == "preamble":
        return
    if entry.entry_type != "string":
        scanner.read_key(closing)
        scanner.skip_whitespace()
        if scanner.peek() == closing:
            scanner.close_entry()
            return
        if scanner.peek() != ",":
            return
        scanner.pos += 1
    scanner.read_fields(closing)


def citable_entries(text: str) -> list[BibEntry]:
    return [entry for entry in scan_entries(text) if entry.is_citable]


# ---------------------------------------------------------------------------
# pybtex's own verdict
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PybtexComplaint:
    """An error pybtex reported, with where it was when it did."""

    message: str
    line: int | None
    entry_offset: int | None
    entry_key: str | None
    kind: str


def message_without_line(error: BaseException) -> str:
    """pybtex's message minus its "in line N", which the Problem's line replaces."""
    error_type = getattr(error, "error_type", None)
    bare_message = Exception.__str__(error)
    return f"{error_type}: {bare_message}" if error_type else bare_message


def run_pybtex_parser(text: str) -> list[PybtexComplaint]:
    """Parse ``text`` with pybtex's BibTeX parser and collect every error it reports.

    This is what ``pybtex.database.parse_string(text, "bibtex")`` runs, with the
    error hook collecting instead of raising so that one error does not hide the
    next, and with each error tied to the entry pybtex was reading.
    """
    try:
        import pybtex.errors
        from pybtex.database.input.bibtex import Parser
        from pybtex.scanner import PybtexSyntaxError
    except Exception as error:  # pragma: no cover - pybtex is a dependency
        return [PybtexComplaint(f"pybtex unavailable: {error}", None, None, None, "error")]

    complaints: list[PybtexComplaint] = []

    def complaint_from(error: BaseException, entry_key: str | None) -> PybtexComplaint:
        line = getattr(error, "lineno", None) if isinstance(error, PybtexSyntaxError) else None
        context = getattr(error, "error_context_info", None)
        entry_offset = context[0] if isinstance(context, tuple) and len(context) == 3 else None
        return PybtexComplaint(
            message_without_line(error), line, entry_offset, entry_key, type(error).__name__
        )

    class CollectingParser(Parser):
        def handle_error(self, error: BaseException) -> None:
            complaints.append(complaint_from(error, None))

        def process_entry(self, entry_type: str, key: str | None, fields: object) -> None:
            with pybtex.errors.capture() as reported:
                try:
                    super().process_entry(entry_type, key, fields)
                except Exception as error:
                    reported.append(error)
            complaints.extend(complaint_from(error, key) for error in reported)

    try:
        CollectingParser().parse_string(text)
    except Exception as error:
        complaints.append(complaint_from(error, None))
    return complaints


# ---------------------------------------------------------------------------
# Problems
# ---------------------------------------------------------------------------


def duplicate_key_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    first_line_of_key: dict[str, int] = {}
    for entry in entries:
        folded_key = (entry.key or "").lower()
        if folded_key in first_line_of_key:
            yield Problem(
                path,
                entry.key_line,
                "error",
                "duplicate-key",
                f"entry key '{entry.key}' is already used on line "
                f"{first_line_of_key[folded_key]} (keys are case-insensitive); "
                "pybtex stops reading entries here",
            )
        else:
            first_line_of_key[folded_key] = entry.key_line


def anchor_clash_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """Keys that differ in punctuation or accents only (``foo_bar``, ``foo.bar``,
    ``café``, ``cafe``): a page that lists
    both would give them one anchor, and links would land on the first."""
    first: dict[str, BibEntry] = {}
    for entry in entries:
        if entry.key is None:
            continue
        earlier = first.setdefault(citation_anchor(entry.key), entry)
        if earlier is not entry and earlier.key and earlier.key.lower() != entry.key.lower():
            yield Problem(
                path,
                entry.key_line,
                "error",
                "anchor-clash",
                f"entry key '{entry.key}' differs from '{earlier.key}' (line "
                f"{earlier.key_line}) only in punctuation or accents: both would be the anchor "
                f"#{citation_anchor(entry.key)} on the page; rename one",
            )


def unbalanced_brace_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        if not entry.braces_balanced:
            name = f"entry '{entry.key}'" if entry.key else f"@{entry.entry_type}"
            yield Problem(
                path,
                entry.line,
                "error",
                "unbalanced-braces",
                f"{name} has unbalanced braces: a missing or extra '{{' or '}}' "
                "makes BibTeX read into the entries that follow",
            )


def unescaped_percent_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        for bib_field in entry.fields:
            for line in bib_field.unescaped_percent_lines:
                yield Problem(
                    path,
                    line,
                    "error",
                    "unescaped-percent",
                    f"unescaped '%' in field '{bib_field.name}' of "
                    f"{entry_label(entry)}: pybtex drops the rest of the field; write '\\%'",
                )


def duplicate_field_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        seen_names: set[str] = set()
        for bib_field in entry.fields:
            if bib_field.name in seen_names:
                yield Problem(
                    path,
                    bib_field.line,
                    "error",
                    "bib-syntax",
                    f"{entry_label(entry)} has a second '{bib_field.name}' field; "
                    "pybtex ignores it",
                )
            seen_names.add(bib_field.name)


def missing_field_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        if not entry.is_citable or not entry.closed_properly:
            continue
        if not entry.has_nonblank_field("title"):
            yield Problem(
                path,
                entry.line,
                "error",
                "missing-title",
                f"{entry_label(entry)} has no title",
            )
        if not any(entry.has_nonblank_field(name) for name in IDENTIFIER_FIELDS):
            yield Problem(
                path,
                entry.line,
                "note",
                "missing-identifier",
                f"{entry_label(entry)} has no DOI/URL/arXiv id/ISBN: an editor must complete it",
            )


WEB_URL = re.compile(r"^\s*(https?|ftp)://", re.IGNORECASE)


def unsafe_url_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """A ``url`` that is not a web address (``javascript:``, ``data:``...) is refused."""
    for entry in entries:
        for bib_field in entry.fields:
            value = normalize_whitespace(bib_field.value).strip("{} ")
            if bib_field.name == "url" and value and not WEB_URL.match(value):
                yield Problem(
                    path,
                    bib_field.line,
                    "error",
                    "unsafe-url",
                    f"{entry_label(entry)} has a url that is not an http(s) address: {value!r}",
                )


# pybtex resolves a crossref recursively: a loop or a long chain raises RecursionError
# with no file or line. A reference and the book it is in make one level.
MAX_CROSSREF_DEPTH = 3
# A field longer than this is no title, note or abstract an editor wrote.
MAX_FIELD_CHARS = 20_000


def crossref_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """A ``crossref`` that leads back to its entry, or through too many entries."""
    parent = {
        entry.key.lower(): (entry.field_value("crossref") or "").strip("{} ").lower()
        for entry in entries
        if entry.is_citable and entry.key
    }
    for entry in entries:
        crossref = next((f for f in entry.fields if f.name == "crossref"), None)
        if crossref is None or not entry.key:
            continue
        chain = crossref_chain(entry.key.lower(), parent)
        if chain[-1] in chain[:-1]:
            loop = " → ".join(chain)
            yield Problem(path, crossref.line, "error", "crossref-loop", f"crossref loop: {loop}")
        elif len(chain) - 1 > MAX_CROSSREF_DEPTH:
            yield Problem(
                path,
                crossref.line,
                "error",
                "crossref-depth",
                f"{entry_label(entry)}: a crossref chain of {len(chain) - 1} entries "
                f"(at most {MAX_CROSSREF_DEPTH}): {' → '.join(chain)}",
            )


def crossref_chain(key: str, parent: dict[str, str]) -> list[str]:
    """``key`` and the entries its crossref leads to, ending at the first one seen twice,
    the first without a crossref, or one past the depth allowed."""
    chain = [key]
    while (following := parent.get(chain[-1])) and len(chain) <= MAX_CROSSREF_DEPTH + 1:
        chain.append(following)
        if following in chain[:-1]:
            break
    return chain


def long_field_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        for bib_field in entry.fields:
            if len(bib_field.value) > MAX_FIELD_CHARS:
                yield Problem(
                    path,
                    bib_field.line,
                    "error",
                    "field-too-long",
                    f"{entry_label(entry)}: field '{bib_field.name}' has "
                    f"{len(bib_field.value):,} characters (at most {MAX_FIELD_CHARS:,})",
                )


def entry_label(entry: BibEntry) -> str:
    return f"entry '{entry.key}'" if entry.key else f"@{entry.entry_type} entry"


def is_already_reported(complaint: PybtexComplaint) -> bool:
    """Errors this module reports itself, with a better line and message."""
    repeated_entry = complaint.kind == "BibliographyDataError" and complaint.message.startswith(
        "repeated bibliography entry"
    )
    return repeated_entry or complaint.kind == "DuplicateField"


def entry_containing(entries: list[BibEntry], offset: int) -> BibEntry | None:
    for entry in entries:
        if entry.start <= offset < entry.end:
            return entry
    return None


def complaint_line(
    complaint: PybtexComplaint,
    entries: list[BibEntry],
    keyed_lines: dict[str, int],
    lines: LineIndex,
) -> int:
    """The line to blame: a stray ``@``'s own line, else where pybtex stopped."""
    at_offset = complaint.entry_offset
    if at_offset is not None and all(entry.start != at_offset for entry in entries):
        return lines.line_of(at_offset)
    if complaint.line is not None:
        return complaint.line
    if complaint.entry_key is not None:
        return keyed_lines.get(complaint.entry_key.lower(), 1)
    return 1


def bib_syntax_problems(text: str, entries: list[BibEntry], path: str) -> Iterator[Problem]:
    lines = LineIndex(text)
    keyed_lines: dict[str, int] = {}
    for entry in entries:
        if entry.is_citable and entry.key is not None:
            keyed_lines.setdefault(entry.key.lower(), entry.key_line)
    for complaint in run_pybtex_parser(text):
        if is_already_reported(complaint):
            continue
        if complaint.entry_offset is not None:
            failing_entry = entry_containing(entries, complaint.entry_offset)
            if failing_entry is not None and not failing_entry.braces_balanced:
                continue
        yield Problem(
            path,
            complaint_line(complaint, entries, keyed_lines, lines),
            "error",
            "bib-syntax",
            f"pybtex cannot read this: {complaint.message}",
        )


def check_bib_text(text: str, path: str) -> list[Problem]:
    """All problems in the BibTeX ``text`` of file ``path``, sorted by line."""
    try:
        entries = scan_entries(text)
        citable = [entry for entry in entries if entry.is_citable]
        problems = [
            *duplicate_key_problems(citable, path),
            *anchor_clash_problems(citable, path),
            *unbalanced_brace_problems(entries, path),
            *unescaped_percent_problems(entries, path),
            *duplicate_field_problems(entries, path),
            *missing_field_problems(entries, path),
            *unsafe_url_problems(entries, path),
            *crossref_problems(entries, path),
            *long_field_problems(entries, path),
            *bib_syntax_problems(text, entries, path),
        ]
    except Exception as error:  # a bug in a checker: reported, never swallowed
        return [internal_error(path, error)]
    return sorted(problems, key=lambda problem: problem.line)


def internal_error(path: str, error: Exception) -> Problem:
    return Problem(
        path,
        1,
        "error",
        "internal-error",
        f"the .bib check failed ({type(error).__name__}: {error}); please report it, it is a bug",
    )


def parse_bib_keys(text: str) -> dict[str, int]:
    """Entry key -> line of its first occurrence, in file order."""
    keys: dict[str, int] = {}
    folded_keys: set[str] = set()
    for entry in citable_entries(text):
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
    identifiers: dict[str, dict[str, str]] = {}
    folded_keys: set[str] = set()
    for entry in citable_entries(text):
        key = entry.key or ""
        if key.lower() not in folded_keys:
            folded_keys.add(key.lower())
            identifiers[key] = identifier_fields_of(entry)
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
    return [
        text[entry.start : entry.end].strip()
        for entry in scan_entries(text)
        if entry.entry_type in ("string", "preamble")
    ]


def bib_entry_texts(text: str) -> dict[str, str]:
    """Entry key -> the entry exactly as written in the file (for per-issue downloads)."""
    return {
        entry.key: text[entry.start : entry.end].strip() + "\n"
        for entry in citable_entries(text)
        if entry.key
    }
