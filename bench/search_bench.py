"""Search benchmark on the seed site (not a test): ``.venv/bin/python bench/search_bench.py``.

Builds a copy of the site, serves it under ``/archive/`` and drives Debian's headless
Chromium. Measures, on the query set of ``tests/search_queries.json``:

- recall (expected story among the results) and first-hit rate, typed into search.html;
- the same two rates for Pagefind's default ranking and for the ranking of search.js;
- bytes fetched by a cold first query (runtime files and index files separately);
- cold latency (fresh browser context: typing to results shown, and load + first search)
  and warm latency (search + result data in the page, median and max over the set);
- bundle size (all parts) and the time the build spends in Pagefind.

``--archive N`` measures instead, over a synthetic archive of N issues (``radar synth``),
built twice (with the index words of Han pairs, ``outputs/search/terms.py``, and without
them): recall of queries drawn from the stories' own text (``tests/browser/
search_recall.py``: the story among the first 3 results of the search page), the index
size, the time the build spends on the index, and the cost of a first query.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from conftest import copy_site, launched_chromium, open_filters  # noqa: E402
from search_recall import (  # noqa: E402
    Query,
    recall,
    sampled_queries,
    shown_links,
    stories_holding,
)
from site_server import serve  # noqa: E402

from juju_radar.outputs.search.terms import HAN_RUN_RE, han_pairs, index_word  # noqa: E402

QUERY_SET = json.loads((ROOT / "tests" / "search_queries.json").read_text(encoding="utf-8"))
RUNTIME_FILES = re.compile(
    r"(pagefind\.js|pagefind-worker\.js|wasm\.[\w-]+\.pagefind|pagefind-entry\.json|search\.js)$"
)
INDEX_FILES = re.compile(r"\.pf_(meta|index|fragment|filter)$")
# Pagefind 1.5's default ranking weights.
DEFAULT_RANKING = {
    "termSimilarity": 1.0,
    "pageLength": 0.75,
    "termSaturation": 1.4,
    "termFrequency": 1.0,
}
TYPING_DELAY_MS = 120
# The build's log line: "search index: N pages read, M pieces indexed, parts merged: ...,
# in X s" (a build that indexed nothing says "unchanged").
SEARCH_INDEX_LINE = re.compile(
    r"search index: [^\n]*, in ([\d.]+) s$", re.MULTILINE
)  # search.js waits this long after the last keystroke

# The index parts merged as search.js merges them, into an instance of the bench's own
# (kept in the page for the next query with the same ranking; a reload starts afresh).
API_SEARCH = """async ([bundles, query, ranking, filtersOpen]) => {
  const key = JSON.stringify([ranking, filtersOpen]);
  if (!window.radarBench || window.radarBench.key !== key) {
    const { parts } = await (await fetch(`${bundles}parts.json`)).json();
    const [first, ...others] = parts.map((part) => new URL(`${part}/`, bundles).href);
    const module = await import(`${first}pagefind.js`);
    const pagefind = module.createInstance({ basePath: first, ranking });
    await pagefind.init();
    await Promise.all(others.map((part) => pagefind.mergeIndex(part, { ranking })));
    // The open filter panel loads every filter index, which each search then counts.
    if (filtersOpen) await pagefind.filters();
    window.radarBench = { key, pagefind };
  }
  const pagefind = window.radarBench.pagefind;
  const started = performance.now();
  const response = await pagefind.search(query);
  const data = await Promise.all(response.results.slice(0, 8).map((r) => r.data()));
  return {
    ms: performance.now() - started,
    links: data.map((d) => d.meta.link),
    count: response.results.length,
  };
}"""


def build_site(workdir: Path) -> tuple[Path, float]:
    """Build a copy of the site; return its output dir and the seconds spent in Pagefind."""
    srcdir = copy_site(workdir / "src")
    outdir = workdir / "html"
    command = [sys.executable, "-m", "sphinx", "-b", "html", str(srcdir), str(outdir)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"the site does not build:\n{result.stdout}\n{result.stderr}")
    match = SEARCH_INDEX_LINE.search(result.stdout)
    return outdir, float(match.group(1)) if match else float("nan")


def expected_link(case: dict[str, Any]) -> str | None:
    return f"{QUERY_SET['page']}#{case['expect']}" if case["expect"] else None


def score(links_per_query: list[list[str]]) -> dict[str, float]:
    """Recall and first-hit rate over the query set (no-match queries must return nothing)."""
    found = first = 0
    for case, links in zip(QUERY_SET["queries"], links_per_query, strict=True):
        wanted = expected_link(case)
        found += (wanted in links) if wanted else (not links)
        first += (links[:1] == [wanted]) if wanted else (not links)
    total = len(QUERY_SET["queries"])
    return {"recall": found / total, "first_hit": first / total}


def ui_links(page: Any, base: str) -> tuple[list[list[str]], list[float]]:
    """Type every query into search.html; return the result links and typing-to-results ms."""
    page.goto(f"{base}search.html")
    page.wait_for_selector(".radar-search-page input[name=q]")
    all_links, timings = [], []
    for case in QUERY_SET["queries"]:
        started = time.perf_counter()
        all_links.append(shown_links(page, case["query"]))
        timings.append((time.perf_counter() - started) * 1000)
    return all_links, timings


def api_runs(
    page: Any, base: str, ranking: Any, reload: bool = True, filters_open: bool = False
) -> tuple[list[list[str]], list[float]]:
    if reload:
        # The filter panel stays closed, as for a reader who has not opened it: Pagefind
        # then loads no filter index and counts no filter values (see BENCHMARKS.md).
        page.goto(f"{base}search.html")
        page.wait_for_selector(".radar-search-page input[name=q]")
    bundles = f"{base}pagefind/"
    runs = [
        page.evaluate(
            API_SEARCH, [bundles, pagefind_query(case["query"], True), ranking, filters_open]
        )
        for case in QUERY_SET["queries"]
    ]
    return [run["links"] for run in runs], [run["ms"] for run in runs]


def record_count(outdir: Path) -> int:
    """The records of every part of the index in ``outdir``, as Pagefind counts them."""
    entries = sorted((outdir / "pagefind").glob("*/pagefind-entry.json"))
    return sum(
        language["page_count"]
        for entry in entries
        for language in json.loads(entry.read_text(encoding="utf-8"))["languages"].values()
    )


def match_shares(page: Any, base: str, outdir: Path) -> list[float]:
    """For each query of the set, the share of the records it matches (no filter set)."""
    page.goto(f"{base}search.html")
    page.wait_for_selector(".radar-search-page input[name=q]")
    bundles, records = f"{base}pagefind/", record_count(outdir)
    return [
        page.evaluate(
            API_SEARCH, [bundles, pagefind_query(case["query"], True), DEFAULT_RANKING, False]
        )["count"]
        / records
        for case in QUERY_SET["queries"]
    ]


def served_paths(page: Any, base: str, outdir: Path) -> list[Path]:
    """The site's files ``page`` fetches from now on, its workers' fetches included.
    Sizes are taken from disk: a response body is not always still available to read
    once the page has moved on, which made earlier byte counts come out low."""
    paths: list[Path] = []

    def note(request: Any) -> None:
        url = request.url.split("#")[0].split("?")[0]
        if url.startswith(base):
            path = outdir / url.removeprefix(base)
            path = path / "index.html" if path.is_dir() else path
            if path.is_file():
                paths.append(path)

    page.on("requestfinished", note)
    return paths


def cold_query(browser: Any, base: str, outdir: Path) -> dict[str, Any]:
    """A fresh context (empty cache): open search.html?q=, wait for results, count bytes."""
    context = browser.new_context()
    page = context.new_page()
    fetched = served_paths(page, base, outdir)
    query = QUERY_SET["queries"][0]["query"]
    started = time.perf_counter()
    page.goto(f"{base}search.html?q={query}")
    page.wait_for_function(
        "q => document.querySelector('.radar-search-page .radar-search-results')"
        "?.dataset.query === q",
        arg=query,
    )
    page_to_results = (time.perf_counter() - started) * 1000
    page.wait_for_load_state("networkidle")
    context.close()
    sizes: dict[str, int] = {"runtime": 0, "index": 0}
    counts: dict[str, int] = {"runtime": 0, "index": 0}
    for path in fetched:
        kind = (
            "runtime"
            if RUNTIME_FILES.search(path.name)
            else "index"
            if INDEX_FILES.search(path.name)
            else None
        )
        if kind:
            sizes[kind] += path.stat().st_size
            counts[kind] += 1
    return {"bytes": sizes, "requests": counts, "page_to_results_ms": page_to_results}


def cold_typed_query(browser: Any, base: str) -> float:
    """Fresh context, search page loaded, first query typed: ms until results show."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}search.html")
    open_filters(page)  # the bundle is loaded once filters show
    query = QUERY_SET["queries"][1]["query"]
    started = time.perf_counter()
    page.fill(".radar-search-page input[name=q]", query)
    page.wait_for_function(
        "q => document.querySelector('.radar-search-page .radar-search-results')"
        "?.dataset.query === q",
        arg=query,
    )
    elapsed = (time.perf_counter() - started) * 1000
    context.close()
    return elapsed


