"""Side-by-side benchmark (not a test): ``make bench AGAINST=REF`` or ``.venv/bin/python
bench/compare_bench.py --against REF``.

The commit REF is cloned from this repository into ``_build/against/<its hash>/`` and
gets a ``.venv`` of its own (its Makefile's ``make html`` install). The same archive is
made once with HEAD's ``radar`` for each corpus and size, and copied for each side; then
every row runs alternately with REF and with HEAD (``--runs`` runs each, the side that
goes first swapped every run), each side in its own copy, driving that side's ``radar``
and build commands from this script (REF's own bench scripts may differ):

- imported corpus (``radar synth N+1 --exports``, all but the newest imported into a copy
  of the tests' seed site): the backlog import (into a fresh copy each run);
- both corpora: ``radar check`` cold (no ``_build/radar-check``) and warm; one more import
  after a check, and after ``references.bib`` was edited by other means (its first
  reference's title); ``radar refs missing``;
- with ``--rows build``: the clean build (``python -m juju_radar.build.staged -j auto``,
  as ``make html``), the second build and a no-change rebuild, adding an issue (an
  import, or a copy of the newest issue), editing one reference's title, then ``radar
  links`` on the written pages.

Each sample is a process's wall time and CPU time (user + system of the child and its
children: ``resource.getrusage(RUSAGE_CHILDREN)`` before and after). The report is one
Markdown table per corpus and size: medians of each side, their ratio (HEAD / REF), and
a mark on any ratio over 1.10. It is written between the markers of the "Side by side"
section of ``BENCHMARKS.md`` (``--no-write`` only prints it; ``--json`` keeps every
sample).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]

from bench_report import machine, write_section  # noqa: E402
from build_bench import issue_pages, next_issue, synthesize  # noqa: E402

SEED_SITE = ROOT / "tests" / "roots" / "test-seed"  # as build_bench's synthesize reads it
AGAINST_FOLDER = ROOT / "_build" / "against"
CORPORA = ("imported", "synthetic")
ROW_GROUPS = ("editors", "build")
SLOWER = 1.10
"""A ratio (HEAD / REF) above this is marked: more than 10 % slower than the reference."""
# As on an editor's machine (bytecode kept), in English (the counts are read), and the
# build's dates fixed.
ENVIRONMENT = {
    **{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
    "LANGUAGE": "en",
    "SOURCE_DATE_EPOCH": "1788000000",
}


@dataclass(frozen=True)
class Side:
    """One commit's checkout and the Python of its own ``.venv``."""

    name: str
    root: Path
    python: Path

    def radar(self, *args: str | Path) -> list[str]:
        return [str(self.python), "-m", "juju_radar", *map(str, args)]

    def build(self) -> list[str]:
        return [str(self.python), "-m", "juju_radar.build.staged", "-j", "auto"]


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float


PROBLEMS_FOUND = (0, 1)
"""Exit statuses of a command that ran to its end: 1 is problems found (the seed site's
pages may use what REF does not know yet)."""


def timed(command: list[str], cwd: Path, exits: tuple[int, ...] = (0,)) -> Sample:
    """Run ``command`` in ``cwd``: its wall time and the CPU time of it and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, env=ENVIRONMENT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in exits:
        shown = " ".join(command)[:300]
        raise SystemExit(f"{shown} failed ({result.returncode}) in {cwd}:\n{result.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(wall, cpu)


def run_quietly(command: list[str], cwd: Path, exits: tuple[int, ...] = (0,)) -> None:
    timed(command, cwd, exits)


# --- the reference's checkout ----------------------------------------------------------


def git(*args: str, cwd: Path = ROOT) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def clone_reference(ref: str, folder: Path = AGAINST_FOLDER, source: Path = ROOT) -> Path:
    """A checkout of ``ref`` of the repository at ``source``, in a folder of its own
    named by its hash (kept between runs)."""
    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}", cwd=source)
    checkout = folder / commit[:12]
    if not (checkout / ".git").exists():
        shutil.rmtree(checkout, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        git("clone", "--quiet", "--no-checkout", str(source), str(checkout))
        git("checkout", "--quiet", "--detach", commit, cwd=checkout)
    if git("rev-parse", "HEAD", cwd=checkout) != commit:
        raise SystemExit(f"{checkout} is not at {commit}: remove it and run again")
    return checkout


def installed(checkout: Path) -> Path:
    """The Python of the checkout's own ``.venv``, installed as its ``make html`` does."""
    python = checkout / ".venv" / "bin" / "python"
    stamp = checkout / ".venv" / ".installed-build"
    if not stamp.exists():
        subprocess.run(
            ["make", "--no-print-directory", str(stamp.relative_to(checkout))],
            cwd=checkout,
            check=True,
        )
    return python


