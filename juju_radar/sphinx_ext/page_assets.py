"""Each page loads only the styles and scripts it uses.

Sphinx gives every page the same files: ``pygments.css`` (highlighted code), its
``doctools.js`` and ``sphinx_highlight.js`` (its own search's ``?highlight=``, which the
site replaces with Pagefind's), and every extension's files (``stats.css`` for the
statistics page's charts). At ``html-page-context`` the page's ``css_files`` and
``script_files`` (the template's lists, public since Sphinx 1.0) are replaced by copies
without the files whose classes its body does not use; the builder's own lists are
untouched, so the next page starts from all of them again.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from selectolax.lexbor import LexborHTMLParser

if TYPE_CHECKING:
    from sphinx.application import Sphinx

# A style sheet, and the classes of which one in a page's body makes the page load it.
STYLES_BY_CLASS: dict[str, frozenset[str]] = {
    "_static/pygments.css": frozenset({"highlight"}),
    "_static/stats.css": frozenset({"radar-chart", "radar-chart-figure", "radar-stats-table"}),
}
# The theme's own static files (``_static`` in the output).
THEME_STATIC = Path(__file__).parents[1] / "theme" / "static"
# What a page may load only when the reader uses it (``on-demand.js`` adds them): the
# search (search.js and its styles) when the search dialog is first opened, and the
# theme's Bootstrap (layout.html leaves it out) at the first pointer, key or scroll.
SEARCH_ON_DEMAND = {"script": "_static/search.js", "style": "_static/search.css"}
ON_DEMAND_LOADER = "_static/on-demand.js"
# Scripts nothing on the site calls (the theme reads only ``documentation_options.js``).
UNUSED_SCRIPTS = frozenset({"_static/doctools.js", "_static/sphinx_highlight.js"})


# The elements with a class attribute (a selector; "[class]" alone reads, to the codes'
# test, as a message's code).
WITH_CLASS = "*[class]:not(html)"


def classes_used(html: str) -> set[str]:
    """Every class named by a ``class`` attribute of ``html``, read as a browser reads
    it (``safety`` parses the page with the same parser)."""
    classes: set[str] = set()
    for element in LexborHTMLParser(html, is_fragment=True).css(WITH_CLASS):
        classes.update((element.attributes["class"] or "").split())
    return classes


def asset_name(asset: Any) -> str:
    return str(getattr(asset, "filename", asset) or "")


def keep_used_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Leave out of the page the style sheets its body has no class of, and the scripts
    no page uses."""
    if "css_files" not in context or "script_files" not in context:
        return
    used = classes_used(str(context.get("body", "")))
    context["css_files"] = [
        style
        for style in context["css_files"]
        if asset_name(style) not in STYLES_BY_CLASS or used & STYLES_BY_CLASS[asset_name(style)]
    ]
    context["script_files"] = [
        script for script in context["script_files"] if asset_name(script) not in UNUSED_SCRIPTS
    ]


def static_address(context: dict[str, Any], name: str) -> str:
    """``name`` (``_static/…``, one of the theme's files) as the page links it, with its
    checksum, as Sphinx links the files it adds."""
    checksum = zlib.crc32((THEME_STATIC / name.removeprefix("_static/")).read_bytes())
    return f"{context['pathto'](name, 1)}?v={checksum:08x}"


def load_on_demand(context: dict[str, Any]) -> None:
    """Take the search's script and style and the theme's Bootstrap out of the page; the
    templates add ``on-demand.js`` (``radar_on_demand``: its address and the search's),
    which loads them when the reader first uses them."""
    deferred = set(SEARCH_ON_DEMAND.values())
    for listed in ("css_files", "script_files"):
        if listed in context:
            context[listed] = [a for a in context[listed] if asset_name(a) not in deferred]
    context["radar_on_demand"] = {
        "loader": static_address(context, ON_DEMAND_LOADER),
        **{kind: static_address(context, name) for kind, name in SEARCH_ON_DEMAND.items()},
    }
