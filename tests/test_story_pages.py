"""A page per story (``issues/YYYY/YYYY-MM-DD/<anchor>.html``): what it shows, its card,
its citation metadata, the sitemap and the issue page's link to it; its builds."""

from __future__ import annotations

import io
import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path
from threading import Thread
from typing import Any

import pytest
from browser.site_server import SUB_PATH, SubPathHandler
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from PIL import Image
from publishing_site import DRAFT_DATE, SITE_URL, WITH_SITE_URL, issues_in, published_sources
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.model.issue_records import first_sentence, plain_text
from juju_radar.outputs import story_cards

SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SEED = "issues/2026/2026-09-08"
SECOND = "issues/2026/2026-09-09"


@pytest.fixture(scope="module")
def site(published_site: tuple[Path, Path]) -> tuple[Path, Path]:
    return published_site


def soup(outdir: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((outdir / page).read_text(encoding="utf-8"), "html.parser")


def meta(outdir: Path, page: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for tag in soup(outdir, page).select("head meta[content]"):
        name = tag.get("property") or tag.get("name")
        if name:
            found.setdefault(name, []).append(tag["content"])
    return found


def json_ld(outdir: Path, page: str) -> list[dict]:
    scripts = soup(outdir, page).select('head script[type="application/ld+json"]')
    return [json.loads(script.string) for script in scripts]


def test_every_published_story_has_its_page_and_card_and_no_draft_has(site):
    srcdir, outdir = site
    for issue in issues_in(srcdir):
        for item in issue.items:
            page = outdir / issue.docname / f"{item.id}.html"
            card = outdir / issue.docname / f"{item.id}.png"
            assert page.is_file() == card.is_file() == issue.published, page
    assert not (outdir / f"issues/2026/{DRAFT_DATE}").exists()


def test_a_story_page_shows_its_story_and_its_place_in_the_issue(site):
    srcdir, outdir = site
    issue = next(issue for issue in issues_in(srcdir) if issue.docname == SEED)
    item = next(item for item in issue.items if item.id == "tau-bench-customer-service")
    page = soup(outdir, f"{SEED}/{item.id}.html")
    assert page.select_one("section.radar-item h1").get_text() == item.heading
    meta_line = page.select_one("section.radar-item > .radar-item-meta").get_text()
    assert "9/10" in meta_line and "建议深挖" in meta_line and "Coding Agent" in meta_line
    in_issue = page.select_one("a.radar-story-in-issue")
    assert in_issue["href"] == f"../2026-09-08.html#{item.id}"
    assert in_issue.get_text() == issue.title
    canonical = page.select_one('link[rel="canonical"]')["href"]
    assert canonical == f"{SITE_URL}{SEED}/{item.id}.html"
    # Its text is the issue page's, paragraph by paragraph.
    issue_section = soup(outdir, f"{SEED}.html").select_one(f"section#{item.id}")
    own = [p.get_text() for p in page.select("section.radar-item > p:not([class])")]
    theirs = [p.get_text() for p in issue_section.select(":scope > p:not([class])")]
    assert own == theirs and len(own) == len(item.body)
    # Its sources, by label; the downloads and the cite-as boxes with its own address.
    sources = page.select_one("section.radar-item > .radar-sources").get_text()
    assert all(source.label in sources for source in item.sources)
    boxes = page.select_one("#cite-this").get_text()
    assert f"{SITE_URL}{SEED}/{item.id}.html" in boxes and "BibTeX" in boxes
    for link in page.select("#cite-this a.radar-download"):
        assert (outdir / SEED / link["href"]).resolve().is_file(), link["href"]
    assert page.select_one("#share svg.radar-qr title").get_text()


def test_a_story_page_links_the_previous_and_next_stories_of_its_topic(site):
    _, outdir = site
    first = soup(outdir, f"{SEED}/tau-bench-customer-service.html")
    second = soup(outdir, f"{SECOND}/taubench-failure-replication.html")
    assert first.select_one(".radar-story-previous") is None
    assert first.select_one(".radar-story-next a")["href"] == (
        "../2026-09-09/taubench-failure-replication.html"
    )
    assert second.select_one(".radar-story-previous a")["href"] == (
        "../2026-09-08/tau-bench-customer-service.html"
    )
    assert second.select_one(".radar-story-next") is None
    # A topic with one story has no such links.
    alone = soup(outdir, f"{SEED}/worldsculpt-object-scenes.html")
    assert alone.select_one(".radar-story-nav") is None


def test_the_issue_page_links_each_story_to_its_page(site):
    srcdir, outdir = site
    for issue in issues_in(srcdir):
        if not issue.published:
            continue
        page = soup(outdir, f"{issue.docname}.html")
        for item in issue.items:
            link = page.select_one(f"section#{item.id} a.radar-story-page-link")
            assert link["href"] == f"{issue.date.isoformat()}/{item.id}.html"
            assert (outdir / issue.docname).parent.joinpath(link["href"]).is_file()


def test_the_sitemap_lists_every_story_page_with_its_issues_date(site):
    srcdir, outdir = site
    root = ET.parse(outdir / "sitemap.xml").getroot()
    dates = {
        url.findtext("s:loc", namespaces=SITEMAP_NS): url.findtext(
            "s:lastmod", namespaces=SITEMAP_NS
        )
        for url in root.findall("s:url", SITEMAP_NS)
    }
    for issue in issues_in(srcdir):
        for item in issue.items:
            url = f"{SITE_URL}{issue.docname}/{item.id}.html"
            assert dates.get(url) == (issue.date.isoformat() if issue.published else None), url


def test_a_story_is_shared_with_its_own_title_sentence_and_card(site):
    srcdir, outdir = site
    issue = next(issue for issue in issues_in(srcdir) if issue.docname == SEED)
    item = next(item for item in issue.items if item.id == "rise-self-extrapolation")
    tags = meta(outdir, f"{SEED}/{item.id}.html")
    body = " ".join(plain_text(paragraph) for paragraph in item.body)
    assert tags["og:title"] == [item.title]
    assert tags["og:description"] == [first_sentence(body)]
    assert tags["og:description"][0].endswith("。")
    assert tags["description"] == tags["og:description"]
    assert tags["og:url"] == [f"{SITE_URL}{SEED}/{item.id}.html"]
    assert tags["article:published_time"] == ["2026-09-08"]
    assert tags["article:section"] == ["模型训练"]
    assert tags["twitter:card"] == ["summary_large_image"]
    assert tags["og:image"] == [f"{SITE_URL}{SEED}/{item.id}.png"]
    card = Image.open(io.BytesIO((outdir / SEED / f"{item.id}.png").read_bytes()))
    assert card.size == (1200, 630)
    assert tags["og:image:width"] == ["1200"] and tags["og:image:height"] == ["630"]


def test_a_story_is_cited_as_itself_in_the_newsletter(site):
    _, outdir = site
    url = f"{SITE_URL}{SEED}/tau-bench-customer-service.html"
    tags = meta(outdir, f"{SEED}/tau-bench-customer-service.html")
    assert tags["citation_title"] == ["客服能跑起来，不代表能处理好客户的问题"]
    # The newsletter is its container as Zotero reads it (a citation_journal_title would
    # make it a journal article: tests/test_zotero_client.py).
    assert "citation_journal_title" not in tags
    assert tags["prism.publicationName"] == ["Juju Radar"]
    assert tags["z.itemType"] == ["newspaperArticle"]
    assert tags["citation_author"] == ["Juju Radar,"]
    assert tags["citation_public_url"] == [url]
    assert tags["citation_fulltext_html_url"] == [url]
    assert tags["citation_publication_date"] == ["2026/09/08"]
    assert len(tags["citation_reference"]) == 2  # taubench2026paper, taubench2026code
    assert tags["DC.title"] == tags["citation_title"] and tags["DC.identifier"] == [url]
    (article,) = json_ld(outdir, f"{SEED}/tau-bench-customer-service.html")
    assert article["@type"] == "NewsArticle"
    assert article["headline"] == tags["citation_title"][0]
    assert article["isPartOf"]["@type"] == "Periodical" and article["url"] == url
    assert len(article["citation"]) == 2
    # The issue page still describes the issue, not a story.
    issue_tags = meta(outdir, f"{SEED}.html")
    assert issue_tags["citation_title"] == ["让 AI 造一个客服，难在代码之外"]
    assert "citation_journal_title" not in issue_tags


def test_a_story_citing_one_work_reviews_it_and_one_citing_two_reviews_none(site):
    _, outdir = site
    article, review = json_ld(outdir, f"{SEED}/rise-self-extrapolation.html")
    assert article["@type"] == "NewsArticle"
    assert review["@type"] == "Review"
    assert review["itemReviewed"]["name"] == "RISE 论文"
    assert review["reviewRating"] == {
        "@type": "Rating",
        "ratingValue": 8.5,
        "bestRating": 10,
        "worstRating": 0,
    }
    assert review["author"] == {"@type": "Organization", "name": "Juju Radar"}
    documents = json_ld(outdir, f"{SEED}/tau-bench-customer-service.html")
    assert [document["@type"] for document in documents] == ["NewsArticle"]


@pytest.mark.site
def test_cards_are_the_same_bytes_and_an_edit_rewrites_only_its_story(tmp_path: Path):
    """Two clean builds write the same cards; editing one story's text then rewrites its
    page (and leaves every other story page and every card as it was); adding an issue
    rewrites only the stories it follows in their topics; each incremental build equals
    a clean one."""
    srcdir = published_sources(tmp_path / "src")
    first = clean_build(srcdir, tmp_path / "first", *WITH_SITE_URL)
    second = clean_build(srcdir, tmp_path / "second", *WITH_SITE_URL)
    cards = sorted(path.relative_to(first) for path in first.glob("issues/*/*/*.png"))
    assert len(cards) == 7
    assert all((first / card).read_bytes() == (second / card).read_bytes() for card in cards)
    assert differences(first, second) == []

    stories = sorted(second.glob("issues/*/*/*.*"))
    before = {path: path.stat().st_mtime_ns for path in stories}
    issue = srcdir / f"{SECOND}.md"
    text = issue.read_text(encoding="utf-8")
    issue.write_text(text.replace("结论基本一致。", "结论基本一致，差异不大。"), encoding="utf-8")
    os.utime(issue)
    sphinx_build(srcdir, second, *WITH_SITE_URL, env=EPOCH_ENV)
    changed = sorted(
        path.relative_to(second).as_posix()
        for path in stories
        if path.stat().st_mtime_ns != before[path]
    )
    assert changed == [f"{SECOND}/taubench-failure-replication.html"]
    edited = soup(second, f"{SECOND}/taubench-failure-replication.html").get_text()
    assert "差异不大" in edited
    assert differences(clean_build(srcdir, tmp_path / "clean", *WITH_SITE_URL), second) == []

    # A new issue writes its stories' pages and rewrites the story each of its topics
    # had last (which now has a next one); no other story page, no other card.
    stories = sorted(second.glob("issues/*/*/*.*"))
    before = {path: path.stat().st_mtime_ns for path in stories}
    text = issue.read_text(encoding="utf-8").replace("2026-09-09", "2026-09-11")
    text = text.replace(":id: taubench-failure-replication", ":id: later-agent")
    text = text.replace(":id: long-context-recipe", ":id: later-training")
    (srcdir / "issues/2026/2026-09-11.md").write_text(text, encoding="utf-8")
    sphinx_build(srcdir, second, *WITH_SITE_URL, env=EPOCH_ENV)
    changed = sorted(
        path.relative_to(second).as_posix()
        for path in stories
        if path.stat().st_mtime_ns != before[path]
    )
    assert changed == [
        f"{SECOND}/long-context-recipe.html",
        f"{SECOND}/taubench-failure-replication.html",
    ]
    assert (second / "issues/2026/2026-09-11/later-agent.png").is_file()
    assert differences(clean_build(srcdir, tmp_path / "clean", *WITH_SITE_URL), second) == []


@pytest.fixture(scope="module")
def served(site: tuple[Path, Path]) -> Iterator[str]:
    """The published site at the sub-path of its address, on 127.0.0.1."""
    handler = partial(SubPathHandler, directory=str(site[1]))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
def test_a_story_page_shows_a_qr_code_of_its_address_at_a_phones_width(served, browser):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    try:
        tab = context.new_page()
        problems: list[str] = []
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.on("console", lambda message: message.type == "error" and problems.append(message.text))
        tab.goto(f"{served}{SEED}/rise-self-extrapolation.html", wait_until="load")
        code = tab.locator("#share svg.radar-qr")
        box = code.bounding_box()
        visible = code.is_visible()
        fits = tab.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()
    assert visible and box is not None and box["width"] >= 100 and box["height"] >= 100
    assert fits  # nothing scrolls sideways on a phone
    assert problems == []  # no script error, nothing the page's policy (CSP) refused


def watched_tab(context: Any) -> tuple[Any, list[str], list[str]]:
    """A new tab, the script errors it meets and the addresses it fetches."""
    tab = context.new_page()
    problems: list[str] = []
    fetched: list[str] = []
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.on("console", lambda message: message.type == "error" and problems.append(message.text))
    tab.on("request", lambda request: fetched.append(request.url))
    return tab, problems, fetched


@pytest.mark.browser
def test_a_story_page_loads_the_search_only_when_the_reader_opens_it(served, browser):
    """The first visit fetches neither search.js nor search.css; Ctrl+K then loads them,
    and what the reader typed before search.js arrived is searched in the dialog."""
    context = browser.new_context()
    try:
        tab, problems, fetched = watched_tab(context)
        tab.goto(f"{served}{SEED}/rise-self-extrapolation.html", wait_until="networkidle")
        first_visit = [url for url in fetched if "/_static/search." in url]
        assert first_visit == []
        held: list = []  # search.js, held back until the query is typed
        tab.route("**/_static/search.js*", lambda route: held.append(route))
        tab.keyboard.press("Control+k")
        tab.keyboard.type("衰老时钟")
        tab.wait_for_function("() => true")  # lets the held request reach the handler
        assert len(held) == 1
        held[0].continue_()
        tab.wait_for_selector("#pst-search-dialog .radar-search-result", timeout=15_000)
        found = tab.locator("#pst-search-dialog .radar-search-result a").first.get_attribute("href")
        styled = tab.evaluate(
            "() => [...document.styleSheets].some(s => (s.href || '').includes('search.css'))"
        )
    finally:
        context.close()
    assert first_visit == []
    assert found is not None and "rentosertib-aging-clocks" in found
    assert styled
    assert problems == []


@pytest.mark.browser
def test_a_story_page_loads_bootstrap_at_first_use_and_opens_a_menu_clicked_before(served, browser):
    """The first visit fetches no Bootstrap; the colour-mode menu clicked before it came
    opens once it has, and the theme's tooltips show."""
    context = browser.new_context()
    try:
        tab, problems, fetched = watched_tab(context)
        held: list = []  # Bootstrap, held back until the menu is clicked
        tab.route("**/scripts/bootstrap.js*", lambda route: held.append(route))
        tab.goto(f"{served}{SEED}/rise-self-extrapolation.html", wait_until="networkidle")
        first_visit = [url for url in fetched if "bootstrap" in url]
        tab.locator("button.theme-switch-button").first.click()
        assert len(held) == 1
        held[0].continue_()
        menu = tab.locator(".theme-switch-container .dropdown-menu.show")
        menu.wait_for(state="visible", timeout=15_000)
        tab.keyboard.press("Escape")
        tab.locator("button.search-button-field").first.hover()
        tab.wait_for_selector(".tooltip", state="visible", timeout=15_000)
    finally:
        context.close()
    assert first_visit == []
    assert problems == []


@pytest.mark.site
def test_without_the_cjk_fonts_the_build_fails_saying_so(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(story_cards, "FONT_FOLDERS", (tmp_path / "no-fonts",))
    srcdir = copy_site(tmp_path / "src")
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert "[radar.card-font-missing]" in result.stderr, result.stderr
    assert "fonts-noto-cjk" in result.stderr
    assert not list((tmp_path / "html").glob("issues/*/*/*.png"))


@pytest.mark.site
def test_a_renamed_story_leaves_no_page_or_card_behind(tmp_path: Path):
    srcdir = published_sources(tmp_path / "src")
    outdir = clean_build(srcdir, tmp_path / "html", *WITH_SITE_URL)
    old = outdir / SECOND / "long-context-recipe"
    assert old.with_suffix(".html").is_file() and old.with_suffix(".png").is_file()
    issue = srcdir / f"{SECOND}.md"
    text = issue.read_text(encoding="utf-8").replace(":id: long-context-recipe", ":id: renamed")
    issue.write_text(text, encoding="utf-8")
    sphinx_build(srcdir, outdir, *WITH_SITE_URL, env=EPOCH_ENV)
    assert not old.with_suffix(".html").exists() and not old.with_suffix(".png").exists()
    assert (outdir / SECOND / "renamed.html").is_file()
    assert differences(clean_build(srcdir, tmp_path / "clean", *WITH_SITE_URL), outdir) == []


@pytest.mark.site
def test_a_site_without_cards_shares_a_summary_and_drops_the_cards_it_had(tmp_path: Path):
    """``radar_story_cards = False``: no card is drawn and the story is shared as a
    summary; switched off after a build with cards, the next build removes them and
    equals a clean one."""
    srcdir = published_sources(tmp_path / "src")
    outdir = clean_build(srcdir, tmp_path / "html", *WITH_SITE_URL)
    assert len(list(outdir.glob("issues/*/*/*.png"))) == 7
    without = ("-D", "radar_story_cards=0")
    sphinx_build(srcdir, outdir, *WITH_SITE_URL, *without, env=EPOCH_ENV)
    assert not list(outdir.glob("issues/*/*/*.png"))
    tags = meta(outdir, f"{SEED}/rise-self-extrapolation.html")
    assert tags["twitter:card"] == ["summary"]
    assert not [name for name in tags if name.startswith("og:image")]
    assert tags["article:published_time"] == ["2026-09-08"]
    clean = clean_build(srcdir, tmp_path / "clean", *WITH_SITE_URL, *without)
    assert differences(clean, outdir) == []
