"""Check a BibTeX file for problems that pybtex would otherwise swallow or crash on.

pybtex keeps going (or silently loses text) on several mistakes editors make:
a bare ``%`` ends a field value as a LaTeX comment, a repeated key stops strict
parsing, an unbalanced brace swallows the entries after it; a ``crossref`` loop, or a
LaTeX command the build cannot turn into text, stops the build with a traceback.
The file is read once, as pybtex reads it (:mod:`juju_radar.bib.reader`), so that each
problem comes with the line where it occurs; pybtex's own parser then reports whatever
else it rejects, and each entry that holds LaTeX is converted as the build converts it.

The file's size is bounded (:class:`BibLimits`, ``radar_bib_max_entries`` and
``radar_bib_max_field_chars`` in ``conf.py``): past a limit the check stops reading and
refuses the file in seconds, after ``@string`` expansion measured without building it.
Nothing here imports Sphinx or docutils, and no public function raises on any input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from juju_radar.bib.archived import ARCHIVE_URL_FIELD
from juju_radar.bib.reader import (
    EXPANSION_ALLOWANCE,
    IDENTIFIER_FIELDS,
    MAX_VALUE_CHARS,
    NON_ENTRY_COMMANDS,
    BibEntry,
    BibField,
    BibReading,
    EntryRecord,
    LineIndex,
    normalize_whitespace,
    read_bib,
)
from juju_radar.bib.typesetting import TEXT_ESCAPES, VERBATIM_FIELDS, bare_specials
from juju_radar.model.anchors import citation_anchor
from juju_radar.model.messages import _, current_language
from juju_radar.model.page import forbidden_characters, page_lines
from juju_radar.model.problems import Problem

PERSON_FIELDS = frozenset({"author", "editor"})
"""pybtex's ``Person.valid_roles``: read as lists of names."""

Record = TypeVar("Record", bound=EntryRecord)


# ---------------------------------------------------------------------------
# Limits
# ---------------------------------------------------------------------------

DEFAULT_MAX_ENTRIES = 100_000
"""Entries in one .bib file: a ten-year archive cites some 30,000 references."""
DEFAULT_MAX_FIELD_CHARS = 20_000
"""Characters in one field after ``@string`` expansion: no title, note or abstract is longer."""


@dataclass(frozen=True)
class BibLimits:
    """How large a .bib file may be (``radar_bib_max_entries``, ``radar_bib_max_field_chars``)."""

    max_entries: int = DEFAULT_MAX_ENTRIES
    max_field_chars: int = DEFAULT_MAX_FIELD_CHARS


DEFAULT_BIB_LIMITS = BibLimits()


