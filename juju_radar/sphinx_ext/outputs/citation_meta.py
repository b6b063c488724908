"""Citation metadata in every issue page's head, for reference managers and search engines.

- Highwire Press tags (``citation_*``), which Zotero's "Embedded Metadata" translator
  and Google Scholar read, with one ``citation_reference`` per cited work;
- Dublin Core (``DC.*``), its ``DC.type`` from the DCMI Type Vocabulary (``Text``);
- ``z.itemType`` = ``newspaperArticle``: the translator takes Zotero's own namespace
  as the page's type first (RDF.js ``detectType``: ``t.zotero``), over its guess from
  ``citation_title`` (a journal article) as long as no ``citation_journal_title`` is
  given; ``prism.publicationName`` fills "Publication";
- schema.org JSON-LD: a ``NewsArticle`` with ``isPartOf``, ``datePublished`` and
  ``citation``.

Nothing is invented: the page's URL appears only when ``radar_site_url`` is set, and a
cited work carries only the identifiers its entry states.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from juju_radar.bib.cite_this import PUBLISHER
from juju_radar.bib.identifiers import arxiv_url, doi_url
from juju_radar.model.corrections import last_correction
from juju_radar.model.issue_records import Issue
from juju_radar.model.license import License, configured_license
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.outputs.downloads import cited_records

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ZOTERO_ITEM_TYPE = "newspaperArticle"
DCMI_TYPE = "Text"  # https://www.dublincore.org/specifications/dublin-core/dcmi-type-vocabulary/
# Zotero's translators (zotero/translators 2814370, "Embedded Metadata.js"
# processHighwireCreators) split a citation_author at its last space ("Radar, Juju")
# unless it holds a comma; a trailing comma, which ZU.cleanAuthor trims, keeps the
# whole name as one family name: the organisation, as written. tests/test_zotero_client.py
# checks it with translation-server itself (make test-clients).
ORGANISATION_AS_AUTHOR = f"{PUBLISHER},"
META = Markup('\n<meta name="{}" content="{}" />')
SCHOLARLY_TYPES = frozenset({"article-journal", "article", "paper-conference"})


def highwire_date(parts: list[int]) -> str:
    """Highwire dates are ``YYYY/MM/DD`` (as much of it as is known)."""
    return "/".join([f"{parts[0]:04d}", *(f"{part:02d}" for part in parts[1:])])


def iso_date(parts: list[int]) -> str:
    return "-".join([f"{parts[0]:04d}", *(f"{part:02d}" for part in parts[1:])])


def _names(record: dict[str, Any]) -> list[str]:
    return [
        name.get("literal") or " ".join(filter(None, (name.get("given"), name.get("family"))))
        for name in record.get("author", [])
    ]


def _arxiv(record: dict[str, Any]) -> str:
    return str(record.get("number", "")).removeprefix("arXiv:") if "archive" in record else ""


def reference_value(value: str) -> str:
    """A value inside ``citation_reference``, whose pairs ``;`` separates: its own ``;``
    percent-encoded (``%3B``, as in a URL), so that a DOI such as ``…CO;2-X`` reads back
    unaltered; nothing else changes."""
    return value.replace(";", "%3B")


def reference_content(record: dict[str, Any]) -> str:
    """One cited work as Google Scholar's ``citation_reference`` value: ``name=value``
    pairs joined by ``; `` (:func:`reference_value`)."""
    pairs: list[tuple[str, str]] = [("citation_title", record.get("title", ""))]
    pairs += [("citation_author", name) for name in _names(record)]
    if "container-title" in record:
        pairs.append(("citation_journal_title", record["container-title"]))
    if "issued" in record:
        issued = highwire_date(record["issued"]["date-parts"][0])
        pairs.append(("citation_publication_date", issued))
    pairs += [
        ("citation_doi", record.get("DOI", "")),
        ("citation_arxiv_id", _arxiv(record)),
        ("citation_isbn", record.get("ISBN", "")),
        ("citation_public_url", record.get("URL", "")),
    ]
    return "; ".join(f"{name}={reference_value(value)}" for name, value in pairs if value)


@dataclass(frozen=True)
class CitedPage:
    """What a page's citation tags describe: an issue, or one story (``story``: then the
    newsletter is its container, and the page its own public address)."""

    title: str
    date: dt.date
    story: bool = False
    modified: dt.date | None = None  # the last correction's date


def issue_page(issue: Issue) -> CitedPage:
    return CitedPage(issue.title, issue.date, modified=last_correction(issue.corrections))


def highwire_tags(
    page: CitedPage,
    language: str,
    url: str,
    references: Iterable[dict[str, Any]],
    license: License | None = None,
) -> list[tuple[str, str]]:
    date = highwire_date([page.date.year, page.date.month, page.date.day])
    tags = [
        ("citation_title", page.title),
        ("citation_author", ORGANISATION_AS_AUTHOR),
        ("citation_publication_date", date),
        ("citation_online_date", date),
        ("citation_language", language),
        ("citation_publisher", PUBLISHER),
    ]
    # No ``citation_journal_title`` for a story either: Zotero's translator then saves it
    # as a journal article (tests/test_zotero_client.py); ``prism.publicationName`` and
    # the JSON-LD's ``isPartOf`` name the newsletter as its container.
    if url and page.story:
        tags.append(("citation_public_url", url))
    if url:
        tags.append(("citation_fulltext_html_url", url))
    tags += [("citation_reference", reference_content(record)) for record in references]
    tags += dublin_core_tags(page, language, url, license)
    tags += [("z.itemType", ZOTERO_ITEM_TYPE), ("prism.publicationName", PUBLISHER)]
    return tags


def dublin_core_tags(
    page: CitedPage, language: str, url: str, license: License | None = None
) -> list[tuple[str, str]]:
    """``DC.rights`` is the licence's address, when the site states one."""
    tags = [
        ("DC.title", page.title),
        ("DC.creator", PUBLISHER),
        ("DC.date", page.date.isoformat()),
        ("DC.publisher", PUBLISHER),
        ("DC.language", language),
        ("DC.type", DCMI_TYPE),
    ]
    tags += [("DC.identifier", url)] if url else []
    tags += [("DC.modified", page.modified.isoformat())] if page.modified else []
    return tags + ([("DC.rights", license.url)] if license else [])