def reference_side(args: argparse.Namespace) -> Side:
    if args.against_root:  # an existing checkout and its Python (the tests)
        return Side(args.against, Path(args.against_root), Path(args.against_python))
    checkout = clone_reference(args.against)
    return Side(args.against, checkout, installed(checkout))


def head_side() -> Side:
    return Side("HEAD", ROOT, Path(sys.executable))


# --- the archives ----------------------------------------------------------------------


def next_export(template: Path, site: Path, out: Path) -> Path:
    """``template`` dated the day after the newest issue of ``site``."""
    newest = issue_pages(site)[-1].stem
    following = dt.date.fromisoformat(newest) + dt.timedelta(days=1)
    text = template.read_text(encoding="utf-8").replace(
        f"{dt.date.fromisoformat(template.stem):%Y.%m.%d}", f"{following:%Y.%m.%d}", 1
    )
    path = out / f"next-{site.name}-{following.isoformat()}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def edit_reference_title(site: Path) -> None:
    """Mark the first title of ``references.bib`` as revised, as an editor would by hand."""
    bib = site / "references.bib"
    text = bib.read_text(encoding="utf-8")
    edited, count = re.subn(r"(?<![A-Za-z])(title\s*=\s*\{)", r"\1（修订）", text, count=1)
    if not count:
        raise SystemExit(f"no title in {bib}")
    bib.write_text(edited, encoding="utf-8")


@dataclass
class Corpus:
    """One archive, a copy of it for each side, and what its rows need."""

    kind: str
    issues: int
    work: Path
    sites: dict[str, Path] = field(default_factory=dict)
    exports: list[Path] = field(default_factory=list)  # the backlog (imported corpus)
    template: Path | None = None  # the export held back for the later imports

    def copy_for(self, sides: list[Side], archive: Path) -> None:
        """The archive's issues and ``references.bib`` in each side's own frame (its seed
        site's pages and ``conf.py``: a page of HEAD's may use what REF does not know)."""
        for side in sides:
            site = fresh_site(side, self.work / f"{self.kind}-{self.issues}-{slug(side.name)}")
            shutil.rmtree(site / "issues")
            shutil.copytree(archive / "issues", site / "issues")
            shutil.copy2(archive / "references.bib", site / "references.bib")
            self.sites[side.name] = site


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-") or "ref"


def make_corpus(kind: str, issues: int, work: Path, sides: list[Side]) -> Corpus:
    corpus = Corpus(kind, issues, work)
    if kind == "synthetic":
        archive = work / f"synthetic-{issues}"
        synthesize(issues, archive)
    else:
        exports_dir = work / f"exports-{issues}"
        synthesize(issues + 1, exports_dir, "--exports")
        *corpus.exports, newest = sorted(exports_dir.glob("*.txt"))
        corpus.template = newest
        archive = fresh_site(head_side(), work / f"imported-{issues}")
        import_command = [sys.executable, "-m", "juju_radar", "import", *map(str, corpus.exports)]
        run_quietly(import_command, archive)
    corpus.copy_for(sides, archive)
    shutil.rmtree(archive)
    return corpus


def fresh_site(side: Side, out: Path) -> Path:
    """A copy of the side's own seed site (its own issue stays, as in build_bench)."""
    shutil.copytree(side.root / SEED_SITE.relative_to(ROOT), out)
    return out


# --- the rows --------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One measure: what to do before each sample (not timed), and the command timed."""

    key: str
    label: str
    group: str
    command: Callable[[Side, Corpus, Path], list[str]]
    prepare: Callable[[Side, Corpus, Path], None] = lambda side, corpus, site: None
    corpora: tuple[str, ...] = CORPORA
    cwd: Callable[[Side, Corpus, Path], Path] = lambda side, corpus, site: site
    exits: tuple[int, ...] = (0,)


def remove_check_cache(side: Side, corpus: Corpus, site: Path) -> None:
    shutil.rmtree(site / "_build" / "radar-check", ignore_errors=True)


def warm_check(side: Side, corpus: Corpus, site: Path) -> None:
    run_quietly(side.radar("check"), site, PROBLEMS_FOUND)


