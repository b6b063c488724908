"""Safety defaults: no raw content, titles escaped wherever the theme prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def disable_raw_content(app: Sphinx) -> None:
    """docutils then reports the raw directive as an error at its file and line."""
    app.env.settings["raw_enabled"] = False


def escape_page_title(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``pagetitle`` is ``title`` with tags stripped, which unescapes it; the book
    theme prints it raw in its print-only header."""
    if "pagetitle" in context:
        context["pagetitle"] = Markup(escape(context["pagetitle"]))
