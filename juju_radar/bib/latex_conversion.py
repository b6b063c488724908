"""LaTeX the build cannot convert: each entry that holds a command is converted as the
build converts it, and a conversion that fails is refused with the field to blame."""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator
from functools import cache
from typing import Any

from juju_radar.bib.entry_records import BibEntry, BibField, EntryRecord, Record
from juju_radar.bib.entry_rules import entry_label
from juju_radar.bib.typesetting import VERBATIM_FIELDS
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

PERSON_FIELDS = frozenset({"author", "editor"})
"""pybtex's ``Person.valid_roles``: read as lists of names."""

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
