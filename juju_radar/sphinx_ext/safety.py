"""Safety defaults: no raw content, no script URLs, titles escaped wherever printed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from docutils import nodes
from markupsafe import Markup, escape
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)
SAFE_SCHEMES = frozenset({"", "http", "https", "mailto", "ftp"})
# The book theme stores plain text (``astext()``) in these and prints them raw.
PLAIN_TEXT_CONTEXT = ("pagetitle", "root_title", "page_description")


def disable_raw_content(app: Sphinx) -> None:
    """docutils then reports the raw directive as an error at its file and line."""
    app.env.settings["raw_enabled"] = False


def escape_theme_text(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    for name in PLAIN_TEXT_CONTEXT:
        if name in context and not isinstance(context[name], Markup):
            context[name] = Markup(escape(context[name]))


def is_safe_uri(uri: str) -> bool:
    try:
        scheme = urlsplit(uri.strip()).scheme.lower()
    except ValueError:
        return False
    return scheme in SAFE_SCHEMES


class UnsafeLinkTransform(SphinxPostTransform):
    """Turn a link with a script (or other non-web) URL into plain text, with an error."""

    default_priority = 15

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(nodes.reference)):
            uri = node.get("refuri", "")
            if uri and not is_safe_uri(uri):
                logger.error(
                    f"unsafe link URL {uri!r} removed",
                    location=node,
                    type="radar",
                    subtype="unsafe-url",
                )
                node.replace_self(nodes.inline("", node.astext()))
