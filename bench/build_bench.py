"""Build benchmark (not a test): ``make bench`` or ``.venv/bin/python bench/build_bench.py``.

Two corpora (``--corpus``, default both), each at every size (default 100, 1,000 and
3,650 issues), built the way ``make html`` does (``python -m juju_radar.build.staged`` in
the site's folder: two build trees, the published one and the spare), and measured as
medians over ``--runs`` runs (one run from ``--large`` issues up):

- synthetic: the archive ``radar synth N+1`` writes (Zipf-like text, references shared
  across issues), one issue of its oldest year moved aside for the back-fill;
- imported: the archive editors make, every issue through ``radar import``: ``radar
  synth N+2 --exports``, then one import of all but two of them into a copy of the
  tests' seed site (every source label its own ``references.bib`` entry); the two held
  back are the newest export and one of the oldest year.

What is measured:

- the clean build (``-j auto``; ``-j 1`` too below ``--large``, synthetic only), then the
  second build (the spare tree's first, no change) and a no-change rebuild;
- synthetic: adding one issue (a copy of the newest), editing a sentence of the newest
  issue (the build, and the preview when ``bench/preview_bench.py`` is there), editing
  one reference's title, back-filling the issue moved aside;
- imported: the backlog import, then ``radar import`` of the newest export and the
  build, of the old one and the build, editing one reference's title; against the
  targets of issues 17 and 32;
- the content path of a daily push (what the deploy workflow runs for a content-only
  change): a new issue, then ``radar check --quiet``, the build and ``radar links``;
- for each: wall and CPU time (the build's processes), pages read and written, and peak
  memory summed over the build's processes (Rss, and Pss beside it; ``tree_memory.py``);
- output size, first-visit bytes of an issue page in headless Chromium (raw and gzipped),
  and search: bytes and time of a cold query, warm query latency, and the median share
  of the records a query of ``tests/search_queries.json`` matches.

``--rows`` measures only some of these (``--sizes 20 --rows clean search`` for a quick
look). The numbers are written between the markers of the "Build and scale" section of
``BENCHMARKS.md`` (synthetic) and of its "Imported archive" section (``--no-write`` only
prints them).
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
from conftest import SEED_SITE, launched_chromium  # noqa: E402
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

CORPORA = ("synthetic", "imported")
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
    "back-fill",
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


def synthesize(issues: int, out: Path, *options: str) -> None:
    # The frame and the seed sentences come from the tests' seed site, not the live archive.
    command = [sys.executable, "-m", "juju_radar", "synth", "--root", str(SEED_SITE)]
    command += [str(issues), "--out", str(out), "--text", "zipf", *options]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)


def backfill_choice(dated: list[Path]) -> Path:
    """Of files named by their date, in date order: one of the oldest year that is
    neither its first day nor the newest of all (the middle one of those)."""
    oldest_year = dated[0].stem[:4]
    candidates = [path for path in dated[1:-1] if path.stem.startswith(oldest_year)]
    if not candidates:
        raise SystemExit("the back-fill needs an archive of at least 2 issues")
    return candidates[len(candidates) // 2]


def issue_pages(srcdir: Path) -> list[Path]:
    return sorted((srcdir / "issues").rglob("20*.md"))


def bib_entries(srcdir: Path) -> int:
    text = (srcdir / "references.bib").read_text(encoding="utf-8")
    return len(re.findall(r"^@\w+\s*\{", text, flags=re.MULTILINE))


def corpus_size(srcdir: Path) -> dict[str, int]:
    return {"issue_pages": len(issue_pages(srcdir)), "bib_entries": bib_entries(srcdir)}


@dataclass(frozen=True)
class ImportedCorpus:
    srcdir: Path
    newest: Path  # the export held back for "add the newest issue"
    backfill: Path  # the export of the oldest year held back for the back-fill
    backlog_import_s: float


def import_exports(srcdir: Path, exports: list[Path]) -> float:
    """Seconds of one ``radar import`` of ``exports`` in ``srcdir``, as an editor runs it
    (an export of a day the archive has is skipped, which is not a failure)."""
    command = [sys.executable, "-m", "juju_radar", "import", "--lang", "en", *map(str, exports)]
    started = time.perf_counter()
    result = subprocess.run(command, cwd=srcdir, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"radar import failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return time.perf_counter() - started


def imported_corpus(issues: int, workdir: Path) -> ImportedCorpus:
    """A copy of the seed site with ``issues`` issues imported from ``radar synth
    --exports``, two exports more held back."""
    exports_dir = workdir / f"exports-{issues}"
    synthesize(issues + 2, exports_dir, "--exports")
    exports = sorted(exports_dir.glob("*.txt"))
    newest, backfill = exports[-1], backfill_choice(exports)
    srcdir = workdir / f"imported-{issues}"
    shutil.copytree(SEED_SITE, srcdir)
    backlog = [export for export in exports if export not in (newest, backfill)]
    return ImportedCorpus(srcdir, newest, backfill, import_exports(srcdir, backlog))


def newest_issue(srcdir: Path) -> Path:
    return issue_pages(srcdir)[-1]


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


# The start of the first title of a reference the corpus made: synth writes "合成文献 KEY",
# import "LABEL（ITEM TITLE）", and every item's first source label is 论文.
SYNTHETIC_TITLE = r"title = \{合成文献"
IMPORTED_TITLE = r"title\s*=\s*\{论文"


def edit_reference_title(srcdir: Path, title_start: str = SYNTHETIC_TITLE) -> None:
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    edited, count = re.subn(f"({title_start})", r"\1（修订）", text, count=1)
    if not count:
        raise RuntimeError(f"no title in {bib} starts like {title_start!r}")
    bib.write_text(edited, "utf-8")


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


def file_count(path: Path) -> int:
    return sum(1 for file in path.rglob("*") if file.is_file())


# A story's page and card (sphinx_ext/outputs/story_pages.py): issues/YYYY/YYYY-MM-DD/<anchor>.*
STORY_PAGES = "issues/*/*/*.html"
STORY_CARDS = "issues/*/*/*.png"


def story_outputs(outdir: Path) -> dict[str, int]:
    """How many story pages the site has, and the bytes of the pages and of their cards."""
    pages, cards = list(outdir.glob(STORY_PAGES)), list(outdir.glob(STORY_CARDS))
    return {
        "pages": len(pages),
        "page_bytes": sum(page.stat().st_size for page in pages),
        "cards": len(cards),
        "card_bytes": sum(card.stat().st_size for card in cards),
    }


def measure(
    corpus: str, issues: int, runs: int, workdir: Path, rows: tuple[str, ...], large: int
) -> dict[str, Any]:
    """One corpus at one size; its site is deleted after (two build trees each)."""
    runs = 1 if issues >= large else runs
    measure_corpus = measure_imported if corpus == "imported" else measure_synthetic
    result, srcdir = measure_corpus(issues, runs, workdir, rows, large)
    shutil.rmtree(srcdir)
    return {"corpus": corpus, "issues": issues, "runs": runs, **result}


def clean_builds(srcdir: Path, runs: int, rows: tuple[str, ...]) -> dict[str, Any]:
    """The clean and second builds, and the no-change rebuild."""
    clean, second = [], []
    for _ in range(runs):  # the state the later steps build upon is the last run's
        shutil.rmtree(srcdir / "_build", ignore_errors=True)
        clean.append(staged_build(srcdir, "auto"))
        second.append(staged_build(srcdir, "auto"))
    result: dict[str, Any] = {"clean_jauto": median_run(clean), "second": median_run(second)}
    if "no-change" in rows:
        result["no_change"] = median_run([staged_build(srcdir, "auto") for _ in range(runs)])
    return result


def measure_synthetic(
    issues: int, runs: int, workdir: Path, rows: tuple[str, ...], large: int
) -> tuple[dict[str, Any], Path]:
    srcdir = workdir / f"archive-{issues}"
    synthesize(issues + 1, srcdir)
    backfill = backfill_choice(issue_pages(srcdir))
    held_back = backfill.rename(workdir / f"backfill-{issues}.md")
    result: dict[str, Any] = corpus_size(srcdir)
    build = srcdir / "_build"
    if "clean-j1" in rows and issues < large:
        serial = []
        for _ in range(runs):
            shutil.rmtree(build, ignore_errors=True)
            serial.append(staged_build(srcdir, "1"))
        result["clean_j1"] = median_run(serial)
    result |= clean_builds(srcdir, runs, rows)
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
        warm_check_cache(srcdir)
        next_issue(srcdir)
        result["content_path"] = content_path(srcdir)
    if "back-fill" in rows:  # last: the rows before it are measured as they always were
        held_back.rename(backfill)
        result["back_fill"] = median_run([staged_build(srcdir, "auto")])
    outdir = build / "html"
    if "output" in rows:
        result["output_mib"] = directory_size(outdir.resolve()) / 2**20
        result["output_files"] = file_count(outdir.resolve())
        result["stories"] = story_outputs(outdir.resolve())
        result["search_bundle"] = bundle_size(outdir)
    if "output" in rows or "search" in rows:
        result.update(browse(outdir, rows))
    return result, srcdir


def measure_imported(
    issues: int, runs: int, workdir: Path, rows: tuple[str, ...], large: int
) -> tuple[dict[str, Any], Path]:
    corpus = imported_corpus(issues, workdir)
    srcdir = corpus.srcdir
    result: dict[str, Any] = {"backlog_import_s": corpus.backlog_import_s, **corpus_size(srcdir)}
    result |= clean_builds(srcdir, runs, rows)
    # The clean build removed _build and the check cache with it; an editor's is warm.
    warm_check_cache(srcdir)
    for row, key, export in (
        ("add-issue", "add_issue", corpus.newest),
        ("back-fill", "back_fill", corpus.backfill),
    ):
        if row in rows:
            result[f"{key}_import_s"] = import_exports(srcdir, [export])
            result[key] = median_run([staged_build(srcdir, "auto")])
    if "edit-reference" in rows:
        edit_reference_title(srcdir, IMPORTED_TITLE)
        result["edit_reference"] = median_run([staged_build(srcdir, "auto")])
    return result, srcdir


def warm_check_cache(srcdir: Path) -> None:
    """``radar check`` once, as the last deploy (or the editor) ran it: its cache is in
    ``_build``, which a clean build removes."""
    check = [sys.executable, "-m", "juju_radar", "check", "--quiet"]
    subprocess.run(check, cwd=srcdir, check=True, capture_output=True)


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
        browser = launched_chromium(playwright)
        if "output" in rows:
            issue_page = sorted((outdir / "issues").rglob("20*.html"))[-1].relative_to(outdir)
            result["first_visit"] = first_visit(browser, base, outdir, issue_page.as_posix())
            story_pages = sorted(outdir.glob(STORY_PAGES))
            if story_pages:
                story_page = story_pages[-1].relative_to(outdir).as_posix()
                result["story_first_visit"] = first_visit(browser, base, outdir, story_page)
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
    ("back_fill", "back-fill an issue in an older year"),
)
IMPORTED_STEPS = (
    ("clean_jauto", "clean build `-j auto`"),
    ("second", "second build (the spare tree's first; no change)"),
    ("no_change", "no-change rebuild"),
    ("add_issue", "add the newest issue: build"),
    ("back_fill", "back-fill an issue in an older year: build"),
    ("edit_reference", "edit one reference title"),
)
IMPORT_LABELS = {
    "add_issue": "add the newest issue: `radar import` of its export",
    "back_fill": "back-fill an issue in an older year: `radar import` of its export",
}
# Issues 17 and 32, at 3,650 imported issues: the build's wall time, and the peak.
TARGET_SECONDS = {
    "clean_jauto": 150.0,
    "add_issue": 10.0,
    "back_fill": 20.0,
    "edit_reference": 20.0,
}
TARGET_PEAK_PSS_MIB = 1.5 * 1024


def mib(value: float) -> str:
    return f"{value:,.0f} MiB"


def against(value: float, target: float, shown: str) -> str:
    return f"({'✓' if value <= target else '✗'} target ≤ {shown})"


def step_rows(label: str, run: dict[str, Any], target_s: float | None = None) -> dict[str, str]:
    """The rows of one build step; its wall time against ``target_s`` when there is one."""
    times = f"{run['wall']:.1f} s / {run['cpu']:.1f} s"
    if target_s is not None:
        times += " " + against(run["wall"], target_s, f"{target_s:g} s")
    return {
        f"{label}: wall / CPU": times,
        f"{label}: peak memory, summed Rss (Pss)": (
            f"{mib(run['rss_mib'])} ({mib(run['pss_mib'])}), {run['processes']} processes"
        ),
        f"{label}: pages read / written": f"{run['read']:.0f} / {run['written']:.0f}",
    }


def measure_rows(result: dict[str, Any]) -> dict[str, str]:
    """One column of the synthetic corpus's table: label -> formatted value."""
    rows: dict[str, str] = {}
    for key, label in STEPS:
        run = result.get(key)
        if run is None:
            continue
        rows |= step_rows(label, run)
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
        if "output_files" in result:
            rows["output files"] = f"{result['output_files']}"
        if "stories" in result:
            stories = result["stories"]
            rows["story pages / cards: count, MiB"] = (
                f"{stories['pages']}, {stories['page_bytes'] / 2**20:.1f} MiB / "
                f"{stories['cards']}, {stories['card_bytes'] / 2**20:.1f} MiB"
            )
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
    if "story_first_visit" in result:
        visit = result["story_first_visit"]
        rows["first visit of a story page: raw / gzipped"] = (
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
        "(`python -m juju_radar.build.staged -j auto`) in the synthetic site. It is written "
        "with one issue more, of which one of the oldest year is moved aside before the "
        "clean build and put back for the back-fill, the last step."
    )
    issues = [result["issues"] for result in results]
    return measure_table(intro, issues, [measure_rows(result) for result in results])


