"""Safety defaults: no script URLs, titles escaped wherever printed, and every built
page's links checked once everything is resolved (toctrees and templates included)."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import Markup, escape
from selectolax.lexbor import LexborHTMLParser, LexborNode
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
#
# Each rendered page is read as a browser reads it: parsed by lexbor (through selectolax),
# which follows the WHATWG parsing algorithm, with scripting on as most readers' browsers
# and, where a <noscript> could read otherwise, off too (``read_page``). Each tree is
# then held to an allowlist: of elements, of attributes per
# element, and of URL schemes per URL attribute. Comments, bogus comments (``<!x>``,
# ``</ x>``) and processing instructions (``<?x>``) are what the parser makes of them:
# nodes that are not elements, never looked into, so a tag behind ``--!>`` is a tag and
# a tag inside a comment is text. A page nothing is refused in is written byte for byte
# as its template rendered it; any other is written from the tree, without what was
# refused.

# Attributes that navigate (any safe link) and attributes that load (the site's own files).
NAVIGATING = frozenset({"href", "action", "formaction", "xlink:href", "cite"})
LOADING = frozenset({"src", "srcset", "poster", "data", "background", "ping", "manifest"})
LOADING_TAGS = frozenset({"link", "script", "img", "iframe", "embed", "object", "source", "use"})
FRAMES = frozenset({"iframe", "frame"})
SHOWN_ATTRIBUTES = ("action", "src", "href", "data", "method")
# <script> elements a browser reads as data, never runs (the issue pages' JSON-LD).
DATA_SCRIPT_TYPES = frozenset({"application/ld+json"})
# A <link> with only these relations names a page (a feed, the canonical address).
NAMING_RELATIONS = frozenset({"alternate", "canonical", "author", "license", "next", "prev"})
# Elements removed whole when an attribute of theirs is refused.
WHOLE_ELEMENTS = frozenset({"script", "style", "link", "meta", "iframe"})
# The one http-equiv a page holds: its own policy (``csp.PagePolicy.meta_tag``).
OWN_HTTP_EQUIV = "content-security-policy"


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Attributes every element may have, besides ``aria-*`` and ``data-*``; of the data-bs-*
# attributes Bootstrap acts on, only the two the theme writes.
GLOBAL_ATTRIBUTES = _names(
    "class id lang dir title role hidden tabindex translate style xml:lang xmlns"
)
BOOTSTRAP_DATA = frozenset({"data-bs-toggle", "data-bs-placement"})
# SVG's attributes (as matplotlib writes a chart), allowed on every SVG element; the
# presentation attributes may hold ``url(…)``, read as CSS.
SVG_ATTRIBUTES = _names(
    """viewbox version xmlns:xlink preserveaspectratio width height x y x1 y1 x2 y2 cx cy r
    rx ry d points transform dx dy opacity fill fill-opacity fill-rule clip-path clip-rule
    stroke stroke-width stroke-linejoin stroke-linecap stroke-opacity stroke-dasharray
    stroke-dashoffset stroke-miterlimit font-size font-family font-weight font-style
    text-anchor dominant-baseline href xlink:href"""
)
CSS_VALUED = _names("style fill stroke clip-path mask filter marker-start marker-mid marker-end")
SVG_ELEMENTS = _names(
    """svg g defs clippath path rect circle ellipse line polyline polygon text tspan use
    symbol desc lineargradient radialgradient stop"""
)


def _elements(table: str) -> dict[str, frozenset[str]]:
    """``name attribute …`` lines: each element a page may hold and its own attributes."""
    return {
        names[0]: frozenset(names[1:])
        for names in (line.split() for line in table.strip().splitlines())
    }


# The HTML elements a page may hold, with their own attributes. script, style, meta, link,
# form and iframe are checked further (``element_refusal``); any element not here (base,
# object, embed, template, frameset, math…) is refused with all it holds.
ELEMENTS = _elements(
    """
    html
    head
    body
    title
    meta charset name content property http-equiv
    link rel href type as hreflang sizes media crossorigin
    script src type defer async crossorigin integrity
    style media
    noscript
    article
    aside
    footer
    header
    main
    nav
    section
    search
    address
    hgroup
    h1
    h2
    h3
    h4
    h5
    h6
    p
    hr
    pre
    blockquote cite
    ol start reversed type
    ul
    li value
    dl
    dt
    dd
    figure
    figcaption
    div
    menu
    a href target rel hreflang type
    em
    strong
    small
    s
    cite
    q cite
    dfn
    abbr
    ruby
    rt
    rp
    data value
    time datetime
    code
    var
    samp
    kbd
    sub
    sup
    i
    b
    u
    mark
    bdi
    bdo
    span
    br
    wbr
    ins cite datetime
    del cite datetime
    img src srcset sizes alt width height loading decoding
    picture
    source srcset sizes media type width height
    iframe src title width height loading
    table
    caption
    colgroup span
    col span
    tbody
    thead
    tfoot
    tr
    td colspan rowspan headers
    th colspan rowspan headers scope abbr
    form action method
    label for
    input type name value placeholder autocomplete autocorrect autocapitalize spellcheck
    button type name value disabled
    details open
    summary
    dialog open
    """
) | {name: SVG_ATTRIBUTES for name in SVG_ELEMENTS}
NO_POLICY = PagePolicy()
# What HTML counts as white space (U+00A0 is not).
ASCII_WHITESPACE = "\t\n\f\r "

# CSS as a browser reads its addresses: escapes decoded (``\75 rl(`` is ``url(``), then
# every url() and every string (``@import "…"``, ``image-set("…")``) must be the site's.
CSS_ESCAPE_RE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(.))", re.DOTALL)
CSS_ADDRESS_RE = re.compile(
    r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^"'()\s]*))|"([^"]*)"|'([^']*)'""", re.IGNORECASE
)


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
ATTRIBUTE_MESSAGE = N_("<{tag} {name}={value!r}> is not allowed in a page: removed")
ELEMENT_MESSAGE = N_("<{name}{shown}> is not the site's own: removed")


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


