"""Safety defaults: no script URLs, titles escaped wherever printed, and every built
page's links checked once everything is resolved (toctrees and templates included)."""

from __future__ import annotations

import functools
import html
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from docutils import nodes
from markupsafe import Markup, escape
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from juju_radar.model.content import is_safe_href, is_site_resource

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)
SAFE_SCHEMES = frozenset({"", "http", "https", "mailto"})
# The book theme stores plain text (``astext()``) in these and prints them raw.
PLAIN_TEXT_CONTEXT = ("pagetitle", "root_title", "page_description")


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


# --- the built page ----------------------------------------------------------------------

# A "/" after the name separates attributes as a space does (``<img/src=…>``).
TAG_RE = re.compile(r"<([a-zA-Z][a-zA-Z0-9:-]*)([\s/][^<>]*?)?(/?)>")
# The tags TAG_RE finds that have attributes, found three times as fast (no lazy
# repetition): a tag without attributes has nothing to refuse.
TAG_WITH_ATTRIBUTES_RE = re.compile(r"<[a-zA-Z][a-zA-Z0-9:-]*[\s/][^<>]*>")
ATTRIBUTE_RE = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
# Attributes that navigate (any safe link) and attributes that load (the site's own files).
NAVIGATING = frozenset({"href", "action", "formaction", "xlink:href", "cite"})
LOADING = frozenset({"src", "srcset", "poster", "data", "background", "ping", "manifest"})
LOADING_TAGS = frozenset({"link", "script", "img", "iframe", "embed", "object", "source"})


# Tags no attribute of which can be refused, whatever the values: only names that neither
# load nor navigate, and on links a relative address without a scheme, "%", "&" or a
# leading "//". Most of a page's tags are these, many with an address of their own, so
# they are passed over before the (cached) full check.
_PLAIN_ATTRIBUTE = r' (?:class|id|lang|role|title|aria-[a-z-]+|data-[a-z-]+)="[^"<>&]*"'
_PLAIN_LINK = rf'a(?:{_PLAIN_ATTRIBUTE}| href="(?!//)[\w.~/#-]*")+'
PLAIN_TAG_RE = re.compile(rf"<(?:{_PLAIN_LINK}|[a-zA-Z][a-zA-Z0-9-]*(?:{_PLAIN_ATTRIBUTE})+)>")

# A <link> with only these relations names a page (a feed, the canonical address).
NAMING_RELATIONS = frozenset({"alternate", "canonical", "author", "license", "next", "prev"})


def refused_attribute(tag: str, name: str, value: str, rel: str = "") -> bool:
    name = name.lower()
    naming_link = tag == "link" and set(rel.lower().split()) <= NAMING_RELATIONS and rel.strip()
    if name in LOADING or (name == "href" and tag in LOADING_TAGS and not naming_link):
        urls = [part.split()[0] for part in value.split(",") if part.split()]
        return not all(is_site_resource(url) for url in urls or [value])
    if name in NAVIGATING:
        return not is_safe_href(value)
    return name.startswith("on") or (tag == "meta" and name == "http-equiv")


def check_page_html(output: str, report: Any) -> str:
    """``output`` without any tag attribute that is not allowed; ``report(message)`` for each."""

    def clean_tag(match: re.Match[str]) -> str:
        if PLAIN_TAG_RE.fullmatch(tag := match.group(0)):
            return tag
        cleaned, messages = checked_tag(tag)
        for message in messages:
            report(message)
        return cleaned

    return TAG_WITH_ATTRIBUTES_RE.sub(clean_tag, output)


@functools.lru_cache(maxsize=1 << 16)
def checked_tag(text: str) -> tuple[str, tuple[str, ...]]:
    """One tag without its refused attributes, and a message for each. Cached: most of a
    page's tags are the theme's, the same on every page."""
    match = TAG_RE.fullmatch(text)
    assert match is not None
    tag, attributes = match.group(1).lower(), match.group(2) or ""
    values = [
        (attribute.group(1), html.unescape(_value(attribute)))
        for attribute in ATTRIBUTE_RE.finditer(attributes)
    ]
    rel = next((value for name, value in values if name.lower() == "rel"), "")
    refused = [(name, value) for name, value in values if refused_attribute(tag, name, value, rel)]
    if not refused:
        return text, ()
    messages = tuple(
        f"<{tag} {name}={value!r}> is not allowed in a page: removed" for name, value in refused
    )
    if tag == "meta":
        return "", messages
    kept = [
        attribute.group(0)
        for attribute in ATTRIBUTE_RE.finditer(attributes)
        if (attribute.group(1), html.unescape(_value(attribute))) not in refused
    ]
    return f"<{match.group(1)}{''.join(' ' + text for text in kept)}{match.group(3)}>", messages


def _value(attribute: re.Match[str]) -> str:
    return next((group for group in attribute.groups()[1:] if group is not None), "")


class CheckedTemplates:
    """The builder's templates, with every rendered page checked (``check_page_html``)."""

    def __init__(self, templates: Any, app: Sphinx) -> None:
        self._templates = templates
        self._app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self._templates, name)

    def render(self, template: str, context: dict[str, Any]) -> str:
        pagename = context.get("pagename", "")
        location = pagename if pagename in self._app.env.found_docs else None

        def report(message: str) -> None:
            logger.error(
                f"{pagename}: {message}", location=location, type="radar", subtype="unsafe-url"
            )

        return check_page_html(self._templates.render(template, context), report)


def check_built_pages(app: Sphinx) -> None:
    if hasattr(app.builder, "templates") and not isinstance(
        app.builder.templates, CheckedTemplates
    ):
        app.builder.templates = CheckedTemplates(app.builder.templates, app)
