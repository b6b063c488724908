"""Characters LaTeX cannot typeset as written in a BibTeX text field.

Outside math, ``^`` and ``_`` are sub- and superscripts, ``&`` an alignment tab and
``#`` a macro parameter: ``title = {τ^τ-Bench}`` stops xelatex with "Missing $
inserted". pybtex (and so the archive's pages) reads them as text, so the archive keeps
``references.bib`` as written, notes each one (``radar check``), and escapes them in
every ``.bib`` it offers for download.
"""

from __future__ import annotations

from collections.abc import Iterator

from juju_radar.bib.archived import ARCHIVE_DATE_FIELD
from juju_radar.bib.identifiers import EDITORS_FIELDS, URL_FIELDS

TEXT_ESCAPES = {
    "^": "\\textasciicircum{}",
    "_": "\\_",
    "&": "\\&",
    "#": "\\#",
}
"""Each character that needs math or a command, and the command that prints it."""

VERBATIM_FIELDS = (
    URL_FIELDS
    | frozenset({"archiveprefix", "eprinttype", "crossref", ARCHIVE_DATE_FIELD})
    | EDITORS_FIELDS
)
"""Fields the build shows as written or not at all: never converted from LaTeX."""


def bare_special_offsets(value: str) -> Iterator[int]:
    """Offsets in ``value`` of each :data:`TEXT_ESCAPES` character outside math
    (``$…$``) and not escaped by a backslash."""
    in_math = False
    position = 0
    while position < len(value):
        character = value[position]
        if character == "\\":
            position += 2  # an escaped character, or the first letter of a command
            continue
        if character == "$":
            in_math = not in_math
        elif character in TEXT_ESCAPES and not in_math:
            yield position
        position += 1


def bare_specials(value: str) -> list[str]:
    """The characters of ``value`` that LaTeX cannot typeset as they stand, in order."""
    return [value[offset] for offset in bare_special_offsets(value)]


def typesettable(value: str) -> str:
    """``value`` with each bare special character written as the command that prints it."""
    offsets = set(bare_special_offsets(value))
    return "".join(
        TEXT_ESCAPES[character] if offset in offsets else character
        for offset, character in enumerate(value)
    )
