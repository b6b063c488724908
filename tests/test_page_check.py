"""The built-page check allows only the site's own (issue 26, item 2), and each page's
Content-Security-Policy allows exactly the inline code the site prints (item 3).

Every <script>, <style>, <base>, <form>, <iframe>, <object> and <embed>, with or without
attributes, and every style holding an address, is refused unless it is the site's: by
path, or for inline code by a hash the page's policy lists. The policy is computed from
the page's own template context, and a test reads the built pages to compare."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from hostile_pages import BENIGN, HOSTILE, STRICTER, page_with
from hostile_pages import POLICY as PAGE_POLICY

from juju_radar.sphinx_ext import csp
from juju_radar.sphinx_ext.csp import PagePolicy, mode_script, source_hash
from juju_radar.sphinx_ext.safety import check_page_html

OWN_SCRIPT = "DOCUMENTATION_OPTIONS.pagename = 'index';"
OWN_STYLE = ".pst-js-only { display: none !important; }"
POLICY = PagePolicy.for_code([OWN_SCRIPT], [OWN_STYLE], ["search.html"])
EVIL = "https://evil.example"

# Each construct a page may not hold, with and without attributes: (markup, what the
# message names). Elements are closed: an open <form>, <iframe> or <object> holds the
# rest of the page, which is removed with it.
REFUSED = [
    ("<script>alert(1)</script>", "inline <script>"),
    ("<SCRIPT>alert(1)</SCRIPT >", "inline <script>"),
    ("<script\n>alert(1)</script>", "inline <script>"),
    ('<script type="module">alert(1)</script>', "inline <script>"),
    ("<script>alert(1)", "inline <script>"),  # to the end of the page, as browsers read it
    (f"<script>{OWN_SCRIPT} alert(1)</script>", "inline <script>"),
    ('<script type="application/ld+json">{not json</script>', "JSON data block"),
    ("<style>p { color: red }</style>", "inline <style>"),
    (f"<style>body {{ background: url({EVIL}/t.png) }}</style>", "inline <style>"),
    (f'<style media="all">@import "{EVIL}/x.css";</style>', "inline <style>"),
    ("<base>", "<base"),
    (f'<base href="{EVIL}/">', "<base href="),
    ("<form></form>", "<form"),
    (f'<form action="{EVIL}/steal" method="post"></form>', "<form action="),
    ('<form action="../elsewhere.html"></form>', "<form action="),
    ("<iframe></iframe>", "<iframe"),
    (f'<iframe src="{EVIL}/"></iframe>', "<iframe src="),
    ('<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>', "<iframe"),
    ("<object></object>", "<object"),
    ('<object data="x.swf"></object>', "<object data="),
    ("<embed>", "<embed"),
    ('<embed src="x.swf">', "<embed src="),
    ('<meta http-equiv="refresh" content="0; url=https://evil.example/">', "http-equiv"),
    ('<meta http-equiv="Content-Security-Policy" content="script-src *">', "http-equiv"),
    (f'<p style="background: url({EVIL}/t.png)"></p>', "style="),
    ("<p style=\"background: url('//evil.example/t.png')\"></p>", "style="),
    ('<p style="background: \\75 rl(//evil.example/t.png)"></p>', "style="),
    (f"<div style=\"background-image: image-set('{EVIL}/x.png' 1x)\"></div>", "style="),
    (f'<p style="@import url({EVIL}/x.css)"></p>', "style="),
    (f'<link rel="stylesheet" href="{EVIL}/x.css">', "<link href="),
    # A ">" in a quoted value does not end the tag: what follows it is still checked.
    (f'<img alt="a > b" src="{EVIL}/t.png">', "<img src="),
]


@pytest.mark.parametrize(("markup", "named"), REFUSED, ids=[m for m, _ in REFUSED])
def test_each_construct_is_reported_and_removed(markup, named):
    reported: list[str] = []
    page = f"{POLICY.meta_tag}<p>before</p>{markup}<p>after</p>"
    cleaned = check_page_html(page, reported.append, POLICY)
    assert len(reported) == 1, reported
    assert named in reported[0]
    # Read back by another WHATWG parser (html5lib): the page's own kept, the rest gone.
    tree = BeautifulSoup(cleaned, "html5lib")
    texts = [p.get_text() for p in tree.find_all("p")]
    assert texts[0] == "before" and set(texts[1:-1]) <= {""}
    if markup != "<script>alert(1)":  # which holds the rest of the page as its text
        assert texts[-1] == "after"
    assert [str(meta) for meta in tree.find_all("meta")] == [
        str(BeautifulSoup(POLICY.meta_tag, "html5lib").meta)
    ]
    assert not tree.find_all(["script", "style", "base", "form", "iframe", "object", "embed"])
    rest = str(tree.body)
    assert not re.search(r"alert|evil|@import|srcdoc|http-equiv|style=", rest, re.IGNORECASE)


def test_the_sites_own_is_kept():
    own = (
        f"{POLICY.meta_tag}"
        f"<script>{OWN_SCRIPT}</script><noscript><style>{OWN_STYLE}</style></noscript>"
        '<script defer src="_static/search.js?v=1"></script>'
        '<script type="application/ld+json">{"headline":"\\u003c/script\\u003e"}</script>'
        '<link rel="stylesheet" href="_static/radar.css"><link rel="preload" as="script" '
        'href="_static/scripts/bootstrap.js">'
        '<form class="bd-search" action="search.html" method="get"><input name="q"></form>'
        '<svg><g clip-path="url(#per-month-p1)"><text style="font-family: \'Noto Sans\'">1'
        '</text></g></svg><iframe src="../topics/agent.html"></iframe>'
        "<p style=\"background: url('_static/a.png')\">x</p>"
        # Text in an attribute value, as a hostile title is in og:title: not an element.
        '<meta property="og:title" content="<script>alert(1)</script>&quot; x=&quot;">'
        "<a title='<style>@import url(//evil.example)</style>' href=\"a.html\">a</a>"
    )
    reported: list[str] = []
    assert check_page_html(own, reported.append, POLICY) == own
    assert reported == []


def test_without_a_policy_no_inline_code_is_allowed():
    reported: list[str] = []
    check_page_html(f"<script>{OWN_SCRIPT}</script><form action='search.html'>", reported.append)
    assert len(reported) == 2


def test_the_policy_comes_before_every_script():
    reported: list[str] = []
    page = f"<head><script src='_static/a.js'></script>{POLICY.meta_tag}</head>"
    check_page_html(page, reported.append, POLICY)
    assert reported == ["the page's Content-Security-Policy is not before its scripts"]
    reported.clear()
    check_page_html("<head><title>x</title></head>", reported.append, POLICY)
    assert len(reported) == 1


def test_the_policy_is_strict():
    content = POLICY.content
    directives = dict(
        (name, values) for name, _, values in (part.partition(" ") for part in content.split("; "))
    )
    assert directives["default-src"] == "'self'"
    assert directives["script-src"].split() == [
        "'self'",
        "'wasm-unsafe-eval'",
        source_hash(OWN_SCRIPT),
    ]
    assert directives["style-src"].split() == ["'self'", source_hash(OWN_STYLE)]
    assert directives["base-uri"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert directives["form-action"] == "'self'"
    assert "unsafe-inline" not in content and "http" not in content and "*" not in content


def test_the_colour_mode_script_is_the_themes():
    """``templates/layout.html`` prints ``csp.MODE_SCRIPT`` in place of the theme's own."""
    import pydata_sphinx_theme

    layout = Path(pydata_sphinx_theme.__file__).parent / "theme/pydata_sphinx_theme/layout.html"
    source = layout.read_text(encoding="utf-8")
    block = re.search(r"{%- block css %}(.*?){%- endblock css %}", source, re.DOTALL)
    assert block is not None
    theirs = re.findall(r"<script data-cfasync=\"false\">(.*?)</script>", block.group(1), re.S)
    assert [text.replace('"{{ default_mode }}"', '"auto"') for text in theirs] == [
        mode_script("auto")
    ]
    styles = re.findall(r"<style>(.*?)</style>", block.group(1), re.DOTALL)
    assert [style.strip() for style in styles] == list(csp.NOSCRIPT_STYLES)
    # The rest of the block is what ours prints too.
    rest = re.sub(
        r"<script.*?</script>|<!--.*?-->|{#.*?#}|<noscript>.*?</noscript>",
        "",
        block.group(1),
        flags=re.S,
    )
    assert rest.split() == [
        "{{",
        "_webpack.head_pre_assets()",
        "}}",
        "{{-",
        "css()",
        "}}",
        "{{",
        "_webpack.head_js_preload()",
        "}}",
    ]


