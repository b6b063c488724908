"""What each acceleration saves (not a test): ``.venv/bin/python bench/accel_gains.py``.

On the archive editors make (``build_bench.imported_corpus``: ``radar synth N+2
--exports``, all but two imported into a copy of the tests' seed site), each
configuration builds a fresh copy of the same site: the clean build, the second (the
spare tree's first), then ``radar import`` of the newest export and its build (add one
issue). The configurations: every acceleration on; none (``RADAR_ACCEL=0``); and every
acceleration of the register that is about speed turned off alone
(``RADAR_ACCEL_OFF=NAME``). An acceleration's gain is what turning it off costs, as a
share of the build without it; the register deletes any that saves under 3 % of both.
A clean build at 3,650 issues takes minutes, so the runs go round robin (every
configuration once, then again), and each is appended to a record (``--record``, JSON
lines) that later invocations add to: the table gives each configuration's median over
every recorded run of that size, with the run count. A share near the run-to-run spread
of the same configuration is not a gain.

The table goes between the markers of the "Acceleration gains" section of BENCHMARKS.md
(``--no-write`` only prints it).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from bench_report import machine, write_section  # noqa: E402
from build_bench import (  # noqa: E402
    Run,
    bib_entries,
    import_exports,
    imported_corpus,
    staged_build,
)

from juju_radar.accel.register import REGISTER  # noqa: E402
from juju_radar.sphinx_ext.config import ACCEL_ENV, ACCEL_OFF_ENV  # noqa: E402

ALL_ON = "every acceleration"
NONE = f"none ({ACCEL_ENV}=0)"
RECORD = ROOT / "bench" / "accel_gains.jsonl"


def speed_rows() -> list[str]:
    """The register's accelerations about speed (the others change a message)."""
    return [
        acceleration.name
        for acceleration, _ in REGISTER
        if not acceleration.gain.startswith("none (a message")
    ]


def label_name(label: str) -> str:
    """The name ``--only`` takes for a configuration's label."""
    return {ALL_ON: "every", NONE: "none"}.get(label, label.removeprefix("without "))


def configurations(names: list[str]) -> list[tuple[str, dict[str, str]]]:
    return [
        (ALL_ON, {}),
        (NONE, {ACCEL_ENV: "0"}),
        *((f"without {name}", {ACCEL_OFF_ENV: name}) for name in names),
    ]


@contextmanager
def environment(settings: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in (ACCEL_ENV, ACCEL_OFF_ENV)}
    for name in saved:
        os.environ.pop(name, None)
    os.environ.update(settings)
    try:
        yield
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value


def measure_configuration(
    pristine: Path, newest: Path, workdir: Path, settings: dict[str, str]
) -> tuple[Run, Run]:
    """The clean build and the added issue's build of a fresh copy of ``pristine``."""
    srcdir = workdir / "site"
    shutil.rmtree(srcdir, ignore_errors=True)
    shutil.copytree(pristine, srcdir)
    try:
        with environment(settings):
            clean = staged_build(srcdir, "auto")
            staged_build(srcdir, "auto")  # the spare tree's first build
            import_exports(srcdir, [newest])
            added = staged_build(srcdir, "auto")
    finally:
        shutil.rmtree(srcdir, ignore_errors=True)
    return clean, added


def saved_share(without: float, with_all: float) -> str:
    return f"{(without - with_all) / without:+.0%}"


