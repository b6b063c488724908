"""The archive's references in the formats reference managers import: CSL-JSON and RIS.

One CSL-JSON record per ``references.bib`` entry, read from pybtex's parse with LaTeX
decoded to text (pylatexenc); RIS (rispy) is written from that record. Only what the
entry states is carried: no identifier, author or date is added.
"""

from __future__ import annotations

import contextlib
import json
import re
from functools import lru_cache
from typing import Any

import rispy
from pybtex.database import Entry, Person
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from juju_radar.bib.edit import EditError, set_fields
from juju_radar.bib.entry_records import BibField
from juju_radar.bib.file_entries import scan_entries
from juju_radar.bib.identifiers import EDITORS_FIELDS, arxiv_url, url_identifiers
from juju_radar.bib.typesetting import VERBATIM_FIELDS, typesettable

# The files written beside an issue page: what it cites, in three formats.
BIBTEX_SUFFIX = ".bib"
RIS_SUFFIX = ".ris"
CSL_JSON_SUFFIX = ".csl.json"
DOWNLOAD_SUFFIXES = (BIBTEX_SUFFIX, RIS_SUFFIX, CSL_JSON_SUFFIX)
# And for citing the issue and each of its items, in the same three formats.
CITE_SUFFIXES = tuple(f".cite{suffix}" for suffix in DOWNLOAD_SUFFIXES)
ALL_DOWNLOAD_SUFFIXES = DOWNLOAD_SUFFIXES + CITE_SUFFIXES

# BibTeX entry type -> CSL type (CSL 1.0.2 item types); anything else is a "document",
# or a "webpage" when it has a URL only, or an "article" (a preprint) with an arXiv id
# or a DOI (see DOI_KEEPING_CSL_TYPE).
CSL_TYPES = {
    "article": "article-journal",
    "book": "book",
    "inbook": "chapter",
    "incollection": "chapter",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "proceedings": "book",
    "techreport": "report",
    "report": "report",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "online": "webpage",
    "software": "software",
    "dataset": "dataset",
}
# CSL type -> RIS reference type (the RIS specification's list).
RIS_TYPES = {
    "article-journal": "JOUR",
    # A preprint. RIS has no such type: Zotero's RIS translator reads MANSCPT as a
    # manuscript (UNPB and GEN as a journal article), JabRef as misc.
    "article": "MANSCPT",
    "book": "BOOK",
    "chapter": "CHAP",
    "paper-conference": "CPAPER",
    "report": "RPRT",
    "thesis": "THES",
    "webpage": "ELEC",
    "software": "COMP",
    "dataset": "DATA",
    "document": "GEN",
}
# Zotero keeps a DOI only in the item types whose schema has the field (zotero-schema
# 1f5331e: journalArticle, conferencePaper, preprint, dataset, standard); its import of
# any other type drops it, with nothing in Extra (translation-server d88a8d5 with
# translators 2814370, tests/test_zotero_client.py). So a web page or document that
# has a DOI is CSL "article" (CSL 1.0.2: a work posted where some persistence is
# expected, as a DOI promises; Zotero reads it as a preprint), and a RIS record whose
# type would lose its DOI is GEN, the specification's generic type, which Zotero reads
# as a journal article and keeps DO.
DOI_KEEPING_CSL_TYPE = "article"
DOI_LOSING_CSL_TYPES = frozenset({"webpage", "document"})
DOI_KEEPING_RIS_TYPE = "GEN"
DOI_LOSING_RIS_TYPES = frozenset({"MANSCPT", "ELEC"})
# A book, chapter, report, thesis or program keeps its type, and its DOI goes where
# Zotero keeps what its item type has no field for: Extra, as a "DOI: …" line, which
# Zotero and its citation processor read as the DOI (Zotero's documentation, "Citing
# fields from Extra"). Zotero's CSL-JSON import makes Extra of CSL ``note``, its RIS
# import of ``M2`` (RIS.js: ``M2: "extra"``; ``N1`` becomes a child note). Each file
# keeps its ``DOI``/``DO`` too, for every other reader.
ZOTERO_DOI_CSL_TYPES = frozenset({"article-journal", "article", "paper-conference", "dataset"})
ZOTERO_DOI_RIS_TYPES = frozenset({"JOUR", "GEN", "CPAPER", "DATA"})
EXTRA_DOI = "DOI: {doi}"
# Zotero's CSL-JSON import refuses a whole file holding a "software" record (its
# detectImport lists CSL 1.0.1's types), so a program is written as CSL 1.0.1 wrote it:
# a "book", which Zotero imports as a program when it states a ``version``.
ZOTERO_CSL_TYPES = {"software": "book"}
RIS_VERSIONED_TYPES = frozenset({"COMP", "DATA"})  # whose ET is the version, not the edition
MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}
ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")
ARXIV = "arxiv"
ORGANIZATION_PUBLISHES = frozenset({"manual", "proceedings", "inproceedings", "conference"})