def schema_work(record: dict[str, Any]) -> dict[str, Any]:
    """A cited work as a schema.org ``CreativeWork`` (or ``ScholarlyArticle``)."""
    kind = "ScholarlyArticle" if record["type"] in SCHOLARLY_TYPES else "CreativeWork"
    work: dict[str, Any] = {"@type": kind, "name": record.get("title", "")}
    authors = [
        {"@type": "Organization" if "literal" in name else "Person", "name": text}
        for name, text in zip(record.get("author", []), _names(record), strict=True)
    ]
    if authors:
        work["author"] = authors
    if "issued" in record:
        work["datePublished"] = iso_date(record["issued"]["date-parts"][0])
    if "container-title" in record:
        work["isPartOf"] = {"@type": "Periodical", "name": record["container-title"]}
    if "publisher" in record:
        work["publisher"] = {"@type": "Organization", "name": record["publisher"]}
    identifiers = [
        {"@type": "PropertyValue", "propertyID": name, "value": value}
        for name, value in (("DOI", record.get("DOI")), ("arXiv", _arxiv(record)))
        if value
    ]
    if identifiers:
        work["identifier"] = identifiers
    same_as = [  # the resolvers' addresses, with what a URL cannot hold percent-encoded
        doi_url(record["DOI"]) if "DOI" in record else "",
        arxiv_url(_arxiv(record)) if _arxiv(record) else "",
    ]
    if any(same_as):
        work["sameAs"] = [link for link in same_as if link]
    if "URL" in record:
        work["url"] = record["URL"]
    return work


def json_ld(
    page: CitedPage,
    language: str,
    site: SiteUrl,
    url: str,
    references: Iterable[dict[str, Any]],
    license: License | None = None,
) -> dict[str, Any]:
    organisation = {"@type": "Organization", "name": PUBLISHER}
    periodical: dict[str, Any] = {"@type": "Periodical", "name": PUBLISHER}
    if site:
        periodical["url"] = site.base
    document: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": page.title,
        "datePublished": page.date.isoformat(),
        "inLanguage": language,
        "author": organisation,
        "publisher": organisation,
        "isPartOf": periodical,
        "citation": [schema_work(record) for record in references],
    }
    if url:
        document["url"] = url
        document["mainEntityOfPage"] = url
    if license:
        document["license"] = license.url
    if page.modified:
        document["dateModified"] = page.modified.isoformat()
    return document


def script_json(document: dict[str, Any]) -> str:
    """JSON that cannot end its ``<script>`` element or open another (``<``, ``>`` and
    ``&`` as ``\\u`` escapes, which JSON parsers read back as the same characters)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def language_tag(app: Sphinx) -> str:
    """``conf.py``'s ``language`` as a BCP 47 tag (``zh_CN`` -> ``zh-CN``)."""
    return str(app.config.language or "zh_CN").replace("_", "-")


def add_citation_meta(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    issue = radar_data(app.env).issues.get(pagename)
    if issue is None or "metatags" not in context:
        return
    site = SiteUrl.from_config(app.config)
    url = site.url(app.builder.get_target_uri(pagename)) if site else ""
    references = cited_records(app, issue.citation_keys)
    context["metatags"] += citation_metatags(app, issue_page(issue), url, references)


def citation_metatags(
    app: Sphinx,
    page: CitedPage,
    url: str,
    references: list[dict[str, Any]],
    others: tuple[dict[str, Any], ...] = (),
) -> str:
    """The Highwire, Dublin Core and JSON-LD of a page; ``others``: more JSON-LD
    documents (a story's review), each in a script of its own."""
    site = SiteUrl.from_config(app.config)
    language = language_tag(app)
    license = configured_license(app.config.radar_license)
    tags = highwire_tags(page, language, url, references, license)
    documents = (json_ld(page, language, site, url, references, license), *others)
    meta = "".join(str(META.format(name, value)) for name, value in tags)
    return meta + "".join(
        f'\n<script type="application/ld+json">{script_json(document)}</script>'
        for document in documents
    )
