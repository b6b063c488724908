"""The one URL rule: which addresses the archive may turn into a link or a resource.

Every address is judged here, in the check and in the build alike: the Markdown links of
the pages (``model.content``), the links of the built pages (``sphinx_ext.safety``), the
``\\url{}`` and ``\\href{}`` of references.bib and its url fields (``bib.entry_rules``,
and the style that makes them links, through ``bib.identifiers``), and the addresses of
an export (``radar import``). A scheme is read as the laxest of an address's readers
would read it (entities, percent-escapes, blanks, format characters, case): an address
one of them reads otherwise is refused, never let through.

Pure: no Sphinx or docutils import.
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import unquote

LINK_SCHEMES = frozenset({"http", "https", "mailto"})
WEB_SCHEMES = frozenset({"http", "https"})
# Nested spellings undone before a scheme is read (``&amp;#x09;``, ``%2509``): a few
# rounds, each decoding entities and percent-escapes once.
URL_DECODING_ROUNDS = 4
# An address holding nothing any reader decodes or drops (no "%", "&", backslash, blank,
# control or non-ASCII character): read as written, at a sixth of the cost.
PLAIN_URL_RE = re.compile(r"[A-Za-z0-9._~:/?#\[\]@!$'()*+,;=-]*\Z")
PLAIN_SCHEME_RE = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
# An absolute web address as written: its scheme and "//" then a host, no blank in it.
WEB_ADDRESS_RE = re.compile(r"^https?://[^\s/?#\\]\S*$", re.IGNORECASE)


def _ignored_in_url(char: str) -> bool:
    """A character some reader of an address drops before its scheme: ASCII blanks and
    controls (the URL standard strips them), any other space, control or format character
    (U+200B, U+00AD...)."""
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs")


def decoded_url(url: str) -> str:
    """``url`` as the laxest of its readers reads it: HTML entities and percent-escapes
    decoded (nested ones too), compatibility forms folded (``ｊａｖａｓｃｒｉｐｔ：``)."""
    text = url
    for _round in range(URL_DECODING_ROUNDS):
        decoded = unquote(html.unescape(text))
        if decoded == text:
            break
        text = decoded
    return unicodedata.normalize("NFKC", text)


def _url_start(url: str) -> tuple[str, str]:
    """:func:`decoded_start`, read straight from an address that holds nothing to decode
    or drop (most of a page's addresses; tests/test_url_rule.py shows both readings
    agree)."""
    if PLAIN_URL_RE.match(url):
        plain = PLAIN_SCHEME_RE.match(url)
        return (plain.group(1).lower() if plain else ""), url[:2]
    return decoded_start(url)


def decoded_start(url: str) -> tuple[str, str]:
    """The scheme a reader may take ``url`` to have (lower-case, "" for none), and how
    the address starts (its first two characters, a backslash read as "/"). Read from
    :func:`decoded_url` with every character :func:`_ignored_in_url` dropped, and the
    scheme without backslashes (``java\\script:``)."""
    kept = [char for char in decoded_url(url) if not _ignored_in_url(char)]
    start = "".join(kept[:2]).replace("\\", "/")
    scheme: list[str] = []
    for char in kept:
        if char == ":" and scheme and scheme[0].isalpha():
            return "".join(scheme).lower(), start
        if char == "\\":
            continue
        if not (char.isascii() and (char.isalnum() or char in "+.-")):
            break
        scheme.append(char)
    return "", start


def url_scheme(url: str) -> str:
    """The scheme a reader may take ``url`` to have, lower-case ("" for none), so that
    ``JaVa&#x09;Script:``, ``java%0ascript:``, ``java&amp;#8203;script:`` and
    ``java\\script:`` all read ``javascript``. Stricter than any browser: an address
    one of them reads otherwise is refused, never let through."""
    return _url_start(url)[0]


def is_safe_href(url: str) -> bool:
    """A link a built page may hold: http(s), mailto, a relative site link or an anchor
    (never ``//other.host``, spelled with backslashes or not). The one URL rule."""
    scheme, start = _url_start(url)
    if scheme:
        return scheme in LINK_SCHEMES
    return start != "//"


def is_web_address(url: str) -> bool:
    """An absolute http(s) address, as a reference's url or a source's address must be:
    :func:`is_safe_href`, and written ``http(s)://HOST...`` without a blank."""
    return WEB_ADDRESS_RE.match(url.strip()) is not None and url_scheme(url) in WEB_SCHEMES


def is_site_resource(url: str) -> bool:
    """An image, script or style a built page may load: a file of the site itself."""
    return not url_scheme(url) and is_safe_href(url)
