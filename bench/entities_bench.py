"""Entities benchmark (not a test): ``.venv/bin/python bench/entities_bench.py``.

The cost of entities (issue 57) on the synthetic corpus of ``build_bench.py``: the same
archive (``radar synth N+1``) built clean without a registry, then with a registry of
``--entities`` synthetic entities (``synthetic_registry``: one per English term the
corpus draws from, so that stories mention them as often as the corpus uses them, the
rest named so that no story mentions them, 500 in all by default), then adding one
issue (a copy of the newest) to the site with the registry; and ``radar entities
suggest`` on it. Each build is ``make html``'s (``python -m juju_radar.build.staged -j
auto``), one run each; the numbers are printed as JSON (``--write`` puts them in the
"Entities" section of ``BENCHMARKS.md``).

The budgets (issue 57) are at 3,650 issues: the clean build with the registry at most
10 % over the one without, adding an issue at most 1 s more, ``suggest`` at most 10 s.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import write_section
from build_bench import ROOT, median_run, next_issue, staged_build, synthesize

from juju_radar.editors.synth_text import TERMS
from juju_radar.model.entities import KINDS

DEFAULT_ENTITIES = 500


def synthetic_registry(count: int) -> str:
    """``entities.yaml`` with ``count`` entities: the corpus's English terms first (those
    of two characters or more; "AI" would be every other story), then unmentioned ones."""
    entries = []
    terms = [term for term in TERMS if len(term) > 2][:count]
    for index in range(count):
        kind = KINDS[index % len(KINDS)].key
        if index < len(terms):
            name_zh = name_en = terms[index]
        else:
            name_zh, name_en = f"合成实体{index}号", f"Synthetic Entity {index}"
        entries.append(
            f"- id: e{index}\n  name_zh: {json.dumps(name_zh, ensure_ascii=False)}\n"
            f'  name_en: {json.dumps(name_en)}\n  aliases: ["SE-{index}"]\n  kind: {kind}\n'
        )
    return "".join(entries)


def timed_suggest(srcdir: Path) -> float:
    started = time.perf_counter()
    command = [sys.executable, "-m", "juju_radar", "--root", str(srcdir), "entities", "suggest"]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - started


def measure(issues: int, entities: int, workdir: Path) -> dict[str, Any]:
    srcdir = workdir / f"archive-{issues}"
    synthesize(issues + 1, srcdir)
    result: dict[str, Any] = {"issues": issues, "entities": entities}
    result["clean_without"] = median_run([staged_build(srcdir, "auto")])
    (srcdir / "entities.yaml").write_text(synthetic_registry(entities), encoding="utf-8")
    shutil.rmtree(srcdir / "_build", ignore_errors=True)
    result["clean_with"] = median_run([staged_build(srcdir, "auto")])
    next_issue(srcdir)
    result["add_issue_with"] = median_run([staged_build(srcdir, "auto")])
    result["suggest_s"] = timed_suggest(srcdir)
    return result


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| issues | entities | clean, no registry | clean, registry | Δ | add an issue | "
        "pages written | `suggest` |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        without, with_ = r["clean_without"]["wall"], r["clean_with"]["wall"]
        lines.append(
            f"| {r['issues']:,} | {r['entities']} | {without:.1f} s | {with_:.1f} s | "
            f"{(with_ / without - 1) * 100:+.0f} % | {r['add_issue_with']['wall']:.1f} s | "
            f"{r['add_issue_with']['written']:.0f} | {r['suggest_s']:.1f} s |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3650])
    parser.add_argument("--entities", type=int, default=DEFAULT_ENTITIES)
    parser.add_argument("--write", action="store_true", help="write BENCHMARKS.md's section")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="entities-bench-") as workdir:
        results = [measure(size, args.entities, Path(workdir)) for size in args.sizes]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if args.write:
        write_section("entities-bench", "Entities", table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
