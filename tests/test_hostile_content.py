"""Hostile content, generated (issue 26, section 7): pages built from a grammar of the
dangerous constructs, written into one site and built. Whatever the check lets through
renders nothing of the content's own (no script, style, form, base or frame), reads no
file and no environment variable of the build machine, runs no command and fetches no
URL; whatever it refuses, it names at its file and line; the build never crashes.

Issue 51 adds addresses spelled as hostile content spells them (``java&#x09;script:``,
``%6Aavascript:``, ``\\\\host``...) in the pages' links and in references.bib's
``\\url{}``, and invisible characters in titles, headings and tags: no built page holds
a link a browser follows to a script or to another host, and every error, the check's
and the build's, is at a content file's line, never at a generated page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import html5lib
import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from hostile_spellings import (
    FORMAT_CHARACTERS,
    browser_refuses,
    other_hosts,
    refused_by_a_browser,
    scheme_spellings,
)
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from probe_server import Probe, probe_server

from juju_radar.sphinx_ext.csp import PagePolicy
from juju_radar.sphinx_ext.safety import check_page_html

SECRET = "radar-hostile-secret-41c7"
FENCE = "```"
# {port} is the probe server's, {marker} a file a command would create.
BODY_CONSTRUCTS = [
    "正文。",
    "{{ env.__class__.__init__.__globals__['os'].environ['RADAR_TEST_SECRET'] }}",
    "{{ cycler.__init__.__globals__.os.system('touch {marker}') }}",
    f"{FENCE}{{raw}} html\n<script>alert(1)</script>\n{FENCE}",
    ":::{include} /proc/self/environ\n:::",
    f"{FENCE}{{eval-rst}}\n.. raw:: html\n\n   <script>alert(2)</script>\n{FENCE}",
    f"{FENCE}{{csv-table}} t\n:url: http://127.0.0.1:{{port}}/csv\n{FENCE}",
    "{raw-html}`<b>x</b>` {download}`/etc/passwd`",
    "[a](javascript:alert(1)) [b](//evil.example/) [c](java&#x09;script:alert(1))",
    "![img](http://127.0.0.1:{port}/track.png)",
    "<script>alert(3)</script> <style>body{background:url(//evil.example/x)}</style>",
    "<base href=//evil.example/> <form action=//evil.example/><button>x</button></form>",
    '<iframe src="//evil.example/"></iframe> <object data="x.swf"></object>',
    "&#60;script&#62;alert(4)&#60;/script&#62; &lt;style&gt;",
    "$$\\href{javascript:alert(5)}{x}$$ $x$",
    "\\href{javascript:alert(6)}{x} \\footnote{y}",
    "文字\x01控制 \x1b[31m 与 \u202e倒序",
    "(closing)=\n",
    "看 [首页](../../index.md)\n---",
    "### 标题 {download}`x`",
    "[x]: javascript:alert(7)\n\n[链接][x]",
    "<javascript:alert(8)> <http://127.0.0.1:{port}/autolink>",
    "{{{{ '{{' }}}}",
    "\\<script\\>alert(9)\\</script\\>",
]
# Text that looks dangerous and is not: shown as written.
BENIGN_CONSTRUCTS = [
    "正文。",
    "{{ 7 * 7 }} 与 {% if True %}模板{% endif %}",
    "&#60;script&#62;alert(11)&#60;/script&#62; &lt;base href=//evil.example/&gt;",
    "\\<script\\>alert(12)\\</script\\> 与 `<style>@import url(//evil.example)</style>`",
    f"{FENCE}html\n<script>alert(13)</script>\n{FENCE}",
    "[站内](../../index.md) 与 [链接](http://127.0.0.1:{port}/link) <https://example.org/>",
    "---\n\nmyst:\n  enable_extensions: [substitution]\n\n---",
    'url(//evil.example/x) style="background:url(//evil.example)"',
]
FRONT_MATTER_EXTRAS = [
    "",
    "myst:\n  enable_extensions: [substitution]",
    '"myst": {enable_extensions: [substitution]}',
    "<<: {myst: {enable_extensions: [substitution]}}",
    "html_meta:\n  http-equiv=refresh: 0; url=https://evil.example/",
    "substitutions: {x: '<script>alert(10)</script>'}",
    "? myst\n: {enable_extensions: [substitution]}",
    "!!str myst: {enable_extensions: [substitution]}",
]
CLOSINGS = ["---", "---", " ---", "--- ", "...", "----"]
# What the site's own pages carry (the seed issue's, its page name aside).
ACTIVE_TAGS = ("script", "style", "link", "base", "form", "iframe", "object", "embed", "meta")


# Where a page's invisible character goes (``page_text``): none, or a name.
INVISIBLE_PLACES = ["", "", "title", "heading", "tag"]
# How a generated address reaches a page: a link, an autolink, a reference definition.
LINK_FORMS = ["[链接](<{url}>)", "<{url}>", "[x]: <{url}>\n\n[链接][x]", "[链接]({url})"]


@st.composite
def spelled_links(draw: st.DrawFn) -> str:
    """A paragraph linking to an address spelled as hostile content spells it."""
    url = draw(st.one_of(scheme_spellings(), other_hosts()))
    return draw(st.sampled_from(LINK_FORMS)).format(url=url)


@st.composite
def spelled_bib(draw: st.DrawFn) -> str:
    """references.bib entries whose text fields link to spelled addresses."""
    entries = []
    for number in range(draw(st.integers(1, 3))):
        url = draw(st.one_of(scheme_spellings(), other_hosts()))
        # Each entry has its title already: a second one makes the .bib unreadable to
        # BibTeX, and the build then writes no page (bib-unreadable).
        field = draw(st.sampled_from(["note", "howpublished", "booktitle", "publisher"]))
        # "%" escaped as LaTeX wants it (a bare one, and \href, which the build cannot
        # convert, stop the whole build: tests/test_url_rule.py has them).
        value = draw(st.sampled_from(["\\url{URL}", "see \\url{URL}"]))
        value = value.replace("URL", url.replace("%", "\\%"))
        # Refused at its field's line: every address a browser reads as a script, or as
        # another host without a scheme; another (``https:%5C%2F\\evil.example/``, which a
        # browser cannot read at all) may pass.
        key = "spelled" if refused_by_a_browser(url) else "passable"
        entries.append(
            f"@misc{{{key}{number},\n  title = {{Spelled {number}}},\n"
            f"  url = {{https://example.org/{number}}},\n  {field} = {{{value}}},\n}}\n"
        )
    return "\n" + "\n".join(entries)


@st.composite
def hostile_pages(draw: st.DrawFn) -> list[tuple[str, str, str, str, tuple[str, str]]]:
    """Every construct and every front matter extra in each build, dealt out to its pages
    in an order and grouping hypothesis chooses (its simplest case is no easier), with
    a few spelled links among them and an invisible character in some pages' names."""
    bodies = draw(st.permutations(BODY_CONSTRUCTS + BENIGN_CONSTRUCTS))
    for link in draw(st.lists(spelled_links(), min_size=2, max_size=5)):
        bodies.insert(draw(st.integers(0, len(bodies))), link)
    extras = draw(st.permutations(FRONT_MATTER_EXTRAS))
    count = len(extras)
    closings = draw(st.lists(st.sampled_from(CLOSINGS), min_size=count, max_size=count))
    cuts = sorted(
        draw(st.sets(st.integers(1, len(bodies) - 1), min_size=count - 1, max_size=count - 1))
    )
    ends = [*cuts, len(bodies)]
    chunks = [bodies[start:end] for start, end in zip([0, *cuts], ends, strict=True)]
    invisible = st.tuples(st.sampled_from(INVISIBLE_PLACES), st.sampled_from(FORMAT_CHARACTERS))
    hostile = [
        (extra, closing, chunk[0], "\n\n".join(chunk[1:]) or "正文。", draw(invisible))
        for extra, closing, chunk in zip(extras, closings, chunks, strict=True)
    ]
    benign = draw(st.permutations(BENIGN_CONSTRUCTS))
    return [*hostile, ("", "---", benign[0], "\n\n".join(benign[1:]), ("", ""))]


