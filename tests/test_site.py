"""The built seed site as readers and researchers see it."""

from __future__ import annotations

import re
import runpy
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import ROOTS, SEED_EXPORT, SEED_SITE, page_text, site_with_root, sphinx_build

from juju_radar.editors.synth import SynthOptions, write_synthetic_archive
from juju_radar.model.listing_views import RECENT
from juju_radar.model.vocabulary import vocabulary_from_config

ISSUE = "issues/2026/2026-09-08.html"
ITEM_IDS = [
    "tau-bench-customer-service",
    "rise-self-extrapolation",
    "worldsculpt-object-scenes",
    "rentosertib-aging-clocks",
    "spc-ai-disputes-opinion",
]


def site_vocabulary():
    conf = runpy.run_path(str(SEED_SITE / "conf.py"))
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


def soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")


def seed_sentences() -> list[str]:
    sentences = []
    for line in SEED_EXPORT.read_text(encoding="utf-8").splitlines():
        sentences += [part.strip() for part in re.split(r"(?<=[。！？])", line) if part.strip()]
    return sentences


def test_every_sentence_of_the_seed_is_on_its_page(built_seed_site):
    text = page_text(built_seed_site / ISSUE)
    sentences = seed_sentences()
    assert len(sentences) == 73
    missing = [sentence for sentence in sentences if sentence not in text]
    # The length line is the editors' (front matter): readers see the counted one only.
    assert missing == ["约 2,500 字 · 阅读约 9 分钟"]


def test_each_item_shows_topic_link_tags_score_and_verdict(built_seed_site):
    page = soup(built_seed_site, ISSUE)
    sections = page.select("section.radar-item")
    assert [section["id"] for section in sections] == ITEM_IDS
    metas = [section.select_one("p.radar-item-meta") for section in sections]
    assert [meta.get_text("") for meta in metas] == [
        "Agent / Coding Agent · 9/10｜建议深挖",
        "模型训练 Training · 8.5/10｜建议深挖",
        "3D 生成 3D Generation / 仿真 · 8.5/10｜持续观察",
        "AI for Science / 生物医药 · 8.5/10｜持续观察",
        "治理 Governance / 应用边界 · 8.5/10｜建议阅读原文",
    ]
    english = [label for meta in metas for label in meta.select(".radar-topic-en")]
    assert [label.get_text() for label in english] == [" Training", " 3D Generation", " Governance"]
    assert all(label.parent.name != "a" and label["lang"] == "en" for label in english)
    topic_links = [meta.select_one("a")["href"] for meta in metas]
    assert topic_links == [
        "../../topics/agent.html",
        "../../topics/training.html",
        "../../topics/3d.html",
        "../../topics/ai-for-science.html",
        "../../topics/governance.html",
    ]


def test_citations_link_to_the_bibliography_on_the_same_page(built_seed_site):
    page = soup(built_seed_site, ISSUE)
    entries = {
        node["id"] for node in page.select("div.citation, [role=doc-biblioentry]") if node.get("id")
    }
    assert {"cite-taubench2026paper", "cite-spc2026opinion"} <= entries
    citation_links = page.select("section.radar-item .radar-sources a")
    assert citation_links, "items cite their sources inline"
    for link in citation_links:
        href = link["href"]
        assert href.startswith("#"), f"{link.get_text()} links off the page: {href}"
        assert href[1:] in entries
    labels = [a.get_text() for a in page.select("#tau-bench-customer-service .radar-sources a")]
    assert labels[:2] == ["论文与完整实验", "代码与任务"]


def test_issue_header_shows_one_length_and_one_reading_time(built_seed_site):
    """Issue 52: the counted length only, never the editors' stated one beside it."""
    text = page_text(built_seed_site / ISSUE)
    assert "Juju Radar · 2026.09.08" in text
    assert "约 2,500 字" not in text and "编辑标注" not in text
    assert len(re.findall(r"正文实计 2,\d{3} 字，阅读约 \d+ 分钟", text)) == 1


