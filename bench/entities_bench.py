"""Entities benchmark (not a test): ``.venv/bin/python bench/entities_bench.py``.

The cost of entities (issue 57) on the synthetic corpus of ``build_bench.py``: the same
archive (``radar synth N+1``) without a registry and with a registry of ``--entities``
synthetic entities (``synthetic_registry``: one per English term the corpus draws from,
so that stories mention them as often as the corpus uses them, the rest named so that no
story mentions them, 500 in all by default). Each run builds both sides clean, then adds
one issue (a copy of the newest) to each and builds again; the side that goes first
alternates from one run to the next (the machine is shared: only ratios of alternated
runs mean anything), ``--runs`` runs (3 by default), medians of wall and CPU time (user +
system of the build and its children). Then ``radar entities suggest`` on the site with
the registry, ``--runs`` times, after one run that fills ``radar check``'s cache. Each
build is ``make html``'s (``python -m juju_radar.build.staged -j auto``); the numbers
are printed as JSON (``--write`` puts them in the "Entities" section of ``BENCHMARKS.md``).

The budgets (issue 57) are at 3,650 issues: the clean build with the registry at most
10 % over the one without, adding an issue at most 1 s more, ``suggest`` at most 10 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
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


def timed_suggest(srcdir: Path) -> dict[str, float]:
    """Wall and CPU time of one ``radar entities suggest`` (its process)."""
    command = [sys.executable, "-m", "juju_radar", "--root", str(srcdir), "entities", "suggest"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu}


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in ("wall", "cpu")}


SIDES = ("without", "with")


def measure(issues: int, entities: int, runs: int, workdir: Path) -> dict[str, Any]:
    pristine = workdir / f"archive-{issues}"
    synthesize(issues + 1, pristine)
    result: dict[str, Any] = {"issues": issues, "entities": entities, "runs": runs}
    builds: dict[str, list[Any]] = {
        f"{step}_{side}": [] for step in ("clean", "add") for side in SIDES
    }
    for run in range(runs):
        for side in SIDES if run % 2 == 0 else SIDES[::-1]:
            srcdir = workdir / f"site-{issues}-{side}"
            shutil.rmtree(srcdir, ignore_errors=True)
            shutil.copytree(pristine, srcdir)
            if side == "with":
                registry = synthetic_registry(entities)
                (srcdir / "entities.yaml").write_text(registry, encoding="utf-8")
            builds[f"clean_{side}"].append(staged_build(srcdir, "auto"))
            next_issue(srcdir)
            builds[f"add_{side}"].append(staged_build(srcdir, "auto"))
            print(
                run, side, builds[f"clean_{side}"][-1], builds[f"add_{side}"][-1], file=sys.stderr
            )
    for name, measured in builds.items():
        result[name] = median_run(measured)
    with_registry = workdir / f"site-{issues}-with"
    timed_suggest(with_registry)  # fills radar check's cache, as an editor's site has it
    result["suggest"] = median_of([timed_suggest(with_registry) for _ in range(runs)])
    return result


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| issues | entities | runs | clean, no registry | clean, registry | Δ | "
        "add an issue, no registry | add, registry | Δ | pages written (add) | `suggest` |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def pair(a: dict[str, float], b: dict[str, float]) -> str:
        return (
            f"{a['cpu']:.1f} s ({a['wall']:.1f} s) | {b['cpu']:.1f} s ({b['wall']:.1f} s) | "
            f"{(b['cpu'] / a['cpu'] - 1) * 100:+.0f} % ({b['cpu'] - a['cpu']:+.1f} s)"
        )

    for r in results:
        lines.append(
            f"| {r['issues']:,} | {r['entities']} | {r['runs']} | "
            f"{pair(r['clean_without'], r['clean_with'])} | "
            f"{pair(r['add_without'], r['add_with'])} | "
            f"{r['add_without']['written']:.0f} → {r['add_with']['written']:.0f} | "
            f"{r['suggest']['cpu']:.1f} s ({r['suggest']['wall']:.1f} s) |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3650])
    parser.add_argument("--entities", type=int, default=DEFAULT_ENTITIES)
    parser.add_argument("--runs", type=int, default=3, help="alternated runs a side")
    parser.add_argument("--write", action="store_true", help="write BENCHMARKS.md's section")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="entities-bench-") as workdir:
        results = [measure(size, args.entities, args.runs, Path(workdir)) for size in args.sizes]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if args.write:
        write_section("entities-bench", "Entities", table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
