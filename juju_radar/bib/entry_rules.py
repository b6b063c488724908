"""The .bib rules that read one entry at a time: braces, a bare ``%``, LaTeX specials,
repeated or missing fields, addresses that are not web addresses."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from juju_radar.bib.archived import ARCHIVE_URL_FIELD
from juju_radar.bib.entry_records import (
    IDENTIFIER_FIELDS,
    BibEntry,
    BibField,
    EntryRecord,
    normalize_whitespace,
)
from juju_radar.bib.identifiers import (
    LABEL_FIELD,
    URL_FIELDS,
    field_link,
    linked_addresses,
    web_url,
)
from juju_radar.bib.typesetting import TEXT_ESCAPES, VERBATIM_FIELDS, bare_specials
from juju_radar.model.messages import _, current_language
from juju_radar.model.page import invisible_character_problem
from juju_radar.model.problems import Problem
from juju_radar.model.public_address import REASONS, private_host


def unbalanced_brace_problems(entries: Iterable[EntryRecord], path: str) -> Iterator[Problem]:
    for entry in entries:
        if not entry.braces_balanced:
            name = _("entry '{key}'").format(key=entry.key) if entry.key else f"@{entry.entry_type}"
            yield Problem(
                path,
                entry.line,
                "error",
                "unbalanced-braces",
                _(
                    "{name} has unbalanced braces: a missing or extra '{opening}' or "
                    "'{closing}' makes BibTeX read into the entries that follow"
                ).format(name=name, opening="{", closing="}"),
            )


def unescaped_percent_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        if entry.entry_type == "preamble":  # never shown
            continue
        for bib_field in entry.fields:
            for line in bib_field.unescaped_percent_lines:
                yield Problem(
                    path,
                    line,
                    "error",
                    "unescaped-percent",
                    _(
                        "unescaped '%' in field '{name}' of {entry}: pybtex drops the rest "
                        "of the field; write '\\%'"
                    ).format(name=bib_field.name, entry=entry_label(entry)),
                )


def untypesettable_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """A ``^``, ``_``, ``&`` or ``#`` outside math in a text field: shown as written on
    the pages, escaped in the downloads, but LaTeX stops on it where references.bib is
    used as it stands."""
    for entry in entries:
        if not entry.is_citable:
            continue
        for bib_field in entry.fields:
            if bib_field.name in VERBATIM_FIELDS or not bib_field.is_built:
                continue
            found = bare_specials(bib_field.value)
            if found:
                written = listed(
                    _("'{character}' as '{command}'").format(character=c, command=TEXT_ESCAPES[c])
                    for c in dict.fromkeys(found)
                )
                yield Problem(
                    path,
                    bib_field.line,
                    "note",
                    "latex-special",
                    _(
                        "field '{name}' of {entry} holds what LaTeX reads as math or markup; "
                        "the downloads escape it: write {written} for LaTeX users of "
                        "references.bib itself"
                    ).format(name=bib_field.name, entry=entry_label(entry), written=written),
                )


def duplicate_field_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        seen_names: set[str] = set()
        for bib_field in entry.fields:
            if bib_field.name in seen_names:
                yield Problem(
                    path,
                    bib_field.line,
                    "error",
                    "bib-syntax",
                    _("{entry} has a second '{name}' field; pybtex ignores it").format(
                        entry=entry_label(entry), name=bib_field.name
                    ),
                )
            seen_names.add(bib_field.name)


def missing_field_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    for entry in entries:
        if not entry.is_citable or not entry.closed_properly:
            continue
        if not entry.has_nonblank_field("title"):
            yield Problem(
                path,
                entry.line,
                "error",
                "missing-title",
                _("{entry} has no title").format(entry=entry_label(entry)),
            )
        if not any(entry.has_nonblank_field(name) for name in IDENTIFIER_FIELDS):
            yield Problem(
                path,
                entry.line,
                "note",
                "missing-identifier",
                _("{entry} has no DOI/URL/arXiv id/ISBN: an editor must complete it").format(
                    entry=entry_label(entry)
                ),
            )


ADDRESS_FIELDS = ("url", ARCHIVE_URL_FIELD)
"""Fields holding one web address, shown as a link (``identifiers.web_url``)."""


def unsafe_url_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """An address the pages would not link, by the one URL rule (``model.urls``): a
    ``url`` that is not an http(s) address, or a ``\\url{}`` or ``\\href{}`` of a text
    field with a script (``javascript:``, however spelled) or another host's ``//``."""
    for entry in entries:
        if not entry.is_citable:
            continue
        for bib_field in entry.fields:
            yield from private_address_problems(entry, bib_field, path)
            if bib_field.name in ADDRESS_FIELDS:
                value = normalize_whitespace(bib_field.value).strip("{} ")
                if value and web_url(value) is None:
                    message = _(
                        "{entry} has a {name} that is not an http(s) address: {value!r}"
                    ).format(entry=entry_label(entry), name=bib_field.name, value=value)
                    yield Problem(path, bib_field.line, "error", "unsafe-url", message)
            elif bib_field.name not in VERBATIM_FIELDS and bib_field.is_built:
                for address in linked_addresses(bib_field.value):
                    if address and field_link(address) is None:
                        message = _(
                            "field '{name}' of {entry} links to {address!r}: only http(s) "
                            "and mailto addresses, or a page of the site"
                        ).format(name=bib_field.name, entry=entry_label(entry), address=address)
                        yield Problem(path, bib_field.line, "error", "unsafe-url", message)


