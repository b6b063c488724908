"""Item lines written as HTML: what a reader sees of an item listed on another page."""

from __future__ import annotations

from bs4 import BeautifulSoup
from conftest import SEED_SITE, seed_vocabulary
from conftest import topic_page_uri as uri

from juju_radar.accel.html_item_lists import item_list_html
from juju_radar.model.archive import ItemRef, item_line
from juju_radar.model.issue_reader import parse_issue

SEED = "issues/2026/2026-09-08.md"
HOSTILE = '<b onclick="x">A & B @ "q"</b>'


def seed_refs(heading: str = "", tag: str = "") -> list[ItemRef]:
    text = (SEED_SITE / SEED).read_text(encoding="utf-8")
    if heading:
        text = text.replace("🪑 WorldSculpt：把生成的房间拆成能单独取用的物体", heading)
    if tag:
        text = text.replace(":tags: 仿真", f":tags: {tag}")
    issue, _ = parse_issue(text, SEED, seed_vocabulary())
    assert issue is not None
    return [ItemRef(issue, item) for item in issue.items]


def lines(refs: list[ItemRef], with_date: bool = True) -> list:
    listing = item_list_html(map(item_line, refs), seed_vocabulary(), uri, with_date)
    assert listing is not None
    page = BeautifulSoup(listing["html"], "html.parser")
    (ul,) = page.find_all("ul")
    assert ul["class"] == ["radar-item-list", "simple"] and ul.has_attr("data-pagefind-ignore")
    return ul.select("li > p.radar-item-line")


def test_a_line_shows_date_heading_topic_score_verdict_and_tags():
    refs = seed_refs()
    worldsculpt = lines(refs)[2]
    assert worldsculpt.get_text("") == (
        "2026-09-08 · 🪑 WorldSculpt：把生成的房间拆成能单独取用的物体 · 3D 生成 3D Generation · "
        "8.5/10｜持续观察 仿真"
    )
    date, title, topic = worldsculpt.find_all("a", recursive=False)
    assert date["href"] == "../issues/2026/2026-09-08.html"
    assert title["href"] == f"../issues/2026/2026-09-08.html#{refs[2].item.id}"
    assert topic["href"] == "#", "a topic's page links to itself"
    assert topic.select_one(".radar-topic-en")["lang"] == "en"
    assert lines(refs, with_date=False)[2].get_text("").startswith("🪑 WorldSculpt")
    assert item_list_html([], seed_vocabulary(), uri, True) is None


def test_editors_text_in_a_line_stays_text():
    (line,) = [line for line in lines(seed_refs(HOSTILE, "<i>x</i>")) if "A & B" in line.text]
    assert line.find("b") is None and line.find("i") is None
    assert line.select_one("a.radar-item-title").get_text() == HOSTILE
    assert line.select(".radar-tag")[-1].get_text() == "<i>x</i>"
    listing = item_list_html(map(item_line, seed_refs(HOSTILE)), seed_vocabulary(), uri, True)
    assert listing is not None and "A &amp; B &#64; &quot;q&quot;" in listing["html"]


def test_a_list_holds_the_nodes_of_the_first_lines_its_text_readers_take():
    """The HTML writer writes the list's HTML; a reader of the page's text (the opengraph
    description) reads these nodes, as many lines as it takes."""
    refs = seed_refs()
    listing = item_list_html(map(item_line, refs), seed_vocabulary(), uri, True)
    assert listing is not None and listing.children == []
    listing = item_list_html(map(item_line, refs), seed_vocabulary(), uri, True, text_read=60)
    assert listing is not None
    (readable,) = listing.children
    assert 1 < len(readable.children) < len(refs)
    assert len(readable.astext()) > 120
    assert readable.children[0].astext() == lines(refs)[0].get_text("")