def read_bib_limits(max_entries: object, max_field_chars: object) -> BibLimits | str:
    """The limits ``conf.py`` sets, or why they are wrong."""
    for name, value, ceiling in (
        ("radar_bib_max_entries", max_entries, None),
        ("radar_bib_max_field_chars", max_field_chars, MAX_VALUE_CHARS),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            return _("{name} must be a whole number of at least 1, not {value!r}").format(
                name=name, value=value
            )
        if ceiling is not None and value > ceiling:
            return _("{name} may be at most {ceiling:,}, not {value:,}").format(
                name=name, ceiling=ceiling, value=value
            )
    assert isinstance(max_entries, int) and isinstance(max_field_chars, int)
    return BibLimits(max_entries, max_field_chars)


def too_many_entries_line(reading: BibReading, max_entries: int) -> int:
    """The line of the first entry past ``max_entries``."""
    if reading.entries_line:
        return reading.entries_line
    count = 0
    for entry in reading.entries:
        if entry.entry_type not in NON_ENTRY_COMMANDS:
            count += 1
            if count > max_entries:
                return entry.line
    return 1  # pragma: no cover - only called with more entries than that


def reading_limit_problems(reading: BibReading, path: str, limits: BibLimits) -> Iterator[Problem]:
    """The limits past which the file is not read to its end: nothing else is checked."""
    if reading.entry_count > limits.max_entries:
        yield Problem(
            path,
            too_many_entries_line(reading, limits.max_entries),
            "error",
            "too-many-entries",
            _(
                "more than {count:,} entries (radar_bib_max_entries in conf.py): "
                "this is the first entry past the limit, and the file is not read further"
            ).format(count=limits.max_entries),
        )
    if reading.expansion_line:
        yield Problem(
            path,
            reading.expansion_line,
            "error",
            "expansion-too-large",
            _(
                "@string macros expand the file past twice its length plus "
                "{allowance:,} characters here (a macro repeating another?); "
                "the file is not read further"
            ).format(allowance=EXPANSION_ALLOWANCE),
        )


def long_field_problems(entries: list[BibEntry], path: str, max_chars: int) -> Iterator[Problem]:
    """Fields, ``@string`` macros and ``@preamble`` values over the limit, after expansion."""
    for entry in entries:
        for bib_field in entry.fields:
            if bib_field.length <= max_chars:
                continue
            if entry.entry_type == "string":
                message = _(
                    "@string '{name}' expands to {length:,} characters after @string "
                    "expansion (at most {most:,}: radar_bib_max_field_chars in conf.py)"
                )
            elif entry.entry_type == "preamble":
                message = _(
                    "@preamble holds {length:,} characters after @string expansion "
                    "(at most {most:,}: radar_bib_max_field_chars in conf.py)"
                )
            else:
                message = _(
                    "{entry}: field '{name}' has {length:,} characters after @string "
                    "expansion (at most {most:,}: radar_bib_max_field_chars in conf.py)"
                )
            yield Problem(
                path,
                bib_field.line,
                "error",
                "field-too-long",
                message.format(
                    entry=entry_label(entry),
                    name=bib_field.name,
                    length=bib_field.length,
                    most=max_chars,
                ),
            )


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
    syntax_error: bool = False
    """pybtex stopped reading the command here (not an undefined macro, which it reads as
    empty and goes on)."""


@dataclass(frozen=True)
class PybtexReading:
    """What pybtex's parser read of a text, and the ``@string`` macros in effect after it."""

    data: Any
    """A ``BibliographyData``; None if pybtex stopped."""
    complaints: list[PybtexComplaint]
    macros: Mapping[str, str]
    """Lower-case name -> value, pybtex's month names included."""


def message_without_line(error: BaseException) -> str:
    """pybtex's message minus its "in line N", which the Problem's line replaces."""
    error_type = getattr(error, "error_type", None)
    bare_message = Exception.__str__(error)
    return f"{error_type}: {bare_message}" if error_type else bare_message


def pybtex_reading(text: str) -> tuple[Any, list[PybtexComplaint]]:
    """Parse ``text`` with pybtex's BibTeX parser: what it read (a ``BibliographyData``,
    None if it stopped) and every error it reported.

    This is what ``pybtex.database.parse_string(text, "bibtex")`` runs, with the
    error hook collecting instead of raising so that one error does not hide the
    next, and with each error tied to the entry pybtex was reading. Only call it on a
    text :func:`read_bib` read to its end: pybtex builds every ``@string`` in full.
    """
    reading = pybtex_parse(text)
    return reading.data, reading.complaints


def pybtex_parse(text: str, macros: Mapping[str, str] | None = None) -> PybtexReading:
    """:func:`pybtex_reading` of ``text`` with ``macros`` in effect (pybtex's month
    names when None), and the macros in effect after it."""
    try:
        parser_class = _collecting_parser()
    except Exception as error:  # pragma: no cover - pybtex is a dependency
        unavailable = _("pybtex unavailable: {error}").format(error=error)
        return PybtexReading(None, [PybtexComplaint(unavailable, None, None, None, "error")], {})
    parser = parser_class() if macros is None else parser_class(macros=macros)
    parser.complaints = complaints = []
    try:
        parser.parse_string(text)
    except Exception as error:
        complaints.append(complaint_from(error, None))
        return PybtexReading(None, complaints, {})
    if macros is not None and not _MAY_DEFINE_MACRO.search(text):
        return PybtexReading(parser.data, complaints, macros)
    in_effect = {name.lower(): value for name, value in parser.macros.items()}
    return PybtexReading(parser.data, complaints, in_effect)


_MAY_DEFINE_MACRO = re.compile(r"@\s*string", re.IGNORECASE)


@cache
def _collecting_parser() -> type[Any]:
    """pybtex's ``Parser``, its errors collected in ``complaints`` instead of raised."""
    import pybtex.errors
    from pybtex.database.input.bibtex import Parser

    class CollectingParser(Parser):  # type: ignore[misc]
        complaints: list[PybtexComplaint]

        def handle_error(self, error: BaseException) -> None:
            self.complaints.append(complaint_from(error, None))

        def process_entry(self, entry_type: str, key: str | None, fields: object) -> None:
            with pybtex.errors.capture() as reported:
                try:
                    super().process_entry(entry_type, key, fields)
                except Exception as error:
                    reported.append(error)
            self.complaints.extend(complaint_from(error, key) for error in reported)

    return CollectingParser


def complaint_from(error: BaseException, entry_key: str | None) -> PybtexComplaint:
    from pybtex.database.input.bibtex import UndefinedMacro
    from pybtex.scanner import PybtexSyntaxError

    syntax_error = isinstance(error, PybtexSyntaxError)
    line = getattr(error, "lineno", None) if syntax_error else None
    context = getattr(error, "error_context_info", None)
    entry_offset = context[0] if isinstance(context, tuple) and len(context) == 3 else None
    stopped = syntax_error and not isinstance(error, UndefinedMacro)
    return PybtexComplaint(
        message_without_line(error),
        line,
        entry_offset,
        entry_key,
        type(error).__name__,
        syntax_error=stopped,
    )


# ---------------------------------------------------------------------------
# Problems
# ---------------------------------------------------------------------------


def duplicate_key_problems(entries: Iterable[EntryRecord], path: str) -> Iterator[Problem]:
    first_line_of_key: dict[str, int] = {}
    for entry in entries:
        folded_key = (entry.key or "").lower()
        if folded_key in first_line_of_key:
            yield Problem(
                path,
                entry.key_line,
                "error",
                "duplicate-key",
                _(
                    "entry key '{key}' is already used on line {line} (keys are "
                    "case-insensitive); pybtex stops reading entries here"
                ).format(key=entry.key, line=first_line_of_key[folded_key]),
            )
        else:
            first_line_of_key[folded_key] = entry.key_line


def anchor_clash_problems(
    entries: Iterable[Record], path: str, anchor_of: Callable[[Record], str] | None = None
) -> Iterator[Problem]:
    """Keys that differ in punctuation or accents only (``foo_bar``, ``foo.bar``,
    ``café``, ``cafe``): a page that lists
    both would give them one anchor, and links would land on the first. ``anchor_of``:
    an entry's anchor, when it is known already."""
    first: dict[str, Record] = {}
    for entry in entries:
        if entry.key is None:
            continue
        anchor = citation_anchor(entry.key) if anchor_of is None else anchor_of(entry)
        earlier = first.setdefault(anchor, entry)
        if earlier is not entry and earlier.key and earlier.key.lower() != entry.key.lower():
            yield Problem(
                path,
                entry.key_line,
                "error",
                "anchor-clash",
                _(
                    "entry key '{key}' differs from '{other}' (line {line}) only in "
                    "punctuation or accents: both would be the anchor #{anchor} on the page; "
                    "rename one"
                ).format(
                    key=entry.key,
                    other=earlier.key,
                    line=earlier.key_line,
                    anchor=anchor,
                ),
            )


def unbalanced_brace_problems(entries: Iterable[EntryRecord], path: str) -> Iterator[Problem]:
    for entry in entries:
        if not entry.braces_balanced:
            name = _("entry '{key}'").format(key=entry.key) if entry.key else f"@{entry.entry_type}"
            yield Problem(
                path,
                entry.line,
                "error",
                "unbalanced-braces",
                _(
                    "{name} has unbalanced braces: a missing or extra '{opening}' or "
                    "'{closing}' makes BibTeX read into the entries that follow"
                ).format(name=name, opening="{", closing="}"),
            )


def unescaped_percent_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        if entry.entry_type == "preamble":  # never shown
            continue
        for bib_field in entry.fields:
            for line in bib_field.unescaped_percent_lines:
                yield Problem(
                    path,
                    line,
                    "error",
                    "unescaped-percent",
                    _(
                        "unescaped '%' in field '{name}' of {entry}: pybtex drops the rest "
                        "of the field; write '\\%'"
                    ).format(name=bib_field.name, entry=entry_label(entry)),
                )


def untypesettable_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """A ``^``, ``_``, ``&`` or ``#`` outside math in a text field: shown as written on
    the pages, escaped in the downloads, but LaTeX stops on it where references.bib is
    used as it stands."""
    for entry in entries:
        if not entry.is_citable:
            continue
        for bib_field in entry.fields:
            if bib_field.name in VERBATIM_FIELDS or not bib_field.is_built:
                continue
            found = bare_specials(bib_field.value)
            if found:
                written = listed(
                    _("'{character}' as '{command}'").format(character=c, command=TEXT_ESCAPES[c])
                    for c in dict.fromkeys(found)
                )
                yield Problem(
                    path,
                    bib_field.line,
                    "note",
                    "latex-special",
                    _(
                        "field '{name}' of {entry} holds what LaTeX reads as math or markup; "
                        "the downloads escape it: write {written} for LaTeX users of "
                        "references.bib itself"
                    ).format(name=bib_field.name, entry=entry_label(entry), written=written),
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
                    _("{entry} has a second '{name}' field; pybtex ignores it").format(
                        entry=entry_label(entry), name=bib_field.name
                    ),
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
                _("{entry} has no title").format(entry=entry_label(entry)),
            )
        if not any(entry.has_nonblank_field(name) for name in IDENTIFIER_FIELDS):
            yield Problem(
                path,
                entry.line,
                "note",
                "missing-identifier",
                _("{entry} has no DOI/URL/arXiv id/ISBN: an editor must complete it").format(
                    entry=entry_label(entry)
                ),
            )


WEB_URL = re.compile(r"^\s*(https?|ftp)://", re.IGNORECASE)


def unsafe_url_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """A ``url`` that is not a web address (``javascript:``, ``data:``...) is refused."""
    for entry in entries:
        if not entry.is_citable:
            continue
        for bib_field in entry.fields:
            value = normalize_whitespace(bib_field.value).strip("{} ")
            if bib_field.name in ("url", ARCHIVE_URL_FIELD) and value and not WEB_URL.match(value):
                yield Problem(
                    path,
                    bib_field.line,
                    "error",
                    "unsafe-url",
                    _("{entry} has a {name} that is not an http(s) address: {value!r}").format(
                        entry=entry_label(entry), name=bib_field.name, value=value
                    ),
                )


# pybtex resolves a crossref recursively: a loop or a long chain raises RecursionError
# with no file or line. A reference and the book it is in make one level.
MAX_CROSSREF_DEPTH = 3


def crossref_problems(entries: Sequence[EntryRecord], path: str) -> Iterator[Problem]:
    """A ``crossref`` (its value as pybtex reads it, macros expanded) that names no entry,
    leads back to its entry, or goes through too many entries."""
    parent = crossref_parents(entries)
    for entry in entries:
        crossref = entry.crossref
        if crossref is None or not entry.is_citable or not entry.key:
            continue
        target = normalize_whitespace(crossref.value)
        if target.lower() not in parent:
            yield Problem(
                path,
                crossref.line,
                "error",
                "crossref-missing",
                _("{entry}: crossref {target!r} names no entry of this file").format(
                    entry=entry_label(entry), target=target
                ),
            )
            continue
        chain = crossref_chain(entry.key.lower(), parent)
        if chain[-1] in chain[:-1]:
            loop = " → ".join(chain)
            message = _("crossref loop: {loop}").format(loop=loop)
            yield Problem(path, crossref.line, "error", "crossref-loop", message)
        elif len(chain) - 1 > MAX_CROSSREF_DEPTH:
            yield Problem(
                path,
                crossref.line,
                "error",
                "crossref-depth",
                _("{entry}: a crossref chain of {count} entries (at most {most}): {chain}").format(
                    entry=entry_label(entry),
                    count=len(chain) - 1,
                    most=MAX_CROSSREF_DEPTH,
                    chain=" → ".join(chain),
                ),
            )


def crossref_parents(entries: Iterable[EntryRecord]) -> dict[str, str]:
    """Folded key -> the folded key its crossref names ("" for none), first entry of a key."""
    parent: dict[str, str] = {}
    for entry in entries:
        if entry.is_citable and entry.key:
            crossref = entry.crossref
            target = normalize_whitespace(crossref.value) if crossref is not None else ""
            parent.setdefault(entry.key.lower(), target.lower())
    return parent


def crossref_chain(key: str, parent: dict[str, str]) -> list[str]:
    """``key`` and the entries its crossref leads to, ending at the first one seen twice,
    the first without a crossref, or one past the depth allowed."""
    chain = [key]
    while (following := parent.get(chain[-1])) and len(chain) <= MAX_CROSSREF_DEPTH + 1:
        chain.append(following)
        if following in chain[:-1]:
            break
    return chain


# ---------------------------------------------------------------------------
# LaTeX the build cannot convert
# ---------------------------------------------------------------------------

_LATEX_COMMAND = re.compile(r"\\(?:[A-Za-z@]+|.)?")
# A backslash that is not one of the escapes both converters always read (``\'``, ``\%``,
# ``\{``...): a command name, a space, the end of the value or anything else. A value
# without one converts (tests/test_bib_reader.py), unless a bare ``%`` is in it, which
# ``unescaped-percent`` refuses.
_RISKY_BACKSLASH = re.compile(r"""\\(?:[^'"^`~=.%&#_${}\\\-,;:!?@*()\[\]0-9]|$)""")
# In a list of names, pybtex splits at commas, ties and hyphens too: "\," leaves a "\".
_RISKY_BACKSLASH_IN_NAMES = re.compile(r"""\\(?:[^'"^`=.%&#_${}\\;:!?@*()\[\]0-9]|$)""")


def is_risky(bib_field: BibField) -> bool:
    """Whether converting the field's LaTeX could fail (it holds a risky backslash)."""
    risky = _RISKY_BACKSLASH_IN_NAMES if bib_field.name in PERSON_FIELDS else _RISKY_BACKSLASH
    return risky.search(bib_field.value) is not None


def needs_conversion(entry: BibEntry) -> bool:
    """Whether converting ``entry``'s LaTeX could fail."""
    return any(is_risky(bib_field) for bib_field in entry.fields)


def latex_problems(
    entries: list[BibEntry], data: Any, path: str, skipped: set[str]
) -> Iterator[Problem]:
    """Each entry holding LaTeX, converted as the build converts it: on its page by the
    ``radar`` pybtex style, in the downloads by :func:`juju_radar.bib.exchange.csl_record`
    (pylatexenc). A conversion that fails would stop the build: it is refused here.
    Only entries that hold a command (:func:`needs_conversion`) are converted: a
    millisecond each. ``skipped``: folded keys not to convert (their crossref or size
    is already refused)."""
    if data is None:
        return
    pybtex_entries = {key.lower(): (key, entry) for key, entry in data.entries.items()}
    for entry in entries_to_convert(entries, pybtex_entries, skipped):
        if needs_conversion(entry):
            key, pybtex_entry = pybtex_entries[(entry.key or "").lower()]
            problem = conversion_problem(path, entry, key, pybtex_entry, data)
            if problem is not None:
                yield problem


def entries_to_convert(
    entries: Iterable[Record], pybtex_keys: Container[str], skipped: Container[str]
) -> Iterator[Record]:
    """The entries :func:`latex_problems` converts (those holding a command among them):
    the first well-formed one of each key pybtex read (``pybtex_keys``, folded) but
    ``skipped``."""
    seen: set[str] = set()
    for entry in entries:
        if not entry.is_citable or not entry.closed_properly or not entry.key:
            continue
        folded = entry.key.lower()
        if folded in seen or folded in skipped or folded not in pybtex_keys:
            continue
        seen.add(folded)
        yield entry


def unconverted_keys(
    citable: Iterable[EntryRecord], max_field_chars: int, crossrefs_refused: bool
) -> set[str]:
    """Folded keys not to convert: an entry over the size limit, or whose crossref pybtex
    might follow into a loop or a missing entry."""
    return {
        (entry.key or "").lower()
        for entry in citable
        if entry.longest_field > max_field_chars
        or (crossrefs_refused and entry.crossref is not None)
    }


def conversion_problem(
    path: str, entry: BibEntry, key: str, pybtex_entry: Any, data: Any
) -> Problem | None:
    """The problem of ``entry`` (pybtex's ``pybtex_entry`` under ``key``) when the build
    cannot convert its LaTeX."""
    error = conversion_error(key, pybtex_entry, data)
    if error is None:
        return None
    return latex_problem(path, entry, failing_field(entry, pybtex_entry, data), error)


@cache
def _formatter() -> tuple[Any, Any]:
    """The ``radar`` style and pybtex's text backend (pybtex finds plugins slowly)."""
    from pybtex.plugin import find_plugin

    from juju_radar.bib.style import RadarStyle

    return RadarStyle(), find_plugin("pybtex.backends", "text")()


def conversion_error(key: str, pybtex_entry: Any, data: Any) -> Exception | None:
    """How the build fails to show the entry (None when it does not): formatted for its
    page as ``sphinx_ext.bibliography`` formats it, and as a CSL-JSON record."""
    from juju_radar.bib.exchange import csl_record

    style, backend = _formatter()
    try:
        for formatted in style.format_entries([pybtex_entry], bib_data=data):
            formatted.text.render(backend)
        csl_record(key, pybtex_entry)
    except Exception as error:
        return error
    return None


def failing_field(entry: BibEntry, pybtex_entry: Any, data: Any) -> BibField | None:
    """The first field without which the entry converts: where to point the editor."""
    from pybtex.database import Entry

    for bib_field in entry.fields:
        if bib_field.name in VERBATIM_FIELDS or not is_risky(bib_field):
            continue
        fields = {
            name: value
            for name, value in pybtex_entry.fields.items()
            if name.lower() != bib_field.name
        }
        persons = {
            role: people
            for role, people in pybtex_entry.persons.items()
            if role.lower() != bib_field.name
        }
        without = Entry(pybtex_entry.type, fields=fields, persons=persons)
        without.key = pybtex_entry.key
        if conversion_error(pybtex_entry.key, without, data) is None:
            return bib_field
    return None


def latex_problem(
    path: str, entry: BibEntry, bib_field: BibField | None, error: Exception
) -> Problem:
    """``entry``'s LaTeX fails (in ``bib_field``, when known): the commands written there."""
    line, written = entry.line, " ".join(f.value for f in entry.fields)
    message = _(
        "{entry} holds LaTeX the build cannot turn into text ({commands}; {kind}: {error}): "
        "write it as plain text (an address as {example})"
    )
    if bib_field is not None:
        line, written = bib_field.line, bib_field.value
        message = _(
            "field '{name}' of {entry} holds LaTeX the build cannot turn into text "
            "({commands}; {kind}: {error}): write it as plain text (an address as {example})"
        )
    commands = sorted(set(_LATEX_COMMAND.findall(written)))
    named = ", ".join(commands[:5]) or "LaTeX"
    return Problem(
        path,
        line,
        "error",
        "bad-latex",
        message.format(
            name=bib_field.name if bib_field is not None else "",
            entry=entry_label(entry),
            commands=named,
            kind=type(error).__name__,
            error=error,
            example="\\url{...}",
        ),
    )


def entry_label(entry: EntryRecord) -> str:
    if entry.key:
        return _("entry '{key}'").format(key=entry.key)
    return _("@{type} entry").format(type=entry.entry_type)


def listed(parts: Iterable[str]) -> str:
    """``parts`` as a list in the current language: ``a, b`` or ``a、b``."""
    return ("、" if current_language() == "zh" else ", ").join(parts)


def is_already_reported(complaint: PybtexComplaint) -> bool:
    """Errors this module reports itself, with a better line and message."""
    repeated_entry = complaint.kind == "BibliographyDataError" and complaint.message.startswith(
        "repeated bibliography entry"
    )
    return repeated_entry or complaint.kind == "DuplicateField"


def entry_containing(entries: Iterable[Record], offset: int) -> Record | None:
    for entry in entries:
        if entry.start <= offset < entry.end:
            return entry
    return None


def complaint_line(
    complaint: PybtexComplaint,
    entries: Iterable[EntryRecord],
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


def bib_syntax_problems(
    text: str, entries: Sequence[EntryRecord], complaints: list[PybtexComplaint], path: str
) -> Iterator[Problem]:
    if not complaints:
        return
    lines = LineIndex(text)
    keyed_lines: dict[str, int] = {}
    for entry in entries:
        if entry.is_citable and entry.key is not None:
            keyed_lines.setdefault(entry.key.lower(), entry.key_line)
    for complaint in complaints:
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
            _("pybtex cannot read this: {message}").format(message=complaint.message),
        )


def check_bib_text(text: str, path: str, limits: BibLimits = DEFAULT_BIB_LIMITS) -> list[Problem]:
    """All problems in the BibTeX ``text`` of file ``path``, sorted by line."""
    try:
        reading = read_bib(text, stop_after=limits.max_entries)
        entries = reading.entries
        refused = list(reading_limit_problems(reading, path, limits))
        if refused:  # the file was not read to its end: only its size can be told
            refused += long_field_problems(entries, path, limits.max_field_chars)
            return sorted(refused, key=lambda problem: problem.line)
        citable = [entry for entry in entries if entry.is_citable]
        crossrefs = list(crossref_problems(entries, path))
        problems = [
            *duplicate_key_problems(citable, path),
            *anchor_clash_problems(citable, path),
            *unbalanced_brace_problems(entries, path),
            *unescaped_percent_problems(entries, path),
            *untypesettable_problems(entries, path),
            *duplicate_field_problems(entries, path),
            *missing_field_problems(entries, path),
            *unsafe_url_problems(entries, path),
            *crossrefs,
            *long_field_problems(entries, path, limits.max_field_chars),
            # Shown in pages as the editors' own text is: the same characters refused.
            *forbidden_characters(text, page_lines(text), path),
        ]
        data, complaints = pybtex_reading(text)
        problems += bib_syntax_problems(text, entries, complaints, path)
        skipped = unconverted_keys(citable, limits.max_field_chars, bool(crossrefs))
        problems += latex_problems(entries, data, path, skipped)
    except Exception as error:  # a bug in a checker: reported, never swallowed
        return [internal_error(path, error)]
    return sorted(problems, key=lambda problem: problem.line)


def internal_error(path: str, error: Exception) -> Problem:
    return Problem(
        path,
        1,
        "error",
        "internal-error",
        _("the .bib check failed ({kind}: {error}); please report it, it is a bug").format(
            kind=type(error).__name__, error=error
        ),
    )