def bundle_size(outdir: Path) -> dict[str, int]:
    bundle = outdir / "pagefind"
    files = [path for path in bundle.rglob("*") if path.is_file()]
    index = sum(path.stat().st_size for path in files if INDEX_FILES.search(path.name))
    return {
        "total": sum(path.stat().st_size for path in files),
        "index": index,
        "files": len(files),
    }


# A build whose records hold no index words of Han pairs: the index as it was before them.
WITHOUT_PAIRS = (
    "import sys, juju_radar.outputs.search.records as records;"
    "records.add_index_words = lambda root: None;"
    "from sphinx.cmd.build import main; sys.exit(main(sys.argv[1:]))"
)
ARCHIVE_QUERIES = 300  # drawn from the archive's stories, with a fixed seed
ARCHIVE_SEED = 55
PHRASES_PER_STORY = 30  # on the seed site
FIRST_QUERIES = 5  # first queries, each in a fresh browser context


def build_archive(srcdir: Path, outdir: Path, pairs: bool) -> float:
    """Build ``srcdir`` (-j auto); the seconds the build spent on the search index."""
    runner = ["-m", "sphinx"] if pairs else ["-c", WITHOUT_PAIRS]
    command = [sys.executable, *runner, "-b", "html", "-j", "auto", str(srcdir), str(outdir)]
    command += ["-d", str(outdir.with_suffix(".doctrees"))]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(
            f"the archive does not build:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        )
    match = SEARCH_INDEX_LINE.search(result.stdout)
    return float(match.group(1)) if match else float("nan")


def pagefind_query(query: str, pairs: bool) -> str:
    """What search.js gives Pagefind for ``query`` (indexQuery there), or the query itself."""
    if not pairs:
        return query
    words = HAN_RUN_RE.sub(lambda run: f" {' '.join(map(index_word, han_pairs(run[0])))} ", query)
    return " ".join(words.split())


def api_recall(page: Any, base: str, queries: list[Query], pairs: bool) -> float:
    """Recall (story among the first 3) through Pagefind's API, all records ranked together."""
    page.goto(f"{base}search.html")
    page.wait_for_selector(".radar-search-page input[name=q]")
    found = 0
    for query in queries:
        text = pagefind_query(query.text, pairs)
        run = page.evaluate(API_SEARCH, [f"{base}pagefind/", text, search_js_ranking(), False])
        found += query.story in run["links"][:3]
    return found / len(queries)


def first_query_cost(
    browser: Any, base: str, outdir: Path, queries: list[Query], pairs: bool
) -> dict[str, float]:
    """A first query in a fresh context (Pagefind loaded, one search, data of the top 8):
    bytes of index fetched and milliseconds, medians over FIRST_QUERIES queries."""
    index_bytes, timings = [], []
    for query in queries[:FIRST_QUERIES]:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{base}search.html")
        page.wait_for_selector(".radar-search-page input[name=q]")
        fetched = served_paths(page, base, outdir)
        text = pagefind_query(query.text, pairs)
        run = page.evaluate(API_SEARCH, [f"{base}pagefind/", text, search_js_ranking(), False])
        page.wait_for_load_state("networkidle")
        context.close()
        timings.append(run["ms"])
        index_bytes.append(sum(p.stat().st_size for p in fetched if INDEX_FILES.search(p.name)))
    return {"index_bytes": statistics.median(index_bytes), "search_ms": statistics.median(timings)}


def archive_main(issues: int) -> int:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "bench"))
    from build_bench import synthesize

    report: dict[str, Any] = {"issues": issues}
    with tempfile.TemporaryDirectory(prefix="search-recall-") as workdir:
        srcdir = Path(workdir) / "src"
        synthesize(issues, srcdir)
        outdirs = {}
        for pairs in (True, False):
            name = "with_pairs" if pairs else "without_pairs"
            outdirs[name] = outdir = Path(workdir) / name / "html"
            report[name] = {
                "search_index_s": build_archive(srcdir, outdir, pairs),
                "bundle_bytes": bundle_size(outdir),
            }
        queries = sampled_queries(outdirs["with_pairs"], 1, ARCHIVE_SEED)
        queries = random.Random(ARCHIVE_SEED).sample(queries, min(ARCHIVE_QUERIES, len(queries)))
        report["queries"] = len(queries)
        with sync_playwright() as playwright:
            browser = launched_chromium(playwright)
            for name, outdir in outdirs.items():
                pairs = name == "with_pairs"
                with serve(outdir) as base:
                    page = browser.new_page()
                    page.goto(f"{base}search.html")
                    page.wait_for_selector(".radar-search-page input[name=q]")
                    if pairs:
                        found, missed = recall(page, queries, 3)
                        report[name]["recall_search_page"] = found
                        report[name]["missed_examples"] = missed[:10]
                        holding = stories_holding(outdir, queries)
                        distinct = [q for q in queries if holding[q.text] <= 3]
                        missed_texts = {text for text, _ in missed}
                        report[name]["distinctive_queries"] = len(distinct)
                        report[name]["recall_distinctive"] = sum(
                            q.text not in missed_texts for q in distinct
                        ) / max(1, len(distinct))
                    report[name]["recall_api"] = api_recall(page, base, queries, pairs)
                    page.close()
                    report[name]["first_query"] = first_query_cost(
                        browser, base, outdir, queries, pairs
                    )
            browser.close()
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--archive":
        return archive_main(int(sys.argv[2]))
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="search-bench-") as workdir:
        outdir, pagefind_seconds = build_site(Path(workdir))
        report: dict[str, Any] = {
            "pagefind_seconds": pagefind_seconds,
            "bundle_bytes": bundle_size(outdir),
        }
        with serve(outdir) as base, sync_playwright() as playwright:
            browser = launched_chromium(playwright)
            report["cold"] = cold_query(browser, base, outdir)
            report["cold_typed_ms"] = cold_typed_query(browser, base)
            page = browser.new_page()
            phrases = sampled_queries(outdir, PHRASES_PER_STORY, ARCHIVE_SEED)
            page.goto(f"{base}search.html")
            page.wait_for_selector(".radar-search-page input[name=q]")
            report["phrase_recall_top3"], report["phrase_misses"] = recall(page, phrases, 3)
            report["phrases"] = len(phrases)
            links, typed_ms = ui_links(page, base)
            report["ui"] = score(links)
            report["ui_typed_to_results_ms_median"] = statistics.median(typed_ms)
            report["ui_misses"] = [
                (case["query"], found[:2])
                for case, found in zip(QUERY_SET["queries"], links, strict=True)
                if (found[:1] != [expected_link(case)] if case["expect"] else found)
            ]
            rankings = (
                ("default_ranking", DEFAULT_RANKING),
                ("search_js_ranking", search_js_ranking()),
            )
            for name, ranking in rankings:
                api_links, api_ms = api_runs(page, base, ranking)
                report[name] = {
                    **score(api_links),
                    "warm_ms_median": statistics.median(api_ms),
                    "warm_ms_max": max(api_ms),
                }
            browser.close()
    report["queries"] = len(QUERY_SET["queries"])
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


def search_js_ranking() -> dict[str, float]:
    """The ranking search.js sets, read from the file so the two cannot drift apart."""
    source = (ROOT / "juju_radar" / "theme" / "static" / "search.js").read_text(encoding="utf-8")
    match = re.search(r"const RANKING = (\{[^}]*\})", source)
    assert match, "RANKING not found in search.js"
    return json.loads(re.sub(r"(\w+):", r'"\1":', match.group(1)))


if __name__ == "__main__":
    sys.exit(main())
