"""Lighthouse's performance score (not a test): ``make bench`` or ``.venv/bin/python
bench/lighthouse_bench.py``.

The score is a timing: Lighthouse simulates a phone from what it observed, so a page
scores less on a loaded machine (the statistics page once scored 73, 74 and 99 under
``make test``'s load). The tests hold accessibility, best practices and SEO at 100
(``tests/browser/test_lighthouse.py``); this measures performance, on the pages they
audit (the seed site with the second issue, served gzipped on 127.0.0.1 under
``/archive/``), ``--runs`` times each (default 3, Lighthouse's advice for a score that
varies: docs/variability.md), against issue 29's target of 98. Run it on a quiet
machine. The table goes between the markers of the "Lighthouse performance" section of
BENCHMARKS.md (``--no-write`` only prints it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from bench_report import machine, write_section  # noqa: E402
from conftest import build_root_site  # noqa: E402
from lighthouse_audit import PAGES, failing_audits, missing_tools, run_lighthouse, scores  # noqa: E402
from site_server import serve  # noqa: E402

TARGET = 98  # issue 29
CATEGORY = "performance"


def page_row(path: str, reports: list[dict[str, Any]]) -> str:
    """The page's median score, its runs, and the median total blocking time."""
    found = [scores(report)[CATEGORY] for report in reports]
    blocking = statistics.median(
        report["audits"]["total-blocking-time"]["numericValue"] for report in reports
    )
    median = statistics.median(found)
    short = sorted(  # the audits' names, without what each run found
        {
            audit.split(" (", 1)[0]
            for report in reports
            for audit in failing_audits(report, CATEGORY)
        }
    )
    mark = "" if median >= TARGET else " (under the target)"
    return (
        f"| `{path}` | {median:g}{mark} | {', '.join(map(str, found))} | {blocking:.0f} "
        f"| {'; '.join(short[:3]) or '–'} |"
    )


def performance_table(runs: int) -> str:
    with tempfile.TemporaryDirectory(prefix="radar-lighthouse-") as folder:
        site = build_root_site("second-issue", Path(folder))
        with serve(site) as base:
            urls = [base + path for path in PAGES]
            rounds = [run_lighthouse(urls, (CATEGORY,)) for _ in range(runs)]
            rows = [
                page_row(path, [found[url] for found in rounds])
                for path, url in zip(PAGES, urls, strict=True)
            ]
    return "\n".join(
        [
            f"Lighthouse 12.2.3, mobile preset, Debian's Chromium; {runs} run(s) of each page, "
            f"one round after another; {machine()}. Target (issue 29): {TARGET}.",
            "",
            "| page | median | runs | total blocking time ms | audits short of full marks |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="audits of each page")
    parser.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = parser.parse_args(argv)
    missing = missing_tools()
    if missing:
        parser.error(missing)
    table = performance_table(args.runs)
    print(table)
    if not args.no_write:
        write_section("lighthouse-bench", "Lighthouse performance", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