def imported_rows(result: dict[str, Any]) -> dict[str, str]:
    """One column of the imported corpus's table: label -> formatted value."""
    rows = {
        "backlog import (one `radar import` of the exports)": (
            f"{result['backlog_import_s']:.1f} s"
        ),
        "`references.bib` entries / issues before the builds": entries_per_issue(result),
    }
    builds = []
    for key, label in IMPORTED_STEPS:
        if key not in result:
            continue
        if key in IMPORT_LABELS:
            rows[IMPORT_LABELS[key]] = f"{result[f'{key}_import_s']:.1f} s"
        rows |= step_rows(label, result[key], TARGET_SECONDS.get(key))
        builds.append(result[key])
    peak = max(run["pss_mib"] for run in builds)
    rows["peak memory of all these builds, summed Pss"] = (
        f"{mib(peak)} {against(peak, TARGET_PEAK_PSS_MIB, '1.5 GiB')}"
    )
    return rows


def entries_per_issue(result: dict[str, Any]) -> str:
    entries, issues = result["bib_entries"], result["issue_pages"]
    return f"{entries:,} / {issues:,} ({entries / issues:.1f} an issue)"


def bib_comparison(imported: list[dict[str, Any]], synthetic: list[dict[str, Any]]) -> str:
    """How the imported archive's references differ from the synthetic one's, measured."""
    sentence = (
        "Every source label of an imported issue is its own `references.bib` entry, so "
        "adding an issue appends to `references.bib` (the synthetic corpus adds a copy of "
        "its newest issue, which cites the same entries and leaves it unchanged). Before "
        "the builds `references.bib` held "
    )
    sentence += "; ".join(entries_at_size(result) for result in imported)
    if synthetic:
        sentence += "; the synthetic archive (2–3 references an item, a quarter of them "
        sentence += "shared with earlier issues) "
        sentence += "; ".join(entries_at_size(result) for result in synthetic)
    return sentence + "."


