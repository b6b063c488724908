"""Safety defaults: no script URLs, titles escaped wherever printed, and every built
page's links checked once everything is resolved (toctrees and templates included)."""

from __future__ import annotations

import functools
import html
import json
import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import Markup, escape
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from juju_radar.model.messages import N_, _
from juju_radar.model.urls import is_safe_href, is_site_resource
from juju_radar.sphinx_ext.csp import POLICY, PagePolicy, source_hash

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)
# The book theme stores plain text (``astext()``) in these and prints them raw.
PLAIN_TEXT_CONTEXT = ("pagetitle", "root_title", "page_description")


def escape_theme_text(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    for name in PLAIN_TEXT_CONTEXT:
        if name in context and not isinstance(context[name], Markup):
            context[name] = Markup(escape(context[name]))


class UnsafeLinkTransform(SphinxPostTransform):
    """Turn a link with a script (or other non-web) URL into plain text, with an error:
    the last guard of every link of a page, judged by the one URL rule
    (:func:`~juju_radar.model.urls.is_safe_href`) that the check applies to the
    content at its own file and line, so it reports nothing the check lets through."""

    default_priority = 15

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(nodes.reference)):
            uri = node.get("refuri", "")
            if uri and not is_safe_href(uri):
                logger.error(
                    _("unsafe link URL {url!r} removed").format(url=uri),
                    location=node,
                    type="radar",
                    subtype="unsafe-url",
                )
                node.replace_self(nodes.inline("", node.astext()))


# --- the built page ----------------------------------------------------------------------

# A "/" after the name separates attributes as a space does (``<img/src=…>``).
# A quoted attribute value is read whole, "<" and ">" in it included, as browsers read it
# (``content="<script>…"`` is text).
ATTRIBUTES_TEXT = r"""(?:"[^"]*"|'[^']*'|[^<>"'])"""
OPENER_TEXT = r"""(?:"[^"]*"|'[^']*'|[^>"'])"""  # as above, a "<" outside quotes too
TAG_RE = re.compile(rf"<([a-zA-Z][a-zA-Z0-9:-]*)([\s/]{ATTRIBUTES_TEXT}*?)?(/?)>")
ATTRIBUTE_RE = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
# Attributes that navigate (any safe link) and attributes that load (the site's own files).
NAVIGATING = frozenset({"href", "action", "formaction", "xlink:href", "cite"})
LOADING = frozenset({"src", "srcset", "poster", "data", "background", "ping", "manifest"})
LOADING_TAGS = frozenset({"link", "script", "img", "iframe", "embed", "object", "source"})
# Elements that run or embed code or send the reader elsewhere, checked whether or not
# they have attributes: <script> and <style> with their text (inline code, allowed by
# hash: ``csp.PagePolicy``), and the elements below (only the site's search form and
# frames of the site's own pages are allowed).
RAW_TEXT_ELEMENTS = ("script", "style")
CHECKED_ELEMENTS: tuple[str, ...] = ("base", "form", "iframe", "frame", "frameset", "object")
CHECKED_ELEMENTS += ("embed", "applet", "portal", "fencedframe")
FRAMES = frozenset({"iframe", "frame"})
SHOWN_ATTRIBUTES = ("action", "src", "href", "data", "method")
# <script> elements a browser reads as data, never runs (the issue pages' JSON-LD).
DATA_SCRIPT_TYPES = frozenset({"application/ld+json"})

# One scan of the page, in the order a browser reads it: a <script> or <style> element
# with its text, up to its end tag or the end of the page; an element of
# CHECKED_ELEMENTS; any other tag with attributes (a tag without attributes has nothing
# to refuse). Names are matched in any case, attributes or none.
PAGE_RE = re.compile(
    rf"<(?P<raw>{'|'.join(RAW_TEXT_ELEMENTS)})(?=[\s/>])(?P<raw_rest>{OPENER_TEXT}*)>"
    r"(?P<body>.*?)(?:</(?P=raw)(?=[\s/>])[^>]*>|\Z)"
    rf"|<(?P<element>{'|'.join(CHECKED_ELEMENTS)})(?=[\s/>]){ATTRIBUTES_TEXT}*>"
    rf"|<[a-zA-Z][a-zA-Z0-9:-]*[\s/]{ATTRIBUTES_TEXT}*>",
    re.IGNORECASE | re.DOTALL,
)

ELEMENT_GROUP = PAGE_RE.groupindex["element"]


# Tags no attribute of which can be refused, whatever the values: only names that neither
# load nor navigate, and on links a relative address without a scheme, "%", "&" or a
# leading "//". Most of a page's tags are these, many with an address of their own, so
# they are passed over before the (cached) full check.
_PLAIN_ATTRIBUTE = r' (?:class|id|lang|role|title|aria-[a-z-]+|data-[a-z-]+)="[^"<>&]*"'
_PLAIN_LINK = rf'a(?:{_PLAIN_ATTRIBUTE}| href="(?!//)[\w.~/#-]*")+'
PLAIN_TAG_RE = re.compile(rf"<(?:{_PLAIN_LINK}|[a-zA-Z][a-zA-Z0-9-]*(?:{_PLAIN_ATTRIBUTE})+)>")

