"""Where a reference can be found: its DOI, arXiv id or URL as a link (pure Python).

Used by the bibliography style (the links under an entry), by the issue pages (an item's
source label links straight to the source) and by ``radar refs``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote, unquote, urlsplit

from juju_radar.model.urls import is_safe_href, is_web_address

DOI_RESOLVER = "https://doi.org/"
ARXIV_ABS = "https://arxiv.org/abs/"
ARXIV_PREFIX = "arXiv"
"""The ``archiveprefix`` of an entry with an arXiv ``eprint``."""

EDITORS_NOTE_FIELD = "radarnote"
"""The editors' bookkeeping (which issue, item and label an entry was imported for):
kept in the .bib file, never shown on a page."""

SOURCE_FIELD = "radarsource"
"""Where ``radar refs accept`` took an entry's data from (service and record address)."""

LABEL_FIELD = "radarlabel"
"""The title the editors gave an entry (their link label and the item's headline), kept
by ``radar refs accept`` when it writes the work's own title."""

ARCHIVE_URL_FIELD = "archiveurl"
"""The address of an archived copy of the source (``radar refs archive``)."""

URL_FIELDS = frozenset({"url", "doi", "eprint", ARCHIVE_URL_FIELD})
"""Fields that hold an address, or an identifier that is part of one: stored as written
(never LaTeX-escaped: BibTeX, biblatex and pybtex read them verbatim), read as written by
every output. The one list: the edits, the check, the typesetting and the readers use it."""

EDITORS_FIELDS = frozenset({EDITORS_NOTE_FIELD, SOURCE_FIELD, LABEL_FIELD})
"""The editors' bookkeeping: kept in the .bib file, never shown on a page, left out of
the downloads."""

_DOI_PREFIX = re.compile(r"^\s*(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_ARXIV_PREFIX = re.compile(r"^\s*(?:arxiv:\s*|https?://arxiv\.org/abs/)", re.IGNORECASE)
_LATEX_ESCAPE = re.compile(r"\\([_%&#$])")
_DOI_SHAPE = re.compile(r"^10\.\d{4,9}/\S+$")
_ARXIV_SHAPE = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})
_ARXIV_HOSTS = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})
_ARXIV_PATH = re.compile(r"^/(?:abs|pdf)/(?P<id>.+?)(?:\.pdf)?/?$")
URL_COMMAND = re.compile(r"\\url\s*\{([^{}]*)\}")
"""``\\url{ADDRESS}`` in a text field: the style makes it a link (:func:`field_link`)."""
HREF_COMMAND = re.compile(r"\\href\s*\{([^{}]*)\}")
"""``\\href{ADDRESS}{TEXT}``: never a link (the build cannot convert it), its address
judged all the same."""


def _plain(value: str) -> str:
    """A field value without braces and LaTeX escapes of ``_ % & # $``."""
    return _LATEX_ESCAPE.sub(r"\1", value.replace("{", "").replace("}", "")).strip()


def normalize_doi(value: str) -> str:
    """``10.1234/abc`` from ``doi:10.1234/abc``, ``https://doi.org/10.1234/abc``…"""
    return _DOI_PREFIX.sub("", _plain(value)).strip()


def normalize_arxiv(value: str) -> str:
    """``2409.01234`` from ``arXiv:2409.01234`` or ``https://arxiv.org/abs/2409.01234``."""
    return _ARXIV_PREFIX.sub("", _plain(value)).strip()


def is_doi(value: str) -> bool:
    return _DOI_SHAPE.match(normalize_doi(value)) is not None


def is_arxiv_id(value: str) -> bool:
    return _ARXIV_SHAPE.match(normalize_arxiv(value)) is not None


def doi_url(doi: str) -> str:
    """The doi.org link of a DOI, with the characters a URL cannot hold encoded."""
    return DOI_RESOLVER + quote(normalize_doi(doi), safe="/:;()[]")


def arxiv_url(eprint: str) -> str:
    return ARXIV_ABS + quote(normalize_arxiv(eprint), safe="/.")


def arxiv_eprint(fields: Mapping[str, str]) -> str | None:
    """The arXiv id of an entry: ``eprint`` with ``archiveprefix``/``eprinttype`` arXiv
    (or neither given, BibTeX's usual reading)."""
    eprint = fields.get("eprint", "").strip()
    archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv").strip()
    if not eprint or _plain(archive).lower() != "arxiv":
        return None
    return normalize_arxiv(eprint)


def web_url(value: str) -> str | None:
    """An http(s) address as written, or None (the check refuses it: ``unsafe-url``)."""
    url = value.strip()
    return url if is_web_address(url) else None


def field_link(address: str) -> str | None:
    """The link a ``\\url{address}`` of a text field becomes, or None (shown as text, and
    refused by the check: ``unsafe-url``)."""
    address = address.strip()
    return address if address and is_safe_href(address) else None


def linked_addresses(value: str) -> list[str]:
    """The addresses of ``value``'s ``\\url{}`` and ``\\href{}{}`` commands."""
    found = [*URL_COMMAND.finditer(value), *HREF_COMMAND.finditer(value)]
    return [match.group(1).strip() for match in sorted(found, key=lambda match: match.start())]


def source_url(fields: Mapping[str, str]) -> str | None:
    """Where a reader follows the reference: the DOI, else the arXiv id, else the URL.
    ``fields`` maps lower-case field names to values as written."""
    if doi := fields.get("doi", "").strip():
        return doi_url(doi)
    if (eprint := arxiv_eprint(fields)) is not None:
        return arxiv_url(eprint)
    return web_url(fields.get("url", ""))


def url_identifiers(url: str) -> dict[str, str]:
    """The DOI or arXiv id an http(s) address names, as entry fields (``doi``, or
    ``eprint`` and ``archiveprefix``); empty for any other address."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return {}
    if parts.scheme.lower() not in ("http", "https"):
        return {}
    host = (parts.hostname or "").lower()
    if host in _DOI_HOSTS:
        doi = unquote(parts.path.lstrip("/"))
        return {"doi": doi} if is_doi(doi) and normalize_doi(doi) == doi else {}
    if host in _ARXIV_HOSTS and (match := _ARXIV_PATH.match(parts.path)):
        eprint = match.group("id")
        return {"eprint": eprint, "archiveprefix": ARXIV_PREFIX} if is_arxiv_id(eprint) else {}
    return {}
