"""The site's address comes from where it is deployed: RADAR_SITE_URL, then -D, then
conf.py; a deploy build without one stops with one line."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from publishing_site import DRAFT_DATE, published_sources

DEPLOYED = "https://radar.example.net/daily/"
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def environment(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RADAR_SITE_URL", "RADAR_DEPLOY")}
    return {**env, **values}


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built as the deploy workflow builds: the address in the environment, which wins
    over a -D on the command line."""
    base = tmp_path_factory.mktemp("deployed")
    srcdir = published_sources(base / "src")
    env = environment(RADAR_SITE_URL=DEPLOYED, RADAR_DEPLOY="1")
    sphinx_build(srcdir, base / "html", "-D", "radar_site_url=https://wrong.example.com/", env=env)
    return base / "html"


def test_feeds_are_absolute_under_the_deployed_address(deployed):
    feed = feedparser.parse((deployed / "feeds" / "agent.atom.xml").read_bytes())
    assert not feed.bozo
    assert feed.entries
    for entry in feed.entries:
        assert entry.link.startswith(f"{DEPLOYED}issues/2026/"), entry.link
        assert "#" in entry.link
    links = {link.rel: link.href for link in feed.feed.links}
    assert links == {
        "alternate": f"{DEPLOYED}topics/agent.html",
        "self": f"{DEPLOYED}feeds/agent.atom.xml",
    }
    assert "wrong.example.com" not in (deployed / "feeds" / "all.atom.xml").read_text("utf-8")


def test_the_sitemap_has_lastmod_and_robots_names_it(deployed):
    root = ET.parse(deployed / "sitemap.xml").getroot()
    urls = {
        url.find("s:loc", SITEMAP_NS).text: url.find("s:lastmod", SITEMAP_NS).text
        for url in root.findall("s:url", SITEMAP_NS)
    }
    assert urls[f"{DEPLOYED}issues/2026/2026-09-08.html"] == "2026-09-08"
    assert urls[f"{DEPLOYED}issues/2026/2026-09-09.html"] == "2026-09-09"
    # Listings change with every issue: the newest published one (not the draft's date).
    assert urls[f"{DEPLOYED}index.html"] == "2026-09-09"
    assert urls[f"{DEPLOYED}topics/3d.html"] == "2026-09-09"
    assert not any(DRAFT_DATE in loc for loc in urls)
    robots = (deployed / "robots.txt").read_text(encoding="utf-8").splitlines()
    assert f"Sitemap: {DEPLOYED}sitemap.xml" in robots
    assert "User-agent: *" in robots


def test_cite_this_and_the_export_use_the_deployed_address(deployed):
    soup = BeautifulSoup(
        (deployed / "issues/2026/2026-09-08.html").read_text(encoding="utf-8"), "html.parser"
    )
    bibtex = [block.get_text() for block in soup.select("pre")]
    url = f"{DEPLOYED}issues/2026/2026-09-08.html#tau-bench-customer-service"
    assert any(f"url          = {{{url}}}" in text for text in bibtex)
    items = json.loads((deployed / "data" / "items.json").read_text(encoding="utf-8"))["items"]
    assert {"item_id": "tau-bench-customer-service", "url": url}.items() <= next(
        item for item in items if item["item_id"] == "tau-bench-customer-service"
    ).items()


@pytest.mark.site
def test_a_deploy_build_without_an_address_fails_with_one_line(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    result = sphinx_build(srcdir, tmp_path / "html", check=False, env=environment(RADAR_DEPLOY="1"))
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].endswith("[radar.no-site-url]")
    assert "RADAR_SITE_URL" in lines[0] and "conf.py" in lines[0]
    assert not (tmp_path / "html" / "index.html").exists()


@pytest.mark.site
def test_the_deploy_build_takes_an_address_from_the_command_line(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    env = environment(RADAR_DEPLOY="1")
    sphinx_build(srcdir, tmp_path / "html", "-D", f"radar_site_url={DEPLOYED}", env=env)
    assert (tmp_path / "html" / "robots.txt").is_file()


@pytest.mark.site
def test_an_address_that_is_not_http_is_refused(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    env = environment(RADAR_SITE_URL="file:///etc/")
    result = sphinx_build(srcdir, tmp_path / "html", check=False, env=env)
    assert result.returncode != 0
    assert result.stderr.strip().endswith("[radar.bad-site-url]"), result.stderr