def entries_at_size(result: dict[str, Any]) -> str:
    entries, issues = result["bib_entries"], result["issue_pages"]
    return (
        f"{entries:,} entries for {issues:,} issues at size {result['issues']:,} "
        f"({entries / issues:.1f} an issue)"
    )


def imported_table(
    imported: list[dict[str, Any]], synthetic: list[dict[str, Any]], runs: int, large: int
) -> str:
    intro = (
        f"Measured {time.strftime('%Y-%m-%d')} with `bench/build_bench.py --corpus imported "
        f"--runs {runs}` ({versions()}); medians of {runs} run(s), one run from {large:,} "
        "issues up; peak memory is the largest of the runs. The archive is made the way "
        "editors make it: `radar synth N+2 --exports` writes the synthetic archive's issues "
        "as export files, one `radar import` brings all but two of them into a copy of the "
        "tests' seed site (its own issue stays; an export of that day is skipped), and the "
        "two held back are imported for their rows: the newest, and one of the oldest year "
        "that is not its first day. Each build is `make html` (`python -m "
        "juju_radar.build.staged -j auto`) in that site; each step builds the spare tree, "
        "one step behind, so it also catches up the step before. "
        f"{bib_comparison(imported, synthetic)} Targets (issues 17 and 32) at 3,650 "
        "imported issues: ✓ met, ✗ not."
    )
    issues = [result["issues"] for result in imported]
    return measure_table(intro, issues, [imported_rows(result) for result in imported])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3650])
    parser.add_argument(
        "--corpus",
        nargs="+",
        choices=CORPORA,
        default=list(CORPORA),
        help="synthetic (`radar synth N`), imported (`radar import` of exports); default: both",
    )
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
        results = [
            measure(corpus, size, args.runs, Path(workdir), rows, args.large)
            for corpus in args.corpus
            for size in args.sizes
        ]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if not args.no_write:
        write_tables(results, args.runs, args.large)
    return 0


def write_tables(results: list[dict[str, Any]], runs: int, large: int) -> None:
    synthetic = [result for result in results if result["corpus"] == "synthetic"]
    imported = [result for result in results if result["corpus"] == "imported"]
    if synthetic:
        write_section("build-bench", "Build and scale", table(synthetic, runs, large))
    if imported:
        section = imported_table(imported, synthetic, runs, large)
        write_section("imported-bench", "Imported archive", section)


if __name__ == "__main__":
    sys.exit(main())
