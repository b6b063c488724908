"""Build benchmark (not a test): ``make bench`` or ``.venv/bin/python bench/build_bench.py``.

For each archive size (default 100 and 1,000 synthetic issues from ``radar synth``)
it measures, as medians over ``--runs`` runs:

- full build wall and CPU time at ``-j 1`` and ``-j auto``, and peak memory;
- a no-change rebuild; adding one issue; editing one reference's title (time, and the
  number of pages read and written by the incremental build);
- output size, first-visit bytes of an issue page in headless Chromium (raw and
  gzipped), and search: bytes of a cold query and warm query latency.

The numbers are written between the markers of the "Build and scale" section of
``BENCHMARKS.md`` (``--no-write`` only prints them).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from bench_report import measure_table, write_section  # noqa: E402
from conftest import CHROMIUM_ARGS, SEED_SITE  # noqa: E402
from search_bench import (  # noqa: E402
    DEFAULT_RANKING,
    api_runs,
    bundle_size,
    cold_query,
    served_paths,
)
from site_server import serve  # noqa: E402

from juju_radar.build.staged import sphinx_command  # noqa: E402


@dataclass
class Run:
    wall: float
    cpu: float
    peak_mib: float
    read: int
    written: int
    search_index_s: float  # Pagefind and its records, as the build reports it; nan if skipped


SEARCH_INDEX_LINE = re.compile(r"search index: \d+ records in ([\d.]+) s")


def sphinx(srcdir: Path, outdir: Path, jobs: str) -> Run:
    """One sphinx-build, timed through wait4 so CPU and memory are the child's own."""
    doctrees = outdir.parent / f"{outdir.name}.doctrees"
    before, doctrees_before = snapshot(outdir, "*.html"), snapshot(doctrees, "*.doctree")
    command = sphinx_command(srcdir, outdir, doctrees, "-j", jobs)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1788000000", PYTHONUNBUFFERED="1")
    started = time.perf_counter()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        log.seek(0)
        output = log.read().decode("utf-8", "replace")
    exit_code = os.waitstatus_to_exitcode(status)
    if exit_code:
        raise RuntimeError(f"sphinx-build failed ({exit_code}):\n{output[-3000:]}")
    indexed = SEARCH_INDEX_LINE.search(output)
    return Run(
        search_index_s=float(indexed.group(1)) if indexed else float("nan"),
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        peak_mib=usage.ru_maxrss / 1024,
        read=changed_files(doctrees_before, snapshot(doctrees, "*.doctree")),
        written=changed_files(before, snapshot(outdir, "*.html")),
    )


def snapshot(directory: Path, pattern: str) -> dict[str, int]:
    if not directory.exists():
        return {}
    return {str(path): path.stat().st_mtime_ns for path in directory.rglob(pattern)}


def changed_files(before: dict[str, int], after: dict[str, int]) -> int:
    """Files created or rewritten: a doctree is pickled exactly when its source was read."""
    return sum(1 for path, mtime in after.items() if before.get(path) != mtime)


def clean(outdir: Path) -> None:
    shutil.rmtree(outdir, ignore_errors=True)
    shutil.rmtree(outdir.parent / f"{outdir.name}.doctrees", ignore_errors=True)


def median_run(runs: list[Run]) -> dict[str, float]:
    return {
        "wall_s": statistics.median(run.wall for run in runs),
        "cpu_s": statistics.median(run.cpu for run in runs),
        "peak_mib": max(run.peak_mib for run in runs),
        "read": statistics.median(run.read for run in runs),
        "written": statistics.median(run.written for run in runs),
        "search_index_s": statistics.median(run.search_index_s for run in runs),
    }


def synthesize(issues: int, out: Path) -> None:
    # The frame and the seed sentences come from the tests' seed site, not the live archive.
    command = [sys.executable, "-m", "juju_radar", "synth", "--root", str(SEED_SITE)]
    command += [str(issues), "--out", str(out)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)


def next_issue(srcdir: Path) -> None:
    """A copy of the newest issue as the next day's, with fresh item ids."""
    newest = sorted((srcdir / "issues").rglob("20*.md"))[-1]
    date = newest.stem
    following = dt.date.fromisoformat(date) + dt.timedelta(days=1)
    text = newest.read_text(encoding="utf-8").replace(date, following.isoformat())
    text = re.sub(r":id: s\d+", f":id: s{following:%Y%m%d}", text)
    text = text.replace("status: draft", "status: published")
    target = srcdir / "issues" / f"{following:%Y}" / f"{following.isoformat()}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def edit_reference_title(srcdir: Path) -> None:
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("title = {合成文献 ", "title = {合成文献（修订） ", 1), "utf-8")


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


