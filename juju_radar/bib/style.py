"""The ``radar`` pybtex formatting style for the archive's reference lists.

It is pybtex's ``unsrt`` (numbered labels in citation order) with these changes:

* titles keep their case exactly as written (``unsrt`` lower-cases them);
* a list of Chinese (CJK) names is joined with "、", each name written
  family-then-given with no space: ``张三 and 李四`` gives "张三、李四",
  ``张, 三`` gives "张三" (as in BibTeX, the part before a comma is the family name);
* institutional authors in double braces (``{{最高人民法院}}``) stay whole;
* ``organization``, ``institution`` and ``publisher`` are shown when present;
* ``@misc``-like entries (misc, online, software and any unknown type) show the
  title, the issuer or ``howpublished``, the date (``date``, or ``year`` with
  ``month`` and ``day``), the note and the web references;
* the author is optional everywhere, and an entry missing a field its type
  requires is formatted as ``@misc`` instead of failing the build;
* ``\\url{...}`` in ``howpublished``, ``note`` and the other text fields becomes a link
  when the one URL rule allows it (``identifiers.field_link``), else text;
* the DOI, arXiv id and URL are links labelled in Chinese ("DOI：", "arXiv 编号：",
  "网址："), the URL left out when it only repeats the DOI's or arXiv's link;
* the editors' bookkeeping fields (``radarnote``, ``radarsource``, ``radarlabel``) are
  never shown;
* a Chinese entry (its title, or every author, written in CJK) is punctuated in
  Chinese, as GB/T 7714 entries are in Chinese text: its parts are joined with "，"
  and each part ends with "。" ("RISE 论文。从模型……方法。"), with no space between.

Nothing is added that the entry does not hold, apart from ``unsrt``'s own words
("Technical Report").  Call :func:`register` before Sphinx reads
``bibtex_default_style = "radar"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pybtex.database import Entry, Person
from pybtex.plugin import register_plugin
from pybtex.richtext import HRef, String, Symbol, Text
from pybtex.style import FormattedEntry
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.formatting.unsrt import pages
from pybtex.style.template import (
    FieldIsMissing,
    field,
    first_of,
    join,
    node,
    optional,
    optional_field,
    tag,
    words,
)

from juju_radar.bib.identifiers import (
    URL_COMMAND,
    arxiv_eprint,
    arxiv_url,
    doi_url,
    field_link,
    normalize_doi,
    web_url,
)

STYLE_NAME = "radar"

CJK_CHARACTER = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]"
)
"""Han ideographs (with extensions and compatibility forms), kana and hangul."""

CJK_NAME_SEPARATOR = "、"
LATIN_NAME_SEPARATORS = {"sep": ", ", "sep2": " and ", "last_sep": ", and "}
CJK_NAME_SEPARATORS = {
    "sep": CJK_NAME_SEPARATOR,
    "sep2": CJK_NAME_SEPARATOR,
    "last_sep": CJK_NAME_SEPARATOR,
}

MISC_LIKE_TYPES = frozenset({"misc", "online", "software", "electronic", "www", "webpage"})
"""Types formatted with the misc template; unknown types are too."""

# What pybtex's LaTeX reading (latexcodec) leaves as written or misreads: the escaped
# braces ("\{" becomes "\" and a group) and the text commands the downloads write for
# what LaTeX would read as math. Text holding one is decoded by the downloads' reader.
PYBTEX_MISREAD = re.compile(
    r"\\[{}]|\\text(?:asciicircum|asciitilde|backslash|braceleft|braceright|underscore)\b"
)
NUMERIC = re.compile(r"\d{1,2}")


@dataclass(frozen=True)
class Punctuation:
    """How an entry's parts read: joined within a part, ending it, between parts."""

    within: str
    end: str
    between: Any  # a string, or pybtex's "newblock" symbol (a space, a line in HTML)


WESTERN = Punctuation(within=", ", end=".", between=Symbol("newblock"))
CHINESE = Punctuation(within="，", end="。", between="")
TERMINATORS = (".", "?", "!", "。", "？", "！")


@node
def clause(children: list[Any], context: dict[str, Any]) -> Text:
    """pybtex's ``sentence`` in the entry's punctuation (``context["punctuation"]``)."""
    punctuation = context.get("punctuation", WESTERN)
    text = join(sep=punctuation.within)[children].format_data(context)
    if text and not text.endswith(TERMINATORS):
        text = Text(text, punctuation.end)
    return text


@node
def entry_parts(children: list[Any], context: dict[str, Any]) -> Text:
    """pybtex's ``toplevel``: the parts, "newblock" between them or, in Chinese, nothing."""
    return join(sep=context.get("punctuation", WESTERN).between)[children].format_data(context)


