"""An archived copy of a source, as ``radar refs archive`` records it in the entry:
``archiveurl`` (the snapshot's address) and ``archivedate`` (its day, YYYY-MM-DD), a copy
of the entry's ``url``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from juju_radar.bib.identifiers import ARCHIVE_URL_FIELD, web_url

ARCHIVE_DATE_FIELD = "archivedate"
ARCHIVE_FIELDS = (ARCHIVE_URL_FIELD, ARCHIVE_DATE_FIELD)


@dataclass(frozen=True)
class ArchivedCopy:
    url: str
    date: str  # YYYY-MM-DD, or "" when the entry does not say
    original: str = ""  # the address archived (the entry's url), or "" without one


def archived_copy(fields: Mapping[str, str]) -> ArchivedCopy | None:
    """The copy an entry records (``fields``: lower-case names to values as written), or
    None; a date that is not YYYY-MM-DD is left out."""
    url = web_url(fields.get(ARCHIVE_URL_FIELD, ""))
    if url is None:
        return None
    date = fields.get(ARCHIVE_DATE_FIELD, "").strip()
    try:
        dt.date.fromisoformat(date)
    except ValueError:
        date = ""
    original = web_url(fields.get("url", "")) or ""
    return ArchivedCopy(url, date if len(date) == 10 else "", original)
