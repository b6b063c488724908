"""One URL rule (issue 51, part 4): every reader of an address (the page check, the
built page's link guard, the .bib check and the style that makes its links, the export
reader) judges it by ``juju_radar.model.urls``, and the rule refuses whatever a browser
(the WHATWG URL standard, as ada implements it) reads as a script or another host,
however the scheme is spelled: case, blanks, control and format characters, HTML
entities, percent-escapes (nested too), backslashes, full-width forms."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import copy_site, examples, sphinx_build
from hostile_spellings import other_hosts, refused_by_a_browser, scheme_spellings
from hypothesis import given, settings
from hypothesis import strategies as st
from pybtex.plugin import find_plugin

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.identifiers import source_url, web_url
from juju_radar.bib.segment_check import check_bib_segments
from juju_radar.bib.style import latex_with_urls
from juju_radar.editors.export_sources import address_problem
from juju_radar.editors.lookup.services import from_csl
from juju_radar.model.content import MarkdownSyntax, check_content, link_problem, markdown
from juju_radar.model.urls import (
    PLAIN_URL_RE,
    _url_start,
    decoded_start,
    is_safe_href,
    is_web_address,
    url_scheme,
)

PAGE = "issues/2026/2026-10-01.md"

# Regression cases: each a spelling a browser or another reader takes for a script or
# for another host, and that an older rule (or the .bib check) let through.
REFUSED = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " \tjavascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java&#x09;script:alert(1)",
    "java&Tab;script:alert(1)",
    "javascript&colon;alert(1)",
    "java&amp;#x09;script:alert(1)",
    "java%09script:alert(1)",
    "java%2509script:alert(1)",
    "%6Aavascript:alert(1)",
    "java\u200bscript:alert(1)",
    "java\u00adscript:alert(1)",
    "java\\script:alert(1)",
    "ｊａｖａｓｃｒｉｐｔ：alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "DATA:text/html;base64,PHNjcmlwdD4=",
    "file:///etc/passwd",
    "ftp://example.org/file",
    "//evil.example/",
    "\\\\evil.example/",
    "/\\evil.example/",
    "\\/evil.example/",
    " //evil.example/",
    "%2F%2Fevil.example/",
]
ALLOWED = [
    "https://example.org/paper?a=1&b=2#x",
    "HTTP://example.org/",
    "mailto:editors@example.org",
    "../2026/2026-09-08.md",
    "#closing",
    "https://例子.中国/论文",
]


# --- the rule against a browser ----------------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(url=st.one_of(scheme_spellings(), other_hosts()))
def test_what_a_browser_reads_as_a_script_or_another_host_is_refused(url: str) -> None:
    if refused_by_a_browser(url):
        assert not is_safe_href(url), url


@settings(max_examples=examples(300), deadline=None)
@given(url=scheme_spellings())
def test_a_spelled_scheme_is_read_as_the_scheme_it_spells(url: str) -> None:
    assert url_scheme(url) in ("javascript", "vbscript", "data"), url
    assert link_problem(url, PAGE) is not None
    assert not is_web_address(url)


PLAIN_ALPHABET = "aAjJsSvV09._~:/?#[]@!$'()*+,;=-"


@settings(max_examples=examples(500), deadline=None)
@given(url=st.text(PLAIN_ALPHABET, max_size=14) | st.from_regex(PLAIN_URL_RE, fullmatch=True))
def test_a_plain_address_is_read_as_the_full_reading_reads_it(url: str) -> None:
    """The shortcut for addresses with nothing to decode gives the full reading's answer."""
    assert PLAIN_URL_RE.match(url)
    assert _url_start(url) == decoded_start(url), url


@pytest.mark.parametrize("url", REFUSED)
def test_each_regression_case_is_refused_and_read_by_a_browser_as_refused(url: str) -> None:
    assert not is_safe_href(url)
    assert link_problem(url, PAGE) is not None
    assert address_problem(url) is not None
    assert web_url(url) is None


def test_the_regression_cases_are_what_a_browser_refuses() -> None:
    """The cases are real: a browser reads most of them as a script or another host (the
    rest are stricter spellings no browser follows: entities in an attribute taken as
    written, percent-escapes, invisible characters, full-width forms)."""
    followed = [url for url in REFUSED if refused_by_a_browser(url)]
    assert len(followed) >= 12, followed


@pytest.mark.parametrize("url", ALLOWED)
def test_web_addresses_site_links_and_anchors_are_allowed(url: str) -> None:
    assert is_safe_href(url) and not refused_by_a_browser(url)
    assert link_problem(url, PAGE) is None


# --- every reader of an address --------------------------------------------------------


def bib_entry(field: str) -> str:
    return (
        "@misc{first2026,\n  title = {First},\n  url = {https://example.org/first},\n}\n\n"
        f"@misc{{probe2026,\n  title = {{Probe}},\n  year = 2026,\n  {field},\n}}\n"
    )


FIELD_LINE = 9  # the probe's field, in ``bib_entry``
# Spellings a .bib field holds as written: no brace, no bare "%" (a LaTeX comment).
BIB_REFUSED = [url for url in REFUSED if "%" not in url and not set(url) & set("{}")]
LINKING_FIELDS = [
    "note = {see \\url{URL}}",
    "howpublished = {\\url{URL}}",
    "title = {Probe \\url{URL}}",
    "journal = {\\url{URL}}",
    "organization = {\\url{URL}}",
    "publisher = {\\url{URL}}",
    "note = {\\href{URL}{a link}}",
    "url = {URL}",
    "archiveurl = {URL}",
]