def measure(issues: int, runs: int, workdir: Path) -> dict[str, Any]:
    srcdir = workdir / f"archive-{issues}"
    synthesize(issues, srcdir)
    result: dict[str, Any] = {"issues": issues}
    for jobs in ("1", "auto"):
        outdir = workdir / f"html-{issues}-{jobs}"
        full = []
        for _ in range(runs):
            clean(outdir)
            full.append(sphinx(srcdir, outdir, jobs))
        result[f"full_j{jobs}"] = median_run(full)
    outdir = workdir / f"html-{issues}-auto"
    result["no_change"] = median_run([sphinx(srcdir, outdir, "auto") for _ in range(runs)])
    next_issue(srcdir)
    result["add_issue"] = median_run([sphinx(srcdir, outdir, "auto")])
    edit_reference_title(srcdir)
    result["edit_reference"] = median_run([sphinx(srcdir, outdir, "auto")])
    result["output_mib"] = directory_size(outdir) / 2**20
    result["search_bundle"] = bundle_size(outdir)
    issue_page = sorted((outdir / "issues").rglob("20*.html"))[-1].relative_to(outdir)
    from playwright.sync_api import sync_playwright

    with serve(outdir) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        result["first_visit"] = first_visit(browser, base, outdir, issue_page.as_posix())
        result["search_cold"] = cold_query(browser, base, outdir)
        page = browser.new_page()
        api_runs(page, base, DEFAULT_RANKING)  # first pass loads the chunks the queries need
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


def measure_rows(result: dict[str, Any]) -> dict[str, str]:
    """One column of the table: label -> formatted value."""
    rows = {}
    for jobs in ("1", "auto"):
        full = result[f"full_j{jobs}"]
        rows[f"full build `-j {jobs}`: wall / CPU"] = (
            f"{full['wall_s']:.1f} s / {full['cpu_s']:.1f} s"
        )
        rows[f"full build `-j {jobs}`: peak memory"] = f"{full['peak_mib']:.0f} MiB"
    for key, label in (
        ("no_change", "no-change rebuild"),
        ("add_issue", "add one issue"),
        ("edit_reference", "edit one reference title"),
    ):
        run = result[key]
        rows[f"{label}: wall"] = f"{run['wall_s']:.1f} s"
        rows[f"{label}: pages read / written"] = f"{run['read']:.0f} / {run['written']:.0f}"
    rows["output size"] = f"{result['output_mib']:.1f} MiB"
    visit = result["first_visit"]
    rows["first visit of an issue page: raw / gzipped"] = (
        f"{kib(visit['raw'])} / {kib(visit['gzip'])} ({visit['requests']} requests)"
    )
    cold = result["search_cold"]["bytes"]
    rows["cold search query: runtime / index bytes"] = (
        f"{kib(cold['runtime'])} / {kib(cold['index'])}"
    )
    rows["cold search query: open `search.html?q=` to results shown"] = (
        f"{result['search_cold']['page_to_results_ms']:.0f} ms"
    )
    if "search_bundle" in result:
        bundle = result["search_bundle"]
        rows["search index: bundle on disk (index part) / files"] = (
            f"{bundle['total'] / 2**20:.1f} MiB ({bundle['index'] / 2**20:.1f} MiB) / "
            f"{bundle['files']}"
        )
        rows["search index: time in the full `-j auto` build"] = (
            f"{result['full_jauto']['search_index_s']:.1f} s"
        )
    rows["warm search query (page reloaded, data of the top 8), median"] = (
        f"{result['search_warm_ms_median']:.1f} ms"
    )
    if "search_repeat_ms_median" in result:
        rows["repeated search query (all in memory), median"] = (
            f"{result['search_repeat_ms_median']:.1f} ms"
        )
    if "search_repeat_filters_open_ms_median" in result:
        rows["repeated search query, filter panel open, median"] = (
            f"{result['search_repeat_filters_open_ms_median']:.1f} ms"
        )
    return rows


def table(results: list[dict[str, Any]], runs: int) -> str:
    intro = (
        f"Measured {time.strftime('%Y-%m-%d')} with `bench/build_bench.py --runs {runs}` "
        f"({versions()}); medians of {runs} run(s)."
    )
    issues = [result["issues"] for result in results]
    return measure_table(intro, issues, [measure_rows(result) for result in results])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="build-bench-") as workdir:
        results = [measure(size, args.runs, Path(workdir)) for size in args.sizes]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if not args.no_write:
        write_section("build-bench", "Build and scale", table(results, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
