"""pybtex's own BibTeX parser, its errors collected instead of raised.

The check reads the file as pybtex reads it (:mod:`juju_radar.bib.reader`); pybtex's
parser then reports whatever else it rejects, each error tied to the entry pybtex was
reading, so that one error does not hide the next.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from juju_radar.model.messages import _


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