def is_allowed_attribute(tag: str, name: str) -> bool:
    if name in GLOBAL_ATTRIBUTES or name.startswith("aria-"):
        return True
    if name.startswith("data-"):
        return not name.startswith("data-bs-") or name in BOOTSTRAP_DATA
    return name in ELEMENTS.get(tag, ())


def refused_attribute(tag: str, name: str, value: str, rel: str = "") -> bool:
    """Whether the value of an allowed attribute is refused: an address not allowed
    where it is (a link anywhere safe, a loaded file the site's), CSS that loads
    another site's file, a ``refresh`` in any spelling."""
    if value.strip(ASCII_WHITESPACE).lower() == "refresh":
        return True
    naming_link = tag == "link" and set(rel.lower().split()) <= NAMING_RELATIONS and rel.strip()
    if name in LOADING or (
        name in ("href", "xlink:href") and tag in LOADING_TAGS and not naming_link
    ):
        if name != "srcset":  # one address (a tab in it is dropped, not a separator)
            return not is_site_resource(value)
        urls = [part.split()[0] for part in value.split(",") if part.split()]
        return not all(is_site_resource(url) for url in urls or [value])
    if name in NAVIGATING:
        return not is_safe_href(value)
    if name in CSS_VALUED:
        return not css_loads_only_site_files(value)
    if tag == "meta" and name == "charset":
        return value.strip().lower() != "utf-8"
    return False


@functools.lru_cache(maxsize=1 << 16)
def attribute_refusals(
    tag: str, attributes: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, Refusal], ...]:
    """The attributes of an element that are refused, each with its message. Cached: most
    of a page's elements are the theme's, the same on every page."""
    rel = next((value for name, value in attributes if name == "rel"), "")
    refusals = []
    for name, value in attributes:
        key = name.lower()
        if not is_allowed_attribute(tag, key) or refused_attribute(tag, key, value, rel):
            refusals.append((name, Refusal(ATTRIBUTE_MESSAGE, tag=tag, name=name, value=value)))
    return tuple(refusals)