def test_references_index_links_one_page_per_month_of_first_citation(built_seed_site):
    index = soup(built_seed_site, "references.html")
    assert index.select_one(".radar-count").get_text() == "共 8 条文献。"
    months = [
        (a.get_text(), a["href"], a.parent.get_text())
        for a in index.select(".radar-reference-months a")
    ]
    assert months == [
        ("2026 年 9 月", "references/2026-09.html", "2026 年 9 月（8 条）"),
        ("未被已发布的任何一期引用", "references/uncited.html", "未被已发布的任何一期引用（0 条）"),
    ]
    assert "这一页暂无文献。" in page_text(built_seed_site / "references/uncited.html")


def test_references_page_lists_each_entry_once_with_cited_by(built_seed_site):
    page = soup(built_seed_site, "references/2026-09.html")
    assert page.select_one("h1").get_text("").startswith("参考文献 · 2026 年 9 月")
    ids = [node["id"] for node in page.select("[id^=cite-]")]
    assert len(ids) == len(set(ids)) == 8
    entry = page.select_one("#cite-taubench2026paper")
    cited_by = entry.select(".radar-cited-by a")
    assert [a["href"] for a in cited_by] == [
        "../issues/2026/2026-09-08.html#tau-bench-customer-service"
    ]
    parts = [child.get("class", ["text"])[0] for child in entry.find_all("p", recursive=False)]
    assert parts == ["text", "radar-missing-identifier", "radar-cited-by"], (
        "the missing-identifier notice sits under the entry it is about, before its citers"
    )
    assert entry.select_one(".radar-missing-identifier").get_text() == "（原文未附链接）"
    explained = page.select(".radar-missing-identifier-explained")
    assert [p.get_text() for p in explained] == [
        "标有“原文未附链接”的条目：来源未给出 DOI、arXiv 编号或网址，待编辑补全。"
    ], "the mark is explained once, under the list"
    assert "待编辑补全" not in entry.get_text()
    assert page.select_one(".radar-more a")["href"] == "../references.html"


def test_topic_pages_list_their_items(built_seed_site):
    page = soup(built_seed_site, "topics/3d.html")
    assert page.select_one("h1").get_text("").startswith("3D 生成 · 3D Generation")
    lines = [line.get_text("") for line in page.select(".radar-item-line")]
    assert lines == [
        "2026-09-08 · 🪑 WorldSculpt：把生成的房间拆成能单独取用的物体 · 3D 生成 3D Generation · "
        "8.5/10｜持续观察 仿真"
    ]
    link = page.select_one(".radar-item-line a.radar-item-title")["href"]
    assert link == "../issues/2026/2026-09-08.html#worldsculpt-object-scenes"
    index = page_text(built_seed_site / "topics/index.html")
    for label in ("Agent（1 条）", "模型训练 · Training（1 条）", "治理 · Governance（1 条）"):
        assert label in index


def test_topic_and_best_pages_link_a_page_per_year(built_seed_site):
    landing = soup(built_seed_site, "topics/3d.html")
    years = landing.select_one(".radar-years")
    assert years.get_text("") == "按年份：2026 年（1 条）"
    assert years.select_one("a")["href"] == "3d/2026.html"
    year = soup(built_seed_site, "topics/3d/2026.html")
    assert year.select_one("h1").get_text("").startswith("3D 生成 · 3D Generation · 2026 年")
    assert year.select_one(".radar-count").get_text() == "2026 年共 1 条，按日期从新到旧排列。"
    assert year.select_one(".radar-item-line a.radar-item-title")["href"] == (
        "../../issues/2026/2026-09-08.html#worldsculpt-object-scenes"
    )
    assert year.select_one(".radar-more a")["href"] == "../3d.html"
    best = soup(built_seed_site, "best/2026.html")
    assert len(best.select(".radar-item-line")) == 2


