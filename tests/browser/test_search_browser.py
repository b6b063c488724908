"""Search as a reader uses it: typed into the real UI of the seed site in headless Chromium.

The site is served under ``/archive/``: every link the search produces must be relative.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from conftest import open_filters, watch_errors

from .search_results import (
    ISSUE_PAGE,
    QUERIES,
    STORIES,
    TIMEOUT_MS,
    assert_story_first,
    results,
    wait_for_results,
)

pytestmark = pytest.mark.browser

PAGES_WITHOUT_ERRORS = [
    "index.html",
    "issues/index.html",
    "topics/agent.html",
    f"{ISSUE_PAGE}",
    "references.html",
    "references/2026-09.html",
    "search.html?q=%E5%AE%A2%E6%9C%8D",
]
SPHINX_SEARCH_FILES = ("searchtools.js", "language_data.js", "searchindex.js")


@pytest.fixture(scope="module")
def search_page(browser_context: Any, site_url: str) -> Iterator[Any]:
    """One search page tab, reused by every query."""
    tab = browser_context.new_page()
    errors = watch_errors(tab)
    tab.goto(f"{site_url}search.html")
    tab.wait_for_selector(".radar-search-page input[name=q]", timeout=TIMEOUT_MS)
    # The filters show once Pagefind has loaded: queries then time the search, not the load.
    open_filters(tab, TIMEOUT_MS)
    tab.script_errors = errors
    yield tab
    tab.close()


@pytest.mark.parametrize("case", QUERIES, ids=[case["query"] for case in QUERIES])
def test_query_on_search_page_finds_the_story_first(search_page: Any, case: dict[str, Any]) -> None:
    search_page.fill(".radar-search-page input[name=q]", case["query"])
    wait_for_results(search_page, ".radar-search-page", case["query"])
    found = results(search_page, ".radar-search-page")
    status = search_page.inner_text(".radar-search-page .radar-search-status")
    if case["expect"] is None:
        assert found == []
        assert status == f"没有找到与“{case['query']}”相关的内容。换个关键词试试，或减少筛选条件。"
    else:
        assert_story_first(found, case["expect"])
        total = re.fullmatch(r"找到 (\d+) 条结果", status)
        assert total and len(found) == min(int(total.group(1)), 10), status
    assert search_page.script_errors == []


def test_search_page_reads_q_and_the_result_lands_on_the_story(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}search.html?q={quote('零售领域')}")
    wait_for_results(page, ".radar-search-page", "零售领域")
    assert page.input_value(".radar-search-page input[name=q]") == "零售领域"
    assert_story_first(results(page, ".radar-search-page"), "tau-bench-customer-service")
    page.click(".radar-search-page .radar-search-result a.radar-search-result-title")
    page.wait_for_url(
        f"{site_url}{ISSUE_PAGE}?pagefind-highlight={quote('零售领域')}#tau-bench-customer-service"
    )
    assert_story_in_view(page, "tau-bench-customer-service")
    assert page.script_errors == []


def assert_story_in_view(page: Any, item_id: str) -> None:
    heading = page.locator(f"section[id='{item_id}'] h2")
    page.wait_for_function(
        "id => { const r = document.getElementById(id).getBoundingClientRect();"
        " return r.top >= -1 && r.top < window.innerHeight / 2; }",
        arg=item_id,
        timeout=TIMEOUT_MS,
    )
    assert heading.is_visible()
    assert heading.inner_text().startswith(STORIES[item_id][0])


def test_ctrl_k_opens_the_archive_search_from_an_issue(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}{ISSUE_PAGE}")
    page.wait_for_load_state("load")
    page.keyboard.press("Control+k")
    dialog_input = page.locator("#pst-search-dialog input[name=q]")
    dialog_input.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.keyboard.type("衰老时钟")
    wait_for_results(page, "#pst-search-dialog", "衰老时钟")
    found = results(page, "#pst-search-dialog")
    assert_story_first(found, "rentosertib-aging-clocks", link_prefix="../../")
    more = page.locator("#pst-search-dialog a.radar-search-more")
    assert more.get_attribute("href") == f"../../search.html?q={quote('衰老时钟')}"
    page.locator("#pst-search-dialog a.radar-search-result-title").first.click()
    page.wait_for_url(
        re.compile(
            rf"{re.escape(site_url + ISSUE_PAGE)}\?pagefind-highlight=[^#]+#rentosertib-aging-clocks$"
        )
    )
    assert_story_in_view(page, "rentosertib-aging-clocks")
    assert page.script_errors == []


def test_header_button_opens_the_search_on_the_home_page(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}index.html")
    page.locator(".search-button__button:visible").first.click()
    dialog_input = page.locator("#pst-search-dialog input[name=q]")
    dialog_input.wait_for(state="visible", timeout=TIMEOUT_MS)
    dialog_input.press_sequentially("客服 Agent")
    wait_for_results(page, "#pst-search-dialog", "客服 Agent")
    assert_story_first(results(page, "#pst-search-dialog"), "tau-bench-customer-service")
    assert page.script_errors == []


def test_filters_narrow_results_and_are_linkable(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}search.html?q=AI")
    wait_for_results(page, ".radar-search-page", "AI")
    assert len({r["topic"] for r in results(page, ".radar-search-page")} - {None}) > 1
    open_filters(page, TIMEOUT_MS)
    totals = page.eval_on_selector_all(
        ".radar-search-filter",
        """groups => groups.map(group => Array.from(
            group.querySelectorAll('.radar-search-filter-count'),
            count => Number(count.textContent.replace(/[()]/g, ''))
        ).reduce((sum, n) => sum + n, 0))""",
    )
    assert len(totals) == 3 and totals[0] > 0 and len(set(totals)) == 1, totals
    page.check(".radar-search-filter[data-filter=topic] input[value='治理']")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.radar-search-result-topic'))"
        ".every(topic => topic.textContent === '治理 Governance')",
        timeout=TIMEOUT_MS,
    )
    filtered = results(page, ".radar-search-page")
    assert [r["href"] for r in filtered] == [f"./{ISSUE_PAGE}#spc-ai-disputes-opinion"]
    assert "topic=" in page.url
    page.goto(f"{site_url}search.html?q=AI&verdict={quote('持续观察')}&year=2026")
    wait_for_results(page, ".radar-search-page", "AI")
    linked = results(page, ".radar-search-page")
    assert linked and {r["verdict"] for r in linked} == {"持续观察"}
    assert page.is_checked(".radar-search-filter[data-filter=verdict] input[value='持续观察']")
    legends = page.eval_on_selector_all(
        ".radar-search-filter legend", "ls => ls.map(l => l.textContent)"
    )
    assert legends == ["主题", "判断", "年份"]
    topics = page.eval_on_selector_all(
        ".radar-search-filter[data-filter=topic] label",
        "labels => labels.map(label => label.textContent.trim())",
    )
    assert "治理 Governance (1)" in topics and "Agent (1)" in topics, topics
    assert page.script_errors == []


def test_an_address_may_name_filters_by_key_and_is_told_what_names_nothing(
    page: Any, site_url: str
) -> None:
    page.goto(f"{site_url}search.html?q=AI&topic=governance&verdict=Read-Original&year=2025")
    wait_for_results(page, ".radar-search-page", "AI")
    page.wait_for_selector(".radar-search-filters-ignored", timeout=TIMEOUT_MS)
    filtered = results(page, ".radar-search-page")
    assert [r["href"] for r in filtered] == [f"./{ISSUE_PAGE}#spc-ai-disputes-opinion"]
    assert page.is_checked(".radar-search-filter[data-filter=topic] input[value='治理']")
    assert page.is_checked(".radar-search-filter[data-filter=verdict] input[value='建议阅读原文']")
    assert page.inner_text(".radar-search-filters-ignored") == (
        "地址中的筛选条件没有对应的条目，未采用：年份 “2025”"
    )
    assert "topic=%E6%B2%BB%E7%90%86" in page.url and "year" not in page.url
    assert page.script_errors == []


def test_a_first_search_fetches_ten_results_and_no_filter_index(page: Any, site_url: str) -> None:
    """A first query loads no filter index: stories and the other records are parts of
    their own, whose kind the page gives them. The topic, verdict and year indexes (which
    only the stories' part has) wait until the filters are opened."""
    fetched: list[str] = []
    page.on("requestfinished", lambda request: fetched.append(request.url.split("?")[0]))
    page.goto(f"{site_url}search.html?q=AI")
    wait_for_results(page, ".radar-search-page", "AI")
    page.wait_for_load_state("networkidle")
    assert page.inner_text(".radar-search-page .radar-search-status") == "找到 11 条结果"
    assert len(results(page, ".radar-search-page")) == 10
    assert len([url for url in fetched if url.endswith(".pf_fragment")]) == 10
    assert [url for url in fetched if url.endswith(".pf_filter")] == []
    page.click(".radar-search-page .radar-search-next")
    page.wait_for_function(
        "() => document.querySelectorAll('.radar-search-page .radar-search-result').length === 11",
        timeout=TIMEOUT_MS,
    )
    assert len({r["href"] for r in results(page, ".radar-search-page")}) == 11
    assert page.evaluate(
        "() => document.activeElement === "
        "document.querySelectorAll('.radar-search-page .radar-search-result a')[10]"
    ), "focus should move to the first result the button added"
    assert page.is_hidden(".radar-search-page .radar-search-next")
    open_filters(page, TIMEOUT_MS)
    opened = [url for url in fetched if url.endswith(".pf_filter")]
    assert (
        sorted(url.split("/pagefind/")[1].split("/")[0] for url in opened) == ["stories-2026"] * 3
    )
    assert page.script_errors == []


@pytest.mark.parametrize("path", PAGES_WITHOUT_ERRORS)
def test_page_runs_without_script_errors(page: Any, site_url: str, path: str) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site_url}{path}")
    page.wait_for_load_state("networkidle")
    page.keyboard.press("Control+k")
    page.locator("#pst-search-dialog input[name=q]").wait_for(state="visible")
    page.keyboard.type("WorldSculpt")
    wait_for_results(page, "#pst-search-dialog", "WorldSculpt")
    assert page.script_errors == []
    assert not [url for url in requested if url.split("?")[0].endswith(SPHINX_SEARCH_FILES)]
    assert all(url.startswith(site_url) for url in requested), "a request left the sub-path"