@lru_cache(maxsize=1)
def _decoder() -> LatexNodes2Text:
    # pylatexenc reads \textasciicircum as U+02C6 (LaTeX prints the ASCII circumflex) and
    # does not know the brace commands. (A replacement text is %-formatted, which turns
    # "{" into nothing: functions.)
    context = get_default_latex_context_db().filter_context()
    macros = [
        MacroTextSpec(name, lambda node, text=text: text)
        for name, text in (
            ("textasciicircum", "^"),
            ("textbraceleft", "{"),
            ("textbraceright", "}"),
        )
    ]
    context.add_context_category("radar", prepend=True, macros=macros)
    return LatexNodes2Text(latex_context=context, math_mode="verbatim", strict_latex_spaces=True)


# Characters that make LaTeX text read otherwise than written (commands, groups, math,
# ties, alignment, ligatures such as -- and ``); a value without any is its own text.
LATEX_SIGNIFICANT = re.compile(r"[\\{}$~%&#_^'`]|--")


def latex_text(value: str) -> str:
    """A BibTeX field as a reader would see it typeset: braces, escapes and accents
    decoded, whitespace runs made one space."""
    if LATEX_SIGNIFICANT.search(value):
        value = _decoder().latex_to_text(value)
    return " ".join(value.split())


def _field(entry: Entry, name: str) -> str:
    value = entry.fields.get(name, "")
    return latex_text(value) if value else ""


def _raw(entry: Entry, name: str) -> str:
    """An identifier field, whose characters are taken as written (a DOI's ``_``)."""
    value = entry.fields.get(name, "")
    return " ".join(value.replace("\\_", "_").replace("\\%", "%").strip("{} ").split())


def date_parts(entry: Entry, name: str = "date") -> list[int] | None:
    """``date`` (``2026``, ``2026-09``, ``2026-09-07``), or ``year`` with ``month``/``day``;
    None when the entry states no year."""
    explicit = ISO_DATE.match(_raw(entry, name))
    if explicit:
        return [int(part) for part in explicit.groups() if part]
    if name != "date":
        return None
    year = _raw(entry, "year")
    if not year.isdigit():
        return None
    parts = [int(year)]
    month = _raw(entry, "month").lower()
    month_number = int(month) if month.isdigit() else MONTHS.get(month)
    if month_number and 1 <= month_number <= 12:
        parts.append(month_number)
        day = _raw(entry, "day")
        if day.isdigit() and 1 <= int(day) <= 31:
            parts.append(int(day))
    return parts


def csl_person(person: Person) -> dict[str, str]:
    """An institutional name in braces (``{{最高人民法院}}``) stays whole, as a literal."""
    family = latex_text(" ".join(person.prelast_names + person.last_names))
    given = latex_text(" ".join(person.first_names + person.middle_names))
    if not given and len(person.last_names) == 1 and person.last_names[0].startswith("{"):
        return {"literal": family}
    name = {"family": family}
    if given:
        name["given"] = given
    if person.lineage_names:
        name["suffix"] = latex_text(" ".join(person.lineage_names))
    return name


def arxiv_id(entry: Entry) -> str:
    """The arXiv id an entry states (``eprint`` with ``archiveprefix = arXiv``), or ""."""
    prefix = _raw(entry, "archiveprefix") or _raw(entry, "eprinttype")
    return _raw(entry, "eprint") if prefix.lower() == ARXIV else ""


