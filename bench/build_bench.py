"""Build benchmark (not a test): ``make bench`` or ``.venv/bin/python bench/build_bench.py``.

For each archive size (default 100, 1,000 and 3,650 synthetic issues from ``radar synth``,
Zipf-like text) it builds the site the way ``make html`` does (``python -m
juju_radar.build.staged`` in the site's folder: two build trees, the published one and
the spare) and measures, as medians over ``--runs`` runs (one run from ``--large``
issues up):

- the clean build (``-j auto``; ``-j 1`` too below ``--large``), then the second build
  (the spare tree's first, no change) and a no-change rebuild;
- adding one issue, editing a sentence of the newest issue (the build, and the preview
  when ``bench/preview_bench.py`` is there), editing one reference's title;
- the content path of a daily push (what the deploy workflow runs for a content-only
  change): a new issue, then ``radar check --quiet``, the build and ``radar links``;
- for each: wall and CPU time (the build's processes), pages read and written, and peak
  memory summed over the build's processes (Rss, and Pss beside it; ``tree_memory.py``);
- output size, first-visit bytes of an issue page in headless Chromium (raw and gzipped),
  and search: bytes and time of a cold query, warm query latency, and the median share
  of the records a query of ``tests/search_queries.json`` matches.

``--rows`` measures only some of these (``--sizes 20 --rows clean search`` for a quick
look). The numbers are written between the markers of the "Build and scale" section of
``BENCHMARKS.md`` (``--no-write`` only prints them).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import importlib.util
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from bench_report import measure_table, write_section  # noqa: E402
from conftest import CHROMIUM_ARGS, SEED_SITE  # noqa: E402
from search_bench import (  # noqa: E402
    DEFAULT_RANKING,
    SEARCH_INDEX_LINE,
    api_runs,
    bundle_size,
    cold_query,
    match_shares,
    served_paths,
)
from site_server import serve  # noqa: E402
from tree_memory import TreeMemory  # noqa: E402

from juju_radar.build.staged import COMPLETE, published_tree, spare_tree  # noqa: E402

# Besides the clean and second builds, which always run: the steps in this order, each
# on the site the step before left; output and search on the site they all left.
OPTIONAL_ROWS = (
    "clean-j1",
    "no-change",
    "add-issue",
    "edit-sentence",
    "preview",
    "edit-reference",
    "content-path",
    "output",
    "search",
)


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mib: float  # peak of the summed Rss of the build's processes
    pss_mib: float  # peak of the summed Pss
    processes: int  # most processes at once
    read: int
    written: int
    search_index_s: float  # Pagefind and its records, as the build reports it; nan if skipped


def staged_build(srcdir: Path, jobs: str) -> Run:
    """One ``make html`` of ``srcdir`` (``python -m juju_radar.build.staged -j JOBS``);
    wait4 gives the CPU time of the build and the processes it waited for."""
    build = srcdir / "_build"
    tree, before = built_tree_state(build)
    command = [sys.executable, "-m", "juju_radar.build.staged", "-j", jobs]
    # Verbose: the search index reports its time in its log line.
    env = dict(os.environ, SOURCE_DATE_EPOCH="1788000000", PYTHONUNBUFFERED="1", RADAR_VERBOSE="1")
    started = time.perf_counter()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=srcdir, stdout=log, stderr=subprocess.STDOUT, env=env
        )
        with TreeMemory(process.pid) as peak:
            _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        output = log.read().decode("utf-8", "replace")
    if process.returncode:
        raise RuntimeError(f"the build failed ({process.returncode}):\n{output[-3000:]}")
    after = snapshot(tree)
    indexed = SEARCH_INDEX_LINE.search(output)
    return Run(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        rss_mib=peak.rss_mib,
        pss_mib=peak.pss_mib,
        processes=peak.processes,
        read=changed_files(before, after, ".doctree"),
        written=changed_files(before, after, ".html"),
        search_index_s=float(indexed.group(1)) if indexed else float("nan"),
    )


def built_tree_state(build: Path) -> tuple[Path, dict[str, int]]:
    """The tree the next build updates, and its files' modification times before it: its
    own when it is complete, else the published tree's (it starts as a copy of it)."""
    tree = spare_tree(build)
    if (tree / COMPLETE).exists():
        return tree, snapshot(tree)
    published = published_tree(build)
    return tree, snapshot(published) if published else {}


def snapshot(tree: Path) -> dict[str, int]:
    """Modification times of the tree's files, by path relative to the tree (copying a
    tree keeps them, so the second build counts what it changed, not the copy)."""
    if not tree.exists():
        return {}
    return {
        path.relative_to(tree).as_posix(): path.stat().st_mtime_ns
        for path in tree.rglob("*")
        if path.suffix in (".html", ".doctree")
    }