def page_text(day: int, parts: tuple[str, str, str, str, tuple[str, str]]) -> str:
    extra, closing, lead, body, (place, char) = parts
    mark = {name: char if name == place else "" for name in INVISIBLE_PLACES}
    front = (
        f"date: 2026-10-{day:02d}\ntitle: 第{day}{mark['title']}期\nstatus: published\n"
        "length: 约 100 字"
    )
    if extra:
        front += "\n" + extra
    tags = f":tags: 标{mark['tag']}签\n" if mark["tag"] else ""
    return (
        f"---\n{front}\n{closing}\n\n{lead}\n\n"
        f":::{{radar-item}} 🧪 条{mark['heading']}目{day}\n:id: hostile-{day}\n:topic: agent\n"
        f"{tags}:score: 5\n:verdict: read-original\n\n{body}\n:::\n\n"
        f":::{{radar-closing}} 今天的主线\n\n收尾。\n:::\n"
    )


@pytest.fixture(scope="module")
def probe() -> Iterator[ThreadingHTTPServer]:
    with probe_server() as server:
        yield server


def own_tags(html: str, pagename: str) -> set[tuple[str, str]]:
    """The active elements of a page, as (tag, attributes and text), with what depends
    on the page (its name, its depth, its content policy's hashes) taken out."""
    soup = BeautifulSoup(html, "html.parser")
    found = set()
    for tag in soup.find_all(ACTIVE_TAGS):
        if tag.name == "meta" and not tag.get("http-equiv"):
            continue
        attributes = {
            name: re.sub(r"^(\.\./)+", "", " ".join(value) if isinstance(value, list) else value)
            for name, value in tag.attrs.items()
            if not (tag.name == "meta" and name == "content")
        }
        text = tag.get_text().replace(pagename, "PAGE")
        if tag.get("type") == "application/ld+json":  # the page's data, not code
            text = "JSON" if json.loads(text) else ""
        found.add((tag.name, json.dumps(sorted(attributes.items())) + text))
    return found


