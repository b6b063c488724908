"""Reading the search's results in the browser: waiting for them, and what each shows."""

from __future__ import annotations

from typing import Any

from conftest import BROWSER_WAIT_MS

from .conftest import load_queries

QUERY_SET = load_queries()
ISSUE_PAGE = QUERY_SET["page"]
QUERIES = QUERY_SET["queries"]
SEED_DATE = "2026-09-08"
SEED_ISSUE_TITLE = "让 AI 造一个客服，难在代码之外"
# What the seed issue's stories show in a result: heading, topic label (with its English
# label beside it when that differs), verdict label.
STORIES = {
    "tau-bench-customer-service": ("🛠️ 客服能跑起来，不代表能处理好客户的问题", "Agent", "建议深挖"),
    "rise-self-extrapolation": (
        "🧠 RISE：沿着刚刚学会的方向，再往前走一点",
        "模型训练 Training",
        "建议深挖",
    ),
    "worldsculpt-object-scenes": (
        "🪑 WorldSculpt：把生成的房间拆成能单独取用的物体",
        "3D 生成 3D Generation",
        "持续观察",
    ),
    "rentosertib-aging-clocks": (
        "🧪 AI 设计的药物，出现了值得追踪的衰老指标变化",
        "AI for Science",
        "持续观察",
    ),
    "spc-ai-disputes-opinion": (
        "⚖️ AI 换脸、拟声和训练数据，最高法给出更细的审理指引",
        "治理 Governance",
        "建议阅读原文",
    ),
}
TIMEOUT_MS = BROWSER_WAIT_MS  # a hang guard (tests/conftest.py)


def wait_for_results(page: Any, scope: str, query: str) -> None:
    """Wait until the result list in ``scope`` shows the results of ``query``."""
    page.wait_for_function(
        "([scope, query]) => document.querySelector(`${scope} .radar-search-results`)"
        "?.dataset.query === query",
        arg=[scope, query],
        timeout=TIMEOUT_MS,
    )


def results(page: Any, scope: str) -> list[dict[str, Any]]:
    """What each shown result says: link, title, meta fields and highlighted words."""
    return page.eval_on_selector_all(
        f"{scope} .radar-search-result",
        """items => items.map(item => ({
            // Without ?pagefind-highlight=…, the searched words the page reached marks.
            href: item.querySelector('a.radar-search-result-title').getAttribute('href')
              .replace(/[?]pagefind-highlight=[^#]*/, ''),
            title: item.querySelector('a.radar-search-result-title').textContent,
            date: item.querySelector('.radar-search-result-date')?.textContent,
            issue: item.querySelector('.radar-search-result-issue')?.textContent,
            topic: item.querySelector('.radar-search-result-topic')?.textContent,
            verdict: item.querySelector('.radar-search-result-verdict')?.textContent,
            // The words marked in the title (a match in the heading) and in the excerpt.
            marks: Array.from(item.querySelectorAll('.radar-search-result-title mark,'
                                                    + ' .radar-search-result-excerpt mark'),
                              mark => mark.textContent),
            excerpt: item.querySelector('.radar-search-result-excerpt').textContent,
        }))""",
    )


def assert_story_first(found: list[dict[str, Any]], item_id: str, link_prefix: str = "./") -> None:
    assert found, f"no result, expected story {item_id}"
    first = found[0]
    title, topic, verdict = STORIES[item_id]
    assert first["href"] == f"{link_prefix}{ISSUE_PAGE}#{item_id}", [r["href"] for r in found]
    assert first["title"] == title
    assert (first["date"], first["issue"]) == (SEED_DATE, SEED_ISSUE_TITLE)
    assert (first["topic"], first["verdict"]) == (topic, verdict)
    assert first["marks"], "the result highlights no matched word"