def element_refusal(
    tag: str, attributes: dict[str, str | None], policy: PagePolicy
) -> Refusal | None:
    """Why an element is refused whole, if it is: not an element of the allowlist, a
    <form> other than the site's search form, a frame of another site's page, a <meta>
    with an ``http-equiv`` other than the page's own policy."""
    if tag == "meta" and "http-equiv" in attributes:
        equiv = (attributes["http-equiv"] or "").strip(ASCII_WHITESPACE).lower()
        if (
            equiv == OWN_HTTP_EQUIV
            and policy.directives
            and attributes.get("content") == policy.content
        ):
            return None
        return Refusal(
            ATTRIBUTE_MESSAGE, tag=tag, name="http-equiv", value=attributes["http-equiv"] or ""
        )
    if tag == "form":
        allowed = (attributes.get("action") or "").strip() in policy.form_actions
    elif tag in FRAMES:
        allowed = is_site_resource((attributes.get("src") or "").strip() or "//")
    else:
        allowed = tag in ELEMENTS
    if allowed:
        return None
    shown = "".join(
        f" {key}={value!r}" for key, value in attributes.items() if key in SHOWN_ATTRIBUTES
    )
    return MarkupRefusal(ELEMENT_MESSAGE, name=tag, shown=shown)


def raw_text_refusal(
    tag: str, attributes: dict[str, str | None], text: str, policy: PagePolicy
) -> Refusal | None:
    """A <script> or <style>'s text allowed only as the page's own inline code
    (``policy``), a JSON data block, or (for a <script> with a ``src``) not run."""
    if tag == "script" and "src" in attributes:
        return None
    if tag == "script" and (attributes.get("type") or "").strip().lower() in DATA_SCRIPT_TYPES:
        return (
            None
            if _is_json(text)
            else MarkupRefusal(N_("a JSON data block that is not JSON: removed"))
        )
    if tag == "style" and not css_loads_only_site_files(text):
        code: str = OUTSIDE_ADDRESS
    else:
        code = source_hash(text)
    if code in (policy.script_hashes if tag == "script" else policy.style_hashes):
        return None
    return MarkupRefusal(
        N_("inline <{name}> {code} ({excerpt!r}) is not one the site's templates print: removed"),
        name=tag,
        code=code,
        excerpt=" ".join(text.split())[:60],
    )


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@dataclass
class TreeCheck:
    """What the allowlist refuses in one parsed tree of a page, in document order."""

    refusals: list[Refusal] = field(default_factory=list)
    removed: list[LexborNode] = field(default_factory=list)
    stripped: list[tuple[LexborNode, str]] = field(default_factory=list)


def check_tree(tree: LexborHTMLParser, policy: PagePolicy) -> TreeCheck:
    """Every element of ``tree`` held to the allowlist; a refused element's content is
    removed with it, unread."""
    found = TreeCheck()
    policy_first = script_seen = False
    removed: set[int] = set()  # the refused elements and all inside them (lexbor's ids)
    for node in tree.root.traverse() if tree.root is not None else ():
        if not node.is_element_node:  # comments, processing instructions: inert
            continue
        if removed and (parent := node.parent) is not None and parent.mem_id in removed:
            removed.add(node.mem_id)  # inside a refused element: its children are skipped too
            continue
        tag = (node.tag or "").lower()
        attributes = node.attributes
        refusal = element_refusal(tag, attributes, policy)
        if refusal is None and tag in ("script", "style"):
            refusal = raw_text_refusal(tag, attributes, node.text(deep=True), policy)
        if refusal is not None:
            found.refusals.append(refusal)
            found.removed.append(node)
            removed.add(node.mem_id)
            continue
        if tag == "script":
            script_seen = True
        elif tag == "meta" and "http-equiv" in attributes:  # the page's own policy
            parent = node.parent
            policy_first |= not script_seen and parent is not None and parent.tag == "head"
        values = tuple((name, value or "") for name, value in attributes.items())
        refused_attributes = attribute_refusals(tag, values) if values else ()
        found.refusals.extend(refusal for _, refusal in refused_attributes)
        if refused_attributes and tag in WHOLE_ELEMENTS:  # nothing left to keep
            found.removed.append(node)
            removed.add(node.mem_id)
            continue
        found.stripped.extend((node, name) for name, _ in refused_attributes)
    if policy.directives and not policy_first:
        found.refusals.append(
            MarkupRefusal(N_("the page's Content-Security-Policy is not before its scripts"))
        )
    return found