def csl_type(entry: Entry) -> str:
    known = CSL_TYPES.get(entry.type.lower())
    if known in DOI_LOSING_CSL_TYPES and entry.fields.get("doi"):
        return DOI_KEEPING_CSL_TYPE
    if known:
        return known
    if arxiv_id(entry) or entry.fields.get("doi"):
        return DOI_KEEPING_CSL_TYPE
    return "webpage" if entry.fields.get("url") else "document"


def publisher_fields(entry: Entry) -> tuple[str, ...]:
    """The fields that name an entry's publisher. An ``organization`` publishes only a
    manual or proceedings; elsewhere it is who made the work (a preprint's authors'
    lab), and CSL styles would print it as the repository or publisher."""
    if entry.type.lower() in ORGANIZATION_PUBLISHES:
        return ("publisher", "organization", "institution", "school")
    return ("publisher", "institution", "school")


def csl_record(key: str, entry: Entry) -> dict[str, Any]:
    """The entry as a CSL-JSON item (CSL-JSON schema 1.0)."""
    record: dict[str, Any] = {"id": key, "type": csl_type(entry)}
    if entry.fields.get("title"):
        record["title"] = _field(entry, "title")
    for role, variable in (("author", "author"), ("editor", "editor")):
        if entry.persons.get(role):
            record[variable] = [csl_person(person) for person in entry.persons[role]]
    container = _field(entry, "journal") or _field(entry, "booktitle")
    if container:
        record["container-title"] = container
    publisher = next(
        (_field(entry, name) for name in publisher_fields(entry) if entry.fields.get(name)),
        "",
    )
    if publisher:
        record["publisher"] = publisher
    simple = (("volume", "volume"), ("number", "issue"), ("pages", "page"), ("version", "version"))
    for bib_name, csl_name in simple:
        if entry.fields.get(bib_name):
            record[csl_name] = _field(entry, bib_name)
    issued = date_parts(entry)
    if issued:
        record["issued"] = {"date-parts": [issued]}
    accessed = date_parts(entry, "urldate")
    if accessed:
        record["accessed"] = {"date-parts": [accessed]}
    for bib_name, csl_name in (("doi", "DOI"), ("url", "URL"), ("isbn", "ISBN"), ("issn", "ISSN")):
        if entry.fields.get(bib_name):
            record[csl_name] = _raw(entry, bib_name)
    arxiv = arxiv_id(entry)
    if arxiv:
        record["archive"] = "arXiv"
        record["number"] = f"arXiv:{arxiv}"
        if "eprint" in url_identifiers(record.get("URL", "")) or "URL" not in record:
            record["URL"] = arxiv_url(arxiv)  # the id's abstract page, not its PDF
    if entry.fields.get("note"):
        record["note"] = _field(entry, "note")
    return record


def csl_json(records: list[dict[str, Any]]) -> str:
    """The records as a CSL-JSON file, each as Zotero's import reads it
    (:func:`zotero_csl_record`)."""
    readable = [zotero_csl_record(record) for record in records]
    return json.dumps(readable, ensure_ascii=False, indent=2) + "\n"


def extra_doi(record: dict[str, Any], doi_keeping_types: frozenset[str], kind: str) -> str:
    """The "DOI: …" line for Zotero's Extra of a record of type ``kind`` whose Zotero
    item type has no DOI field, or "" (no DOI, or a field to hold it)."""
    if "DOI" not in record or kind in doi_keeping_types:
        return ""
    return EXTRA_DOI.format(doi=record["DOI"])


def zotero_csl_record(record: dict[str, Any]) -> dict[str, Any]:
    """A CSL-JSON record as written to a file: a program as a CSL 1.0.1 "book"
    (:data:`ZOTERO_CSL_TYPES`), and a DOI its Zotero type has no field for also in
    ``note`` (:data:`ZOTERO_DOI_CSL_TYPES`)."""
    written = {**record, "type": ZOTERO_CSL_TYPES.get(record["type"], record["type"])}
    doi_line = extra_doi(record, ZOTERO_DOI_CSL_TYPES, record["type"])
    if doi_line:
        written["note"] = "\n".join(filter(None, (doi_line, record.get("note"))))
    return written