@pytest.mark.slow
@settings(
    max_examples=3,
    # Not shrunk: each example builds a site, and shrinking one ran past five minutes;
    # the failing example is printed whole.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(pages=hostile_pages(), bib=spelled_bib())
def test_what_the_check_passes_renders_nothing_of_its_own(pages, bib, probe) -> None:
    with tempfile.TemporaryDirectory(prefix="hostile-") as name:
        check_and_build(pages, probe, Path(name), bib)


def check_and_build(pages: list, probe: ThreadingHTTPServer, base: Path, bib: str = "") -> None:
    srcdir = copy_site(base / "src")
    marker = base / "command-ran"
    references = srcdir / "references.bib"
    references.write_text(references.read_text(encoding="utf-8") + bib, encoding="utf-8")
    texts = {}
    for day, parts in enumerate(pages, 1):
        path = f"issues/2026/2026-10-{day:02d}.md"
        text = page_text(day, parts)
        text = text.replace("{port}", str(probe.server_port)).replace("{marker}", str(marker))
        (srcdir / path).write_text(text, encoding="utf-8")
        texts[path] = text
    checked = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--format", "json", "--root", str(srcdir)],
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard
    )
    assert checked.stdout.startswith("["), (checked.returncode, checked.stderr[-3000:])
    errors: dict[str, list[dict]] = {}
    for problem in json.loads(checked.stdout):
        if problem["severity"] == "error":
            errors.setdefault(problem["path"], []).append(problem)
    outdir = base / "html"
    env = {**os.environ, "RADAR_TEST_SECRET": SECRET}
    content = {file for file in srcdir.rglob("*") if file.is_file()}
    built = sphinx_build(srcdir, outdir, check=False, env=env)
    assert "Traceback" not in built.stderr and "internal-error" not in built.stderr
    assert not marker.exists(), "a page ran a command"
    assert Probe.requests == [], "a page made the build fetch a URL"
    seed = own_tags(
        (outdir / "issues/2026/2026-09-08.html").read_text(encoding="utf-8"),
        "issues/2026/2026-09-08",
    )
    benign = max(texts)  # the last page: only text that looks dangerous
    assert benign not in errors, errors.get(benign)
    invisible = [path for path, parts in zip(texts, pages, strict=True) if parts[4][0]]
    assert all(path in errors for path in invisible), invisible
    if bib:  # every spelled address is refused, at the line of its field
        text = references.read_text(encoding="utf-8")
        starts = [match.start() for match in re.finditer("@misc{spelled", text)]
        fields = [text.count("\n", 0, start) + 4 for start in starts]
        refused = {problem["line"] for problem in errors.get("references.bib", [])}
        assert set(fields) <= refused, (fields, errors.get("references.bib"))
    # Every error of the build names a content file, never a page it generated.
    for error in re.findall(r"^(.*?):\d+: ERROR", built.stderr, re.MULTILINE):
        assert Path(error) in content, error
    for file in outdir.rglob("*.html"):
        soup = BeautifulSoup(file.read_text(encoding="utf-8"), "html.parser")
        for element in soup.find_all(["a", "area", "link"], href=True):
            assert not browser_refuses(str(element["href"])), (file, element)
    for path, text in texts.items():
        if path in errors:  # refused: named at its file and a line of it, by both
            lines = text.count("\n") + 1
            assert all(1 <= problem["line"] <= lines for problem in errors[path]), errors[path]
            assert f"{srcdir / path}:" in built.stderr, path
            continue
        page = outdir / path.replace(".md", ".html")
        html = page.read_text(encoding="utf-8")
        assert SECRET not in html and "root:x:0:0" not in html, path
        assert own_tags(html, path.removesuffix(".md")) <= seed, path
        assert not re.search(r"style\s*=\s*[\"'][^\"']*url\(", html, re.I), path
    everything = "".join(
        file.read_text(encoding="utf-8", errors="replace")
        for file in outdir.rglob("*")
        if file.is_file() and file.suffix in (".html", ".js", ".json", ".xml", ".txt", ".bib")
    )
    assert SECRET not in everything