# A <link> with only these relations names a page (a feed, the canonical address).
NAMING_RELATIONS = frozenset({"alternate", "canonical", "author", "license", "next", "prev"})

# CSS as a browser reads its addresses: escapes decoded (``\75 rl(`` is ``url(``), then
# every url() and every string (``@import "…"``, ``image-set("…")``) must be the site's.
CSS_ESCAPE_RE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(.))", re.DOTALL)
CSS_ADDRESS_RE = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^"'()\s]*))|"([^"]*)"|'([^']*)'""", re.IGNORECASE
)
NO_POLICY = PagePolicy()


class Refusal(str):
    """A message of the built-page check; ``code`` is its ``radar.<code>`` subtype.

    The text is English (the check's results are cached across pages); ``translated``
    is the message in the build's language, made when it is reported."""

    code = "unsafe-url"
    template: str
    fields: dict[str, object]

    def __new__(cls, template: str, **fields: object) -> Refusal:
        refusal = super().__new__(cls, template.format(**fields))
        refusal.template = template
        refusal.fields = fields
        return refusal

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, object]]:
        return (self.template,), self.fields

    def translated(self) -> str:
        fields = {
            name: _(value) if isinstance(value, Phrase) else value
            for name, value in self.fields.items()
        }
        return _(self.template).format(**fields)


class MarkupRefusal(Refusal):
    code = "unsafe-markup"


class Phrase(str):
    """Words filled into a ``Refusal``, translated with it."""


# The hash source of a <style> whose text loads an address not of the site: no policy
# holds it, and the message names it.
OUTSIDE_ADDRESS = Phrase(N_("(an address not of the site)"))


def _css_character(match: re.Match[str]) -> str:
    if match.group(1) is None:
        return match.group(2)
    point = int(match.group(1), 16)
    return chr(point) if 0 < point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF else "\ufffd"


def css_loads_only_site_files(css: str) -> bool:
    """Whether every address in ``css`` (``url(…)``, ``@import``, strings) is the site's."""
    text = CSS_ESCAPE_RE.sub(_css_character, css)
    if "(" not in text and "@import" not in text.lower():
        return True
    addresses = (
        next(group for group in match.groups() if group is not None)
        for match in CSS_ADDRESS_RE.finditer(text)
    )
    return all(is_site_resource(address.strip()) for address in addresses)


def refused_attribute(tag: str, name: str, value: str, rel: str = "") -> bool:
    name = name.lower()
    naming_link = tag == "link" and set(rel.lower().split()) <= NAMING_RELATIONS and rel.strip()
    if name in LOADING or (name == "href" and tag in LOADING_TAGS and not naming_link):
        urls = [part.split()[0] for part in value.split(",") if part.split()]
        return not all(is_site_resource(url) for url in urls or [value])
    if name in NAVIGATING:
        return not is_safe_href(value)
    if name == "style":
        return not css_loads_only_site_files(value)
    return name.startswith("on") or (tag == "meta" and name == "http-equiv") or name == "srcdoc"


def check_page_html(output: str, report: Any, policy: PagePolicy = NO_POLICY) -> str:
    """``output`` without anything a page may not hold; ``report(message)`` for each
    (a ``Refusal``, a ``str``). ``policy`` names the page's own inline code, search form
    and Content-Security-Policy; without one, a page may hold no inline code."""
    meta_tag = policy.meta_tag if policy.directives else None

    def clean(match: re.Match[str]) -> str:
        if match.lastindex is None:  # any other tag with attributes: most of a page's
            if PLAIN_TAG_RE.fullmatch(tag := match.group(0)) or tag == meta_tag:
                return tag
            cleaned, messages = checked_tag(tag)
        elif match.lastindex == ELEMENT_GROUP:
            cleaned, messages = checked_element(match.group(0), match.group("element"), policy)
        else:
            cleaned, messages = checked_raw_text(match, policy)
        for message in messages:
            report(message)
        return cleaned

    checked = PAGE_RE.sub(clean, output)
    if meta_tag is not None:
        at = checked.find(meta_tag)
        script = re.search(r"<script", checked, re.IGNORECASE)
        if at < 0 or (script is not None and script.start() < at):
            report(
                MarkupRefusal(N_("the page's Content-Security-Policy is not before its scripts"))
            )
    return checked


def _attributes(tag: str) -> dict[str, str]:
    match = TAG_RE.fullmatch(tag)
    if match is None:
        return {}
    return {
        attribute.group(1).lower(): html.unescape(_value(attribute))
        for attribute in ATTRIBUTE_RE.finditer(match.group(2) or "")
    }