def _ris_date(parts: list[int]) -> str:
    """RIS dates are ``YYYY/MM/DD/`` with empty parts left out but their slashes kept."""
    padded = [f"{parts[0]:04d}", *(f"{part:02d}" for part in parts[1:])]
    return "/".join(padded + [""] * (3 - len(padded))) + "/"


def ris_record(record: dict[str, Any]) -> dict[str, Any]:
    """A CSL-JSON record as a rispy record."""
    ris: dict[str, Any] = {"type_of_reference": ris_type(record), "id": record["id"]}
    if "title" in record:
        ris["title"] = record["title"]
    authors = [
        name.get("literal") or ", ".join(filter(None, (name.get("family"), name.get("given"))))
        for name in record.get("author", [])
    ]
    if authors:
        ris["authors"] = authors
    simple = {
        "container-title": "secondary_title",
        "publisher": "publisher",
        "volume": "volume",
        "issue": "number",
        "DOI": "doi",
        "ISSN": "issn",
        "number": "accession_number",
    }
    for csl_name, ris_name in simple.items():
        if csl_name in record:
            ris[ris_name] = record[csl_name]
    if "ISBN" in record:
        ris["issn"] = record["ISBN"]  # RIS's SN holds an ISBN or an ISSN
    if "issued" in record:
        parts = record["issued"]["date-parts"][0]
        ris["year"] = f"{parts[0]:04d}"
        ris["date"] = _ris_date(parts)
    if "accessed" in record:
        ris["access_date"] = _ris_date(record["accessed"]["date-parts"][0])
    if "URL" in record:
        ris["urls"] = [ris_url(record["URL"])]
    if "language" in record:
        ris["language"] = record["language"]
    if "note" in record:
        ris["notes"] = [record["note"]]
    if "version" in record and ris["type_of_reference"] in RIS_VERSIONED_TYPES:
        ris["edition"] = record["version"]  # ET: the RIS specification's Version of these
    doi_line = extra_doi(record, ZOTERO_DOI_RIS_TYPES, ris["type_of_reference"])
    if doi_line:
        ris["extra"] = doi_line
    custom = record.get("custom", {})
    if "license" in custom:
        ris["rights"] = f"{custom['license-spdx']} {custom['license']}"
    return ris


def ris_type(record: dict[str, Any]) -> str:
    """The record's RIS type; GEN for a record with a DOI whose own type Zotero would
    import without it (:data:`DOI_LOSING_RIS_TYPES`)."""
    kind = RIS_TYPES.get(record["type"], "GEN")
    return DOI_KEEPING_RIS_TYPE if "DOI" in record and kind in DOI_LOSING_RIS_TYPES else kind


def ris_url(url: str) -> str:
    """An address in RIS's ``UR``, which readers (rispy) split at ``;``: its own ``;``
    percent-encoded (``%3B``)."""
    return url.replace(";", "%3B")


# RIS's CR as the copyright statement it is in the RIS specification and in Zotero's RIS
# translator (Rights), where rispy names it cited references (Web of Science's use); and
# M2 (Miscellaneous 2), which rispy does not name, as Zotero's RIS translator reads it.
RIS_MAPPING = {**rispy.TAG_KEY_MAPPING, "CR": "rights", "M2": "extra"}


class RisWriter(rispy.RisWriter):
    """rispy's writer without the record numbers ("1.") it puts between records, which
    are not RIS, and with CR."""

    DEFAULT_MAPPING = RIS_MAPPING

    def set_header(self, count: int) -> str:
        return ""


def ris_text(records: list[dict[str, Any]]) -> str:
    ris = [ris_record(record) for record in records]
    return rispy.dumps(ris, implementation=RisWriter) if ris else ""


