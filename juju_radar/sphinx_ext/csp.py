"""Each page's Content-Security-Policy, built from the inline code the site prints.

A page loads its scripts and styles by path (``'self'``). The only inline code it holds
is what the site's own templates print, and each piece is allowed by the SHA-256 hash of
the very text printed:

- the theme's colour-mode script and its no-script style, which pydata-sphinx-theme's
  ``css`` block prints and ``templates/layout.html`` prints instead from
  ``HEAD_SCRIPTS`` and ``NOSCRIPT_STYLES`` here;
- script bodies registered with ``app.add_js_file(None, body=…)``, which Sphinx prints
  from the page's ``script_files`` (pydata-sphinx-theme's ``DOCUMENTATION_OPTIONS``
  lines, one of them naming the page);
- styles an extension adds to the page's ``radar_head_styles`` (the preview banner's).

``add_policy`` computes the hashes from the page's context once every other
``html-page-context`` handler has run, puts the policy's ``<meta>`` first in the head
(``metatags``, before any script) and hands the same ``PagePolicy`` to the built-page
check (``safety.check_page_html``), which refuses any other inline code: one list, read by
the browser and by the build alike.

Sphinx's ``translations.js`` is left out of the pages: it hands the catalogue's plural
rule to ``new Function`` (``doctools.js``), which needs ``'unsafe-eval'``. The site runs
none of Sphinx's own search, whose messages it translates.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

# pydata-sphinx-theme 0.20's colour-mode script (its ``layout.html``, block ``css``), with
# the default mode filled in: it sets the mode before the page is drawn.
MODE_SCRIPT = """
    document.documentElement.dataset.mode = localStorage.getItem("mode") || {mode};
    document.documentElement.dataset.theme = localStorage.getItem("theme") || {mode};
  """
# ... and its style for readers without JavaScript.
NOSCRIPT_STYLES = (".pst-js-only { display: none !important; }",)
TRANSLATIONS_JS = "_static/translations.js"
# The search page a page's search form sends its query to (``pathto('search')``).
SEARCH_PAGE = "search"
POLICY = "radar_policy"


def source_hash(text: str) -> str:
    """A CSP hash source for inline code: ``'sha256-…'`` of its UTF-8 text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@dataclass(frozen=True)
class PagePolicy:
    """What a page may hold besides the site's files: its inline scripts and styles (as
    CSP hash sources), the addresses its search form may send to, and its CSP."""

    script_hashes: frozenset[str] = frozenset()
    style_hashes: frozenset[str] = frozenset()
    form_actions: frozenset[str] = frozenset()
    directives: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def for_code(
        cls, scripts: Iterable[str], styles: Iterable[str], form_actions: Iterable[str] = ()
    ) -> PagePolicy:
        script_hashes = sorted({source_hash(text) for text in scripts})
        style_hashes = sorted({source_hash(text) for text in styles})
        directives = (
            ("default-src", "'self'"),
            # Pagefind compiles its WebAssembly search engine: in its worker (which a
            # <meta> policy does not reach, a header one does) or, without workers, in
            # the page. 'wasm-unsafe-eval' allows that compilation and no eval() of text.
            ("script-src", "'self'", "'wasm-unsafe-eval'", *script_hashes),
            ("style-src", "'self'", *style_hashes),
            ("base-uri", "'none'"),
            ("form-action", "'self'"),
            ("object-src", "'none'"),
        )
        return cls(
            frozenset(script_hashes), frozenset(style_hashes), frozenset(form_actions), directives
        )

    @property
    def content(self) -> str:
        return "; ".join(" ".join(directive) for directive in self.directives)

    @property
    def meta_tag(self) -> str:
        """The ``<meta>`` the page's head starts with (as ``check_page_html`` expects it)."""
        content = self.content.replace("&", "&amp;").replace('"', "&quot;")
        return f'<meta http-equiv="Content-Security-Policy" content="{content}" />'


def mode_script(default_mode: object) -> str:
    text = json.dumps(str(default_mode or ""), ensure_ascii=False).replace("<", "\\u003c")
    return MODE_SCRIPT.format(mode=text)


def body_scripts(script_files: Iterable[Any]) -> list[str]:
    """The bodies Sphinx prints as inline ``<script>`` elements (``js_tag``)."""
    bodies = []
    for script in script_files:
        attributes = getattr(script, "attributes", {})
        if not getattr(script, "filename", script) and "body" in attributes:
            bodies.append(str(attributes["body"]))
    return bodies


def page_policy(context: dict[str, Any]) -> PagePolicy:
    """The policy of the page ``context`` renders: its inline code as the template prints
    it, and the address of the site's search page as ``pathto`` writes it."""
    scripts = [*context.get("radar_head_scripts", ()), *body_scripts(context["script_files"])]
    styles = [*context.get("radar_noscript_styles", ()), *context.get("radar_head_styles", ())]
    pathto = context.get("pathto")
    actions = [pathto(SEARCH_PAGE)] if pathto is not None else []
    return PagePolicy.for_code(scripts, styles, actions)


def add_policy(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The page's inline code for ``layout.html``, and its policy first in its head (run
    after every other ``html-page-context`` handler, as ``extension.py`` connects it)."""
    if "script_files" not in context:
        return
    context["script_files"] = [
        script
        for script in context["script_files"]
        if getattr(script, "filename", script) != TRANSLATIONS_JS
    ]
    context["radar_head_scripts"] = [mode_script(context.get("default_mode"))]
    context["radar_noscript_styles"] = list(NOSCRIPT_STYLES)
    context.setdefault("radar_head_styles", [])
    policy = page_policy(context)
    context[POLICY] = policy
    context["metatags"] = f"\n{policy.meta_tag}{context.get('metatags', '')}"