def search_for(page: Any, query: str) -> list[dict[str, Any]]:
    page.fill(".radar-search-page input[name=q]", query)
    wait_for_results(page, ".radar-search-page", query)
    return results(page, ".radar-search-page")


def story_links(found: list[dict[str, Any]]) -> list[str]:
    return [r["href"] for r in found if "#" in r["href"] and r["topic"]]


# Excerpts start at a sentence or clause boundary and never repeat the lines shown above
# them: what Pagefind's own excerpts did ("顿大学，……", "：让编程智能体……", the heading).
EXCERPT_STARTS = [
    ("普林斯顿大学", "Sierra 与普林斯顿大学的"),
    ("客服", "把“开发一个客服 Agent”本身做成了测试。"),  # after "，"
    ("衰老时钟", None),
    ("逐词反馈", None),
]


@pytest.mark.parametrize(("query", "start"), EXCERPT_STARTS, ids=[q for q, _ in EXCERPT_STARTS])
def test_excerpts_start_at_a_clause_and_skip_the_heading(
    search_page: Any, query: str, start: str | None
) -> None:
    found = search_for(search_page, query)
    stories = [r for r in found if r["topic"]]
    assert stories
    for result in stories:
        excerpt = result["excerpt"]
        assert not re.match(r"[\s，。、；：！？,.;:!?）」”]", excerpt), excerpt
        heading = result["title"].split(" ", 1)[-1]
        assert heading[:6] not in excerpt[: len(heading) + 4], (result["title"], excerpt)
        assert "｜" not in excerpt and result["verdict"] not in excerpt[:12], excerpt
        assert not excerpt.startswith("顿"), excerpt
    if start is not None:
        assert stories[0]["excerpt"].startswith(start), stories[0]["excerpt"]
    assert search_page.script_errors == []


