"""Change one entry of a .bib file and keep every other byte as it was (pure Python).

``radar refs accept`` and ``radar refs set`` write through :func:`set_fields`: the fields
given replace the entry's own values in place, new fields go before its closing brace in
the entry's own layout, and the rest of the file is untouched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from juju_radar.bib.entry_records import BibEntry
from juju_radar.bib.file_entries import citable_entries
from juju_radar.bib.identifiers import URL_FIELDS
from juju_radar.bib.reader import braces_balance
from juju_radar.model.messages import _

_LATEX_SPECIAL = re.compile(r"(?<!\\)([%&#$_])")


class EditError(Exception):
    """The entry cannot be edited (missing, written twice, unreadable)."""


def find_entry(text: str, key: str) -> BibEntry:
    """The one entry with ``key`` (keys ignore case, as in BibTeX)."""
    found = [entry for entry in citable_entries(text) if (entry.key or "").lower() == key.lower()]
    if not found:
        raise EditError(_("no entry '{key}' in the bibliography").format(key=key))
    if len(found) > 1:
        raise EditError(
            _("entry '{key}' is written {count} times: fix that first").format(
                key=key, count=len(found)
            )
        )
    entry = found[0]
    if not entry.closed_properly or not entry.braces_balanced or not entry.fields:
        raise EditError(
            _("entry '{key}' cannot be read (line {line}): run radar check").format(
                key=key, line=entry.line
            )
        )
    return entry


def bib_value(name: str, value: str) -> str:
    """``value`` as the content of a braced BibTeX value of field ``name``: an address
    (:data:`~juju_radar.bib.identifiers.URL_FIELDS`) as written, any other text with
    LaTeX's special characters escaped."""
    text = " ".join(value.split())
    if name in URL_FIELDS:
        # A brace that would end the value early is percent-encoded, as browsers read it.
        return text if braces_balance(text) else text.replace("{", "%7B").replace("}", "%7D")
    if not braces_balance(text):
        text = text.replace("{", "｛").replace("}", "｝")
    return _LATEX_SPECIAL.sub(r"\\\1", text)


def set_fields(
    text: str, key: str, values: Mapping[str, str], entry_type: str | None = None
) -> str:
    """``text`` with entry ``key`` holding ``values`` (lower-case field names to plain
    text, escaped here) and, when given, of type ``entry_type``."""
    entry = find_entry(text, key)
    chunk_start, closing = entry.start, entry.closing
    fields = {bib_field.name: bib_field for bib_field in entry.fields}
    replacements: list[tuple[int, int, str]] = []
    if entry_type is not None:
        replacements.append((*entry.type_span, entry_type))
    added: list[tuple[str, str]] = []
    for name, value in values.items():
        braced = "{" + bib_value(name, value) + "}"
        if name in fields:
            start, end = fields[name].value_span
            replacements.append((start, end, braced))
        else:
            added.append((name, braced))
    if added:
        last = entry.fields[-1]
        line_start = text.rfind("\n", 0, last.name_start) + 1
        indent = text[line_start : last.name_start]
        indent = indent if indent.strip() == "" else "  "
        own_width = _name_width(text, entry)
        width = max(own_width, *(len(name) for name, _ in added))
        if width > own_width and own_width > 0:
            replacements += _realigned(text, entry, width)
        newline = "\r\n" if "\r\n" in text[chunk_start:closing] else "\n"
        lines = "".join(
            f"{indent}{name.ljust(width)} = {braced},{newline}" for name, braced in added
        )
        replacements.append((last.value_span[1], closing, "," + newline + lines))
    result = text
    for start, end, new in sorted(replacements, reverse=True):
        result = result[:start] + new + result[end:]
    return result


def _realigned(text: str, entry: BibEntry, width: int) -> list[tuple[int, int, str]]:
    """The entry's own names padded to ``width``, where the entry pads them to one width
    (``title   = ``): the fields added stay in line with the others."""
    padding = []
    for bib_field in entry.fields:
        name_end = bib_field.name_start + len(bib_field.name)
        equals = text.index("=", name_end, bib_field.value_span[0])
        line_start = text.rfind("\n", 0, bib_field.name_start) + 1
        own_line = not text[line_start : bib_field.name_start].strip()
        if not own_line or not text[name_end:equals] or text[name_end:equals].strip(" "):
            return []  # not one field a line, its name padded with spaces: leave it
        padding.append((name_end, equals, " " * (width - len(bib_field.name) + 1)))
    return padding


def _name_width(text: str, entry: BibEntry) -> int:
    """How wide the entry pads its field names (``title        = ``)."""
    first = entry.fields[0]
    before_equals = text[first.name_start : first.value_span[0]].split("=", 1)[0]
    return len(before_equals) - 1 if before_equals.endswith(" ") else len(before_equals)