def changed_files(before: dict[str, int], after: dict[str, int], suffix: str) -> int:
    """Files created or rewritten: a doctree is pickled exactly when its source was read."""
    return sum(
        1 for path, mtime in after.items() if path.endswith(suffix) and before.get(path) != mtime
    )


def median_run(runs: list[Run]) -> dict[str, float]:
    medians = {
        f"{name}": statistics.median(getattr(run, name) for run in runs)
        for name in ("wall", "cpu", "read", "written", "search_index_s")
    }
    peaks = {name: max(getattr(run, name) for run in runs) for name in ("rss_mib", "pss_mib")}
    return {**medians, **peaks, "processes": max(run.processes for run in runs), "runs": len(runs)}


def synthesize(issues: int, out: Path) -> None:
    # The frame and the seed sentences come from the tests' seed site, not the live archive.
    command = [sys.executable, "-m", "juju_radar", "synth", "--root", str(SEED_SITE)]
    command += [str(issues), "--out", str(out), "--text", "zipf"]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)


def newest_issue(srcdir: Path) -> Path:
    return sorted((srcdir / "issues").rglob("20*.md"))[-1]


def next_issue(srcdir: Path) -> None:
    """A copy of the newest issue as the next day's, with fresh item ids."""
    newest = newest_issue(srcdir)
    date = newest.stem
    following = dt.date.fromisoformat(date) + dt.timedelta(days=1)
    text = newest.read_text(encoding="utf-8").replace(date, following.isoformat())
    text = re.sub(r":id: s\d+", f":id: s{following:%Y%m%d}", text)
    text = text.replace("status: draft", "status: published")
    target = srcdir / "issues" / f"{following:%Y}" / f"{following.isoformat()}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def edit_sentence(srcdir: Path) -> None:
    """Change one sentence of the newest issue's first story."""
    page = newest_issue(srcdir)
    text = page.read_text(encoding="utf-8")
    body = text.index("\n\n", text.index(":::{radar-item}")) + 2
    page.write_text(text[:body] + "编辑改写了这一句。" + text[body:], encoding="utf-8")


def edit_reference_title(srcdir: Path) -> None:
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("title = {合成文献 ", "title = {合成文献（修订） ", 1), "utf-8")


PREVIEW_BENCH = Path(__file__).resolve().parent / "preview_bench.py"


