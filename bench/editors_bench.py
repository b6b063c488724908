"""Editors' tools benchmark (not a test): ``make bench`` or ``.venv/bin/python
bench/editors_bench.py``.

For each archive size (default 1,000 and 3,650 issues: ten years of one issue a day) it
writes that many export files with ``radar synth N --exports`` (the synthetic archive's
issues in the editors' export format) and measures, each as the editors run it (a
``radar`` process, Python's start-up included):

- a backlog import of all the exports into a fresh copy of the site (the tests' seed
  site without its issue): ``radar import exports/*.txt``;
- ``radar check`` cold (no ``_build/radar-check``), warm, and warm with ``--changed``;
- one more import into the full archive, warm (after a check) and cold (no cache), and
  the ``radar check`` after it.

Times are medians over ``--runs`` runs (the backlog import runs once). The numbers are
written between the markers of the "Editors' tools" section of ``BENCHMARKS.md``
(``--no-write`` only prints them).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]

from bench_report import machine, measure_table, write_section  # noqa: E402

SEED_SITE = ROOT / "tests" / "roots" / "test-seed"
SEED_ISSUE = Path("issues") / "2026" / "2026-09-08.md"
# As on an editor's machine, Python keeps the compiled modules it loads (some CI
# environments set PYTHONDONTWRITEBYTECODE, which makes every command compile them again).
EDITORS_ENV = {
    name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
}
TARGETS = {"backlog": 60.0, "one_import": 1.0, "check_warm": 3.0, "check_cold": 15.0}


def radar(site: Path, *args: str | Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run ``radar --root SITE ARGS``; its wall time and result."""
    command = [sys.executable, "-m", "juju_radar", "--root", str(site), *map(str, args)]
    start = time.perf_counter()
    # In English, whatever the locale or conf.py say: checked() reads the counts radar prints.
    env = {**EDITORS_ENV, "LANGUAGE": "en"}
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    return time.perf_counter() - start, result


def checked(
    site: Path, *args: str | Path, expect: str = ""
) -> tuple[float, subprocess.CompletedProcess[str]]:
    wall, result = radar(site, *args)
    if result.returncode != 0 or expect not in result.stderr:
        raise SystemExit(f"radar {' '.join(map(str, args))[:200]} failed:\n{result.stderr[-3000:]}")
    return wall, result


def fresh_site(out: Path) -> Path:
    """A copy of the seed site's frame: its pages, conf.py and references.bib, no issue."""
    shutil.copytree(SEED_SITE, out)
    (out / SEED_ISSUE).unlink()
    return out


def next_export(exports: Path, site: Path) -> Path:
    """The newest export, dated the day after the newest issue of ``site``."""
    newest = sorted((site / "issues").glob("*/*.md"))[-1].stem
    following = dt.date.fromisoformat(newest) + dt.timedelta(days=1)
    last = sorted(exports.glob("*.txt"))[-1]
    text = last.read_text(encoding="utf-8").replace(
        f"{dt.date.fromisoformat(last.stem):%Y.%m.%d}", f"{following:%Y.%m.%d}", 1
    )
    path = exports.parent / f"next-{following.isoformat()}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def cache_folder(site: Path) -> Path:
    return site / "_build" / "radar-check"


def median(values: list[float]) -> float:
    return statistics.median(values)


def measure(issues: int, runs: int, workdir: Path) -> dict[str, Any]:
    exports = workdir / f"exports-{issues}"
    checked(SEED_SITE, "synth", str(issues), "--exports", "--out", exports)
    site = fresh_site(workdir / f"site-{issues}")
    files = sorted(exports.glob("*.txt"))
    backlog, _ = checked(site, "import", *files, expect=f"{issues} imported, 0 skipped, 0 failed")
    bib_bytes = (site / "references.bib").stat().st_size

    cold, warm, changed = [], [], []
    for _ in range(runs):
        shutil.rmtree(cache_folder(site), ignore_errors=True)
        cold.append(checked(site, "check")[0])
        warm.append(checked(site, "check")[0])
        changed.append(checked(site, "check", "--changed")[0])
    cache_bytes = sum(path.stat().st_size for path in cache_folder(site).iterdir())

    import_warm, check_after, import_cold = [], [], []
    for _ in range(runs):
        checked(site, "check")
        one = next_export(exports, site)
        import_warm.append(checked(site, "import", one, expect="1 imported")[0])
        check_after.append(checked(site, "check")[0])
    for _ in range(runs):
        shutil.rmtree(cache_folder(site), ignore_errors=True)
        one = next_export(exports, site)
        import_cold.append(checked(site, "import", one, expect="1 imported")[0])
    return {
        "issues": issues,
        "backlog_import_s": backlog,
        "references_bib_mib": bib_bytes / 2**20,
        "check_cold_s": median(cold),
        "check_warm_s": median(warm),
        "check_changed_s": median(changed),
        "one_import_s": median(import_warm),
        "check_after_import_s": median(check_after),
        "one_import_cold_cache_s": median(import_cold),
        "cache_mib": cache_bytes / 2**20,
    }


def rows(result: dict[str, Any]) -> dict[str, str]:
    def seconds(key: str, target: str = "") -> str:
        value = result[key]
        goal = TARGETS.get(target)
        verdict = "" if goal is None else (" ✓" if value <= goal else f" ✗ (target {goal:g} s)")
        return f"{value:.2f} s{verdict}"

    return {
        "backlog import of all the exports into a fresh site": seconds(
            "backlog_import_s", "backlog"
        ),
        "`radar check`, cold (no `_build/radar-check`)": seconds("check_cold_s", "check_cold"),
        "`radar check`, warm": seconds("check_warm_s", "check_warm"),
        "`radar check --changed`, warm": seconds("check_changed_s", "check_warm"),
        "one more import into the full archive (after a check)": seconds(
            "one_import_s", "one_import"
        ),
        "`radar check` right after that import": seconds("check_after_import_s", "check_warm"),
        "one more import, no cache": seconds("one_import_cold_cache_s"),
        "references.bib / `_build/radar-check` after a check": (
            f"{result['references_bib_mib']:.1f} MiB / {result['cache_mib']:.1f} MiB"
        ),
    }


def table(results: list[dict[str, Any]], runs: int, note: str) -> str:
    load = os.getloadavg()[0]
    intro = (
        f"Measured {time.strftime('%Y-%m-%d')} with `bench/editors_bench.py --runs {runs}` "
        f"({machine()}; load average {load:.1f} at the end{note}); medians of {runs} run(s), "
        "the backlog import once; each a `radar` process, Python's start-up included. "
        "Targets (issue 19) at 3,650 issues: ✓ met, ✗ not."
    )
    issues = [result["issues"] for result in results]
    return measure_table(intro, issues, [rows(result) for result in results])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3650])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--note", default="", help="said after the load average, e.g. shared")
    parser.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="editors-bench-") as workdir:
        results = [measure(size, args.runs, Path(workdir)) for size in args.sizes]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if not args.no_write:
        note = f"; {args.note}" if args.note else ""
        write_section("editors-bench", "Editors' tools", table(results, args.runs, note))
    return 0


if __name__ == "__main__":
    sys.exit(main())