def contains_cjk(text: str) -> bool:
    return CJK_CHARACTER.search(text) is not None


def is_cjk_person(person: Person) -> bool:
    return contains_cjk(" ".join(person_name_parts(person)))


def person_name_parts(person: Person) -> list[str]:
    return [
        *person.prelast_names,
        *person.last_names,
        *person.first_names,
        *person.middle_names,
        *person.lineage_names,
    ]


def format_cjk_person(person: Person) -> Text:
    """Family name then given name, with no space: "张三"."""
    return Text(
        *person.rich_prelast_names,
        *person.rich_last_names,
        *person.rich_first_names,
        *person.rich_middle_names,
        *person.rich_lineage_names,
    )


@node
def author_names(children: list[Any], context: dict[str, Any], role: str) -> Text:
    """The persons in ``role``, joined with "、" when all of them are CJK names."""
    if children:
        raise ValueError(children)
    entry = context["entry"]
    persons = entry.persons.get(role)
    if not persons:
        raise FieldIsMissing(role, entry)
    style = context["style"]
    all_cjk = all(is_cjk_person(person) for person in persons)
    formatted_names = [
        format_cjk_person(person)
        if is_cjk_person(person)
        else style.format_name(person, style.abbreviate_names)
        for person in persons
    ]
    separators = CJK_NAME_SEPARATORS if all_cjk else LATIN_NAME_SEPARATORS
    return join(**separators)[formatted_names].format_data(context)


def is_chinese_entry(entry: Entry) -> bool:
    """A CJK title, or (without one) authors who all have CJK names."""
    title = entry.fields.get("title", "")
    if title.strip():
        return contains_cjk(title)
    persons = entry.persons.get("author", [])
    return bool(persons) and all(is_cjk_person(person) for person in persons)


def entry_field(entry: Entry, name: str) -> str | None:
    value = entry.fields.get(name)
    return value.strip() if value and value.strip() else None


def numeric_month_and_day(month: str | None, day: str | None) -> str | None:
    """``-MM`` or ``-MM-DD`` when the month (and day) are plain numbers."""
    if month is None or not NUMERIC.fullmatch(month) or not 1 <= int(month) <= 12:
        return None
    if day is not None and NUMERIC.fullmatch(day) and 1 <= int(day) <= 31:
        return f"-{int(month):02d}-{int(day):02d}"
    return f"-{int(month):02d}"


def written_date(entry: Entry) -> Text:
    """The entry's date as written: ``date``, or year with month and day."""
    explicit_date = entry_field(entry, "date")
    if explicit_date is not None:
        return Text.from_latex(explicit_date)
    year = entry_field(entry, "year")
    if year is None:
        raise FieldIsMissing("year", entry)
    month = entry_field(entry, "month")
    day = entry_field(entry, "day")
    numeric_suffix = numeric_month_and_day(month, day)
    if numeric_suffix is not None:
        return Text(year + numeric_suffix)
    if month is None:
        return Text(year)
    month_and_day = f"{month} {day}," if day else month
    return Text.from_latex(f"{month_and_day} {year}")


@node
def date(children: list[Any], context: dict[str, Any]) -> Text:
    """``2026``, ``2026-09``, ``2026-09-07``, ``September 2026`` or the ``date`` field."""
    if children:
        raise ValueError(children)
    return written_date(context["entry"])


def latex_segment(value: str) -> Text:
    """LaTeX text as a reader should see it (:data:`PYBTEX_MISREAD`)."""
    if PYBTEX_MISREAD.search(value):
        from juju_radar.bib.exchange import latex_text

        return Text(latex_text(value))
    return Text.from_latex(value)


def latex_with_urls(value: str) -> Text:
    """LaTeX text in which each ``\\url{...}`` becomes a link showing the address."""
    parts: list[Any] = []
    position = 0
    for match in URL_COMMAND.finditer(value):
        if match.start() > position:
            parts.append(latex_segment(value[position : match.start()]))
        address = match.group(1).strip()
        link = field_link(address)
        parts.append(String(address) if link is None else HRef(link, String(address)))
        position = match.end()
    if position < len(value):
        parts.append(latex_segment(value[position:]))
    return Text(*parts)


@node
def field_with_urls(children: list[Any], context: dict[str, Any], name: str) -> Text:
    """A field's text, with ``\\url{...}`` made into links."""
    if children:
        raise ValueError(children)
    entry = context["entry"]
    value = entry_field(entry, name)
    if value is None:
        raise FieldIsMissing(name, entry)
    return latex_with_urls(value)


def lower_case_fields(entry: Entry) -> dict[str, str]:
    return {name.lower(): value for name, value in entry.fields.items()}