def one_export(side: Side, corpus: Corpus, site: Path) -> list[str]:
    if corpus.template is None:  # the synthetic corpus: its newest export
        exports = corpus.work / f"one-export-{corpus.issues}"
        if not exports.exists():
            synthesize(1, exports, "--exports")
        corpus.template = sorted(exports.glob("*.txt"))[-1]
    export = next_export(corpus.template, site, corpus.work)
    return side.radar("import", export)


def after_bib_edit(side: Side, corpus: Corpus, site: Path) -> None:
    warm_check(side, corpus, site)
    edit_reference_title(site)


def backlog_site(side: Side, corpus: Corpus, site: Path) -> Path:
    return corpus.work / f"backlog-{slug(side.name)}"


def fresh_backlog_site(side: Side, corpus: Corpus, site: Path) -> None:
    target = backlog_site(side, corpus, site)
    shutil.rmtree(target, ignore_errors=True)
    fresh_site(side, target)


def clean_tree(side: Side, corpus: Corpus, site: Path) -> None:
    shutil.rmtree(site / "_build", ignore_errors=True)


def add_issue(side: Side, corpus: Corpus, site: Path) -> None:
    if corpus.kind == "imported":
        run_quietly(one_export(side, corpus, site), site)
    else:
        next_issue(site)


def build(side: Side, corpus: Corpus, site: Path) -> list[str]:
    return side.build()


def build_quietly(side: Side, corpus: Corpus, site: Path) -> None:
    """A build, so the next has nothing to change (the staged build updates its spare
    tree, one step behind the published one)."""
    run_quietly(side.build(), site)


def edit_then_build(side: Side, corpus: Corpus, site: Path) -> None:
    edit_reference_title(site)


ROWS = (
    Row(
        "backlog",
        "backlog import of the exports into a fresh site",
        "editors",
        lambda side, corpus, site: side.radar("import", *corpus.exports),
        fresh_backlog_site,
        corpora=("imported",),
        cwd=backlog_site,
    ),
    Row(
        "check_cold",
        "`radar check`, cold (no `_build`)",
        "editors",
        lambda side, corpus, site: side.radar("check"),
        remove_check_cache,
        exits=PROBLEMS_FOUND,
    ),
    Row(
        "check_warm",
        "`radar check`, warm",
        "editors",
        lambda side, corpus, site: side.radar("check"),
        exits=PROBLEMS_FOUND,
    ),
    Row("one_import", "one more import (after a check)", "editors", one_export, warm_check),
    Row(
        "import_after_bib_edit",
        "one more import after `references.bib` was edited by hand",
        "editors",
        one_export,
        after_bib_edit,
    ),
    Row(
        "refs_missing",
        "`radar refs missing`",
        "editors",
        lambda side, corpus, site: side.radar("refs", "missing"),
        exits=PROBLEMS_FOUND,
    ),
    Row("clean", "clean build `-j auto`", "build", build, clean_tree),
    Row("no_change", "no-change rebuild (after a build)", "build", build, build_quietly),
    Row("add_issue", "add one issue: build", "build", build, add_issue),
    Row("edit_reference", "edit one reference title: build", "build", build, edit_then_build),
    Row(
        "links",
        "`radar links` on the written pages",
        "build",
        lambda side, corpus, site: side.radar("links", site / "_build" / "html"),
        exits=PROBLEMS_FOUND,
    ),
)


def alternating(sides: list[Side], run: int) -> list[Side]:
    """The sides in the order of run ``run``: the one that goes first changes every run."""
    return sides if run % 2 == 0 else sides[::-1]


def measure_row(row: Row, corpus: Corpus, sides: list[Side], runs: int) -> dict[str, list[Sample]]:
    samples: dict[str, list[Sample]] = {side.name: [] for side in sides}
    for run in range(runs):
        for side in alternating(sides, run):
            site = corpus.sites[side.name]
            row.prepare(side, corpus, site)
            command = row.command(side, corpus, site)
            samples[side.name].append(timed(command, row.cwd(side, corpus, site), row.exits))
    return samples


