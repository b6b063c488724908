"""Bad content fails `make html`: a warning with file, line and a radar.<code> type."""

from __future__ import annotations

import codecs
import re

import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, page_text, site_with_root, sphinx_build

pytestmark = pytest.mark.site


def build_warnings(tmp_path, root: str) -> str:
    srcdir = site_with_root(root, tmp_path / "src")
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode != 0, "warnings are errors: the build must fail"
    return result.stderr


def test_unknown_topic_score_and_missing_key_fail_the_build(tmp_path):
    stderr = build_warnings(tmp_path, "bad-item")
    page = r"issues/2026/2026-09-09\.md"
    assert re.search(
        page
        + r":12: ERROR: unknown topic 'agnet' \(did you mean 'agent'\?\) \[radar\.unknown-topic\]",
        stderr,
    )
    assert re.search(
        page
        + r":24: ERROR: score '11' must be a number from 0 to 10 in halves \[radar\.bad-score\]",
        stderr,
    )
    assert re.search(
        page
        + r":36: ERROR: citation key 'nosuchkey2026' is not in references\.bib \[radar\.missing-citation\]",
        stderr,
    )


def test_item_id_reused_in_another_issue_fails_the_build(tmp_path):
    stderr = build_warnings(tmp_path, "duplicate-id")
    assert re.search(
        r"2026-09-09\.md:11: ERROR: item id 'tau-bench-customer-service' is already used in issues/2026/2026-09-08\.md \[radar\.duplicate-id\]",
        stderr,
    )


def test_raw_html_and_raw_directive_are_refused_at_file_and_line(tmp_path):
    stderr = build_warnings(tmp_path, "raw-html")
    assert re.search(
        r"2026-09-09\.md:18: ERROR: raw HTML is not allowed in an issue \[radar\.raw-html\]", stderr
    )
    assert re.search(
        r"raw-page\.md:3: ERROR: block '\{raw\}' is not allowed in a site page .*"
        r"\[radar\.forbidden-directive\]",
        stderr,
    )
    built = (tmp_path / "html" / "issues/2026/2026-09-09.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in built
    raw_page = (tmp_path / "html" / "raw-page.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in raw_page


def test_files_saved_with_a_byte_order_mark_build_as_without(tmp_path):
    """Some editors save UTF-8 with a byte order mark; Sphinx and `radar check` accept it."""
    srcdir = copy_site(tmp_path / "src")
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    first_entry = text.index("@")
    bib.write_text(text[first_entry:] + "\n" + text[:first_entry], encoding="utf-8")
    for path in (srcdir / "issues/2026/2026-09-08.md", bib):
        path.write_bytes(codecs.BOM_UTF8 + path.read_bytes())
    sphinx_build(srcdir, tmp_path / "html")  # warnings are errors
    assert "让 AI 造一个客服，难在代码之外" in page_text(tmp_path / "html" / "index.html")
    assert "RISE 论文" in page_text(tmp_path / "html" / "references" / "2026-09.html")


def test_a_bib_file_bibtex_cannot_read_stops_the_build_at_its_line(tmp_path):
    """sphinxcontrib-bibtex would stop with a traceback; the editor gets file and line."""
    srcdir = copy_site(tmp_path / "src")
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("title = {RISE 论文},", "title = {RISE 论文,"), encoding="utf-8")
    entry_line = text[: text.index("@misc{rise2026paper")].count("\n") + 1
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert re.search(
        rf"references\.bib:{entry_line}: ERROR: entry 'rise2026paper' has unbalanced braces.*"
        r"\[radar\.unbalanced-braces\]",
        result.stderr,
    )
    assert (
        f"references.bib:{entry_line}: ERROR: BibTeX cannot read this file: nothing was built"
        in result.stderr
    )
    assert "Traceback" not in result.stderr + result.stdout
    assert "Extension error" not in result.stderr


def test_an_item_keeps_its_anchor_when_the_issue_title_slugs_to_its_id(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    seed = srcdir / "issues/2026/2026-09-08.md"
    text = seed.read_text(encoding="utf-8")
    text = text.replace("title: 让 AI 造一个客服，难在代码之外", "title: RISE：让模型自己当老师")
    seed.write_text(text.replace(":id: rise-self-extrapolation", ":id: rise"), encoding="utf-8")
    sphinx_build(srcdir, tmp_path / "html")
    page = BeautifulSoup(
        (tmp_path / "html/issues/2026/2026-09-08.html").read_text(encoding="utf-8"), "html.parser"
    )
    anchored = page.find_all(id="rise")
    assert [element.name for element in anchored] == ["section"]
    assert "radar-item" in anchored[0]["class"]
    assert page.find(id="top").h1.get_text().startswith("RISE：让模型自己当老师")
