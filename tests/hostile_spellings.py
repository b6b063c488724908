"""Addresses spelled as hostile content spells them, and how a browser reads them (the
WHATWG URL standard, as ada implements it): shared by the tests of the one URL rule and
of hostile content."""

from __future__ import annotations

import html
import re
import sys
import unicodedata

from ada_url import join_url
from hypothesis import strategies as st

from juju_radar.model.page import FORBIDDEN_CHARACTER_RE

BASE = "https://site.example/issues/2026/2026-10-01.html"
SITE_HOST = "site.example"
ALLOWED_PROTOCOLS = frozenset({"http:", "https:", "mailto:"})
# Every format character but those refused everywhere (bidirectional controls).
FORMAT_CHARACTERS = [
    chr(code)
    for code in range(sys.maxunicode + 1)
    if unicodedata.category(chr(code)) == "Cf" and not FORBIDDEN_CHARACTER_RE.match(chr(code))
]


def refused_by_a_browser(url: str) -> bool:
    """Whether a browser on a page of the site reads ``url`` as a script, a file or
    another scheme than the allowed ones, or (written without a scheme) as another host:
    taken as written (a link's address), or from an HTML attribute (entities decoded)."""
    return any(browser_refuses(written) for written in {url, html.unescape(url)})


def browser_refuses(url: str) -> bool:
    """:func:`refused_by_a_browser` of an address as the page's DOM holds it (an
    attribute's value, its entities already decoded)."""
    try:
        resolved = join_url(BASE, url)
    except ValueError:
        return False  # not an address: the browser does not follow it
    protocol = resolved.split(":", 1)[0].lower() + ":"
    if protocol not in ALLOWED_PROTOCOLS:
        return True
    host = re.match(r"^https?://([^/?#]*)", resolved, re.IGNORECASE)
    other_host = protocol != "mailto:" and (host is None or host.group(1).lower() != SITE_HOST)
    return other_host and not re.match(r"^\s*(https?|mailto):", url, re.IGNORECASE)


IGNORABLE = ["\t", "\n", "\r", " ", "\u200b", "\u2060", "\ufeff", "\u00ad", "\x00", "\x1f"]
ENCODED_IGNORABLE = ["&#x09;", "&#9;", "&Tab;", "&NewLine;", "%09", "%0a", "%0D", "&amp;#10;"]
COLONS = [":", "&colon;", "&#58;", "&#x3A;", "%3A", "%253a", "：", "\\:"]


@st.composite
def scheme_spellings(draw: st.DrawFn) -> str:
    """``javascript:``, ``vbscript:`` or ``data:`` spelled as readers may read them."""
    scheme = draw(st.sampled_from(["javascript", "vbscript", "data"]))
    parts = [draw(st.sampled_from(IGNORABLE + ["", "", ""]))]  # a leading blank or none
    for char in scheme:
        form = draw(st.sampled_from(["plain", "upper", "entity", "percent", "full-width"]))
        if form == "upper":
            char = char.upper()
        elif form == "entity":
            char = f"&#x{ord(char):x};"
        elif form == "percent":
            char = f"%{ord(char):02X}"
        elif form == "full-width":
            char = chr(ord(char) + 0xFEE0)
        parts.append(char)
        parts.append(draw(st.sampled_from([*IGNORABLE, *ENCODED_IGNORABLE, "\\", *[""] * 12])))
    parts.append(draw(st.sampled_from(COLONS)))
    return "".join(parts) + draw(st.sampled_from(["alert(1)", "text/html,x", "//x%0aalert(1)"]))


@st.composite
def other_hosts(draw: st.DrawFn) -> str:
    """``//evil.example/``, with slashes and backslashes, blanks, escapes and scheme."""
    slashes = draw(st.lists(st.sampled_from(["/", "\\", "%2F", "%5C", "&#47;"]), min_size=2))
    lead = draw(st.sampled_from(["", " ", "\t", "https:", "HTTPS:"]))
    return lead + "".join(slashes[:3]) + "evil.example/" + draw(st.sampled_from(["", "x"]))
