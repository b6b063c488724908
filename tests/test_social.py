"""What search engines, link previews and lost readers see: social meta tags, the
sitemap and the 404 page."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import pytest
from browser.site_server import SUB_PATH, SubPathHandler
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build, watch_errors
from publishing_site import (
    DRAFT_DATE,
    SITE_URL,
    published_issues,
)

SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


@pytest.fixture(scope="module")
def site(published_site: tuple[Path, Path]) -> tuple[Path, Path]:
    return published_site


def meta(outdir: Path, page: str) -> dict[str, str]:
    soup = BeautifulSoup((outdir / page).read_text(encoding="utf-8"), "html.parser")
    return {
        tag.get("property") or tag.get("name"): tag["content"]
        for tag in soup.select("head meta[content]")
        if tag.get("property") or tag.get("name")
    }


def test_an_issue_page_is_shared_with_its_title_and_lead(site):
    srcdir, outdir = site
    issue = next(i for i in published_issues(srcdir) if i.date.isoformat() == "2026-09-08")
    tags = meta(outdir, f"{issue.docname}.html")
    assert tags["og:title"] == issue.title
    assert tags["og:type"] == "article"
    assert tags["og:url"] == f"{SITE_URL}{issue.docname}.html"
    assert tags["og:site_name"] == "Juju Radar 归档"
    assert tags["og:locale"] == "zh_CN"
    assert tags["twitter:card"] == "summary"
    assert tags["og:description"].startswith(issue.lead[0][:60])
    assert tags["og:description"].endswith("…") and len(tags["og:description"]) <= 160
    assert tags["description"] == tags["og:description"]


def test_no_published_page_asks_search_engines_not_to_list_it(site):
    _, outdir = site
    assert not (outdir / f"issues/2026/{DRAFT_DATE}.html").exists()  # drafts are not built
    for page in ("issues/2026/2026-09-09.html", "index.html"):
        soup = BeautifulSoup((outdir / page).read_text(encoding="utf-8"), "html.parser")
        assert soup.select('meta[name="robots"]') == [], page


def test_a_shared_description_has_no_markdown_escapes(site):
    _, outdir = site
    description = meta(outdir, "issues/2026/2026-09-09.html")["og:description"]
    assert "（#评测周#）" in description and "\\" not in description


def test_other_pages_are_described_by_their_own_text(site):
    _, outdir = site
    home = meta(outdir, "index.html")
    assert home["og:title"] == "Juju Radar 归档"
    assert home["og:description"].startswith("Juju Radar 是一份中文 AI 日报")
    stats = meta(outdir, "stats.html")
    assert stats["og:title"] == "数据与统计"
    assert stats["og:description"].startswith("按月份、主题、评分与判断统计已发布的条目")


def test_a_listing_page_is_described_by_its_items(site):
    """A topic's page has no summary of its own: its description is its text, the lines
    of its items included (written as HTML, read from their nodes)."""
    _, outdir = site
    description = meta(outdir, "topics/3d.html")["og:description"]
    assert "2026-09-08 · 🪑 WorldSculpt" in description


def test_the_sitemap_lists_every_published_page_and_no_draft(site):
    srcdir, outdir = site
    root = ET.parse(outdir / "sitemap.xml").getroot()
    locations = [loc.text for loc in root.findall("s:url/s:loc", SITEMAP_NS)]
    assert locations[0] == f"{SITE_URL}index.html"
    assert locations[1:] == sorted(locations[1:])
    pages = {loc.removeprefix(SITE_URL) for loc in locations}
    issues = {f"{issue.docname}.html" for issue in published_issues(srcdir)}
    assert issues <= pages
    assert {"stats.html", "topics/agent.html", "issues/index.html", "references.html"} <= pages
    assert not any(DRAFT_DATE in page for page in pages)
    assert "404.html" not in pages
    assert all((outdir / page).is_file() for page in pages)


@pytest.mark.site
def test_without_a_site_url_there_is_no_sitemap_and_no_social_url(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    sphinx_build(srcdir, tmp_path / "html")
    assert not (tmp_path / "html" / "sitemap.xml").exists()
    assert "og:url" not in meta(tmp_path / "html", "index.html")
    assert (tmp_path / "html" / "404.html").is_file()


def test_the_404_page_links_from_the_site_url_path(site):
    _, outdir = site
    soup = BeautifulSoup((outdir / "404.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.select_one("article h1").get_text() == "页面不存在"
    links = [a["href"] for a in soup.select("article a")]
    assert f"{SUB_PATH}issues/index.html" in links
    stylesheets = [link["href"] for link in soup.select('link[rel="stylesheet"]')]
    assert stylesheets and all(href.startswith(SUB_PATH) for href in stylesheets)


class NotFoundPageHandler(SubPathHandler):
    """Like a web server configured with ``ErrorDocument 404 /archive/404.html``."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve_with_404(site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(NotFoundPageHandler, directory=str(site))
    )
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
def test_a_lost_reader_gets_a_styled_404_page_whose_links_work(site, browser):
    _, outdir = site
    with serve_with_404(outdir) as base:
        page = browser.new_page(locale="zh-CN")
        errors = watch_errors(page)
        missing = f"{base}issues/2019/no-such-issue.html"
        failed: list[str] = []
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        response = page.goto(missing)
        assert response is not None and response.status == 404
        heading = page.locator("article h1").inner_text()
        styled = page.evaluate("document.styleSheets.length")
        page.get_by_role("link", name="往期归档").first.click()
        page.wait_for_load_state("networkidle")
        landed = page.url
        title = page.locator("article h1").inner_text()
        page.close()
    assert heading == "页面不存在"
    assert styled > 3  # the theme's stylesheets loaded from the sub-path
    assert landed == f"{base}issues/index.html"
    assert "往期" in title or "归档" in title
    assert failed == [missing]  # every stylesheet, script and image was found
    # The browser reports the 404 status of the page itself as one console error.
    assert len(errors) == 1 and "404" in errors[0], errors