def gains_table(issues: int, entries: int, runs: dict[str, list[tuple[Run, Run]]]) -> str:
    """Each configuration's medians over its runs; ``runs`` lists every acceleration first."""
    shares = saved_shares(runs)
    counts = sorted({len(measured) for measured in runs.values()})
    lines = [
        f"{issues:,} issues imported ({entries:,} references); medians of "
        f"{'–'.join(map(str, counts))} run(s) per configuration (n), round robin; "
        f"{machine()}. Saved: the share of the build without it that the acceleration "
        "saves.",
        "",
        "| configuration | n | clean s | saved | add an issue s | saved | peak Pss MiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, measured in runs.items():
        clean, added, pss = median_runs(measured)
        clean_saved, added_saved = shares.get(label, ("", ""))
        lines.append(
            f"| {label} | {len(measured)} | {clean:.1f} | {clean_saved} | {added:.1f} "
            f"| {added_saved} | {pss:.0f} |"
        )
    return "\n".join(lines)


def saved_shares(runs: dict[str, list[tuple[Run, Run]]]) -> dict[str, tuple[str, str]]:
    """What each configuration but every acceleration saves, clean and adding an issue."""
    clean_all, added_all, _ = median_runs(runs[ALL_ON])
    shares = {}
    for label, measured in runs.items():
        clean, added, _ = median_runs(measured)
        if label != ALL_ON:
            shares[label] = (saved_share(clean, clean_all), saved_share(added, added_all))
    return shares


def median_runs(measured: list[tuple[Run, Run]]) -> tuple[float, float, float]:
    """The median clean and add-one wall times, and the largest peak Pss."""
    return (
        statistics.median(clean.wall for clean, _ in measured),
        statistics.median(added.wall for _, added in measured),
        max(max(clean.pss_mib, added.pss_mib) for clean, added in measured),
    )


def register_gains(issues: int = 3650, record: Path = RECORD) -> dict[str, str]:
    """What each acceleration saves at ``issues`` issues, by register name, from the
    record: the register's table (``docs/_ext/radar_accelerations.py``) shows it."""
    labels = [label for label, _ in configurations(speed_rows())]
    runs = recorded_runs(record, issues, labels)
    if ALL_ON not in runs:
        return {}
    gains = {}
    for label, (clean, added) in saved_shares(runs).items():
        if label != NONE:
            gains[label_name(label)] = (
                f"clean {clean}, add an issue {added} (median of {len(runs[label])} run(s))"
            )
    return gains


def measure_rounds(
    issues: int, rounds: int, measured: list[tuple[str, dict[str, str]]], record: Path
) -> None:
    with tempfile.TemporaryDirectory(prefix="radar-accel-") as folder:
        workdir = Path(folder)
        corpus = imported_corpus(issues, workdir)
        references = bib_entries(corpus.srcdir)
        for _ in range(rounds):
            for label, settings in measured:
                clean, added = measure_configuration(
                    corpus.srcdir, corpus.newest, workdir, settings
                )
                record_run(record, issues, references, label, clean, added)
                print(label, f"{clean.wall:.1f} s", f"{added.wall:.1f} s", flush=True)


def record_run(
    record: Path, issues: int, references: int, label: str, clean: Run, added: Run
) -> None:
    line = {
        "issues": issues,
        "references": references,
        "configuration": label,
        "date": dt.date.today().isoformat(),
        "clean": dataclasses.asdict(clean),
        "added": dataclasses.asdict(added),
    }
    with record.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(line) + "\n")


def recorded_lines(record: Path, issues: int) -> list[dict[str, Any]]:
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return [line for line in map(json.loads, lines) if line["issues"] == issues]


def recorded_references(record: Path, issues: int) -> int:
    """The references of the archive the last run of ``issues`` issues built."""
    return recorded_lines(record, issues)[-1]["references"]


def recorded_runs(record: Path, issues: int, labels: list[str]) -> dict[str, list[tuple[Run, Run]]]:
    """Every recorded run of ``issues`` issues, by configuration, in ``labels``' order."""
    runs: dict[str, list[tuple[Run, Run]]] = {label: [] for label in labels}
    for line in recorded_lines(record, issues):
        if line["configuration"] in runs:
            runs[line["configuration"]].append((Run(**line["clean"]), Run(**line["added"])))
    return {label: measured for label, measured in runs.items() if measured}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issues", type=int, default=3650)
    parser.add_argument(
        "--runs", type=int, default=1, help="rounds over the configurations (0: the table only)"
    )
    parser.add_argument(
        "--only",
        nargs="*",
        help="configurations to measure, by register name, or 'every' and 'none' "
        "(default: all of them)",
    )
    parser.add_argument("--record", type=Path, default=RECORD, help="JSON lines of every run")
    parser.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    args = parser.parse_args(argv)
    names = speed_rows()
    chosen = set(args.only or ())
    unknown = chosen - {*names, "every", "none"}
    if unknown:
        parser.error(f"not in the register: {', '.join(sorted(unknown))}")
    measured = [
        (label, settings)
        for label, settings in configurations(names)
        if not chosen or label_name(label) in chosen
    ]
    if args.runs:
        measure_rounds(args.issues, args.runs, measured, args.record)
    labels = [label for label, _ in configurations(names)]
    runs = recorded_runs(args.record, args.issues, labels)
    table = gains_table(args.issues, recorded_references(args.record, args.issues), runs)
    print(table)
    if not args.no_write:
        write_section("accel-gains", "Acceleration gains", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