@pytest.mark.slow
def test_landing_pages_show_the_newest_items_and_year_pages_all(tmp_path):
    vocab = site_vocabulary()
    srcdir, outdir = tmp_path / "src", tmp_path / "html"
    write_synthetic_archive(SEED_SITE, srcdir, SynthOptions(issues=380, draft_every=0), vocab)
    # Two years, with more items in a topic and in the best of than a landing page lists:
    # the last 75 issues (2024-11-01 on) are enough, and build in a quarter of the time.
    for page in (srcdir / "issues" / "2024").glob("2024-[01][0-9]-*.md"):
        if page.name < "2024-11":
            page.unlink()
    sphinx_build(srcdir, outdir, "-j", "auto")
    for landing, folder in (("topics/agent.html", "topics/agent"), ("best.html", "best")):
        page = soup(outdir, landing)
        total = int(re.match(r"共 (\d+) 条", page.select_one(".radar-count").get_text()).group(1))
        assert len(page.select(".radar-item-line")) == RECENT < total
        per_year = {
            a.get_text(""): len(
                soup(outdir, f"{folder}/{a['href'].split('/')[-1]}").select(".radar-item-line")
            )
            for a in page.select(".radar-years a")
        }
        assert list(per_year) == ["2025 年", "2024 年"]
        assert sum(per_year.values()) == total, landing


def test_home_and_archive_show_the_latest_issue(built_seed_site):
    home = soup(built_seed_site, "index.html")
    latest = home.select_one(".radar-latest a.radar-issue-title")
    assert latest["href"] == "issues/2026/2026-09-08.html"
    assert len(home.select(".radar-latest .radar-item-line")) == 5
    archive = page_text(built_seed_site / "issues/index.html")
    assert "2026 年 9 月" in archive
    assert "2026-09-08 · 让 AI 造一个客服，难在代码之外（5 条）" in archive


@pytest.mark.parametrize("page", ["index.html", ISSUE, "topics/agent.html", "references.html"])
def test_sidebar_shows_sections_not_every_issue(built_seed_site, page):
    nav = soup(built_seed_site, page).select_one("nav.bd-docs-nav")
    links = [a.get_text(strip=True) for a in nav.select("a")]
    assert {"往期归档", "主题", "参考文献"} <= set(links)
    assert not any(re.search(r"\d{4}-\d{2}-\d{2}", href["href"]) for href in nav.select("a"))


# Left in English: the label of the print-only table of contents, in the book theme's
# layout block, which cannot be overridden without copying the theme's whole block.
ENGLISH_ALLOWED = {("aria-label", "Page")}


@pytest.mark.parametrize("page", ["index.html", ISSUE, "search.html", "topics/training.html"])
def test_the_interface_speaks_chinese(built_seed_site, page):
    """Tooltips, labels and placeholders of the theme are in the site's language."""
    english = {
        (name, value)
        for element in soup(built_seed_site, page).find_all(True)
        for name in ("title", "aria-label", "placeholder", "data-bs-title")
        if (value := element.get(name))
        and re.search(r"[A-Za-z]{3,}", value)
        and not re.search(r"[\u4e00-\u9fff]", value)
    }
    topic_names = {topic.label for topic in site_vocabulary().topics}  # "Agent" is its label
    assert {(name, value) for name, value in english if value not in topic_names} <= (
        ENGLISH_ALLOWED
    ), english
    footer = (
        soup(built_seed_site, page).select_one("footer.bd-footer-content").get_text(" ", strip=True)
    )
    assert "Copyright" not in footer and "版权所有" in footer, footer


def test_the_home_page_is_titled_once_and_other_pages_after_the_site(built_seed_site):
    assert soup(built_seed_site, "index.html").title.get_text() == "Juju Radar 归档"
    issue_title = soup(built_seed_site, ISSUE).title.get_text()
    assert issue_title == "让 AI 造一个客服，难在代码之外 — Juju Radar 归档"


