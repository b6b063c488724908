"""``radar serve``: a save shows on the served page, with the banner saying what the
preview leaves out; ``make html`` has no banner."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import copy_site
from live_preview import LivePreview, radar_serve, replace_once

from juju_radar.sphinx_ext.preview import BANNER, CHARTS_LEFT_OUT

ISSUE = Path("issues/2026/2026-09-08.md")
ISSUE_PAGE = "issues/2026/2026-09-08.html"


def banner_of(html: str) -> str:
    found = BeautifulSoup(html, "html.parser").select(".radar-preview-banner")
    return " ".join(node.get_text(" ", strip=True) for node in found)


def article_of(html: str) -> str:
    article = BeautifulSoup(html, "html.parser").select_one("article")
    assert article is not None
    return article.get_text(" ", strip=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, LivePreview]]:
    """The seed site under ``radar serve``, shared by the tests below: each changes its
    own file or entry and looks only at what that change shows."""
    src = copy_site(tmp_path_factory.mktemp("served") / "src")
    with radar_serve(src) as preview:
        yield src, preview


@pytest.mark.site
def test_a_saved_sentence_shows_on_the_served_page_under_the_banner(served):
    src, preview = served
    before = preview.page(ISSUE_PAGE)
    assert before is not None and banner_of(before) == BANNER
    assert "部署还有预算限制。" in article_of(before)
    assert "这一句是预览里新写的。" not in before

    saved = replace_once(
        src / ISSUE, "部署还有预算限制。", "部署还有预算限制。这一句是预览里新写的。"
    )
    preview.seconds_until_shown(ISSUE_PAGE, "这一句是预览里新写的。", saved)

    after = preview.page(ISSUE_PAGE)
    assert after is not None
    assert "部署还有预算限制。这一句是预览里新写的。" in article_of(after)
    assert banner_of(after) == BANNER


def test_a_new_issue_file_appears_in_the_preview_drafts_too(served):
    src, preview = served
    new_page = "issues/2026/2026-09-09.html"
    assert preview.page(new_page) is None
    radar = [sys.executable, "-m", "juju_radar", "--root", str(src), "new", "2026-09-09"]
    subprocess.run(radar, check=True, capture_output=True)  # a draft, as editors start one
    saved = replace_once(
        src / "issues/2026/2026-09-09.md", "title: 本期标题", "title: 预览里的新一期"
    )
    preview.seconds_until_shown(new_page, "预览里的新一期", saved)

    page = preview.page(new_page)
    assert page is not None and banner_of(page) == BANNER
    assert "预览里的新一期" in article_of(page)


def test_an_edit_of_the_bibliography_shows_on_the_citing_page(served):
    src, preview = served
    assert "RISE 论文（第二版）" not in (preview.page(ISSUE_PAGE) or "")
    saved = replace_once(
        src / "references.bib", "title = {RISE 论文}", "title = {RISE 论文（第二版）}"
    )
    preview.seconds_until_shown(ISSUE_PAGE, "RISE 论文（第二版）", saved)
    assert "RISE 论文（第二版）" in article_of(preview.page(ISSUE_PAGE) or "")


def test_the_preview_leaves_out_the_search_index_and_the_charts(served):
    src, preview = served
    stats = preview.page("stats.html")
    assert stats is not None and banner_of(stats) == BANNER
    assert CHARTS_LEFT_OUT in article_of(stats)
    assert "<svg" not in stats
    assert not (src / "_build" / "preview" / "pagefind").exists()


def test_the_pages_of_make_html_have_no_banner(built_seed_site):
    pages = sorted(built_seed_site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "radar-preview-banner" not in html and BANNER not in html, page
    stats = (built_seed_site / "stats.html").read_text(encoding="utf-8")
    assert "<svg" in stats and CHARTS_LEFT_OUT not in stats


@pytest.mark.site
def test_listings_wait_for_the_next_session_and_then_catch_up(tmp_path):
    """Within a session a save rewrites the saved page only; the pages listing it are
    rewritten by the next session's first build."""
    from juju_radar.build.preview import PreviewSession

    src = copy_site(tmp_path / "src")
    out = src / "_build" / "preview"
    old_title, new_title = "客服能跑起来，不代表能处理好客户的问题", "客服跑起来之后的问题"

    def shown(page: str) -> str:
        return article_of((out / page).read_text(encoding="utf-8"))

    session = PreviewSession(src, out, jobs=1, status=io.StringIO(), warning=sys.stderr)
    try:
        assert session.build()
        assert old_title in shown("index.html") and old_title in shown(ISSUE_PAGE)
        time.sleep(0.01)  # a later modification time than the last read
        replace_once(src / ISSUE, old_title, new_title)
        assert session.build([src / ISSUE])
        assert new_title in shown(ISSUE_PAGE)
        assert old_title in shown("index.html") and new_title not in shown("index.html")
    finally:
        session.save()

    session = PreviewSession(src, out, jobs=1, status=io.StringIO(), warning=sys.stderr)
    try:
        assert session.build()
        assert new_title in shown("index.html") and old_title not in shown("index.html")
    finally:
        session.save()


@pytest.mark.site
def test_a_change_to_conf_py_starts_a_new_application(tmp_path):
    from juju_radar.build.preview import PreviewSession

    src = copy_site(tmp_path / "src")
    out = src / "_build" / "preview"
    session = PreviewSession(src, out, jobs=1, status=io.StringIO(), warning=sys.stderr)
    try:
        assert session.build()
        first = session.app
        replace_once(src / "conf.py", 'html_title = "Juju Radar 归档"', 'html_title = "预览标题"')
        assert session.build([src / "conf.py"])
        assert session.app is not first
        assert "<title>预览标题</title>" in (out / "index.html").read_text(encoding="utf-8")
    finally:
        session.save()


@pytest.mark.site
def test_a_changed_translation_shows_after_the_new_application_builds(tmp_path):
    from juju_radar.build.preview import PreviewSession

    src = copy_site(tmp_path / "src")
    out = src / "_build" / "preview"
    catalogue = src / "locales" / "zh_CN" / "LC_MESSAGES" / "sphinx.po"
    session = PreviewSession(src, out, jobs=1, status=io.StringIO(), warning=sys.stderr)
    try:
        assert session.build()
        assert "颜色模式" in (out / "index.html").read_text(encoding="utf-8")
        replace_once(catalogue, 'msgstr "颜色模式"', 'msgstr "配色模式"')
        assert session.build([catalogue])
        page = (out / "index.html").read_text(encoding="utf-8")
        assert "配色模式" in page and "颜色模式" not in page
    finally:
        session.save()
