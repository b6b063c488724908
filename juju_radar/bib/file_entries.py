"""What the checks, the editors' tools and the bibliography pages take from a .bib
file's entries: their keys, identifier fields and texts, from the reader's reading or
from what the check by segment read of the same file."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence

from juju_radar.bib.entry_records import BibEntry, EntryRecord
from juju_radar.bib.reader import KEPT_READINGS, read_bib


def scan_entries(text: str) -> list[BibEntry]:
    """The commands of ``text`` in file order (a fresh list), read as pybtex reads them."""
    return list(read_bib(text).entries)


def citable_entries(text: str) -> list[BibEntry]:
    return [entry for entry in scan_entries(text) if entry.is_citable]


def parse_bib_keys(text: str) -> dict[str, int]:
    """Entry key -> line of its first occurrence, in file order."""
    return entry_keys(citable_entries(text))


def entry_keys(entries: Iterable[EntryRecord]) -> dict[str, int]:
    """Entry key -> line of its first occurrence, in file order, of ``entries``."""
    return {key: entry.key_line for key, entry in first_citable(entries)}


def first_citable(entries: Iterable[EntryRecord]) -> Iterator[tuple[str, EntryRecord]]:
    """Each citable entry with its key, but for a key repeated (in any case) the first."""
    folded_keys: set[str] = set()
    for entry in entries:
        key = entry.key or ""
        if entry.is_citable and key.lower() not in folded_keys:
            folded_keys.add(key.lower())
            yield key, entry


def bib_entry_identifiers(text: str) -> dict[str, dict[str, str]]:
    """Entry key -> {field: value} for its identifier fields (doi, url, eprint...).

    Every entry appears, with an empty mapping when it has none of them; a
    repeated key keeps its first entry, as pybtex does.
    """
    return first_identifiers(read_entries(text))


def first_identifiers(entries: Iterable[EntryRecord]) -> dict[str, dict[str, str]]:
    return {key: dict(entry.identifiers) for key, entry in first_citable(entries)}


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


# What the .bib check by segment read of a file (juju_radar.bib.segment_check): the same
# commands, with their places and identifiers, so that the build's other uses of the file
# need not read it again.
_KNOWN_ENTRIES: OrderedDict[str, Sequence[EntryRecord]] = OrderedDict()


def remember_entries(text: str, entries: Sequence[EntryRecord]) -> None:
    """``text``'s commands as read segment by segment, the same as :func:`read_bib`'s."""
    _KNOWN_ENTRIES[text] = entries
    _KNOWN_ENTRIES.move_to_end(text)
    while len(_KNOWN_ENTRIES) > KEPT_READINGS:
        _KNOWN_ENTRIES.popitem(last=False)


def read_entries(text: str) -> Sequence[EntryRecord]:
    """``text``'s commands, as remembered or read now."""
    known = _KNOWN_ENTRIES.get(text)
    return known if known is not None else read_bib(text).entries