def preview_module(path: Path = PREVIEW_BENCH) -> Any | None:
    """``bench/preview_bench.py`` (``preview_seconds(srcdir) -> dict``), when it is there."""
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("preview_bench", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_visit(
    browser: Any, base: str, outdir: Path, path: str, viewport: dict[str, int] | None = None
) -> dict[str, Any]:
    """Bytes a first visit of ``path`` downloads: raw, and gzipped file by file (and the
    files, relative to ``outdir``). ``tests/browser/test_reader.py`` holds it to 150 KB."""
    context = browser.new_context(**({"viewport": viewport} if viewport else {}))
    page = context.new_page()
    fetched = served_paths(page, base, outdir)
    page.goto(f"{base}{path}")
    page.wait_for_load_state("networkidle")
    context.close()
    bodies = [file.read_bytes() for file in fetched]
    return {
        "requests": len(bodies),
        "raw": sum(len(body) for body in bodies),
        "gzip": sum(len(gzip.compress(body, 6)) for body in bodies),
        "files": [file.relative_to(outdir).as_posix() for file in fetched],
    }


def directory_size(path: Path) -> int:
    return sum(file.stat().st_size for file in path.rglob("*") if file.is_file())


def measure(
    issues: int, runs: int, workdir: Path, rows: tuple[str, ...], large: int
) -> dict[str, Any]:
    srcdir = workdir / f"archive-{issues}"
    synthesize(issues, srcdir)
    runs = 1 if issues >= large else runs
    result: dict[str, Any] = {"issues": issues, "runs": runs}
    build = srcdir / "_build"
    if "clean-j1" in rows and issues < large:
        serial = []
        for _ in range(runs):
            shutil.rmtree(build, ignore_errors=True)
            serial.append(staged_build(srcdir, "1"))
        result["clean_j1"] = median_run(serial)
    clean, second = [], []
    for _ in range(runs):  # the state the later steps build upon is the last run's
        shutil.rmtree(build, ignore_errors=True)
        clean.append(staged_build(srcdir, "auto"))
        second.append(staged_build(srcdir, "auto"))
    result["clean_jauto"], result["second"] = median_run(clean), median_run(second)
    if "no-change" in rows:
        result["no_change"] = median_run([staged_build(srcdir, "auto") for _ in range(runs)])
    steps: tuple[tuple[str, str, Callable[[Path], None]], ...] = (
        ("add-issue", "add_issue", next_issue),
        ("edit-sentence", "edit_sentence", edit_sentence),
        ("edit-reference", "edit_reference", edit_reference_title),
    )
    for row, key, change in steps:
        if row in rows:
            change(srcdir)
            result[key] = median_run([staged_build(srcdir, "auto")])
        if row == "edit-sentence" and "preview" in rows:
            result["edit_preview"] = measure_preview(srcdir)
    if "content-path" in rows:
        # The last deploy ran radar check too: its cache is in _build, as on CI.
        check = [sys.executable, "-m", "juju_radar", "check", "--quiet"]
        subprocess.run(check, cwd=srcdir, check=True, capture_output=True)
        next_issue(srcdir)
        result["content_path"] = content_path(srcdir)
    outdir = build / "html"
    if "output" in rows:
        result["output_mib"] = directory_size(outdir.resolve()) / 2**20
        result["search_bundle"] = bundle_size(outdir)
    if "output" in rows or "search" in rows:
        result.update(browse(outdir, rows))
    return result


def content_path(srcdir: Path) -> dict[str, float]:
    """Seconds of each step the workflow's content path runs on a new issue, with the
    build tree of the last deploy (this site's ``_build``) in place."""
    radar = [sys.executable, "-m", "juju_radar"]
    timings: dict[str, float] = {}
    stamp = srcdir / "_build" / "build-started"
    stamp.touch()
    started = time.perf_counter()
    subprocess.run([*radar, "check", "--quiet"], cwd=srcdir, check=True, capture_output=True)
    timings["check"] = time.perf_counter() - started
    timings["build"] = staged_build(srcdir, "auto").wall
    started = time.perf_counter()
    links = [*radar, "links", "--newer-than", "_build/build-started", "_build/html"]
    subprocess.run(links, cwd=srcdir, check=True, capture_output=True)
    timings["links"] = time.perf_counter() - started
    timings["total"] = sum(timings.values())
    return timings


def measure_preview(srcdir: Path, path: Path = PREVIEW_BENCH) -> dict[str, Any]:
    module = preview_module(path)
    if module is None:
        return {"note": f"bench/{path.name} is not there yet"}
    return dict(module.preview_seconds(srcdir))


def browse(outdir: Path, rows: tuple[str, ...]) -> dict[str, Any]:
    """What a reader's browser fetches and waits for, on the published site."""
    from playwright.sync_api import sync_playwright

    outdir = outdir.resolve()
    result: dict[str, Any] = {}
    with serve(outdir) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        if "output" in rows:
            issue_page = sorted((outdir / "issues").rglob("20*.html"))[-1].relative_to(outdir)
            result["first_visit"] = first_visit(browser, base, outdir, issue_page.as_posix())
        if "search" in rows:
            result["search_cold"] = cold_query(browser, base, outdir)
            page = browser.new_page()
            shares = match_shares(page, base, outdir)
            result["search_match_shares"] = shares
            result["search_match_share_median"] = statistics.median(shares)
            api_runs(page, base, DEFAULT_RANKING)  # the first pass loads the chunks needed
            _, warm_ms = api_runs(page, base, DEFAULT_RANKING)
            result["search_warm_ms_median"] = statistics.median(warm_ms)
            # The same queries again in the same page: index chunks and fragments in memory.
            _, repeat_ms = api_runs(page, base, DEFAULT_RANKING, reload=False)
            result["search_repeat_ms_median"] = statistics.median(repeat_ms)
            # With the filter indexes loaded (the panel open), every search counts them.
            api_runs(page, base, DEFAULT_RANKING, reload=False, filters_open=True)
            _, filtered_ms = api_runs(page, base, DEFAULT_RANKING, reload=False, filters_open=True)
            result["search_repeat_filters_open_ms_median"] = statistics.median(filtered_ms)
        browser.close()
    return result


def versions() -> str:
    from importlib.metadata import version

    names = (
        "sphinx",
        "myst-parser",
        "sphinx-book-theme",
        "sphinxcontrib-bibtex",
        "pagefind-bin-extended",
    )
    listed = ", ".join(f"{name} {version(name)}" for name in names)
    return f"Python {platform.python_version()}, {listed}; {os.cpu_count()} cores"


def kib(count: float) -> str:
    return f"{count / 1024:.0f} KB"


STEPS = (
    ("clean_j1", "clean build `-j 1`"),
    ("clean_jauto", "clean build `-j auto`"),
    ("second", "second build (the spare tree's first; no change)"),
    ("no_change", "no-change rebuild"),
    ("add_issue", "add one issue"),
    ("edit_sentence", "edit a sentence of the newest issue: build"),
    ("edit_reference", "edit one reference title"),
)


def mib(value: float) -> str:
    return f"{value:,.0f} MiB"


def measure_rows(result: dict[str, Any]) -> dict[str, str]:
    """One column of the table: label -> formatted value."""
    rows = {}
    for key, label in STEPS:
        run = result.get(key)
        if run is None:
            continue
        rows[f"{label}: wall / CPU"] = f"{run['wall']:.1f} s / {run['cpu']:.1f} s"
        rows[f"{label}: peak memory, summed Rss (Pss)"] = (
            f"{mib(run['rss_mib'])} ({mib(run['pss_mib'])}), {run['processes']} processes"
        )
        rows[f"{label}: pages read / written"] = f"{run['read']:.0f} / {run['written']:.0f}"
        if key == "edit_sentence" and "edit_preview" in result:
            rows["edit a sentence of the newest issue: preview"] = preview_cell(
                result["edit_preview"]
            )
    if "clean_jauto" in result and not math.isnan(result["clean_jauto"]["search_index_s"]):
        rows["search index: time in the clean `-j auto` build"] = (
            f"{result['clean_jauto']['search_index_s']:.1f} s"
        )
    if "output_mib" in result:
        rows["output size"] = f"{result['output_mib']:.1f} MiB"
        bundle = result["search_bundle"]
        rows["search index: bundle on disk (index part) / files"] = (
            f"{bundle['total'] / 2**20:.1f} MiB ({bundle['index'] / 2**20:.1f} MiB) / "
            f"{bundle['files']}"
        )
    if "content_path" in result:
        path = result["content_path"]
        rows["content-only push: a new issue, check + build + links"] = (
            f"{path['total']:.1f} s (check {path['check']:.1f} s, build {path['build']:.1f} s, "
            f"links {path['links']:.1f} s)"
        )
    if "first_visit" in result:
        visit = result["first_visit"]
        rows["first visit of an issue page: raw / gzipped"] = (
            f"{kib(visit['raw'])} / {kib(visit['gzip'])} ({visit['requests']} requests)"
        )
    if "search_cold" in result:
        cold = result["search_cold"]
        rows["cold search query: runtime / index bytes"] = (
            f"{kib(cold['bytes']['runtime'])} / {kib(cold['bytes']['index'])}"
        )
        rows["cold search query: open `search.html?q=` to results shown"] = (
            f"{cold['page_to_results_ms']:.0f} ms"
        )
        rows["search: records a query matches, median share"] = (
            f"{result['search_match_share_median']:.2%}"
        )
        for key, label in (
            ("search_warm_ms_median", "warm search query (page reloaded, data of the top 8)"),
            ("search_repeat_ms_median", "repeated search query (all in memory)"),
            ("search_repeat_filters_open_ms_median", "repeated search query, filter panel open"),
        ):
            rows[f"{label}, median"] = f"{result[key]:.1f} ms"
    return rows


def preview_cell(preview: dict[str, Any]) -> str:
    if "note" in preview:
        return f"not measured: {preview['note']}"
    timings = [f"{name} {value:.2f} s" for name, value in preview.items() if is_number(value)]
    return "; ".join(timings) or json.dumps(preview, ensure_ascii=False)


def is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def table(results: list[dict[str, Any]], runs: int, large: int) -> str:
    intro = (
        f"Measured {time.strftime('%Y-%m-%d')} with `bench/build_bench.py --runs {runs}` "
        f"({versions()}); medians of {runs} run(s), one run from {large:,} issues up; "
        "peak memory is the largest of the runs. Each build is `make html` "
        "(`python -m juju_radar.build.staged -j auto`) in the synthetic site."
    )
    issues = [result["issues"] for result in results]
    return measure_table(intro, issues, [measure_rows(result) for result in results])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3650])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--large",
        type=int,
        default=2000,
        help="from this many issues up: one run of each step, and no `-j 1` build",
    )
    parser.add_argument(
        "--rows",
        nargs="+",
        choices=OPTIONAL_ROWS,
        default=list(OPTIONAL_ROWS),
        help="what to measure besides the clean and second builds (default: all)",
    )
    parser.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = parser.parse_args(argv)
    rows = tuple(args.rows)
    with tempfile.TemporaryDirectory(prefix="build-bench-") as workdir:
        results = [measure(size, args.runs, Path(workdir), rows, args.large) for size in args.sizes]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if not args.no_write:
        write_section("build-bench", "Build and scale", table(results, args.runs, args.large))
    return 0


if __name__ == "__main__":
    sys.exit(main())
