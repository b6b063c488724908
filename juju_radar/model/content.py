"""What a page may contain: the directives, roles, links and images of the archive.

The pages are the issue format, not general MyST: a contribution must not read the build
machine's files, make the build fetch a URL, or put script, a redirect or a third-party
resource into a reader's page. This module is the one list of what is allowed and the one
check of a page against it; ``radar check`` and the build both run it.

Pure: it reads a page with markdown-it and the MyST plugins the site enables (the same
tokens MyST renders, backtick and colon fences alike), without Sphinx or docutils.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.rules_block import make_fence_rule
from markdown_it.token import Token
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.field_list import fieldlist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin
from mdit_py_plugins.substitution import substitution_plugin

from juju_radar.model.anchors import is_reserved_id, make_id
from juju_radar.model.issue_reader import ISSUE_FIELDS
from juju_radar.model.messages import _
from juju_radar.model.page import FrontMatter, Page
from juju_radar.model.problems import Problem
from juju_radar.model.urls import LINK_SCHEMES, is_safe_href, url_scheme

PageKind = Literal["issue", "site"]

# Issue pages hold items and a closing; nothing else.
ISSUE_DIRECTIVES = frozenset({"radar-item", "radar-closing"})
# The site's own pages: its listings, and the toctree of the front page and topic index.
SITE_DIRECTIVES = frozenset(
    {
        "radar-front",
        "radar-feeds",
        "radar-archive",
        "radar-topic-index",
        "radar-topic",
        "radar-best",
        "radar-references-index",
        "radar-search",
        "radar-stats",
        "toctree",
    }
)
# Directives whose body is Markdown again (checked like the page around them).
MARKDOWN_BODY_DIRECTIVES = frozenset({"radar-item", "radar-closing"})
# Editors write no roles: the importer escapes every `{`, and no page uses one.
ALLOWED_ROLES: frozenset[str] = frozenset()
# What a heading may not hold (autolinks are links too).
HEADING_MARKUP = frozenset({"link_open", "image", "myst_role"})
# Front matter keys MyST acts on (file-level settings, <meta> tags, substitutions).
ACTIVE_FRONT_MATTER = frozenset({"myst", "html_meta", "substitutions"})
SITE_FRONT_MATTER = frozenset({"orphan", "description"})
# The MyST extensions this reader knows; any other changes no token it checks.
KNOWN_EXTENSIONS = frozenset(
    {"colon_fence", "dollarmath", "amsmath", "deflist", "fieldlist", "strikethrough"}
    | {"substitution", "attrs_inline", "attrs_block"}
)

DOCNAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*$")
TOCTREE_ENTRY_RE = re.compile(r"^(?:.*?<(?P<target>[^<>]*)>|(?P<bare>\S+))$")


ISSUE_PAGE_RE = re.compile(r"(?:^|/)issues/[^/]+/[^/]+$")  # any page in a year folder


def page_kind(path: str) -> PageKind:
    """Pages in the year folders of ``issues/`` are issues; the rest are the site's own."""
    return "issue" if ISSUE_PAGE_RE.search(path.replace("\\", "/")) else "site"


def allowed_directives(kind: PageKind) -> frozenset[str]:
    return ISSUE_DIRECTIVES if kind == "issue" else SITE_DIRECTIVES


def is_allowed_directive(name: str, kind: PageKind) -> bool:
    """docutils looks names up in lower case (``{LiteralInclude}`` is literalinclude)."""
    return name.lower() in allowed_directives(kind)


def is_allowed_role(name: str) -> bool:
    return name.lower() in ALLOWED_ROLES


@dataclass(frozen=True)
class MarkdownSyntax:
    """The MyST syntax the site enables (``myst_enable_extensions``, ``myst_disable_syntax``)."""

    extensions: frozenset[str] = frozenset({"colon_fence"})
    disabled: frozenset[str] = frozenset({"html_block", "html_inline"})

    @classmethod
    def from_config(cls, extensions: Iterable[str], disabled: Iterable[str]) -> MarkdownSyntax:
        return cls(frozenset(extensions), frozenset(disabled))