# Catalogues, generated (issue 51): headers, charsets, spellings, plural forms and
# translations, written in one encoding or another. No build: the check compiles them as
# the build does.
MSGIDS = [
    "Skip to main content",
    "Color mode",
    "Search",
    '<a href="%(path)s">here</a>',
    "Copyright %(copyright)s",
]
PLURAL_MSGID = ("%(n)s result", "%(n)s results")
CONTENT_TYPES = [
    *["text/plain; charset=UTF-8"] * 30,
    "text/plain; charset=UTF-8",
    "text/plain; charset=utf-8",
    "text/plain;charset=UTF-8",
    "TEXT/PLAIN; charset=UTF-8",
    "text/plain; charset=utf-7",
    "text/plain; xcharset=utf-7",
    "text/plain; xcharset=utf-7; charset=UTF-8",
    "text/plain; charset=UTF-8; charset=utf-7",
    "text/plain; charset=utf-7 charset=UTF-8",
    "text/plain; Charset=UTF-8",
    'text/plain; charset="UTF-8"',
    "text/plain; charset=latin-1",
    "text/plain; charset=gb18030",
    "text/plain",
]
HEADER_NAMES = [*["Content-Type"] * 4, "content-type", "CONTENT-TYPE", " Content-Type "]
PLURAL_FORMS = [
    *[None, "nplurals=2; plural=(n != 1);"] * 3,
    "nplurals=2; plural=(n != 1);",
    "nplurals=1; plural=0;",
    "nplurals=3; plural=n%10==1 ? 0 : n%10==2 ? 1 : 2;",
    "nplurals=2; plural=n != 1; charset=utf-7",
    "nplurals=2; plural=n.__class__;",
]
# What a file may be written in: UTF-8, and what gettext or a careless editor might use.
ENCODINGS = [*["utf-8"] * 8, "utf-7", "latin-1", "gb18030", "utf-16", "utf-8-sig"]
TRANSLATION_PIECES = st.sampled_from(
    [
        *["颜色", "模式", "搜索", "跳到正文", "%(path)s"] * 4,
        "颜色",
        "é",
        "<",
        ">",
        '"',
        "'",
        "&",
        "+",
        "-",
        "ADw",
        "AD4",
        "<b>",
        "</b>",
        "%(path)s",
        '<a href="%(path)s">',
        "</a>",
        "<script>",
        "+ADw-script+AD4-",
        " ",
        "x",
        "=",
        ";",
        # HTML fragments a translation may carry into every page (issue 51, part 6).
        "<!--",
        "-->",
        "--!>",
        "<?x ",
        "<![CDATA[",
        "</p>",
        "<meta http-equiv=refresh content=0;url=//evil.test>",
        "<base href=//evil.test/>",
        "<svg onload=alert(1)>",
        "<a href=javascript:alert(1)>",
        "&lt;",
        "&quot;",
        "&#34;",
        "\u00a0",
        "javascript:",
    ]
)