def measure_corpus(
    kind: str,
    issues: int,
    sides: list[Side],
    runs: int,
    rows: list[Row],
    work: Path,
    progress: Callable[[dict[str, Any]], None] = lambda result: None,
) -> dict[str, Any]:
    """The corpus's rows; ``progress`` is given the result so far after each row."""
    corpus = make_corpus(kind, issues, work, sides)
    rows = [row for row in rows if kind in row.corpora]
    measured: dict[str, Any] = {}
    result = {"corpus": kind, "issues": issues, "runs": runs, "rows": measured}
    for row in rows:
        samples = measure_row(row, corpus, sides, runs)
        measured[row.key] = {
            "label": row.label,
            "samples": {
                name: [vars(sample) for sample in found] for name, found in samples.items()
            },
        }
        progress(result)
    for site in corpus.sites.values():
        shutil.rmtree(site, ignore_errors=True)
    return result


# --- the report ------------------------------------------------------------------------


def medians(samples: list[dict[str, float]]) -> tuple[float, float]:
    return (
        statistics.median(sample["wall"] for sample in samples),
        statistics.median(sample["cpu"] for sample in samples),
    )


def ratio_cell(head: float, reference: float) -> str:
    """HEAD / REF, marked when HEAD is more than 10 % slower."""
    if reference <= 0:
        return "–"
    ratio = head / reference
    return f"**{ratio:.2f} ✗**" if ratio > SLOWER else f"{ratio:.2f}"


def side_by_side(result: dict[str, Any], reference: str) -> str:
    """One corpus at one size: a row per measure, the reference's column then HEAD's."""
    lines = [
        f"{result['corpus']} corpus, {result['issues']:,} issues; medians of "
        f"{result['runs']} run(s) each, alternated:",
        "",
        f"| measure | {reference}: wall / CPU | HEAD: wall / CPU | ratio wall | ratio CPU |",
        "|---|---|---|---|---|",
    ]
    for row in result["rows"].values():
        ref_wall, ref_cpu = medians(row["samples"][reference])
        head_wall, head_cpu = medians(row["samples"]["HEAD"])
        lines.append(
            f"| {row['label']} | {ref_wall:.2f} s / {ref_cpu:.2f} s | "
            f"{head_wall:.2f} s / {head_cpu:.2f} s | {ratio_cell(head_wall, ref_wall)} | "
            f"{ratio_cell(head_cpu, ref_cpu)} |"
        )
    return "\n".join(lines)


def report(results: list[dict[str, Any]], reference: str, command: str) -> str:
    load = os.getloadavg()[0]
    intro = (
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} UTC with `{command}` ({machine()}; "
        f"load average {load:.1f} at the end), HEAD at {git('rev-parse', '--short', 'HEAD')} "
        f"against {reference}. CPU is user + system time of the command and its children. "
        f"A ratio is HEAD / {reference}; one over {SLOWER:.2f} is marked ✗."
    )
    return "\n\n".join([intro, *(side_by_side(result, reference) for result in results)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the commit to compare with (REF)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[100, 1000, 3650], help="archive sizes, in issues"
    )
    parser.add_argument("--corpus", nargs="+", choices=CORPORA, default=list(CORPORA))
    parser.add_argument("--rows", nargs="+", choices=ROW_GROUPS, default=list(ROW_GROUPS))
    parser.add_argument(
        "--only", nargs="+", choices=[row.key for row in ROWS], help="only these rows"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each row on each side")
    parser.add_argument("--json", type=Path, help="write every sample there")
    parser.add_argument("--no-write", action="store_true", help="print, do not edit BENCHMARKS.md")
    parser.add_argument("--against-root", help=argparse.SUPPRESS)  # a checkout already there
    parser.add_argument("--against-python", default=sys.executable, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.against == "HEAD":
        parser.error("--against names another commit than HEAD")
    sides = [reference_side(args), head_side()]
    rows = [
        row
        for row in ROWS
        if row.group in args.rows and (args.only is None or row.key in args.only)
    ]
    results: list[dict[str, Any]] = []

    def keep(result: dict[str, Any]) -> None:  # a long run's rows are kept as they come
        if args.json:
            done = [*results, result]
            args.json.write_text(json.dumps(done, ensure_ascii=False, indent=1), "utf-8")

    with tempfile.TemporaryDirectory(prefix="compare-bench-") as workdir:
        for kind in args.corpus:
            for size in args.sizes:
                results.append(
                    measure_corpus(kind, size, sides, args.runs, rows, Path(workdir), keep)
                )
    shown = " ".join(["bench/compare_bench.py", *(argv if argv is not None else sys.argv[1:])])
    text = report(results, args.against, shown)
    print(text)
    if not args.no_write:
        write_section("compare-bench", "Side by side", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