def noscript_reads_alike(tree: LexborHTMLParser, policy: PagePolicy) -> bool:
    """Whether every <noscript> of ``tree`` (read where scripts run: text) holds only
    white space and the policy's own styles, each spelled ``<style>…</style>``: a parser
    where scripts do not run then reads those same <style> elements and, after them, the
    rest of the page as this one did, so the page's other tree holds nothing else. The
    theme's no-script style is such a <noscript>: its page is read once."""
    for noscript in tree.css("noscript"):
        text = noscript.text(deep=True)
        node = LexborHTMLParser(text, is_fragment=True).root
        spelled = []
        while node is not None:
            if node.is_text_node and not (node.text_content or "").strip(ASCII_WHITESPACE):
                spelled.append(node.text_content or "")
            elif (
                node.tag == "style"
                and not node.attributes
                and source_hash(node.text(deep=True)) in policy.style_hashes
            ):
                spelled.append(f"<style>{node.text(deep=True)}</style>")
            else:
                return False
            node = node.next
        if "".join(spelled) != text:
            return False
    return True


def read_page(output: str, policy: PagePolicy) -> tuple[LexborHTMLParser, TreeCheck, list[Refusal]]:
    """The page's tree where scripts run, what is refused in it, and what is refused
    only in its tree where they do not.

    A page is read twice when it has a <noscript>, the one element parsed differently
    where scripts run (its content is text) and where they do not (markup, which can
    swallow or show what follows it): both trees must pass. Once is enough when every
    <noscript> reads alike in both (``noscript_reads_alike``)."""
    tree = LexborHTMLParser(output, scripting=True)
    found = check_tree(tree, policy)
    only_without_scripts: list[Refusal] = []
    if "<noscript" in output.lower() and not noscript_reads_alike(tree, policy):
        unseen = Counter(found.refusals)
        for refusal in check_tree(LexborHTMLParser(output), policy).refusals:
            if unseen[refusal]:
                unseen[refusal] -= 1
            else:
                only_without_scripts.append(refusal)
    return tree, found, only_without_scripts


def check_page_html(output: str, report: Any, policy: PagePolicy = NO_POLICY) -> str:
    """``output`` without anything a page may not hold; ``report(message)`` for each
    (a ``Refusal``, a ``str``). ``policy`` names the page's own inline code, search form
    and Content-Security-Policy; without one, a page may hold no inline code.

    Each refusal is reported once, as the tree where scripts run shows it, then what
    only the tree where they do not shows (``read_page``)."""
    tree, found, only_without_scripts = read_page(output, policy)
    for refusal in (*found.refusals, *only_without_scripts):
        report(refusal)
    if not found.refusals and not only_without_scripts:
        return output
    for node, name in found.stripped:
        del node.attrs[name]
    for node in found.removed:
        node.decompose()
    return cleaned_page(tree, policy, without_noscript=bool(only_without_scripts))


def cleaned_page(tree: LexborHTMLParser, policy: PagePolicy, without_noscript: bool) -> str:
    """The tree written out, once it holds nothing refused. What is written is read
    again: a <noscript>'s text written where scripts run can read as other markup where
    they do not, so if anything is refused then, every <noscript> goes; if still, the
    page is left empty (its build fails on the errors already reported)."""
    for noscript_removed in (without_noscript, True):
        if noscript_removed:
            for node in tree.css("noscript"):
                node.decompose()
        written = tree.html or ""
        _, found, only_without_scripts = read_page(written, policy)
        if not found.refusals and not only_without_scripts:
            return written
    return ""


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