def inline_code(page: BeautifulSoup) -> tuple[set[str], set[str]]:
    """The hash sources of a built page's inline scripts (not its JSON data) and styles,
    read as a browser reads them."""
    scripts = {
        source_hash(script.string or "")
        for script in page.find_all("script")
        if not script.get("src") and script.get("type") != "application/ld+json"
    }
    # <noscript> holds text for an HTML parser that runs scripts, as a browser does.
    styles = {source_hash(style.string or "") for style in page.find_all("style")}
    for noscript in page.find_all("noscript"):
        inner = BeautifulSoup(noscript.decode_contents(), "html.parser")
        styles |= {source_hash(style.string or "") for style in inner.find_all("style")}
    return scripts, styles


def policy_of(page: BeautifulSoup) -> dict[str, list[str]]:
    meta = page.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert meta is not None
    return {
        name: values.split()
        for name, _, values in (part.partition(" ") for part in meta["content"].split("; "))
    }


def test_each_built_page_allows_exactly_its_inline_code(built_seed_site: Path):
    pages = [path for path in built_seed_site.rglob("*.html") if "_static" not in path.parts]
    assert len(pages) > 15
    for path in pages:
        text = path.read_text(encoding="utf-8")
        page = BeautifulSoup(text, "html.parser")
        scripts, styles = inline_code(page)
        policy = policy_of(page)
        assert scripts and set(policy["script-src"]) - {"'self'", "'wasm-unsafe-eval'"} == scripts
        assert set(policy["style-src"]) - {"'self'"} == styles
        head = text[: text.index("</head>")]
        assert head.index('http-equiv="Content-Security-Policy"') < head.index("<script"), path
        assert " style=" not in text, path
        assert "translations.js" not in text, path