@st.composite
def catalogues(draw: st.DrawFn) -> tuple[bytes, str, dict[object, str], dict[object, str]]:
    """A ``.po`` file's bytes; the encoding it was written in; the translations it means
    (msgid or (msgid, form) -> text, as UTF-8 reads the file); and the originals."""
    header = []
    for _line in range(draw(st.sampled_from([*[1] * 8, 0, 2]))):
        name = draw(st.sampled_from(HEADER_NAMES))
        header.append(f"{name}: {draw(st.sampled_from(CONTENT_TYPES))}")
    if draw(st.booleans()):
        header.append("Language: zh_CN")
    forms = draw(st.sampled_from(PLURAL_FORMS))
    if forms is not None:
        header.append(f"Plural-Forms: {forms}")
    header = draw(st.permutations(header))
    text = st.lists(TRANSLATION_PIECES, min_size=1, max_size=6).map("".join)
    meant: dict[object, str] = {}
    originals: dict[object, str] = {}
    entries = ['msgid ""\nmsgstr ""\n' + "".join(f'"{line}\\n"\n' for line in header)]
    for msgid in draw(st.lists(st.sampled_from(MSGIDS), unique=True, max_size=4)):
        meant[msgid] = draw(text)
        originals[msgid] = msgid
        entries.append(f"msgid {quoted(msgid)}\nmsgstr {quoted(meant[msgid])}\n")
    if draw(st.booleans()):
        one, many = PLURAL_MSGID
        lines = [f"msgid {quoted(one)}", f"msgid_plural {quoted(many)}"]
        for form in range(draw(st.integers(1, 3))):
            meant[(one, form)] = draw(text)
            originals[(one, form)] = f"{one}\n{many}"
            lines.append(f"msgstr[{form}] {quoted(meant[(one, form)])}")
        entries.append("\n".join(lines) + "\n")
    encoding = draw(st.sampled_from(ENCODINGS))
    data = "\n".join(entries).encode(encoding, errors="replace")
    # What the file says, read as UTF-8 (as the check and gettext must both read it): a
    # character the encoding lacks is a "?", and bytes of another encoding may happen to
    # be UTF-8 too (gb18030's 模式 is UTF-8's ģʽ).
    said = {
        key: text.encode(encoding, errors="replace").decode("utf-8", errors="replace")
        for key, text in meant.items()
    }
    return data, encoding, said, originals


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@given(catalogue=catalogues())
def test_a_catalogue_the_check_passes_is_read_by_gettext_as_written_and_holds_no_markup(
    catalogue,
) -> None:
    """Whatever the check passes, gettext reads in the compiled catalogue exactly the
    translations the .po means, and none holds markup its msgid lacks. Whatever gettext
    would decode otherwise than UTF-8 says (the header naming another charset, the file
    in another encoding, a byte-order mark) is refused, at a line of the file."""
    from juju_radar.model.translations import compile_catalogue, read_compiled, unsafe_markup

    data, encoding, meant, originals = catalogue
    compiled, problems = compile_catalogue(data, "sphinx.po")
    lines = data.count(b"\n") + 1
    assert all(1 <= problem.line <= lines for problem in problems), problems
    try:
        written_as_utf8 = bool(data.decode("utf-8")) and not data.startswith(b"\xef\xbb\xbf")
    except UnicodeDecodeError:
        written_as_utf8 = False
    gettext_charsets = {
        value.split("charset=")[1]  # gettext's own reading of a header line
        for value in header_values(data)
        if "charset=" in value
    }
    if compiled is None:
        assert problems
        return
    assert problems == []
    assert written_as_utf8, encoding  # and so read alike by gettext, the check and editors
    assert {charset.lower() for charset in gettext_charsets} == {"utf-8"}
    read = read_compiled(compiled)
    entries: dict[object, str] = read._catalog  # type: ignore[attr-defined]
    printed = {key: value for key, value in entries.items() if key != ""}
    assert printed.keys() >= meant.keys()
    for key, value in printed.items():
        # A plural form left empty is printed as its msgid (Babel's write_mo, gettext).
        assert value == meant[key] if key in meant else value in PLURAL_MSGID, (key, value)
        original = originals.get(key, "\n".join(PLURAL_MSGID))
        assert unsafe_markup(original, value) is None, (key, value)


