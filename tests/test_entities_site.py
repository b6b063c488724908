"""Entity pages on a site of their own (tests/roots/test-entities over the seed site):
every registered entity has its page, its feed and its links from the stories; a story
stops a false match; -j and incremental builds equal a clean serial one, and adding an
issue rewrites only the pages of the entities it mentions."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import feedparser
import pytest
from bs4 import BeautifulSoup
from conftest import site_with_root, sphinx_build
from json_feeds import validate_json_feed
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.outputs.siteurl import SITE_URL_ENV
from juju_radar.sphinx_ext.config import ACCEL_OFF_ENV

ENTITIES = ("rise", "grpo", "qwen3-8b", "insilico-medicine", "supreme-peoples-court", "sierra")
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    srcdir = site_with_root("entities", tmp_path_factory.mktemp("entities") / "src")
    return clean_build(srcdir, srcdir.parent / "html")


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


def entity_links(page: Path, item_id: str) -> list[tuple[str, str]]:
    story = soup(page).find("section", id=item_id)
    return [(a.get_text(), a["href"]) for a in story.select("a.radar-entity")]


def test_every_entity_has_its_page_and_feed_and_the_index_counts(built: Path) -> None:
    for entity in ENTITIES:
        page = soup(built / "entities" / f"{entity}.html")
        assert page.select_one("section.radar-entity-page h1") is not None
        feed = ElementTree.parse(built / "entities" / f"{entity}.atom.xml").getroot()
        assert feed.tag == f"{ATOM}feed"
    index = soup(built / "entities" / "index.html")
    lines = [li.get_text() for li in index.select("#kind-method li")]
    assert lines == ["GRPO（2 条）", "RISE（1 条）"]


def test_first_mention_in_each_story_links_to_the_entity(built: Path) -> None:
    second = built / "issues" / "2026" / "2026-09-09.html"
    assert entity_links(second, "grpo-again") == [
        ("GRPO", "../../entities/grpo.html"),
        ("Qwen3-8B", "../../entities/qwen3-8b.html"),
        ("英矽智能", "../../entities/insilico-medicine.html"),
    ]
    seed = built / "issues" / "2026" / "2026-09-08.html"
    # RISE is named three times in its story (title and text): one link, in the text.
    assert entity_links(seed, "rise-self-extrapolation") == [
        ("RISE", "../../entities/rise.html"),
        ("Qwen3-8B", "../../entities/qwen3-8b.html"),
        ("GRPO", "../../entities/grpo.html"),
    ]


def test_a_story_stops_a_false_match_and_names_an_entity(built: Path) -> None:
    second = built / "issues" / "2026" / "2026-09-09.html"
    assert entity_links(second, "market-rise") == []
    rise = soup(built / "entities" / "rise.html")
    assert [a["href"] for a in rise.select(".radar-entity-stories a[href*='#']")] == [
        "../issues/2026/2026-09-08.html#rise-self-extrapolation"
    ]
    sierra = soup(built / "entities" / "sierra.html")
    assert "#market-rise" in str(sierra.select(".radar-entity-stories"))
    # As a feed reader reads it: each link against the feed's xml:base, itself against
    # the feed's address.
    feed_address = "https://example.org/site/entities/grpo.atom.xml"
    parsed = feedparser.parse(
        (built / "entities" / "grpo.atom.xml").read_bytes(),
        response_headers={"content-location": feed_address},
    )
    assert [entry.link for entry in parsed.entries] == [
        "https://example.org/site/issues/2026/2026-09-09.html#grpo-again",
        "https://example.org/site/issues/2026/2026-09-08.html#rise-self-extrapolation",
    ]
    assert parsed.feed.links[1].href == feed_address  # its self link


def test_each_entity_has_a_json_feed_with_its_atom_feeds_entries(built: Path) -> None:
    for entity in ENTITIES:
        folder = built / "entities"
        atom = feedparser.parse((folder / f"{entity}.atom.xml").read_bytes())
        document = json.loads((folder / f"{entity}.json").read_text("utf-8"))
        validate_json_feed(document)
        assert document["title"] == atom.feed.title
        assert document["feed_url"] == f"../entities/{entity}.json"
        assert [item["id"] for item in document["items"]] == [e.id for e in atom.entries]
        assert [item["title"] for item in document["items"]] == [e.title for e in atom.entries]
        for item in document["items"]:  # relative to the feed, as a reader resolves it
            page, _, anchor = item["url"].partition("#")
            assert soup((folder / page).resolve()).find(id=anchor) is not None, item["url"]
        links = soup(folder / f"{entity}.html").select(".radar-entity-feed a")
        assert [a["href"] for a in links] == [f"{entity}.atom.xml", f"{entity}.json"]
    grpo = json.loads((built / "entities" / "grpo.json").read_text("utf-8"))
    assert [item["url"] for item in grpo["items"]] == [
        "../issues/2026/2026-09-09.html#grpo-again",
        "../issues/2026/2026-09-08.html#rise-self-extrapolation",
    ]


def test_the_page_shows_years_references_and_companions(built: Path) -> None:
    grpo = soup(built / "entities" / "grpo.html")
    assert [h.get_text() for h in grpo.select(".radar-entity-timeline h3")] == ["2026 年"]
    assert grpo.select_one(".radar-entity-references a")["href"].endswith("#cite-rise2026paper")
    companions = [li.get_text() for li in grpo.select(".radar-entity-related li")]
    assert companions[0] == "Qwen3-8B（2 条）"


@pytest.mark.slow
def test_parallel_and_incremental_builds_equal_a_clean_one(tmp_path: Path) -> None:
    srcdir = site_with_root("entities", tmp_path / "src")
    serial = clean_build(srcdir, tmp_path / "serial")
    parallel = clean_build(srcdir, tmp_path / "parallel", "-j", "2")
    assert differences(serial, parallel) == []
    before = {path.name: path.stat().st_mtime_ns for path in (serial / "entities").iterdir()}
    third = (srcdir / "issues/2026/2026-09-09.md").read_text("utf-8")
    third = third.replace("2026-09-09", "2026-09-10").replace("第二期", "第三期")
    third = third.replace("约 80 字", "约 40 字")
    third = re.sub(r":::\{radar-item\} 📈.*?\n:::\n", "", third, flags=re.DOTALL)
    third = third.replace("grpo-again", "grpo-third").replace("Qwen3-8B，并与英矽智能公司", "")
    (srcdir / "issues/2026/2026-09-10.md").write_text(third, "utf-8")
    sphinx_build(srcdir, serial, env=EPOCH_ENV)
    after = {path.name: path.stat().st_mtime_ns for path in (serial / "entities").iterdir()}
    rewritten = sorted(name for name in after if after[name] != before.get(name))
    assert rewritten == ["grpo.atom.xml", "grpo.html", "grpo.json", "index.html"]
    assert differences(clean_build(srcdir, tmp_path / "clean"), serial) == []
    # A story's text changes, not its line on the entity's page: its feeds follow.
    edited = (srcdir / "issues/2026/2026-09-10.md").read_text("utf-8")
    assert "又一个团队用 GRPO" in edited
    edited = edited.replace("又一个团队用 GRPO", "另一个团队用 GRPO")
    (srcdir / "issues/2026/2026-09-10.md").write_text(edited, "utf-8")
    sphinx_build(srcdir, serial, env=EPOCH_ENV)
    assert differences(clean_build(srcdir, tmp_path / "clean"), serial) == []
    # The registry changes: an entity goes (its page and feed too), a kind changes.
    registry = srcdir / "entities.yaml"
    text = registry.read_text("utf-8").replace(
        "  kind: method\n\n- id: grpo", "  kind: model\n\n- id: grpo"
    )
    text = re.sub(r"- id: insilico-medicine\n(?:  .*\n)+", "", text)
    registry.write_text(text, "utf-8")
    sphinx_build(srcdir, serial, env=EPOCH_ENV)
    assert not (serial / "entities" / "insilico-medicine.html").exists()
    assert differences(clean_build(srcdir, tmp_path / "clean"), serial) == []


@pytest.mark.slow
def test_mentions_gone_from_an_edited_or_removed_issue_leave_their_entities_pages(
    tmp_path: Path,
) -> None:
    """Only the entities a page read again mentions (before or after) get their view
    models made again: those it no longer mentions are among them."""
    srcdir = site_with_root("entities", tmp_path / "src")
    built = clean_build(srcdir, tmp_path / "html")
    second = srcdir / "issues/2026/2026-09-09.md"
    text = second.read_text("utf-8")
    assert "Qwen3-8B，并与英矽智能公司" in text
    second.write_text(text.replace("Qwen3-8B，并与英矽智能公司", ""), "utf-8")
    sphinx_build(srcdir, built, env=EPOCH_ENV)
    assert "2026-09-09" not in (built / "entities" / "qwen3-8b.html").read_text("utf-8")
    assert differences(clean_build(srcdir, tmp_path / "clean"), built) == []
    second.unlink()
    sphinx_build(srcdir, built, env=EPOCH_ENV)
    assert differences(clean_build(srcdir, tmp_path / "clean"), built) == []
    # An unchanged entity's page, another one's feed gone from the output: made again.
    (built / "entities" / "sierra.html").unlink()
    (built / "entities" / "rise.json").unlink()
    sphinx_build(srcdir, built, env=EPOCH_ENV)
    assert differences(clean_build(srcdir, tmp_path / "clean"), built) == []


@pytest.mark.site
def test_the_sitemap_lists_the_entity_pages(tmp_path: Path) -> None:
    srcdir = site_with_root("entities", tmp_path / "src")
    env = {**EPOCH_ENV, SITE_URL_ENV: "https://radar.example.org/"}
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir, env=env)
    sitemap = (outdir / "sitemap.xml").read_text("utf-8")
    for entity in ("index", *ENTITIES):
        assert f"https://radar.example.org/entities/{entity}.html" in sitemap


@pytest.mark.site
def test_entity_pages_share_the_navigation_and_write_what_the_stock_path_writes(
    tmp_path: Path, built: Path
) -> None:
    """The navigation rendered once for all entity pages (``toctree-once-per-folder``)
    makes the bytes each page's own rendering makes."""
    srcdir = site_with_root("entities", tmp_path / "src")
    stock = tmp_path / "stock"
    sphinx_build(srcdir, stock, env={**EPOCH_ENV, ACCEL_OFF_ENV: "toctree-once-per-folder"})
    assert differences(built, stock) == []