@lru_cache(maxsize=8)
def markdown(syntax: MarkdownSyntax) -> MarkdownIt:
    """A markdown-it parser giving the tokens MyST's ``create_md_parser`` gives."""
    md = (
        MarkdownIt("commonmark")
        .enable("table")
        .use(front_matter_plugin)
        .use(myst_block_plugin)
        .use(myst_role_plugin)
        .use(footnote_plugin, inline=False, move_to_end=False, always_match_refs=True)
    )
    enabled = syntax.extensions
    if "strikethrough" in enabled:
        md.enable("strikethrough")
    if "dollarmath" in enabled:
        md.use(dollarmath_plugin)
    if "colon_fence" in enabled:
        rule = make_fence_rule(markers=(":",), token_type="colon_fence", exact_match=False)
        alt = ["paragraph", "reference", "blockquote", "list", "footnote_def"]
        md.block.ruler.before("fence", "colon_fence", rule, {"alt": alt})
    if "amsmath" in enabled:
        md.use(amsmath_plugin)
    if "deflist" in enabled:
        md.use(deflist_plugin)
    if "fieldlist" in enabled:
        md.use(fieldlist_plugin)
    if "substitution" in enabled:
        md.use(substitution_plugin)
    if "attrs_inline" in enabled:
        md.use(attrs_plugin, after=("image", "code_inline", "link_close", "span_close"))
    if "attrs_block" in enabled:
        md.use(attrs_block_plugin)
    for name in syntax.disabled:
        md.disable(name, True)
    return md


@dataclass
class _Scan:
    path: str
    kind: PageKind
    md: MarkdownIt
    problems: list[Problem] = field(default_factory=list)

    def error(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "error", code, message))


def renderer_fields(kind: PageKind) -> frozenset[str]:
    """The front matter fields the renderer is given of a page of ``kind``."""
    return ISSUE_FIELDS if kind == "issue" else SITE_FRONT_MATTER


def check_content(
    text: str | Page, path: str, kind: PageKind, syntax: MarkdownSyntax = MarkdownSyntax()
) -> list[Problem]:
    """Everything in a page that the archive does not allow, at its file and line: its
    front matter's fields, and the Markdown exactly as the renderer gets it."""
    page = text if isinstance(text, Page) else Page.read(text, path)
    scan = _Scan(path, kind, markdown(syntax))
    if kind == "site":  # an issue's reading is the model's to report
        scan.problems.extend(page.problems)
    _check_front_matter(scan, page.front)
    fields = renderer_fields(kind)
    title = page.front.fields.get("title")
    if "title" in fields and isinstance(title, str):  # MyST makes it the page heading
        _check_markdown(scan, "# " + title, page.front.line_of("title") - 1)
    _check_markdown(scan, page.renderer_source(fields), 0)
    return sorted(scan.problems)


def _check_markdown(scan: _Scan, text: str, offset: int) -> None:
    """Check ``text`` whose first line is line ``offset + 1`` of the page."""
    in_heading = False
    for token in scan.md.parse(text):
        line = offset + (token.map[0] + 1 if token.map else 1)
        if token.type in ("fence", "colon_fence"):
            _check_fence(scan, token, line)
        elif token.type in ("math_block", "math_block_label", "amsmath"):
            scan.error(line, "forbidden-directive", _("math is not allowed: it loads a script"))
        elif token.type == "inline":
            if in_heading:
                _check_heading(scan, token.children or [], line)
            _check_inline(scan, token.children or [], line)
        elif token.type == "html_block" and scan.kind == "site":
            scan.error(line, "raw-html", _("raw HTML is not allowed in a page"))
        elif token.type == "myst_target" and is_reserved_id(make_id(token.content)):
            message = _("target '({target})=' takes an id the page gives its own parts").format(
                target=token.content
            )
            scan.error(line, "reserved-id", message)
        in_heading = token.type == "heading_open"


def _check_heading(scan: _Scan, children: Sequence[Token], line: int) -> None:
    """A heading, ``#`` or underlined, holds text only: a link, image or role in it
    crashed the table of contents."""
    if any(child.type in HEADING_MARKUP for child in children):
        message = _("a heading holds text only: move the link, image or role into a paragraph")
        scan.error(line, "heading-markup", message)


def _check_front_matter(scan: _Scan, front: FrontMatter) -> None:
    for field_key in front.fields:
        key = str(field_key)
        number = front.line_of(key)
        active = key in ACTIVE_FRONT_MATTER
        if active:
            message = _("front matter field '{key}' is not allowed").format(key=key)
        elif scan.kind == "site" and key not in SITE_FRONT_MATTER:
            message = _(
                "front matter field '{key}' is not allowed (a site page may have: {fields})"
            ).format(key=key, fields=", ".join(sorted(SITE_FRONT_MATTER)))
        else:
            continue
        scan.error(number, "forbidden-field", message)