def checked_raw_text(match: re.Match[str], policy: PagePolicy) -> tuple[str, tuple[str, ...]]:
    """A <script> or <style> element: its start tag checked as any tag, and its text
    allowed only as the page's own inline code (``policy``) or, for a <script> with a
    ``src``, not read (browsers do not run it)."""
    element = match.group(0)
    opener = element[: match.start("body") - match.start()]
    body = match.group("body")
    cleaned_opener, messages, code = read_raw_text(opener, body)
    name = match.group("raw").lower()
    if code is not None and code not in (
        policy.script_hashes if name == "script" else policy.style_hashes
    ):
        excerpt = " ".join(body.split())[:60]
        refusal = MarkupRefusal(
            N_(
                "inline <{name}> {code} ({excerpt!r}) is not one the site's templates print: "
                "removed"
            ),
            name=name,
            code=code,
            excerpt=excerpt,
        )
        return "", (*messages, refusal)
    if cleaned_opener is None:
        return "", messages
    return cleaned_opener + element[len(opener) :], messages


# Small: the theme's inline code repeats on every page, a page's own (its name, its JSON-LD)
# never does.
@functools.lru_cache(maxsize=256)
def read_raw_text(opener: str, body: str) -> tuple[str | None, tuple[str, ...], str | None]:
    """A <script> or <style> element's start tag checked (``None``: the element is
    removed), its messages, and the hash source its text needs in the page's policy
    (``None`` for a <script> with a ``src`` and a JSON data block)."""
    tag = TAG_RE.fullmatch(opener)
    if tag is None:
        refusal = MarkupRefusal(N_("{text!r} is not a start tag: removed"), text=opener[:60])
        return None, (refusal,), None
    name = tag.group(1).lower()
    cleaned_opener, messages = checked_tag(opener) if tag.group(2) else (opener, ())
    attributes = _attributes(opener)
    if name == "script" and "src" in attributes:
        return cleaned_opener, messages, None
    if name == "script" and attributes.get("type", "").strip().lower() in DATA_SCRIPT_TYPES:
        if _is_json(body):
            return cleaned_opener, messages, None
        refusal = MarkupRefusal(N_("a JSON data block that is not JSON: removed"))
        return None, (*messages, refusal), None
    if name == "style" and not css_loads_only_site_files(body):
        return cleaned_opener, messages, OUTSIDE_ADDRESS
    return cleaned_opener, messages, source_hash(body)


def checked_element(tag: str, name: str, policy: PagePolicy) -> tuple[str, tuple[str, ...]]:
    """<form> only as the site's search form, frames only of the site's pages, and no
    <base>, <object>, <embed> or the like."""
    name = name.lower()
    attributes = _attributes(tag)
    if name == "form":
        allowed = attributes.get("action", "").strip() in policy.form_actions
    elif name in FRAMES:
        allowed = is_site_resource(attributes.get("src", "").strip() or "//")
    else:
        allowed = False
    if not allowed or TAG_RE.fullmatch(tag) is None:
        shown = "".join(
            f" {key}={value!r}" for key, value in attributes.items() if key in SHOWN_ATTRIBUTES
        )
        refusal = MarkupRefusal(
            N_("<{name}{shown}> is not the site's own: removed"), name=name, shown=shown
        )
        return "", (refusal,)
    return checked_tag(tag)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=1 << 16)
def checked_tag(text: str) -> tuple[str, tuple[str, ...]]:
    """One tag without its refused attributes, and a message for each. Cached: most of a
    page's tags are the theme's, the same on every page."""
    match = TAG_RE.fullmatch(text)
    if match is None:
        refusal = MarkupRefusal(
            N_("{text!r} is not a tag the check can read: removed"), text=text[:60]
        )
        return "", (refusal,)
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
        Refusal(
            N_("<{tag} {name}={value!r}> is not allowed in a page: removed"),
            tag=tag,
            name=name,
            value=value,
        )
        for name, value in refused
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
    """The builder's templates, with every rendered page checked (``check_page_html``)
    against its own policy (``csp.add_policy``)."""

    def __init__(self, templates: Any, app: Sphinx) -> None:
        self._templates = templates
        self._app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self._templates, name)

    def render(self, template: str, context: dict[str, Any]) -> str:
        pagename = context.get("pagename", "")
        location = pagename if pagename in self._app.env.found_docs else None

        def report(message: str) -> None:
            code = getattr(message, "code", Refusal.code)
            said = message.translated() if isinstance(message, Refusal) else message
            logger.error(f"{pagename}: {said}", location=location, type="radar", subtype=code)

        policy = context.get(POLICY, NO_POLICY)
        return check_page_html(self._templates.render(template, context), report, policy)


def check_built_pages(app: Sphinx) -> None:
    if hasattr(app.builder, "templates") and not isinstance(
        app.builder.templates, CheckedTemplates
    ):
        app.builder.templates = CheckedTemplates(app.builder.templates, app)
