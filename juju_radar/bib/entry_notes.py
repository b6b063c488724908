"""What ``radar import`` knows an imported entry by: a digest of its note (the editors'
``radarnote``, or ``note`` as earlier imports wrote it), so that importing the same
source again reuses its entry. Kept with the reading of a .bib file (whole, or segment
by segment), so the import need not read the file again."""

from __future__ import annotations

import hashlib

from juju_radar.bib.entry_records import BibEntry
from juju_radar.bib.identifiers import EDITORS_NOTE_FIELD

NOTE_FIELDS = ("note", EDITORS_NOTE_FIELD)

FORMER_NOTE_SUFFIX = "；由 radar import 生成，标识符（DOI、arXiv 编号或网址）待编辑补全"
"""Notes written by earlier imports (in ``note``, which pages show) ended so; the page
itself now says what is missing."""


def note_digest(note: str) -> bytes:
    """What an imported entry's note is known by: its notes are long, their digests short."""
    return hashlib.blake2b(note.encode(), digest_size=16).digest()


def entry_note_digests(entry: BibEntry) -> tuple[bytes, ...]:
    """The digests of a citable entry's notes, in the order of :data:`NOTE_FIELDS`."""
    if not (entry.is_citable and entry.key):
        return ()
    values = (entry.field_value(name) for name in NOTE_FIELDS)
    return tuple(note_digest(value.removesuffix(FORMER_NOTE_SUFFIX)) for value in values if value)