def _check_fence(scan: _Scan, token: Token, line: int) -> None:
    info = (token.info or "").strip()
    name = info.split(maxsplit=1)[0] if info else ""
    if not (name.startswith("{") and name.endswith("}")):
        return  # code: shown as written
    name = name[1:-1]
    if name == "eval-rst":
        scan.error(
            line, "forbidden-directive", _("reStructuredText blocks ({eval-rst}) are not allowed")
        )
    elif name == "bibliography":
        scan.error(
            line,
            "manual-bibliography",
            _("the build adds the issue's bibliography: remove this block"),
        )
    elif not is_allowed_directive(name, scan.kind):
        scan.error(line, "forbidden-directive", _directive_message(name, scan.kind))
    elif scan.kind == "issue" and token.type == "fence":
        message = _("write the {block} block with ':::', not a code fence").format(
            block=f"{{{name}}}"
        )
        scan.error(line, "forbidden-directive", message)
    elif name.lower() in MARKDOWN_BODY_DIRECTIVES:
        body, skipped = _directive_body(token.content)
        _check_markdown(scan, body, line + skipped)
    elif name.lower() == "toctree":
        _check_toctree(scan, token.content, line)


def _directive_message(name: str, kind: PageKind) -> str:
    allowed = ", ".join(f"{{{known}}}" for known in sorted(allowed_directives(kind)))
    if kind == "issue":
        message = _("block '{block}' is not allowed in an issue page (allowed: {allowed})")
    else:
        message = _("block '{block}' is not allowed in a site page (allowed: {allowed})")
    return message.format(block=f"{{{name}}}", allowed=allowed)


def _directive_body(content: str) -> tuple[str, int]:
    """The body of a directive without its options, and how many lines those took."""
    lines = content.split("\n")
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        skipped = end + 1
    else:
        skipped = next((i for i, text in enumerate(lines) if not text.startswith(":")), len(lines))
    return "\n".join(lines[skipped:]), skipped


def _check_toctree(scan: _Scan, content: str, line: int) -> None:
    body, skipped = _directive_body(content)
    for number, text in enumerate(body.split("\n"), line + skipped + 1):
        match = TOCTREE_ENTRY_RE.match(text.strip())
        if not text.strip() or match is None:
            continue
        target = (match.group("target") or match.group("bare") or "").strip()
        if not DOCNAME_RE.match(target) or "://" in target:
            message = _("toctree entry '{target}' is not a page of the site").format(target=target)
            scan.error(number, "forbidden-link", message)


def _check_inline(scan: _Scan, children: Sequence[Token], line: int) -> None:
    for child in children:
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "myst_role" and not is_allowed_role(child.meta.get("name", "")):
            name = child.meta.get("name", "")
            message = _("role '{role}' is not allowed in a page").format(role=f"{{{name}}}")
            scan.error(line, "forbidden-role", message)
        elif child.type in ("math_inline", "math_inline_double"):
            scan.error(line, "forbidden-role", _("math is not allowed: it loads a script"))
        elif child.type == "html_inline" and scan.kind == "site":
            scan.error(line, "raw-html", _("raw HTML is not allowed in a page"))
        elif child.type == "link_open":
            _check_link(scan, str(child.attrGet("href") or ""), line)
        elif child.type == "image":
            _check_image(scan, str(child.attrGet("src") or ""), line)
        if child.children:
            _check_inline(scan, child.children, line)


def _check_link(scan: _Scan, href: str, line: int) -> None:
    if problem := link_problem(href, scan.path):
        scan.error(line, "forbidden-link", problem)


def link_problem(href: str, page: str) -> str | None:
    """Why a Markdown link of ``page`` is not allowed, or None."""
    scheme = url_scheme(href)
    if scheme:
        if scheme in LINK_SCHEMES:
            return None
        return _("link '{href}': only http(s) and mailto links").format(href=href)
    if not is_safe_href(href):
        return _("link '{href}' leads to another host: write it with https:").format(href=href)
    target = href.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None  # an anchor of the page
    if not target.endswith(".md"):
        return _("link '{href}' is a file, not a page: link pages by their .md file").format(
            href=href
        )
    base = "" if target.startswith("/") else posixpath.dirname(page)
    normalized = posixpath.normpath(posixpath.join(base, unquote(target).lstrip("/")))
    if normalized == ".." or normalized.startswith("../"):
        return _("link '{href}' leaves the site").format(href=href)
    return None


def _check_image(scan: _Scan, src: str, line: int) -> None:
    if url_scheme(src) or src.startswith("//"):
        message = _("image '{src}' from another host: the archive shows no images")
    else:
        message = _("image '{src}' from a file: the archive shows no images")
    scan.error(line, "forbidden-image", message.format(src=src))