@node
def web_references(children: list[Any], context: dict[str, Any]) -> Text:
    """``DOI：…；arXiv 编号：…；网址：…``, each a link, those the entry has."""
    if children:
        raise ValueError(children)
    fields = lower_case_fields(context["entry"])
    parts: list[Text] = []
    links: set[str] = set()
    if doi := fields.get("doi", "").strip():
        links.add(doi_url(doi))
        parts.append(Text("DOI：", HRef(doi_url(doi), String(normalize_doi(doi)))))
    if (eprint := arxiv_eprint(fields)) is not None:
        links.add(arxiv_url(eprint))
        parts.append(Text("arXiv 编号：", HRef(arxiv_url(eprint), String(eprint))))
    url = web_url(fields.get("url", ""))
    if url is not None and url not in links:
        parts.append(Text("网址：", HRef(url, String(url))))
    if not parts:
        raise FieldIsMissing("url", context["entry"])
    return Text("；").join(parts)


@node
def issuer_list(children: list[Any], context: dict[str, Any]) -> Text:
    return join(sep=context.get("punctuation", WESTERN).within)[children].format_data(context)


class RadarStyle(UnsrtStyle):
    """``unsrt`` for a Chinese newsletter archive; see the module docstring."""

    def format_names(self, role: str, as_sentence: bool = True) -> Any:
        formatted_names = author_names(role)
        if as_sentence:
            return clause[formatted_names]
        return formatted_names

    def format_title(self, e: Entry, which_field: str, as_sentence: bool = True) -> Any:
        title_as_written = field_with_urls(which_field)
        if as_sentence:
            return clause[title_as_written]
        return title_as_written

    def format_issuer(self) -> Any:
        """Organization, institution and publisher, those present, comma-separated."""
        return issuer_list[
            optional[field_with_urls("organization")],
            optional[field_with_urls("institution")],
            optional[field_with_urls("publisher")],
        ]

    def format_optional_author(self) -> Any:
        return optional[clause[self.format_names("author", as_sentence=False)]]

    def format_web_refs(self, e: Entry) -> Any:
        """The entry's identifiers as links, last and without a closing full stop (one
        glued to a URL is copied with it)."""
        return optional[web_references]

    def format_note(self) -> Any:
        return clause[optional[field_with_urls("note")]]

    def get_article_template(self, e: Entry) -> Any:
        volume_and_pages = first_of[
            optional[join[field("volume"), optional["(", field("number"), ")"], ":", pages]],
            optional[words["pages", pages]],
        ]
        return entry_parts[
            self.format_optional_author(),
            self.format_title(e, "title"),
            clause[
                optional[tag("em")[field_with_urls("journal")]],
                volume_and_pages,
                self.format_issuer(),
                date,
            ],
            self.format_note(),
            self.format_web_refs(e),
        ]

    def get_misc_template(self, e: Entry) -> Any:
        return entry_parts[
            self.format_optional_author(),
            optional[self.format_title(e, "title")],
            clause[
                self.format_issuer(),
                optional[field_with_urls("howpublished")],
                optional[date],
            ],
            self.format_note(),
            self.format_web_refs(e),
        ]

    def get_online_template(self, e: Entry) -> Any:
        return self.get_misc_template(e)

    def get_software_template(self, e: Entry) -> Any:
        return self.get_misc_template(e)

    def get_techreport_template(self, e: Entry) -> Any:
        return entry_parts[
            self.format_optional_author(),
            self.format_title(e, "title"),
            clause[
                words[
                    first_of[optional_field("type"), "Technical Report"], optional_field("number")
                ],
                self.format_issuer(),
                optional_field("address"),
                date,
            ],
            self.format_note(),
            self.format_web_refs(e),
        ]

    def template_type(self, entry: Entry) -> str:
        """The template an entry type uses: misc for misc-like and unknown types."""
        entry_type = entry.type.lower()
        if entry_type in MISC_LIKE_TYPES or not hasattr(self, f"get_{entry_type}_template"):
            return "misc"
        return entry_type

    def format_entry(self, label: str, entry: Entry, bib_data: Any = None) -> FormattedEntry:
        punctuation = CHINESE if is_chinese_entry(entry) else WESTERN
        context = {"entry": entry, "style": self, "bib_data": bib_data, "punctuation": punctuation}
        get_template = getattr(self, f"get_{self.template_type(entry)}_template")
        try:
            text = get_template(entry).format_data(context)
        except FieldIsMissing:
            text = self.get_misc_template(entry).format_data(context)
        return FormattedEntry(entry.key, text, label)


def register() -> None:
    """Make ``radar`` available to pybtex and sphinxcontrib-bibtex; safe to call again."""
    register_plugin("pybtex.style.formatting", STYLE_NAME, RadarStyle, force=True)
