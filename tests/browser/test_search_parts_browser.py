"""Search over an index in parts (tests/roots/test-years: issues of 2024, 2025 and 2026,
merged into the parts ``stories-2026``, ``stories-older``, ``other-2026`` and
``other-older`` from a piece a year, or a month in 2026), typed into the real search page.

The runtime of the first part is loaded and the others are merged into it: the stories
must rank as on a one-part site, a query must find the stories of every part, and the
year filter must count the stories of every part.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import open_filters, site_with_root, sphinx_build, watch_errors

from .conftest import load_queries
from .search_results import TIMEOUT_MS, assert_story_first, results, wait_for_results
from .site_server import serve

pytestmark = pytest.mark.browser

QUERIES = [case for case in load_queries()["queries"] if case["expect"]]


@pytest.fixture(scope="module")
def years_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("years-browser")
    outdir = base / "html"
    sphinx_build(site_with_root("years", base / "src"), outdir)
    parts = json.loads((outdir / "pagefind" / "parts.json").read_text(encoding="utf-8"))
    assert parts["parts"] == ["stories-2026", "stories-older", "other-2026", "other-older"]
    with serve(outdir) as url:
        yield url


@pytest.fixture(scope="module")
def years_page(browser_context: Any, years_url: str) -> Iterator[Any]:
    tab = browser_context.new_page()
    tab.script_errors = watch_errors(tab)
    tab.goto(f"{years_url}search.html")
    tab.wait_for_selector(".radar-search-page input[name=q]", timeout=TIMEOUT_MS)
    open_filters(tab, TIMEOUT_MS)
    yield tab
    tab.close()


def search(tab: Any, query: str) -> list[dict[str, Any]]:
    tab.fill(".radar-search-page input[name=q]", query)
    wait_for_results(tab, ".radar-search-page", query)
    return results(tab, ".radar-search-page")


@pytest.mark.parametrize("case", QUERIES, ids=[case["query"] for case in QUERIES])
def test_the_query_set_finds_its_story_first_across_parts(
    years_page: Any, case: dict[str, Any]
) -> None:
    assert_story_first(search(years_page, case["query"]), case["expect"])
    assert years_page.script_errors == []


@pytest.mark.parametrize(
    ("query", "href"),
    [
        ("蜂群调度", "./issues/2024/2024-05-14.html#swarm-warehouse-robots"),
        ("珊瑚礁", "./issues/2025/2025-03-11.html#coral-reef-acoustics"),
    ],
)
def test_a_story_of_an_older_year_is_found_first(years_page: Any, query: str, href: str) -> None:
    found = search(years_page, query)
    assert found and found[0]["href"] == href, [result["href"] for result in found]


def test_a_query_shows_the_stories_of_two_parts_and_the_year_filter_counts_both(
    years_page: Any,
) -> None:
    # "执行记录" is in a story of 2026 (part 2026) and one of 2024 (part older).
    found = [result["href"] for result in search(years_page, "执行记录")]
    assert {
        "./issues/2026/2026-09-08.html#tau-bench-customer-service",
        "./issues/2024/2024-05-14.html#swarm-warehouse-robots",
    } == set(found[:2]), found
    years = years_page.eval_on_selector_all(
        ".radar-search-filter[data-filter=year] input", "boxes => boxes.map(box => box.value)"
    )
    assert years == ["2026", "2025", "2024"]
    years_page.check(".radar-search-filter[data-filter=year] input[value='2024']")
    wait_for_results(years_page, ".radar-search-page", "执行记录")
    years_page.wait_for_function(
        "() => document.querySelectorAll('.radar-search-page .radar-search-result').length === 1",
        timeout=TIMEOUT_MS,
    )
    (only,) = results(years_page, ".radar-search-page")
    assert only["href"] == "./issues/2024/2024-05-14.html#swarm-warehouse-robots"
    years_page.uncheck(".radar-search-filter[data-filter=year] input[value='2024']")
    assert years_page.script_errors == []