def test_a_highlight_covers_whole_words(search_page: Any) -> None:
    """Pagefind segments 普林斯顿 as 普林斯 + 顿; the excerpt marks the query as one word."""
    found = search_for(search_page, "普林斯顿大学")
    assert found[0]["marks"] and set(found[0]["marks"]) == {"普林斯顿大学"}, found[0]["marks"]
    found = search_for(search_page, "智能体")
    assert all(mark == "智能体" for r in found for mark in r["marks"]), [r["marks"] for r in found]


def test_topic_names_find_the_topic_stories(search_page: Any) -> None:
    """Topic label, English label and aliases (conf.py) are synonyms of one another."""
    agent = f"./{ISSUE_PAGE}#tau-bench-customer-service"
    by_name = {
        name: story_links(search_for(search_page, name)) for name in ("智能体", "Agent", "Agents")
    }
    assert all(links and links[0] == agent for links in by_name.values()), by_name
    assert len({tuple(sorted(links)) for links in by_name.values()}) == 1, by_name
    training = story_links(search_for(search_page, "训练"))
    assert training[0] == f"./{ISSUE_PAGE}#rise-self-extrapolation", training
    assert story_links(search_for(search_page, "Model training")) == [
        f"./{ISSUE_PAGE}#rise-self-extrapolation"
    ]
    assert search_page.script_errors == []


def test_the_issue_record_ranks_under_every_story_that_matches(search_page: Any) -> None:
    """The rest of an issue page ("本期导语、主线与参考文献") summarises its stories: a query
    matching it and stories shows every story first (issue 55)."""
    search_for(search_page, "RISE")
    kinds = search_page.eval_on_selector_all(
        ".radar-search-page .radar-search-result", "items => items.map(i => i.dataset.kind)"
    )
    assert "issue" in kinds and "story" in kinds, kinds
    assert kinds.index("issue") > max(at for at, kind in enumerate(kinds) if kind == "story")
    issue = search_page.locator(".radar-search-page .radar-search-result[data-kind=issue]")
    assert issue.locator(".radar-search-result-issue").inner_text() == "本期导语、主线与参考文献"
    assert search_page.script_errors == []


@pytest.mark.parametrize("query", ["Deep", "Agent", "Bench"])
def test_a_latin_word_highlights_whole_words_only(search_page: Any, query: str) -> None:
    """A Latin word of the query marks the words it begins, never a letter of another
    ("deepfake" marked a stray "D", issue 55; so did "Deep" on the seed site)."""
    found = search_for(search_page, query)
    assert found, query
    marks = [mark for result in found for mark in result["marks"]]
    assert all(mark.strip().lower().startswith(query.lower()) for mark in marks), marks
    assert search_page.script_errors == []
