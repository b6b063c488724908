"""Corrections: what an editor records in an issue page's front matter when the page is
changed after it was published, a date and one sentence each::

    corrections:
      - date: 2026-09-10
        text: 第二条原称该模型开源，实为仅开放权重，已更正。

Each is shown on the page (``sphinx_ext.render.issue_header``), makes the feed entry an
updated one and the page's modified date (``last_change``). Pure Python: no Sphinx or
docutils import.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from juju_radar.model.item_options import Reporter
from juju_radar.model.messages import _
from juju_radar.model.page import invisible_character_problem

FIELD = "corrections"
KEYS = frozenset({"date", "text"})
MAX_TEXT_CHARS = 500  # one sentence, not an article
LIST_ENTRY = re.compile(r"^[ \t]*-[ \t]")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
BAD = "bad-correction"


@dataclass(frozen=True)
class Correction:
    date: dt.date
    text: str


def entry_lines(lines: Sequence[str], key_line: int, front_end: int) -> list[int]:
    """The page line of each entry of the ``corrections`` list (its ``-``), in order."""
    found = []
    for number in range(key_line + 1, front_end):
        text = lines[number - 1]
        if text.strip() and not text[:1].isspace() and not text.startswith("-"):
            break  # the next top-level key
        if LIST_ENTRY.match(text):
            found.append(number)
    return found


def read_corrections(
    value: object,
    issue_date: dt.date | None,
    key_line: int,
    lines: Sequence[str],
    front_end: int,
    report: Reporter,
) -> tuple[Correction, ...]:
    """The corrections ``value`` states, oldest first; each wrong one reported at its
    line (``bad-correction``) and left out."""
    if value is None:
        return ()
    if not isinstance(value, list):
        message = _("corrections must be a list of entries, each a date and a text")
        report.error(key_line, BAD, message)
        return ()
    at = entry_lines(lines, key_line, front_end)
    found = []
    for index, entry in enumerate(value):
        line = at[index] if index < len(at) else key_line
        correction = _read_entry(entry, issue_date, line, report)
        if correction is not None:
            found.append(correction)
    return tuple(sorted(found, key=lambda correction: correction.date))


def _read_entry(
    entry: object, issue_date: dt.date | None, line: int, report: Reporter
) -> Correction | None:
    if not isinstance(entry, dict) or set(entry) != KEYS:
        report.error(line, BAD, _("a correction has exactly two fields: date and text"))
        return None
    date, text = _date(entry["date"]), entry["text"]
    if date is None:
        report.error(line, BAD, _("a correction's date must be written YYYY-MM-DD"))
        return None
    if issue_date is not None and date < issue_date:
        message = _("a correction dated {date} is older than the issue ({issue})")
        report.error(line, BAD, message.format(date=date, issue=issue_date))
        return None
    if not isinstance(text, str) or not text.strip() or "\n" in text.strip():
        report.error(line, BAD, _("a correction's text must be one sentence on one line"))
        return None
    if len(text) > MAX_TEXT_CHARS:
        message = _("a correction's text is {count:,} characters, over {limit:,}")
        report.error(line, BAD, message.format(count=len(text), limit=MAX_TEXT_CHARS))
        return None
    if problem := invisible_character_problem(text, report.path, line):
        report.problems.append(problem)
        return None
    return Correction(date, " ".join(text.split()))


def _date(value: object) -> dt.date | None:
    """A date written ``YYYY-MM-DD`` (as YAML or the archive's reader gives it)."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and ISO_DATE.match(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def last_correction(corrections: Sequence[Correction]) -> dt.date | None:
    return max((correction.date for correction in corrections), default=None)