# The theme prints an interface translation as it is, in text and in attribute values.
THEME_SLOTS = '<a class="theme" title="{0}" aria-label="{0}">{0}</a><p>after</p>'


@given(catalogue=catalogues())
def test_a_translation_the_check_passes_adds_nothing_to_the_page_it_is_printed_in(
    catalogue,
) -> None:
    """Each translation the check passes, printed where the theme prints one (text and
    attribute values), builds in a page (read by html5lib, not the check's lexbor) the
    elements and attributes of the theme's own markup and nothing else: no element, no
    attribute, no comment of its own, nothing swallowed after it."""
    from juju_radar.model.translations import compile_catalogue, markup_of, read_compiled

    data, _encoding, _meant, originals = catalogue
    compiled, _problems = compile_catalogue(data, "sphinx.po")
    if compiled is None:
        return
    entries: dict[object, str] = read_compiled(compiled)._catalog  # type: ignore[attr-defined]
    for key, value in entries.items():
        original = originals.get(key, "\n".join(PLURAL_MSGID))
        if key == "" or markup_of(original):
            continue  # the header, and msgids whose markup the translation keeps
        page = f"{PAGE_START}{THEME_SLOTS.format(value)}</body></html>"
        body = html5lib.parse(page, namespaceHTMLElements=False).find("body")
        built = [(element.tag, sorted(element.attrib)) for element in body.iter()]
        assert built == [
            ("body", []),
            ("a", ["aria-label", "class", "title"]),
            ("p", []),
        ], (key, value)


def header_values(data: bytes) -> list[str]:
    """The values of the header lines naming a Content-Type, as gettext splits them."""
    text = data.decode("utf-8", errors="replace")
    header = text.split("\n\n", 1)[0]
    values = []
    for line in header.splitlines():
        if line.startswith('"') and ":" in line:
            name, _sep, value = line.strip('"').removesuffix("\\n").partition(":")
            if name.strip().lower() == "content-type":
                values.append(value.strip())
    return values


# --- the built-page check, on generated HTML fragments (issue 51, parts 2 and 6) ------------
#
# Fragments reaching a page through a translation, drawn from the spellings that have split
# a checker from a browser: comments and bogus comments, processing instructions, "--!>",
# attribute quoting, separators HTML does not count as white space (U+00A0, NUL, and
# form feed, which it does), entity-encoded schemes. Each page is checked, then read by
# another WHATWG parser (html5lib), with scripting on and off: what the check passes, or
# writes after removing what it refused, holds nothing a page may not.

POLICY = PagePolicy.for_code([], [], ["search.html"])
PAGE_START = f"<!DOCTYPE html><html><head><meta charset=utf-8>{POLICY.meta_tag}</head><body>"
WRAPPERS = [
    "{}",
    "<!--{}-->",
    "<!--{}--!>",
    "<!--{}--!->",
    "<!-->{}",
    "<!--->{}",
    "<!{}>",
    "<?{}>",
    "</ {}>",
    "<p title='{}'>",
    '<p title="{}">',
    "<noscript>{}</noscript>",
    "<textarea>{}</textarea>",
    "<svg>{}</svg>",
]
TAGS = ["meta", "a", "img", "base", "form", "script", "style", "iframe", "p", "button", "noscript"]
# Weighted as a list, the addresses most: each mutation of the check that lets one through
# is found within the examples (a name or value listed twice is drawn twice as often).
NAMES = ["href", "href", "src", "src", "http-equiv", "content", "onclick", "title", "style"]
NAMES += ["srcdoc", "formaction", "action", "xlink:href", "x", "data"]
VALUES = [
    "javascript:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "&#106;avascript:alert(1)",
    "java\u00a0script:x",
    "JaVaScRiPt&colon;alert(1)",
    " \x01javascript:alert(1)",
    "http://evil.test/",
    "//evil.test/",
    "refresh",
    " Refresh\f",
    "0;url=http://evil.test/",
    "background:url(//evil.test/x)",
    "search.html",
    "x.html",
    "--><meta http-equiv=refresh content=0>",
    "</noscript><script>alert(1)</script>",
]
SEPARATORS = [" ", "\t", "\n", "\f", "\u00a0", "\x00", "/", "", " / "]
QUOTES = ['"', "'", ""]
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "cite", "ping"}
TEXTS = ["alert(1)", "*{color:red}", "</script>", "-->", "<!--", "x"]


