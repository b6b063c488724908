"""Page anchors: the ids an issue page gives its own parts, and a citation's id.

Pure Python. ``make_id`` is docutils' (``docutils.nodes.make_id``, docutils
0.22.4, public domain), ported so that the model, the .bib checks and
the rendered bibliography share one rule; a property test holds it equal to docutils'.
"""

from __future__ import annotations

import re
import unicodedata

# Ids an issue page gives its own parts: its title, the sections the build adds, the
# citations ("cite-KEY") and the theme's. An item with one of them would share its anchor.
PAGE_TOP_ID = "top"
PAGE_IDS = frozenset(
    {PAGE_TOP_ID, "references", "cite-this", "closing", "main-content", "searchbox"}
    | {"print-main-content", "ethical-ad-placement"}
)
CITATION_PREFIX = "cite-"
PAGE_ID_PREFIXES = (CITATION_PREFIX, "pst-", "jb-", "bd-")

_NON_ID_CHARS = re.compile("[^a-z0-9]+")
_NON_ID_AT_ENDS = re.compile("^[-0-9]+|-+$")
_NON_ID_TRANSLATE: dict[int, str] = {
    0x00F8: "o",  # ø
    0x0111: "d",  # đ
    0x0127: "h",  # ħ
    0x0131: "i",  # ı
    0x0142: "l",  # ł
    0x0167: "t",  # ŧ
    0x0180: "b",  # ƀ
    0x0183: "b",  # ƃ
    0x0188: "c",  # ƈ
    0x018C: "d",  # ƌ
    0x0192: "f",  # ƒ
    0x0199: "k",  # ƙ
    0x019A: "l",  # ƚ
    0x019E: "n",  # ƞ
    0x01A5: "p",  # ƥ
    0x01AB: "t",  # ƫ
    0x01AD: "t",  # ƭ
    0x01B4: "y",  # ƴ
    0x01B6: "z",  # ƶ
    0x01E5: "g",  # ǥ
    0x0225: "z",  # ȥ
    0x0234: "l",  # ȴ
    0x0235: "n",  # ȵ
    0x0236: "t",  # ȶ
    0x0237: "j",  # ȷ
    0x023C: "c",  # ȼ
    0x023F: "s",  # ȿ
    0x0240: "z",  # ɀ
    0x0247: "e",  # ɇ
    0x0249: "j",  # ɉ
    0x024B: "q",  # ɋ
    0x024D: "r",  # ɍ
    0x024F: "y",  # ɏ
}
_NON_ID_TRANSLATE_DIGRAPHS: dict[int, str] = {
    0x00DF: "sz",  # ß
    0x00E6: "ae",  # æ
    0x0153: "oe",  # œ
    0x0238: "db",  # ȸ
    0x0239: "qp",  # ȹ
}


def make_id(text: str) -> str:
    """An identifier matching ``[a-z](-?[a-z0-9]+)*``: lowercase ASCII, runs of other
    characters to one ``-``, accents dropped, leading digits and hyphens removed."""
    folded = text.lower().translate(_NON_ID_TRANSLATE_DIGRAPHS).translate(_NON_ID_TRANSLATE)
    ascii_only = unicodedata.normalize("NFKD", folded).encode("ascii", "ignore").decode("ascii")
    hyphenated = _NON_ID_CHARS.sub("-", " ".join(ascii_only.split()))
    return _NON_ID_AT_ENDS.sub("", hyphenated)


def citation_anchor(key: str) -> str:
    """The id of a reference's entry on a page: ``café2026`` and ``cafe2026`` share one."""
    return make_id(CITATION_PREFIX + key)


def is_reserved_id(item_id: str) -> bool:
    """An id the issue page uses for its own parts, which an item cannot take."""
    return item_id in PAGE_IDS or item_id.startswith(PAGE_ID_PREFIXES)
