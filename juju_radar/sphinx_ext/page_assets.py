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

from typing import TYPE_CHECKING, Any

from selectolax.lexbor import LexborHTMLParser

if TYPE_CHECKING:
    from sphinx.application import Sphinx

# A style sheet, and the classes of which one in a page's body makes the page load it.
STYLES_BY_CLASS: dict[str, frozenset[str]] = {
    "_static/pygments.css": frozenset({"highlight"}),
    "_static/stats.css": frozenset({"radar-chart", "radar-chart-figure", "radar-stats-table"}),
}
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