PLANT_CONF = """
# A page template that prints each construct (as a theme or extension might).
PLANTED = {planted!r}


def plant(app, pagename, templatename, context, doctree):
    if pagename == "issues/2026/2026-09-08":
        context["body"] += PLANTED


def setup(app):
    app.connect("html-page-context", plant)
"""


@pytest.mark.site
def test_the_build_reports_each_construct_at_its_page(tmp_path: Path):
    srcdir = copy_site(tmp_path / "src")
    # All but the <script> left open, which would take the rest of the page with it.
    planted = [(markup, named) for markup, named in REFUSED if markup != "<script>alert(1)"]
    markup = "".join(markup for markup, _ in planted)
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(PLANT_CONF.format(planted=markup))
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode != 0
    page = f"{srcdir}/issues/2026/2026-09-08.md: ERROR: issues/2026/2026-09-08: "
    reported = [line for line in result.stderr.splitlines() if line.startswith(page)]
    assert len(reported) == len(planted), "\n".join(reported)
    for line, (_, named) in zip(reported, planted, strict=True):
        assert named in line
        assert re.search(r"\[radar\.unsafe-(markup|url)\]$", line)
    built = (tmp_path / "html" / "issues/2026/2026-09-08.html").read_text(encoding="utf-8")
    assert not re.search(r"evil|alert|<base|<object|<embed|<iframe", built)


@pytest.mark.parametrize("fragment", HOSTILE + STRICTER)
def test_each_hostile_page_is_refused(fragment: str) -> None:
    """The regular expressions' bypasses (issue 51) and the families held back: each is
    refused, and the page written without it is refused nothing more."""
    reported: list[str] = []
    cleaned = check_page_html(page_with(fragment), reported.append, PAGE_POLICY)
    assert reported
    again: list[str] = []
    check_page_html(cleaned, again.append, PAGE_POLICY)
    assert again == []


@pytest.mark.parametrize("fragment", BENIGN)
def test_each_harmless_page_is_written_as_rendered(fragment: str) -> None:
    reported: list[str] = []
    page = page_with(fragment)
    assert check_page_html(page, reported.append, PAGE_POLICY) is page
    assert reported == []