@pytest.fixture(scope="module")
def four_issue_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed, second issue and two older years; the front page lists two recent issues."""
    base = tmp_path_factory.mktemp("four-issues")
    srcdir = site_with_root("years", base / "src")
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    sphinx_build(srcdir, base / "html", "-D", "radar_front_page_issues=2")
    return base / "html"


def test_the_front_page_lists_the_recent_issues_after_the_newest(four_issue_site):
    home = soup(four_issue_site, "index.html")
    assert home.select_one(".radar-latest .radar-issue-title")["href"].endswith("2026-09-09.html")
    recent = home.select(".radar-recent .radar-recent-issue")
    dates = [issue.select_one(".radar-date").get_text() for issue in recent]
    assert dates == ["2026-09-08", "2025-03-11"]
    seed = recent[0]
    assert seed.select_one("a.radar-issue-title").get_text() == "让 AI 造一个客服，难在代码之外"
    assert (
        seed.select_one(".radar-lead").get_text()
        == "给 AI 一道代码题，和交给它一个客户，是两回事。"
    )
    assert "5 条" in seed.select_one(".radar-card-kicker").get_text()
    stories = home.select(".radar-latest .radar-item-line")
    assert [line.select_one("a.radar-story-link")["href"] for line in stories] == [
        "issues/2026/2026-09-09/taubench-failure-replication.html",
        "issues/2026/2026-09-09/long-context-recipe.html",
    ]
    first = stories[0]
    assert first.select_one(".radar-topic").get_text("") == "Agent"
    assert first.select_one(".radar-score").get_text() == "7.5/10"
    assert first.select_one(".radar-verdict").get_text() == "持续观察"
    topics = [a["href"] for a in home.select(".radar-front-topics a")]
    assert topics == [f"topics/{topic.key}.html" for topic in site_vocabulary().topics]


def test_the_front_page_without_earlier_issues_says_so(built_seed_site):
    home = soup(built_seed_site, "index.html")
    assert home.select_one("#recent-issues .radar-empty").get_text() == "暂无更早的一期。"


def test_the_front_page_leads_to_the_subscribe_page(built_seed_site):
    home = soup(built_seed_site, "index.html")
    block = home.select_one("#subscribe .radar-subscribe")
    assert "RSS 阅读器" in block.select_one(".radar-subscribe-howto").get_text()
    assert block.select_one("a.radar-subscribe-link")["href"] == "subscribe.html"
    for page in ["index.html", ISSUE]:
        header = soup(built_seed_site, page).select_one(
            ".bd-header-article a.radar-header-subscribe"
        )
        assert (built_seed_site / page).parent.joinpath(header["href"]).resolve() == (
            built_seed_site / "subscribe.html"
        ).resolve()


def test_the_subscribe_page_lists_every_feed_with_how_to_use_it(built_seed_site):
    page = soup(built_seed_site, "subscribe.html")
    block = page.select_one(".radar-feeds")
    assert "RSS 阅读器" in block.select_one(".radar-subscribe-howto").get_text()
    topics = [topic.key for topic in site_vocabulary().topics]
    atom = [link["href"] for link in block.select("a.radar-feed-link")]
    json_feeds = [link["href"] for link in block.select("a.radar-json-feed-link")]
    assert atom == [f"feeds/{name}.atom.xml" for name in ["all", *topics]]
    assert json_feeds == [f"feeds/{name}.json" for name in ["all", *topics]]
    assert all((built_seed_site / feed).is_file() for feed in atom + json_feeds)
    # The seed site sets neither email nor WeChat: nothing is shown for them.
    assert block.select(".radar-subscribe-other") == []


@pytest.mark.parametrize(
    "page", ["index.html", "issues/index.html", "topics/agent.html", "best.html", ISSUE]
)
def test_no_page_has_a_documentation_pager(built_seed_site, page):
    assert soup(built_seed_site, page).select(".prev-next-area, .prev-next-footer") == []


def test_an_issue_page_keeps_its_previous_and_next_issue(four_issue_site):
    nav = soup(four_issue_site, ISSUE).select_one(".radar-issue-nav")
    assert nav.select_one("a.radar-prev")["href"].endswith("2025/2025-03-11.html")
    assert nav.select_one("a.radar-next")["href"].endswith("2026-09-09.html")