NAME_FIELDS = ("title", "booktitle", LABEL_FIELD)
"""Fields read as a name (the entry's title, the editors' label): shown, or typed
to find the entry, as its key is."""


def invisible_character_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """A key or title holding an invisible character (``model.page``): two keys or
    titles that look the same and are not."""
    for entry in entries:
        if not entry.is_citable:
            continue
        if entry.key and (problem := invisible_character_problem(entry.key, path, entry.key_line)):
            yield problem
        for bib_field in entry.fields:
            if bib_field.name in NAME_FIELDS and bib_field.is_built:
                problem = invisible_character_problem(bib_field.value, path, bib_field.line)
                if problem is not None:
                    yield problem


def private_address_problems(entry: BibEntry, bib_field: BibField, path: str) -> Iterator[Problem]:
    """An address of the field (the whole ``url`` or ``archiveurl``, and each
    ``\\url{…}`` or ``\\href{…}`` of any field) whose host is off the public internet,
    read literally (:func:`~juju_radar.model.public_address.private_host`)."""
    value = normalize_whitespace(bib_field.value)
    addresses = linked_addresses(value)
    if bib_field.name in ADDRESS_FIELDS:
        addresses.append(value.strip("{} "))
    for address in dict.fromkeys(addresses):
        reason = private_host(address)
        if reason is not None:
            message = _(
                "{entry} has a {name} that leads off the public internet ({reason}): {value!r}"
            ).format(
                entry=entry_label(entry),
                name=bib_field.name,
                reason=_(REASONS[reason]),
                value=address,
            )
            yield Problem(path, bib_field.line, "error", "private-address", message)


LATEX_ESCAPED = re.compile(r"\\[_&#%$]")
"""A LaTeX escape (``\\_``, ``\\&``, ``\\#``, ``\\%``, ``\\$``): in an address, a
backslash browsers read as a ``/``."""


def escaped_url_problems(entries: list[BibEntry], path: str) -> Iterator[Problem]:
    """An address (:data:`~juju_radar.bib.identifiers.URL_FIELDS`) written with LaTeX
    escapes: BibTeX, biblatex and the pages read it verbatim, backslashes included."""
    for entry in entries:
        if not entry.is_citable:
            continue
        for bib_field in entry.fields:
            found = LATEX_ESCAPED.findall(bib_field.value)
            if bib_field.name in URL_FIELDS and found:
                yield Problem(
                    path,
                    bib_field.line,
                    "error",
                    "escaped-url",
                    _(
                        "field '{name}' of {entry} is an address written with LaTeX escapes "
                        "({escapes}): it is read as written, backslashes included; write it "
                        "without them"
                    ).format(
                        name=bib_field.name,
                        entry=entry_label(entry),
                        escapes=" ".join(dict.fromkeys(found)),
                    ),
                )


PER_ENTRY_RULES = (
    unbalanced_brace_problems,
    unescaped_percent_problems,
    untypesettable_problems,
    duplicate_field_problems,
    missing_field_problems,
    unsafe_url_problems,
    invisible_character_problems,
    escaped_url_problems,
)
"""The rules above, in the order the whole-file check and the check by segment report
them (a segment keeps its problems by rule, and places them in this order)."""


def entry_label(entry: EntryRecord) -> str:
    if entry.key:
        return _("entry '{key}'").format(key=entry.key)
    return _("@{type} entry").format(type=entry.entry_type)


def listed(parts: Iterable[str]) -> str:
    """``parts`` as a list in the current language: ``a, b`` or ``a、b``."""
    return ("、" if current_language() == "zh" else ", ").join(parts)
