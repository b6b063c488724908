"""Atom feeds: what a feed reader shows, checked against the model of each issue."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urljoin
from urllib.request import urlopen

import feedparser
import pytest
from browser.site_server import serve
from bs4 import BeautifulSoup
from conftest import ROOTS, copy_site, sphinx_build
from json_feeds import validate_json_feed
from lxml import etree
from publishing_site import (
    DRAFT_DATE,
    SITE_URL,
    WITH_SITE_URL,
    build_published,
    item_url,
    published_issues,
    published_sources,
    vocabulary,
)
from site_builds import epoch_env

from juju_radar.model.issue_records import plain_text


@pytest.fixture(scope="module")
def site(published_site: tuple[Path, Path]) -> tuple[Path, Path]:
    return published_site


def read_feed(outdir: Path, name: str) -> feedparser.FeedParserDict:
    feed = feedparser.parse((outdir / "feeds" / f"{name}.atom.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


def test_the_archive_feed_has_one_entry_per_published_issue_newest_first(site):
    srcdir, outdir = site
    issues = published_issues(srcdir)
    feed = read_feed(outdir, "all")
    assert feed.version == "atom10"
    assert feed.feed.title == "Juju Radar 归档 · 每期摘要"  # one entry per issue, not per story
    assert feed.feed.language == "zh-CN"
    assert [entry.title for entry in feed.entries] == [issue.title for issue in issues]
    for entry, issue in zip(feed.entries, issues, strict=True):
        url = f"{SITE_URL}{issue.docname}.html"
        assert entry.link == url
        assert entry.id == stable_id(f"{issue.docname}.html")
        assert entry.summary.split("\n") == [plain_text(paragraph) for paragraph in issue.lead]
        assert entry.published == f"{issue.date.isoformat()}T08:00:00+08:00"
        assert entry.updated == entry.published


def test_an_issue_entry_lists_every_item_linked_to_its_anchor(site):
    srcdir, outdir = site
    issues = published_issues(srcdir)
    feed = read_feed(outdir, "all")
    for entry, issue in zip(feed.entries, issues, strict=True):
        content = BeautifulSoup(entry.content[0].value, "html.parser")
        links = [(a["href"], a.get_text()) for a in content.select("li a")]
        assert links == [(item_url(issue, item.id), item.heading) for item in issue.items]
        assert {tag.term for tag in entry.tags} == {item.topic for item in issue.items}


def test_feeds_show_the_text_as_readers_read_it_not_its_markdown_escapes(site):
    _, outdir = site
    issue_entry = read_feed(outdir, "all").entries[0]
    story_entry = read_feed(outdir, "agent").entries[0]
    assert "（#评测周#）" in issue_entry.summary
    assert "（#评测周#）" in BeautifulSoup(issue_entry.content[0].value, "html.parser").get_text()
    assert "（max_new_tokens 不变）" in story_entry.summary
    assert "（max_new_tokens 不变）" in story_entry.content[0].value
    assert "\\" not in issue_entry.content[0].value + story_entry.content[0].value


def test_drafts_are_in_no_feed(site):
    _, outdir = site
    feeds = sorted((outdir / "feeds").glob("*.atom.xml"))
    assert len(feeds) == 1 + len(vocabulary().topics)
    feeds += sorted((outdir / "feeds").glob("*.json"))
    assert len(feeds) == 2 * (1 + len(vocabulary().topics))
    for path in feeds:
        text = path.read_text(encoding="utf-8")
        assert DRAFT_DATE not in text and "draft-only-item" not in text, path.name


# The published site's stories per topic, newest first (2026-09-09, then 2026-09-08).
TOPIC_FEEDS = {
    "agent": ["taubench-failure-replication", "tau-bench-customer-service"],
    "training": ["long-context-recipe", "rise-self-extrapolation"],
    "3d": ["worldsculpt-object-scenes"],
    "ai-for-science": ["rentosertib-aging-clocks"],
    "governance": ["spc-ai-disputes-opinion"],
}


def test_each_topic_feed_has_the_items_of_that_topic_newest_first(site):
    srcdir, outdir = site
    stories = {item.id: (issue, item) for issue in published_issues(srcdir) for item in issue.items}
    assert sorted(TOPIC_FEEDS) == sorted(topic.key for topic in vocabulary().topics)
    for topic in vocabulary().topics:
        feed = read_feed(outdir, topic.key)
        expected = [stories[item_id] for item_id in TOPIC_FEEDS[topic.key]]
        assert feed.feed.title == f"Juju Radar 归档 · {topic.title}"
        assert [entry.link for entry in feed.entries] == [
            item_url(issue, item.id) for issue, item in expected
        ]
        assert [entry.title for entry in feed.entries] == [item.heading for _, item in expected]
        for entry, (issue, item) in zip(feed.entries, expected, strict=True):
            assert entry.id == stable_id(f"{issue.docname}.html#{item.id}")
            assert entry.published.startswith(f"{issue.date}T08:00:00+08:00")
            assert entry.summary == plain_text(item.body[0])
    assert read_feed(outdir, "training").feed.title == "Juju Radar 归档 · 模型训练 · Training"
    assert read_feed(outdir, "agent").feed.title == "Juju Radar 归档 · Agent"


def test_every_page_announces_the_feed_and_a_topic_page_its_own(site):
    _, outdir = site
    for page in ["index.html", "issues/2026/2026-09-08.html", "stats.html", "topics/3d.html"]:
        soup = BeautifulSoup((outdir / page).read_text(encoding="utf-8"), "html.parser")
        feeds = [
            link["href"]
            for link in soup.select('head link[rel="alternate"]')
            if link.get("type") == "application/atom+xml"
        ]
        expected = [f"{SITE_URL}feeds/all.atom.xml"]
        if page.startswith("topics/"):
            expected.append(f"{SITE_URL}feeds/3d.atom.xml")
        assert feeds == expected, page


def announced_feeds(soup: BeautifulSoup) -> list[Any]:
    """A page's "订阅" link beside its listing (the home page's 订阅 section lists every
    feed besides: ``test_site``)."""
    return [
        link
        for link in soup.select("article a.radar-feed-link")
        if link.find_parent(class_="radar-subscribe") is None
    ]


def test_readers_find_the_feeds_on_the_home_and_topic_pages(site):
    _, outdir = site
    for page, feed in [("index.html", "all"), ("topics/3d.html", "3d")]:
        links = announced_feeds(
            BeautifulSoup((outdir / page).read_text(encoding="utf-8"), "html.parser")
        )
        assert len(links) == 1, page
        assert "订阅" in links[0].get_text()
        target = (outdir / page).parent / links[0]["href"]
        assert target.resolve() == (outdir / "feeds" / f"{feed}.atom.xml").resolve()
        assert read_feed(outdir, feed).entries


@pytest.mark.site
def test_the_feed_limit_keeps_the_newest_entries(tmp_path):
    _, outdir = build_published(tmp_path, "-D", "radar_feed_limit=1")
    assert [entry.title for entry in read_feed(outdir, "all").entries] == ["第二期：评测之外的交付"]
    assert len(read_feed(outdir, "agent").entries) == 1


def stable_id(path: str) -> str:
    """What an entry id must be (hard-coded namespace: ids never change)."""
    return uuid.uuid5(uuid.UUID("5045f685-b1fa-444e-af68-885a110767bd"), path).urn


@pytest.fixture(scope="module")
def site_without_address(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("feeds-no-address")
    srcdir = published_sources(base / "src")
    env = {key: value for key, value in os.environ.items() if key != "RADAR_SITE_URL"}
    sphinx_build(srcdir, base / "html", *SUBSCRIBE_OPTIONS, env=env)
    return base / "html"


# Subscribing other than by feed, set in the site without an address.
SUBSCRIBE_LINKS = {
    "邮件订阅": "https://example.org/newsletter/signup",
    "微信公众号": "https://example.org/wechat/account",
}
SUBSCRIBE_OPTIONS = (
    "-D",
    f"radar_subscribe_email={SUBSCRIBE_LINKS['邮件订阅']}",
    "-D",
    f"radar_subscribe_wechat={SUBSCRIBE_LINKS['微信公众号']}",
)


def test_the_subscribe_page_shows_the_email_and_wechat_links_set(site, site_without_address):
    def shown(outdir: Path) -> dict[str, str]:
        page = BeautifulSoup((outdir / "subscribe.html").read_text(encoding="utf-8"), "html.parser")
        return {a.get_text(): a["href"] for a in page.select(".radar-subscribe-other a")}

    assert shown(site_without_address) == SUBSCRIBE_LINKS
    assert shown(site[1]) == {}


def test_without_an_address_feeds_link_relatively_and_readers_land_on_the_stories(
    site_without_address,
):
    outdir = site_without_address
    with serve(outdir) as base:
        for name in ["all", *(topic.key for topic in vocabulary().topics)]:
            feed_url = f"{base}feeds/{name}.atom.xml"
            feed = feedparser.parse(feed_url)  # fetched over HTTP, as a feed reader does
            assert not feed.bozo, feed.get("bozo_exception")
            assert feed.entries, name
            assert DRAFT_DATE not in str(feed)
            for entry in feed.entries:
                assert entry.link.startswith(base), entry.link  # resolved against the feed
                assert entry.id.startswith("urn:uuid:")
                links = [entry.link]
                if name == "all":
                    links += [
                        a["href"]
                        for a in BeautifulSoup(entry.content[0].value, "html.parser").select("a")
                    ]
                for link in links:
                    target = urljoin(feed_url, link)
                    page, _, anchor = target.partition("#")
                    with urlopen(page) as response:
                        soup = BeautifulSoup(response.read(), "html.parser")
                    if anchor:
                        story = soup.find(id=anchor)
                        assert story is not None, target
                        assert "radar-item" in " ".join(story.get("class", [])), target
                    else:
                        assert soup.select_one("h1").get_text().startswith(entry.title), target


def test_entry_ids_do_not_depend_on_the_address(site, site_without_address):
    _, with_address = site
    for name in ["all", "agent"]:
        ids = [entry.id for entry in read_feed(site_without_address, name).entries]
        assert ids == [entry.id for entry in read_feed(with_address, name).entries]
        assert (
            read_feed(site_without_address, name).feed.id == read_feed(with_address, name).feed.id
        )


def test_without_an_address_pages_announce_and_link_the_feeds(site_without_address):
    outdir = site_without_address
    for page, names in [("index.html", ["all"]), ("topics/3d.html", ["all", "3d"])]:
        soup = BeautifulSoup((outdir / page).read_text(encoding="utf-8"), "html.parser")
        heads = [
            link["href"]
            for link in soup.select('head link[rel="alternate"]')
            if link.get("type") == "application/atom+xml"
        ]
        targets = [((outdir / page).parent / href).resolve() for href in heads]
        assert targets == [(outdir / "feeds" / f"{name}.atom.xml").resolve() for name in names]
        visible = announced_feeds(soup)
        assert len(visible) == 1 and "订阅" in visible[0].get_text()
        target = ((outdir / page).parent / visible[0]["href"]).resolve()
        assert target == (outdir / "feeds" / f"{names[-1]}.atom.xml").resolve()
    assert not (outdir / "sitemap.xml").exists() and not (outdir / "robots.txt").exists()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def publications(outdir: Path) -> dict[str, str]:
    files = [
        *(outdir / "feeds").glob("*.xml"),
        *(outdir / "data").glob("*"),
        outdir / "sitemap.xml",
    ]
    files += [outdir / "stats.html", outdir / "404.html"]
    return {path.relative_to(outdir).as_posix(): digest(path) for path in sorted(files)}


@pytest.mark.site
def test_an_incremental_build_writes_the_same_publications_as_a_clean_one(tmp_path):
    env = epoch_env()
    srcdir = copy_site(tmp_path / "src")
    sphinx_build(srcdir, tmp_path / "incremental", *WITH_SITE_URL, env=env)
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    shutil.copytree(ROOTS / "test-draft", srcdir, dirs_exist_ok=True)
    sphinx_build(srcdir, tmp_path / "incremental", *WITH_SITE_URL, env=env)
    sphinx_build(srcdir, tmp_path / "clean", *WITH_SITE_URL, env=env)
    incremental = publications(tmp_path / "incremental")
    assert incremental == publications(tmp_path / "clean")
    assert "feeds/all.atom.xml" in incremental


FEED_NAMES = ["all", *(topic.key for topic in vocabulary().topics)]


@pytest.mark.parametrize("name", FEED_NAMES)
def test_each_atom_feed_has_a_json_feed_beside_it_with_the_same_entries(site, name):
    _, outdir = site
    atom = read_feed(outdir, name)
    document = json.loads((outdir / "feeds" / f"{name}.json").read_text(encoding="utf-8"))
    validate_json_feed(document)
    assert document["title"] == atom.feed.title
    assert document["feed_url"] == f"{SITE_URL}feeds/{name}.json"
    assert [item["id"] for item in document["items"]] == [entry.id for entry in atom.entries]
    assert [item["url"] for item in document["items"]] == [entry.link for entry in atom.entries]
    assert [item["title"] for item in document["items"]] == [entry.title for entry in atom.entries]
    assert [item["content_html"] for item in document["items"]] == [
        entry.content[0].value for entry in atom.entries
    ]


def test_a_json_feed_without_an_address_links_relative_to_itself(site_without_address):
    outdir = site_without_address
    for name in FEED_NAMES:
        document = json.loads((outdir / "feeds" / f"{name}.json").read_text(encoding="utf-8"))
        validate_json_feed(document)
        for item in document["items"]:
            page = item["url"].partition("#")[0]
            assert (outdir / "feeds" / page).resolve().is_file(), item["url"]


@pytest.mark.parametrize("with_address", [True, False], ids=["address", "no-address"])
def test_every_atom_feed_names_its_base_and_its_stylesheet(
    site, site_without_address, with_address
):
    outdir = site[1] if with_address else site_without_address
    base = SITE_URL if with_address else "../"
    for name in FEED_NAMES:
        root = etree.parse(str(outdir / "feeds" / f"{name}.atom.xml")).getroot()
        assert root.get("{http://www.w3.org/XML/1998/namespace}base") == base
        stylesheet = root.getprevious()
        assert stylesheet.target == "xml-stylesheet"
        assert stylesheet.get("type") == "text/xsl"
        assert (outdir / "feeds" / stylesheet.get("href")).is_file()