@lru_cache(maxsize=65536)
def published_entry_text(entry_text: str) -> str:
    """An entry for the per-issue ``.bib`` download: as written, without the editors'
    bookkeeping fields (:data:`~juju_radar.bib.identifiers.EDITORS_FIELDS`), with what
    LaTeX cannot typeset in a text field escaped (:mod:`juju_radar.bib.typesetting`) and
    the title protected whole, so that BibTeX styles keep its capitals ("RISE")."""
    (entry,) = scan_entries(entry_text) or (None,)
    if entry is None:
        return entry_text
    kept, position = [], 0
    for bib_field in entry.fields:
        if bib_field.name in EDITORS_FIELDS:
            start, end = _whole_field_span(entry_text, bib_field)
            kept += [entry_text[position:start]]
            position = end
        elif bib_field.name not in VERBATIM_FIELDS and _is_one_part(entry_text, bib_field):
            value = published_value(bib_field.name, bib_field.value)
            if value != bib_field.value:
                start, end = bib_field.value_span
                kept += [entry_text[position : start + 1], value]
                position = end - 1
    kept.append(entry_text[position:])
    published = "".join(kept)
    added = plain_bibtex_fields({bib_field.name: bib_field.value for bib_field in entry.fields})
    if added and entry.key:
        # An entry BibTeX cannot read is offered as it is: the check says why.
        with contextlib.suppress(EditError):
            published = set_fields(published, entry.key, added)
    return published


ARXIV_MONTH_ID = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}(?:v\d+)?$")
"""An arXiv id since April 2007: ``YYMM.NNNNN``, the year and month of its first version."""
NAMED_BY = ("author", "editor", "key")
ORGANISATION_FIELDS = ("organization", "institution", "publisher")


def plain_bibtex_fields(fields: dict[str, str]) -> dict[str, str]:
    """What plain BibTeX styles (plainnat) need of an entry that biblatex does without,
    from what the entry states: ``year`` from its ``date`` or its arXiv id (arXiv's own
    BibTeX gives that year), and ``key`` (the name a citation shows and sorts by when no
    author is given) from its organisation, else its title. Never invented: an entry that
    states no date keeps no year."""
    added: dict[str, str] = {}
    if not any(fields.get(name, "").strip() for name in NAMED_BY):
        named = next((fields[n] for n in ORGANISATION_FIELDS if fields.get(n, "").strip()), "")
        if named or fields.get("title", "").strip():
            added["key"] = published_value("key", named or fields["title"])
    if not fields.get("year", "").strip():
        stated = ISO_DATE.match(fields.get("date", "").strip())
        prefix = fields.get("archiveprefix") or fields.get("eprinttype") or ""
        arxiv = ARXIV_MONTH_ID.match(fields.get("eprint", "").strip())
        if stated:
            added["year"] = stated.group(1)
        elif arxiv and prefix.strip("{} ").lower() == ARXIV:
            added["year"] = f"20{arxiv.group(1)}"
    return added


def published_value(name: str, value: str) -> str:
    text = typesettable(value)
    if name == "title" and text.strip() and not _is_protected(text):
        text = f"{{{text}}}"
    return text


def _is_protected(value: str) -> bool:
    """Whether the whole value is one brace group (``{RISE 论文}``)."""
    if not (value.startswith("{") and value.endswith("}")):
        return False
    depth = 0
    for index, character in enumerate(value):
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth == 0 and index < len(value) - 1:
            return False
    return True


def _whole_field_span(entry_text: str, bib_field: BibField) -> tuple[int, int]:
    """The field with its line when it has one to itself, and its trailing comma."""
    line_start = entry_text.rfind("\n", 0, bib_field.name_start) + 1
    starts_line = not entry_text[line_start : bib_field.name_start].strip()
    start = line_start if starts_line else bib_field.name_start
    after = re.match(r"[ \t]*,?[ \t]*\n?", entry_text[bib_field.value_span[1] :])
    return start, bib_field.value_span[1] + (after.end() if after else 0)


def _is_one_part(entry_text: str, bib_field: BibField) -> bool:
    """A field written as one braced or quoted part (no macros joined by ``#``)."""
    start, end = bib_field.value_span
    written = entry_text[start:end]
    return written[:1] + written[-1:] in ("{}", '""') and written[1:-1] == bib_field.value
