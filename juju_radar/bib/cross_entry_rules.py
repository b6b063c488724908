"""The .bib rules between entries: keys used twice, keys whose anchors clash, crossrefs
that name no entry, loop or go too deep, and pybtex's complaints placed at the line of
the entry they belong to."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from juju_radar.bib.entry_records import EntryRecord, Record, normalize_whitespace
from juju_radar.bib.entry_rules import entry_label
from juju_radar.bib.pybtex_parser import PybtexComplaint
from juju_radar.bib.reader import LineIndex
from juju_radar.model.anchors import citation_anchor
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem


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


def is_already_reported(complaint: PybtexComplaint) -> bool:
    """Errors the check reports itself, with a better line and message."""
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
