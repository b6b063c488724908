"""Queries drawn from the stories' own text, and typing them into the search page.

Shared by tests/browser/test_search_recall.py (a fixture site) and bench/search_bench.py
(the 300-issue synthetic archive): a query is a substring of 2 to 6 Han characters of a
story (never across two blocks of it), or two of them separated by a space; it is found
when its story is among the first results the search page shows.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from juju_radar.outputs.search.records import BLOCKS
from juju_radar.outputs.search.terms import HAN_RUN_RE

SHORTEST, LONGEST = 2, 6  # Han characters of a phrase
WAIT_MS = 300_000  # a hang guard only


ISSUE_PAGE_RE = re.compile(r"issues/\d{4}/\d{4}-\d{2}-\d{2}\.html")


@dataclass(frozen=True)
class Query:
    text: str
    story: str  # the story's link, relative to the site root: page.html#ID


def story_blocks(site: Path) -> dict[str, list[str]]:
    """Story link -> the text of each innermost block of the story, as published on its
    issue's page (where search lands; a story's own page is not a search record)."""
    stories: dict[str, list[str]] = {}
    for page in sorted((site / "issues").glob("*/*.html")):
        link = page.relative_to(site).as_posix()
        if not ISSUE_PAGE_RE.fullmatch(link):
            continue
        tree = LexborHTMLParser(page.read_text(encoding="utf-8"))
        for section in tree.css("section.radar-item[id]"):
            for left_out in reversed(section.css("[data-pagefind-ignore], a.headerlink")):
                left_out.decompose()
            blocks = [
                block.text(deep=True)
                for block in section.css(BLOCKS)
                if len(block.css(BLOCKS)) == 1
            ]
            stories[f"{link}#{section.attributes['id']}"] = blocks
    return stories


def phrases(blocks: list[str]) -> list[str]:
    """Every substring of 2 to 6 Han characters of the blocks, each once."""
    found: dict[str, None] = {}
    for block in blocks:
        for run in HAN_RUN_RE.findall(block):
            for length in range(SHORTEST, min(LONGEST, len(run)) + 1):
                for start in range(len(run) - length + 1):
                    found.setdefault(run[start : start + length])
    return list(found)


def sampled_queries(site: Path, per_story: int, seed: int) -> list[Query]:
    """``per_story`` queries a story, two thirds one phrase and a third two, drawn with
    ``seed``: the same site gives the same queries."""
    draw = random.Random(seed)
    queries = []
    for link, blocks in story_blocks(site).items():
        candidates = phrases(blocks)
        if len(candidates) < 2:
            continue
        for number in range(per_story):
            if number % 3 == 2:
                first, second = draw.sample(candidates, 2)
                text = f"{first} {second}"
            else:
                text = draw.choice(candidates)
            queries.append(Query(text, link))
    return queries


def shown_links(page: Any, query: str) -> list[str]:
    """Type ``query`` into the open search page; the links of the results it shows, relative
    to the site root, without their highlight parameters."""
    page.fill(".radar-search-page input[name=q]", query)
    page.wait_for_function(
        "q => document.querySelector('.radar-search-page .radar-search-results')"
        "?.dataset.query === q",
        arg=query,
        timeout=WAIT_MS,
    )
    hrefs = page.eval_on_selector_all(
        ".radar-search-page a.radar-search-result-title",
        "links => links.map(link => link.getAttribute('href'))",
    )
    return [re.sub(r"\?[^#]*", "", href).removeprefix("./") for href in hrefs]


def recall(page: Any, queries: list[Query], within: int) -> tuple[float, list[tuple[str, str]]]:
    """The share of ``queries`` whose story is among the first ``within`` results, and
    the queries missed (with what came first instead)."""
    missed = []
    for query in queries:
        links = shown_links(page, query.text)
        if query.story not in links[:within]:
            missed.append((query.text, links[0] if links else ""))
    return 1 - len(missed) / len(queries), missed


def stories_holding(site: Path, queries: list[Query]) -> dict[str, int]:
    """Query text -> how many stories hold every phrase of it: a phrase of a few
    characters common to many stories cannot bring each to the first three."""
    texts = ["\n".join(blocks) for blocks in story_blocks(site).values()]
    return {
        query.text: sum(all(part in text for part in query.text.split()) for text in texts)
        for query in queries
    }