@st.composite
def html_tags(draw: st.DrawFn) -> str:
    tag = draw(st.sampled_from(TAGS))
    attributes = ""
    for _ in range(draw(st.integers(1, 3))):
        quote = draw(st.sampled_from(QUOTES))
        attributes += draw(st.sampled_from(SEPARATORS)) + draw(st.sampled_from(NAMES))
        attributes += f"={quote}{draw(st.sampled_from(VALUES))}{quote}"
    text = draw(st.sampled_from(TEXTS))
    return f"<{tag}{attributes}>{text}</{tag}>"


@st.composite
def html_fragments(draw: st.DrawFn) -> str:
    pieces = draw(
        st.lists(st.tuples(st.sampled_from(WRAPPERS), html_tags()), min_size=1, max_size=3)
    )
    return "".join(wrapper.replace("{}", tag) for wrapper, tag in pieces)


def is_script_url(value: str) -> bool:
    """A URL a browser reads as ``javascript:``: leading and trailing C0 controls and
    spaces stripped, tabs and newlines removed (the URL standard), any case."""
    url = value.strip("".join(map(chr, range(0x21)))).translate({9: None, 10: None, 13: None})
    return url.lower().startswith("javascript:")


def loads_elsewhere(value: str) -> bool:
    """Whether a browser on the site's page would load ``value`` from anywhere else."""
    url = value.strip("".join(map(chr, range(0x21)))).translate({9: None, 10: None, 13: None})
    parts = urlsplit(urljoin("https://radar.test/archive/page.html", url.replace("\\", "/")))
    return parts.scheme != "https" or parts.netloc != "radar.test"


def what_a_page_may_not_hold(page: str) -> list[str]:
    """What html5lib's trees of ``page`` (scripting on and off) hold that a page may not."""
    found = []
    for scripting in (True, False):
        parser = html5lib.HTMLParser(namespaceHTMLElements=False)
        tree = parser.parse(page, scripting=scripting)
        for element in tree.iter():
            if not isinstance(element.tag, str):  # comments
                continue
            tag = element.tag.rsplit("}", 1)[-1].lower()
            attributes = {name.rsplit("}", 1)[-1].lower(): value for name, value in element.items()}
            if tag in ("base", "object", "embed", "template", "animate", "set"):
                found.append(tag)
            if tag == "iframe" and loads_elsewhere(attributes.get("src", "//")):  # site's: kept
                found.append(tag)
            if tag == "form" and attributes.get("action") != "search.html":
                found.append("form")
            if tag == "style" or (tag == "script" and "src" not in attributes):
                found.append(tag)
            if (
                tag == "meta"
                and "http-equiv" in attributes
                and attributes
                != {
                    "http-equiv": "Content-Security-Policy",
                    "content": POLICY.content,
                }
            ):
                found.append("http-equiv")
            for name, value in attributes.items():
                if name.startswith("on") or name in ("srcdoc", "formaction"):
                    found.append(name)
                if value.strip(" \t\n\f\r").lower() == "refresh" or (
                    name in URL_ATTRIBUTES and is_script_url(value)
                ):
                    found.append(f"{name}={value!r}")
                if name in ("src", "data") and loads_elsewhere(value):
                    found.append(f"{name}={value!r}")
    return found


@settings(max_examples=400, deadline=None)
@given(fragment=html_fragments())
def test_what_the_page_check_passes_a_second_parser_finds_clean(fragment: str) -> None:
    page = f"{PAGE_START}<p>前文</p>{fragment}<p>后文</p></body></html>"
    refusals: list[str] = []
    cleaned = check_page_html(page, refusals.append, POLICY)
    assert what_a_page_may_not_hold(cleaned) == [], refusals
    if not refusals:
        assert cleaned is page
    elif what_a_page_may_not_hold(page) == []:
        # Refused, yet nothing in the second parser's tree: only the allowlist's own
        # strictness (an element or attribute it does not know) may do that.
        assert all(
            "is not allowed in a page" in r or "is not the site's own" in r for r in refusals
        )