def unsafe_lines(text: str) -> list[int]:
    return [p.line for p in check_bib_text(text, "references.bib") if p.code == "unsafe-url"]


@pytest.mark.parametrize("field", LINKING_FIELDS)
@pytest.mark.parametrize("url", BIB_REFUSED[::3] + ["javascript:alert(1)"])
def test_the_bib_check_refuses_an_unsafe_address_in_every_field_that_links(field, url) -> None:
    text = bib_entry(field.replace("URL", url))
    assert FIELD_LINE in unsafe_lines(text), text
    checked = check_bib_segments(text, "references.bib", {})
    assert FIELD_LINE in [p.line for p in checked.problems if p.code == "unsafe-url"]


@pytest.mark.parametrize("field", LINKING_FIELDS)
def test_the_bib_check_lets_a_web_address_through(field) -> None:
    assert unsafe_lines(bib_entry(field.replace("URL", "https://example.org/x"))) == []


def rendered(value: str) -> str:
    return latex_with_urls(value).render(find_plugin("pybtex.backends", "html")())


@pytest.mark.parametrize("url", BIB_REFUSED)
def test_the_style_links_no_address_the_check_refuses(url: str) -> None:
    """The build shows an address the check refuses as text: its error is the check's,
    at the .bib file's line, never the link guard's at a generated page."""
    value = f"see \\url{{{url}}}"
    assert FIELD_LINE in unsafe_lines(bib_entry(f"note = {{{value}}}"))
    assert "<a " not in rendered(value), rendered(value)


def test_the_style_links_a_web_address() -> None:
    assert '<a href="https://example.org/x">' in rendered("see \\url{https://example.org/x}")


def test_the_page_check_refuses_every_link_markdown_renders_with_an_unsafe_address() -> None:
    """What markdown-it renders as a link the check judges; what it leaves as text (it
    refuses ``javascript:`` itself) is harmless."""
    syntax = MarkdownSyntax()
    for url in REFUSED:
        body = f"[x](<{url}>) and <{url}>"
        html = markdown(syntax).render(body)
        problems = check_content(body, PAGE, "issue", syntax)
        if "<a " in html:
            assert any(p.code == "forbidden-link" for p in problems), (url, html)


# --- the check and the build, end to end -----------------------------------------------

HOSTILE_ENTRY = """
@misc{evilnote2026,
  title = {Evil note},
  url = {https://example.org/paper},
  note = {\\url{javascript:alert(1)}},
  howpublished = {\\url{JaVa&#x09;Script:alert(2)}},
}
"""


@pytest.mark.site
def test_an_unsafe_bib_link_is_refused_at_the_bib_line_by_the_check_and_the_build(tmp_path):
    """The known failure: the check let it through, and the build stopped at
    ``references/uncited.md:7``, a page no editor can open."""
    srcdir = copy_site(tmp_path / "src")
    bib = srcdir / "references.bib"
    before = bib.read_text(encoding="utf-8")
    text = before + HOSTILE_ENTRY
    bib.write_text(text, encoding="utf-8")
    note = text.count("\n", 0, text.index("note = {\\url")) + 1
    lines = [note, note + 1]  # the note's and howpublished's
    checked = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--format", "json", "--root", str(srcdir)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = [
        (problem["path"], problem["line"])
        for problem in json.loads(checked.stdout)
        if problem["code"] == "unsafe-url"
    ]
    assert found == [("references.bib", line) for line in lines], checked.stdout
    built = sphinx_build(srcdir, tmp_path / "html", check=False)
    errors = [line for line in built.stderr.splitlines() if "ERROR" in line]
    assert built.returncode != 0
    for line in lines:
        assert any(f"{bib}:{line}: ERROR:" in error for error in errors), built.stderr
    assert all(f"{bib}:" in error for error in errors), errors
    uncited = (tmp_path / "html/references/uncited.html").read_text(encoding="utf-8")
    assert "alert(1)" in uncited  # shown as text
    assert not re.search(r'href="[^"]*(?:script:|alert)', uncited, re.IGNORECASE)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://example.org/paper", "https://example.org/paper"),
        ("https:// evil.example/", None),
        ("https://", None),
        ("JaVa\tScript:alert(1)", None),
    ],
)
def test_a_looked_up_address_is_kept_only_when_the_rule_allows_it(given, kept) -> None:
    """``radar refs lookup`` keeps a service's URL by the same rule."""
    candidate = from_csl({"title": "T", "URL": given}, "crossref", "https://api.example/1")
    assert candidate is not None and candidate.url == kept


@pytest.mark.parametrize("value", BIB_REFUSED)
def test_a_doi_or_an_arxiv_id_always_links_to_its_resolver(value: str) -> None:
    """The doi and eprint fields never carry their own scheme into a link."""
    for fields in ({"doi": value}, {"eprint": value}):
        url = source_url(fields)
        assert url is not None and is_web_address(url), (fields, url)
        assert url.startswith(("https://doi.org/", "https://arxiv.org/abs/")), url
