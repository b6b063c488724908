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
lines) that later invocations add to. The machine's speed drifts over hours, so a run is
compared with the run of every acceleration nearest to it in the record (the record is in
the order the runs were made), one made in the same conditions: ``--beside-other-work``
marks runs made while something else ran. A configuration's gain is the median of its
runs' paired shares; the table gives its median times too, with the run count. A share
near the run-to-run spread of the same configuration is not a gain.

The table goes between the markers of the "Acceleration gains" section of BENCHMARKS.md,
and each acceleration's gain into ``bench/accel_gains.json``, which the documentation's
register reads (``make docs`` installs only the build's packages: it runs no bench code);
``--no-write`` only prints the table.
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
# What the register's table in the documentation shows (docs/_ext/radar_accelerations.py).
GAINS = ROOT / "bench" / "accel_gains.json"
GAINS_ISSUES = 3650


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


@dataclasses.dataclass(frozen=True)
class Recorded:
    """One recorded run of a configuration: the clean build and the added issue's."""

    order: int  # its line in the record, which runs are appended to as they end
    quiet: bool  # False: made beside other work
    clean: Run
    added: Run


def saved_share(without: float, with_all: float) -> float:
    return (without - with_all) / without


def share_text(share: float) -> str:
    return f"{share:+.0%}"


def nearest_baseline(run: Recorded, baselines: list[Recorded]) -> Recorded:
    """The run of every acceleration made nearest in time to ``run``, in its conditions
    when there is one (the earlier of two as near)."""
    alike = [baseline for baseline in baselines if baseline.quiet == run.quiet] or baselines
    return min(alike, key=lambda baseline: (abs(baseline.order - run.order), baseline.order))


def gains_table(issues: int, entries: int, runs: dict[str, list[Recorded]]) -> str:
    """Each configuration's medians over its runs; ``runs`` lists every acceleration first."""
    shares = saved_shares(runs)
    counts = sorted({len(measured) for measured in runs.values()})
    lines = [
        f"{issues:,} issues imported ({entries:,} references); medians of "
        f"{'–'.join(map(str, counts))} run(s) per configuration (n; in brackets, those "
        f"made beside other work), round robin; {machine()}. Saved: the share of the "
        "build without it that the acceleration saves, the median over its runs of each "
        "one against the run of every acceleration nearest to it.",
        "",
        "| configuration | n | clean s | saved | add an issue s | saved | peak Pss MiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, measured in runs.items():
        clean, added, pss = median_runs(measured)
        clean_saved, added_saved = shares.get(label, ("", ""))
        lines.append(
            f"| {label} | {run_count(measured)} | {clean:.1f} | {clean_saved} | {added:.1f} "
            f"| {added_saved} | {pss:.0f} |"
        )
    return "\n".join(lines)


def run_count(measured: list[Recorded]) -> str:
    beside = sum(not run.quiet for run in measured)
    return f"{len(measured)} ({beside})" if beside else str(len(measured))


def saved_shares(runs: dict[str, list[Recorded]]) -> dict[str, tuple[str, str]]:
    """What each configuration but every acceleration saves, clean and adding an issue:
    the median over its runs of each one's share against its nearest baseline."""
    baselines = runs[ALL_ON]
    shares = {}
    for label, measured in runs.items():
        if label == ALL_ON:
            continue
        paired = [(run, nearest_baseline(run, baselines)) for run in measured]
        clean = statistics.median(
            saved_share(run.clean.wall, base.clean.wall) for run, base in paired
        )
        added = statistics.median(
            saved_share(run.added.wall, base.added.wall) for run, base in paired
        )
        shares[label] = (share_text(clean), share_text(added))
    return shares


def median_runs(measured: list[Recorded]) -> tuple[float, float, float]:
    """The median clean and add-one wall times, and the largest peak Pss."""
    return (
        statistics.median(run.clean.wall for run in measured),
        statistics.median(run.added.wall for run in measured),
        max(max(run.clean.pss_mib, run.added.pss_mib) for run in measured),
    )


def register_gains(issues: int = GAINS_ISSUES, record: Path = RECORD) -> dict[str, str]:
    """What each acceleration saves at ``issues`` issues, by register name, from the
    record: ``write_gains`` keeps it for the register's table in the documentation."""
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


def write_gains(record: Path = RECORD, path: Path = GAINS) -> None:
    """``register_gains`` at ``GAINS_ISSUES`` issues as JSON, for the documentation."""
    gains = register_gains(GAINS_ISSUES, record)
    path.write_text(json.dumps(gains, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def measure_rounds(
    issues: int,
    rounds: int,
    measured: list[tuple[str, dict[str, str]]],
    record: Path,
    quiet: bool = True,
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
                record_run(record, issues, references, label, clean, added, quiet)
                print(label, f"{clean.wall:.1f} s", f"{added.wall:.1f} s", flush=True)


def record_run(
    record: Path,
    issues: int,
    references: int,
    label: str,
    clean: Run,
    added: Run,
    quiet: bool = True,
) -> None:
    line = {
        "issues": issues,
        "references": references,
        "configuration": label,
        "date": dt.date.today().isoformat(),
        "clean": dataclasses.asdict(clean),
        "added": dataclasses.asdict(added),
        **({} if quiet else {"beside_other_work": True}),
    }
    with record.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(line) + "\n")


def recorded_lines(record: Path, issues: int) -> list[dict[str, Any]]:
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return [line for line in map(json.loads, lines) if line["issues"] == issues]


def recorded_references(record: Path, issues: int) -> int:
    """The references of the archive the last run of ``issues`` issues built."""
    return recorded_lines(record, issues)[-1]["references"]


def recorded_runs(record: Path, issues: int, labels: list[str]) -> dict[str, list[Recorded]]:
    """Every recorded run of ``issues`` issues, by configuration, in ``labels``' order."""
    runs: dict[str, list[Recorded]] = {label: [] for label in labels}
    for order, line in enumerate(recorded_lines(record, issues)):
        if line["configuration"] in runs:
            runs[line["configuration"]].append(
                Recorded(
                    order,
                    not line.get("beside_other_work", False),
                    Run(**line["clean"]),
                    Run(**line["added"]),
                )
            )
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
    parser.add_argument(
        "--beside-other-work",
        action="store_true",
        help="mark the runs as made while something else ran (compared with their like)",
    )
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
        measure_rounds(args.issues, args.runs, measured, args.record, not args.beside_other_work)
    labels = [label for label, _ in configurations(names)]
    runs = recorded_runs(args.record, args.issues, labels)
    table = gains_table(args.issues, recorded_references(args.record, args.issues), runs)
    print(table)
    if not args.no_write:
        write_section("accel-gains", "Acceleration gains", table)
        write_gains(args.record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
