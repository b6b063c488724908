"""How large a .bib file may be, and the problems of a file past its limits.

The limits (``radar_bib_max_entries`` and ``radar_bib_max_field_chars`` in ``conf.py``)
bound the work of the check: past one, reading stops and the file is refused in seconds,
after ``@string`` expansion measured without building it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from juju_radar.bib.entry_records import MAX_VALUE_CHARS, NON_ENTRY_COMMANDS, BibEntry, BibReading
from juju_radar.bib.entry_rules import entry_label
from juju_radar.bib.reader import EXPANSION_ALLOWANCE
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

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
