"""The three services ``radar refs lookup`` asks, and how their records become candidates.

* doi.org, by content negotiation for CSL-JSON, when the entry has a DOI;
* the arXiv API (Atom, read with feedparser), by id or by title words;
* Crossref's works search (``query.bibliographic``), by title, authors and year.
"""

from __future__ import annotations

import json
import re
import xml.sax
from typing import Any
from urllib.parse import quote

import feedparser
import httpx
from selectolax.lexbor import LexborHTMLParser

from juju_radar.bib.identifiers import DOI_RESOLVER, normalize_arxiv, normalize_doi
from juju_radar.editors.lookup.candidates import LATIN_WORD, STOPWORDS, Candidate
from juju_radar.editors.lookup.client import Client, ServiceError
from juju_radar.model.messages import _
from juju_radar.model.urls import is_web_address

CSL_JSON = "application/vnd.citationstyles.csl+json"
ROWS = 5
MAX_TITLE_WORDS = 8
_ARXIV_ABS_ID = re.compile(r"/abs/([^?#]+?)(?:v\d+)?$")


def doi_record(client: Client, doi: str) -> list[Candidate]:
    """The CSL-JSON record of ``doi`` from doi.org (its registration agency answers)."""
    base = client.settings.doi_url.rstrip("/")
    url = f"{base}/{quote(normalize_doi(doi), safe='/:;()')}"
    data = _json(client.get("doi.org", url, accept=CSL_JSON), "doi.org")
    if not isinstance(data, dict):
        raise ServiceError(_("doi.org sent no CSL-JSON record for {doi}").format(doi=doi))
    candidate = from_csl(data, "doi.org", url)
    if candidate is None:
        raise ServiceError(_("doi.org's record for {doi} has no title").format(doi=doi))
    return [candidate]


def crossref_search(client: Client, query: str) -> list[Candidate]:
    url = f"{client.settings.crossref_url.rstrip('/')}/works"
    params: dict[str, Any] = {"query.bibliographic": query, "rows": ROWS}
    if client.settings.contact_email:
        params["mailto"] = client.settings.contact_email
    data = _json(client.get("Crossref", url, params), "Crossref")
    try:
        items = data["message"]["items"]
        assert isinstance(items, list)
    except (KeyError, TypeError, AssertionError):
        raise ServiceError(_("Crossref's answer is not a works list (no message.items)")) from None
    found = []
    for item in items:
        if isinstance(item, dict):
            record = f"{url}/{quote(str(item.get('DOI', '')), safe='/')}"
            candidate = from_csl(item, "Crossref", record)
            if candidate is not None:
                found.append(candidate)
    return found


def arxiv_by_id(client: Client, arxiv_id: str) -> list[Candidate]:
    return _arxiv(client, {"id_list": normalize_arxiv(arxiv_id), "max_results": 1})


def arxiv_title_search(client: Client, title: str) -> list[Candidate]:
    """arXiv's title search on the title's Latin words (none: nothing to search)."""
    title_words = [
        word
        for word in LATIN_WORD.findall(title.lower())
        if word not in STOPWORDS and len(word) > 1
    ][:MAX_TITLE_WORDS]
    if not title_words:
        return []
    query = " AND ".join(f"ti:{word}" for word in title_words)
    return _arxiv(client, {"search_query": query, "start": 0, "max_results": ROWS})


def _arxiv(client: Client, params: dict[str, Any]) -> list[Candidate]:
    url = f"{client.settings.arxiv_url.rstrip('/')}/query"
    response = client.get("arXiv", url, params)
    feed = feedparser.parse(response.content)
    if not feed.get("version") or (
        feed.get("bozo") and isinstance(feed.get("bozo_exception"), xml.sax.SAXException)
    ):
        reason = _one_line(feed.get("bozo_exception")) or _("not an Atom feed")
        raise ServiceError(
            _("arXiv's answer cannot be read as Atom: {reason}").format(reason=reason)
        )
    found = []
    for entry in feed.entries:
        identifier = str(entry.get("id", ""))
        if "/api/errors" in identifier:
            reason = _one_line(entry.get("summary"))
            raise ServiceError(_("arXiv refused the query: {reason}").format(reason=reason))
        candidate = from_arxiv_entry(entry)
        if candidate is not None:
            found.append(candidate)
    return found


