"""A reader following an entity: clicks a mention in a story, lands on the entity's
page, and goes back to a story from its timeline (the entities site of
tests/roots/test-entities, served under ``/archive/``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from conftest import build_root_site, built_once

from .search_results import TIMEOUT_MS, results, wait_for_results
from .site_server import serve

pytestmark = pytest.mark.browser

SECOND_ISSUE = "issues/2026/2026-09-09.html"


@pytest.fixture(scope="module")
def entities_site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site: Path = built_once(tmp_path_factory, "entities-site", partial(build_root_site, "entities"))
    with serve(site) as url:
        yield url


def test_clicking_a_mention_opens_the_entity_page(page: Any, entities_site_url: str) -> None:
    page.goto(f"{entities_site_url}{SECOND_ISSUE}")
    page.locator("#grpo-again a.radar-entity", has_text="GRPO").click()
    page.wait_for_url("**/archive/entities/grpo.html")
    assert page.locator("section.radar-entity-page h1").inner_text() == "GRPO"
    stories = page.locator(".radar-entity-stories li")
    assert stories.count() == 2
    stories.first.locator("a", has_text="GRPO 的又一次复现").click()
    page.wait_for_url(f"**/archive/{SECOND_ISSUE}#grpo-again")
    assert page.script_errors == []


def test_the_entity_page_leads_to_its_json_feed(page: Any, entities_site_url: str) -> None:
    page.goto(f"{entities_site_url}entities/grpo.html")
    page.locator(".radar-entity-feed a", has_text="JSON Feed").click()
    page.wait_for_url("**/archive/entities/grpo.json")
    feed = json.loads(page.locator("body").inner_text())
    assert feed["version"] == "https://jsonfeed.org/version/1.1"
    assert [item["url"] for item in feed["items"]] == [
        "../issues/2026/2026-09-09.html#grpo-again",
        "../issues/2026/2026-09-08.html#rise-self-extrapolation",
    ]


def test_a_stopped_false_match_is_plain_text(page: Any, entities_site_url: str) -> None:
    page.goto(f"{entities_site_url}{SECOND_ISSUE}")
    assert page.locator("#market-rise a.radar-entity").count() == 0
    assert "RISE" in page.locator("#market-rise").inner_text()


def test_the_index_leads_to_every_entity(page: Any, entities_site_url: str) -> None:
    page.goto(f"{entities_site_url}entities/index.html")
    page.locator("#kind-law a", has_text="最高人民法院").click()
    page.wait_for_url("**/archive/entities/supreme-peoples-court.html")
    assert "最高法" in page.locator(".radar-entity-aliases").inner_text()
    assert page.script_errors == []


@pytest.mark.parametrize(
    ("query", "entity"),
    [("GRPO", "grpo"), ("Qwen3-8B", "qwen3-8b"), ("最高法", "supreme-peoples-court")],
)
def test_search_finds_the_entity_page_above_the_stories(
    page: Any, entities_site_url: str, query: str, entity: str
) -> None:
    page.goto(f"{entities_site_url}search.html")
    page.wait_for_selector(".radar-search-page input[name=q]", timeout=TIMEOUT_MS)
    page.fill(".radar-search-page input[name=q]", query)
    wait_for_results(page, ".radar-search-page", query)
    found = [result["href"] for result in results(page, ".radar-search-page")]
    assert found[0].endswith(f"entities/{entity}.html"), found
    assert any("#" in href for href in found[1:]), "the stories come after it"
