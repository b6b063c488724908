"""Issue 55, part 2: the front page is a newsletter's home page of issue cards, in
Debian's Chromium.

1. on a phone (390×844) the newest issue's first story link is on the first screen;
2. the newest issue's card shows each of its stories with its topic, score and verdict,
   linking to the story's own page, which opens;
3. the front page and every listing page have no right-hand table of contents at
   1280 px (an issue page keeps its own);
4. in dark mode the cards are dark.

On the seed site (its newest issue has five stories and a lead of two paragraphs) and
on a site of this module's own: the seed with the second issue (two issues on the front
page) and ``tests/roots/test-front-page``, whose listing pages hold sections of their own
(which the theme would list in a right-hand table of contents).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOTS, site_with_root, sphinx_build

from .colours import luminance
from .conftest import opened
from .site_server import serve

pytestmark = pytest.mark.browser

SEED_STORIES = [
    "tau-bench-customer-service",
    "rise-self-extrapolation",
    "worldsculpt-object-scenes",
    "rentosertib-aging-clocks",
    "spc-ai-disputes-opinion",
]
SITES = ["site_url", "front_site_url"]
LISTING_PAGES = [
    "index.html",
    "issues/index.html",
    "topics/index.html",
    "topics/agent.html",
    "topics/agent/2026.html",
    "best.html",
    "best/2026.html",
    "references.html",
    "references/2026-09.html",
    "stats.html",
]
ISSUE_PAGE = "issues/2026/2026-09-08.html"
PAGE_TOC = "#pst-secondary-sidebar, .bd-sidebar-secondary, .secondary-toggle"

# Each story of the newest issue's card: its link, and its meta line's parts.
STORIES_JS = """() => Array.from(document.querySelectorAll('.radar-latest .radar-item-line'))
  .map(story => {
    const text = selector => {
      const found = story.querySelector(selector);
      return found && found.getClientRects().length ? found.innerText.trim() : '';
    };
    return {href: story.querySelector('a.radar-story-link').getAttribute('href'),
            title: text('a.radar-story-link'), topic: text('.radar-topic'),
            score: text('.radar-score'), verdict: text('.radar-verdict')};
  })"""


@pytest.fixture(scope="module")
def front_site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The seed with the second issue, its listing pages with sections, built and served."""
    base = tmp_path_factory.mktemp("front-page")
    srcdir = site_with_root("second-issue", base / "src")
    shutil.copytree(ROOTS / "test-front-page", srcdir, dirs_exist_ok=True)
    sphinx_build(srcdir, base / "html")
    with serve(base / "html") as url:
        yield url


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("site", SITES)
def test_the_first_story_link_is_on_a_phones_first_screen(
    request: pytest.FixtureRequest, module_context: Any, site: str, scheme: str
) -> None:
    base = request.getfixturevalue(site)
    with opened(module_context, base + "index.html", (390, 844), scheme) as tab:
        box = tab.locator(".radar-latest a.radar-story-link").first.bounding_box()
    assert box is not None and box["height"] > 0
    assert box["y"] + box["height"] <= 844, box


def test_the_latest_card_shows_each_story_with_topic_score_and_verdict(
    module_context: Any, site_url: str
) -> None:
    with opened(module_context, site_url + "index.html", (390, 844)) as tab:
        stories = tab.evaluate(STORIES_JS)
        tab.locator(".radar-latest a.radar-story-link").first.click()
        tab.wait_for_load_state("load")
        landed = tab.url, tab.locator("article h1").first.inner_text()
    assert [story["href"] for story in stories] == [
        f"issues/2026/2026-09-08/{story}.html" for story in SEED_STORIES
    ]
    for story in stories:
        assert story["title"] and story["topic"] and story["verdict"], story
        assert re.fullmatch(r"\d+(\.\d)?/10", story["score"]), story
    assert landed[0].endswith(f"issues/2026/2026-09-08/{SEED_STORIES[0]}.html")
    assert stories[0]["title"].split(" ", 1)[-1] in landed[1]


def test_the_earlier_issues_and_the_topics_are_cards_and_links(
    module_context: Any, front_site_url: str
) -> None:
    with opened(module_context, front_site_url + "index.html", (1280, 900)) as tab:
        recent = tab.locator(".radar-recent .radar-recent-issue")
        card = recent.first.inner_text()
        count = recent.count()
        topics = tab.locator(".radar-front-topics a").all_inner_texts()
        tab.locator(".radar-front-topics a").first.click()
        tab.wait_for_load_state("load")
        topic_page = tab.url
    assert count == 1
    assert "2026-09-08" in card and "5 条" in card and "让 AI 造一个客服" in card
    assert "给 AI 一道代码题" in card
    assert len(topics) == 5 and topics[0].startswith("Agent")
    assert topic_page.endswith("topics/agent.html")


@pytest.mark.parametrize("path", LISTING_PAGES)
def test_listing_pages_have_no_right_hand_table_of_contents(
    module_context: Any, front_site_url: str, path: str
) -> None:
    with opened(module_context, front_site_url + path, (1280, 900)) as tab:
        assert tab.locator("article.bd-article").count() == 1
        assert tab.locator(PAGE_TOC).count() == 0


def test_an_issue_page_keeps_its_table_of_contents(
    module_context: Any, front_site_url: str
) -> None:
    with opened(module_context, front_site_url + ISSUE_PAGE, (1280, 900)) as tab:
        assert tab.locator(".bd-sidebar-secondary").count() == 1


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["390px", "1280px"])
def test_the_cards_are_dark_in_dark_mode(
    module_context: Any, front_site_url: str, size: tuple[int, int]
) -> None:
    with opened(module_context, front_site_url + "index.html", size, "dark") as tab:
        backgrounds = tab.eval_on_selector_all(
            ".radar-card", "cards => cards.map(card => getComputedStyle(card).backgroundColor)"
        )
    assert len(backgrounds) == 2
    assert all(luminance(background) < 0.05 for background in backgrounds), backgrounds