def from_arxiv_entry(entry: Any) -> Candidate | None:
    title = " ".join(str(entry.get("title", "")).split())
    match = _ARXIV_ABS_ID.search(str(entry.get("id", "")))
    if not title or match is None:
        return None
    arxiv_id = match.group(1)
    published = str(entry.get("published", ""))
    doi = entry.get("arxiv_doi")
    return Candidate(
        source="arXiv",
        record=f"https://arxiv.org/abs/{arxiv_id}",
        title=title,
        authors=tuple(
            " ".join(str(author.get("name", "")).split())
            for author in entry.get("authors", [])
            if author.get("name")
        ),
        year=published[:4] if re.match(r"\d{4}", published) else None,
        container=" ".join(str(entry.get("arxiv_journal_ref", "")).split()) or None,
        kind="preprint",
        doi=normalize_doi(str(doi)) if doi else None,
        eprint=arxiv_id,
    )


def from_csl(data: dict[str, Any], source: str, record: str) -> Candidate | None:
    """A CSL-JSON record (doi.org) or a Crossref work (the same names, lists for titles)."""
    title = _first_text(data.get("title"))
    if not title:
        return None
    doi = _first_value(data.get("DOI"))
    url = _first_value(data.get("URL"))
    if url and (not is_web_address(url) or _is_doi_link(url)):
        url = None  # not a web address (the one URL rule), or the DOI is the link
    return Candidate(
        source=source,
        record=record,
        title=title,
        authors=tuple(_csl_names(data.get("author"))),
        year=_csl_year(data.get("issued")),
        container=_first_text(data.get("container-title")),
        kind=_first_value(data.get("type")) or "",
        doi=normalize_doi(doi) if doi else None,
        url=url,
    )


def _is_doi_link(url: str) -> bool:
    return re.match(r"^https?://(dx\.)?doi\.org/", url, re.IGNORECASE) is not None or (
        url.startswith(DOI_RESOLVER)
    )


def _first_value(value: Any) -> str | None:
    """The first non-blank string of a CSL field (a string, or a list of them), as is:
    identifiers and addresses are not markup."""
    if isinstance(value, list):
        value = next((each for each in value if isinstance(each, str) and each.strip()), None)
    return value.strip() if isinstance(value, str) and value.strip() else None


def _first_text(value: Any) -> str | None:
    """The first non-blank text of a CSL field that may hold markup (titles, names)."""
    first = _first_value(value)
    return " ".join(shown_text(first).split()) or None if first else None


def shown_text(fragment: str) -> str:
    """The text a browser shows of ``fragment``: Crossref's titles are JATS markup
    (``<jats:italic>``, ``&amp;``), read by an HTML5 parser, so a bare ``<`` in the text
    stays one and entities come out as the characters they name."""
    if "<" not in fragment and "&" not in fragment:
        return fragment
    body = LexborHTMLParser(f"<body>{fragment}").body
    return body.text() if body is not None else ""


def _csl_names(value: Any) -> list[str]:
    """BibTeX names: ``Family, Given``, or an organisation in braces."""
    names = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, dict):
            continue
        family, given = _first_text(person.get("family")), _first_text(person.get("given"))
        literal = _first_text(person.get("literal")) or _first_text(person.get("name"))
        if family:
            names.append(f"{family}, {given}" if given else family)
        elif literal:
            names.append("{" + literal + "}")
    return names


def _csl_year(value: Any) -> str | None:
    try:
        year = value["date-parts"][0][0]
    except (KeyError, IndexError, TypeError):
        return None
    return str(year) if isinstance(year, int | str) and re.fullmatch(r"\d{4}", str(year)) else None


def _json(response: httpx.Response, service: str) -> Any:
    try:
        return json.loads(response.content)
    except (ValueError, UnicodeDecodeError) as error:
        raise ServiceError(
            _("{service}'s answer is not valid JSON: {error}").format(
                service=service, error=_one_line(error)
            )
        ) from None


def _one_line(value: object) -> str:
    return " ".join(str(value or "").split())
