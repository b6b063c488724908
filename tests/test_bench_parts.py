"""Parts of the build benchmark: peak memory summed over the process tree (forked
children too), the preview step taken from ``bench/preview_bench.py`` when there, and
the imported corpus (its set-up and its steps' imports, without building it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SEED_SITE

sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests" / "browser")]

from build_bench import (  # noqa: E402
    IMPORTED_TITLE,
    Run,
    backfill_choice,
    bib_entries,
    edit_reference_title,
    import_exports,
    imported_corpus,
    imported_rows,
    issue_pages,
    measure_preview,
    measure_rows,
    story_outputs,
)
from tree_memory import TreeMemory  # noqa: E402

# A parent holding 60 MiB forks two children that each allocate 60 MiB more of their own,
# say so, and hold it until their input closes (whatever the machine's speed).
FORKING = """
import os, sys
held = bytearray(60 * 2**20)
children = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        own = bytearray(60 * 2**20)
        os.write(1, b"ready\\n")
        sys.stdin.read()
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
"""


@pytest.mark.site
def test_peak_memory_counts_forked_children():
    process = subprocess.Popen(
        [sys.executable, "-c", FORKING], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    memory = TreeMemory(process.pid, interval=0.1)
    with memory as peak:
        assert [process.stdout.readline() for _ in range(2)] == [b"ready\n"] * 2
        memory.sample()  # the tree at its largest, both children holding their memory
        process.stdin.close()
        process.wait()
    assert peak.processes == 3
    # Pss: 60 MiB (shared by three) + 2 x 60 MiB own; the largest single process has 120.
    assert 175 < peak.pss_mib < 260
    assert peak.rss_mib > peak.pss_mib + 100  # each child's Rss counts the shared 60 MiB too


RUN = {"wall": 1.0, "cpu": 1.0, "rss_mib": 1, "pss_mib": 1, "processes": 2, "read": 1, "written": 3}


def test_the_preview_step_runs_preview_bench_when_it_is_there(tmp_path):
    missing = measure_preview(tmp_path, tmp_path / "preview_bench.py")
    assert missing == {"note": "bench/preview_bench.py is not there yet"}
    module = tmp_path / "preview_bench.py"
    module.write_text(
        "def preview_seconds(srcdir):\n"
        "    return {'save_to_page': 1.25, 'site': srcdir.name, 'skipped': True}\n"
    )
    measured = measure_preview(tmp_path / "site", module)
    assert measured == {"save_to_page": 1.25, "site": "site", "skipped": True}
    rows = measure_rows({"issues": 3, "edit_sentence": RUN, "edit_preview": measured})
    assert rows["edit a sentence of the newest issue: preview"] == "save_to_page 1.25 s"
    rows = measure_rows({"issues": 3, "edit_sentence": RUN, "edit_preview": missing})
    assert rows["edit a sentence of the newest issue: preview"] == (
        "not measured: bench/preview_bench.py is not there yet"
    )


def test_the_back_fill_is_of_the_oldest_year_neither_its_first_day_nor_the_newest():
    dates = ["2024-12-29", "2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02"]
    assert backfill_choice([Path(f"{date}.txt") for date in dates]).stem == "2024-12-31"
    assert backfill_choice([Path(f"2024-01-0{day}.md") for day in (1, 2, 3)]).stem == "2024-01-02"


def test_the_imported_corpus_holds_back_two_exports_and_imports_the_rest(tmp_path):
    corpus = imported_corpus(6, tmp_path)
    exports = sorted((tmp_path / "exports-6").glob("*.txt"))
    assert len(exports) == 8
    assert corpus.newest == exports[-1]
    assert corpus.backfill not in (exports[0], exports[-1])
    assert corpus.backfill.stem[:4] == exports[0].stem[:4], "of the oldest year"
    imported = {export.stem for export in exports} - {corpus.newest.stem, corpus.backfill.stem}
    seed_issues = {page.stem for page in issue_pages(SEED_SITE)}
    assert {page.stem for page in issue_pages(corpus.srcdir)} == imported | seed_issues
    # Every source label its own entry: 4-6 items an issue, at least one label each.
    assert bib_entries(corpus.srcdir) >= bib_entries(SEED_SITE) + 6 * 4
    assert corpus.backlog_import_s > 0

    pages, entries = set(issue_pages(corpus.srcdir)), bib_entries(corpus.srcdir)
    assert import_exports(corpus.srcdir, [corpus.newest]) > 0
    (added,) = set(issue_pages(corpus.srcdir)) - pages
    assert added.stem == corpus.newest.stem
    assert bib_entries(corpus.srcdir) > entries, "adding an issue appends to references.bib"

    bib = corpus.srcdir / "references.bib"
    before = bib.read_text(encoding="utf-8")
    edit_reference_title(corpus.srcdir, IMPORTED_TITLE)  # finds a title import wrote
    assert len(bib.read_text(encoding="utf-8")) == len(before) + len("（修订）")


def test_the_imported_table_says_each_measure_against_its_target():
    slow, quick = {**RUN, "wall": 151.0, "pss_mib": 1600}, {**RUN, "wall": 9.5}
    result = {
        "issues": 3,
        "backlog_import_s": 2.0,
        "bib_entries": 40,
        "issue_pages": 4,
        "clean_jauto": slow,
        "add_issue_import_s": 0.5,
        "add_issue": quick,
    }
    rows = imported_rows(result)
    assert rows["clean build `-j auto`: wall / CPU"] == "151.0 s / 1.0 s (✗ target ≤ 150 s)"
    assert rows["add the newest issue: build: wall / CPU"] == "9.5 s / 1.0 s (✓ target ≤ 10 s)"
    assert rows["add the newest issue: `radar import` of its export"] == "0.5 s"
    assert rows["`references.bib` entries / issues before the builds"] == "40 / 4 (10.0 an issue)"
    assert rows["peak memory of all these builds, summed Pss"] == ("1,600 MiB (✗ target ≤ 1.5 GiB)")


def test_the_gains_bench_turns_off_each_speed_acceleration_alone():
    from accel_gains import (
        ALL_ON,
        NONE,
        Recorded,
        configurations,
        environment,
        gains_table,
        label_name,
        speed_rows,
    )

    from juju_radar.sphinx_ext.config import acceleration_enabled

    names = speed_rows()
    assert "stored-bib-parse" in names and "quiet-config-report" not in names
    configs = dict(configurations(names))
    assert configs[ALL_ON] == {} and configs[NONE] == {"RADAR_ACCEL": "0"}
    assert [label_name(label) for label in configs] == ["every", "none", *names]
    with environment(configs["without search-merge"]):
        assert not acceleration_enabled("search-merge")
        assert acceleration_enabled("stored-bib-parse")
    assert acceleration_enabled("search-merge")

    def run(order: int, clean: float, added: float) -> Recorded:
        return Recorded(
            order,
            True,
            Run(clean, clean, 100, 90, 3, 0, 0, 1.0),
            Run(added, added, 1, 1, 1, 0, 0, 1.0),
        )

    table = gains_table(10, 40, {ALL_ON: [run(0, 90, 9)], NONE: [run(1, 130, 12), run(2, 120, 12)]})
    assert "| none (RADAR_ACCEL=0) | 2 | 125.0 | +28% | 12.0 | +25% | 90 |" in table
    assert "medians of 1–2 run(s)" in table


def test_the_gains_bench_compares_each_run_with_the_nearest_run_like_it():
    """The machine's speed drifts and other work slows a run: each run is compared with
    the run of every acceleration nearest to it made in its conditions. Here each saves
    50 %; pooled medians would say 62 %, the nearest run whatever its conditions 70 %."""
    from accel_gains import ALL_ON, Recorded, gains_table, saved_shares

    def run(order: int, wall: float, quiet: bool = True) -> Recorded:
        return Recorded(order, quiet, *(Run(wall, wall, 1, 1, 1, 0, 0, 1.0),) * 2)

    baselines = [run(0, 50), run(2, 100), run(4, 60, quiet=False)]
    runs = {ALL_ON: baselines, "without x": [run(1, 120, quiet=False), run(5, 200)]}
    assert saved_shares(runs) == {"without x": ("+50%", "+50%")}
    table = gains_table(10, 40, runs)
    assert "| every acceleration | 3 (1) | 60.0 |" in table
    assert "| without x | 2 (1) | 160.0 | +50% |" in table


def test_the_gains_bench_adds_its_runs_to_a_record(tmp_path):
    from accel_gains import ALL_ON, NONE, record_run, recorded_references, recorded_runs

    record = tmp_path / "gains.jsonl"
    record_run(record, 10, 40, NONE, Run(5, 5, 1, 1, 1, 0, 0, 1.0), Run(2, 2, 1, 1, 1, 0, 0, 1.0))
    record_run(record, 10, 40, ALL_ON, Run(4, 4, 1, 1, 1, 0, 0, 1.0), Run(1, 1, 1, 1, 1, 0, 0, 1.0))
    record_run(record, 20, 80, ALL_ON, Run(9, 9, 1, 1, 1, 0, 0, 1.0), Run(1, 1, 1, 1, 1, 0, 0, 1.0))
    record_run(
        record, 10, 40, ALL_ON, Run(6, 6, 1, 1, 1, 0, 0, 1.0), Run(1, 1, 1, 1, 1, 0, 0, 1.0), False
    )
    runs = recorded_runs(record, 10, [ALL_ON, NONE])
    assert list(runs) == [ALL_ON, NONE]
    assert recorded_references(record, 10) == 40 and recorded_references(record, 20) == 80
    assert [(run.order, run.quiet, run.clean.wall) for run in runs[ALL_ON]] == [
        (1, True, 4),
        (2, False, 6),
    ]


def test_the_register_shows_each_gain_as_recorded(tmp_path):
    from accel_gains import ALL_ON, record_run, register_gains

    def run(wall: float) -> Run:
        return Run(wall, wall, 1, 1, 1, 0, 0, 1.0)

    record = tmp_path / "gains.jsonl"
    assert register_gains(10, record) == {}
    record_run(record, 10, 40, ALL_ON, run(90), run(9))
    record_run(record, 10, 40, "without search-merge", run(100), run(8))
    record_run(record, 10, 40, "without search-merge", run(150), run(10))
    assert register_gains(10, record) == {
        "search-merge": "clean +25%, add an issue -1% (median of 2 run(s))"
    }


def test_the_documented_gains_are_the_records_and_written_from_it(tmp_path):
    """The documentation reads bench/accel_gains.json (make docs runs no bench code): it
    is what the committed record gives, and write_gains writes what register_gains says."""
    import json

    from accel_gains import ALL_ON, GAINS, record_run, register_gains, write_gains

    assert json.loads(GAINS.read_text(encoding="utf-8")) == register_gains()
    record, written = tmp_path / "gains.jsonl", tmp_path / "gains.json"
    record_run(
        record, 3650, 40, ALL_ON, Run(90, 90, 1, 1, 1, 0, 0, 1.0), Run(9, 9, 1, 1, 1, 0, 0, 1.0)
    )
    record_run(
        record,
        3650,
        40,
        "without search-merge",
        Run(100, 100, 1, 1, 1, 0, 0, 1.0),
        Run(9, 9, 1, 1, 1, 0, 0, 1.0),
    )
    write_gains(record, written)
    assert json.loads(written.read_text(encoding="utf-8")) == {
        "search-merge": "clean +10%, add an issue +0% (median of 1 run(s))"
    }


def test_lighthouse_s_table_gives_each_page_s_median_against_the_target():
    """bench/lighthouse_bench.py: the performance score is measured there, not tested."""
    from lighthouse_bench import page_row

    def report(score: float, blocking: float) -> dict:
        audit = {"score": 0.5, "displayValue": f"{blocking:.0f} ms"}
        return {
            "categories": {
                "performance": {
                    "score": score,
                    "auditRefs": [{"id": "total-blocking-time", "weight": 30}],
                }
            },
            "audits": {"total-blocking-time": {**audit, "numericValue": blocking}},
        }

    slow = [report(0.73, 1780), report(0.74, 1500), report(0.99, 90)]
    assert page_row("stats.html", slow) == (
        "| `stats.html` | 74 (under the target) | 73, 74, 99 | 1500 | total-blocking-time |"
    )
    assert page_row("index.html", [report(0.98, 10)]).startswith("| `index.html` | 98 | 98 |")


def test_the_bench_counts_story_pages_and_cards_and_reports_them(tmp_path):
    story = tmp_path / "issues" / "2026" / "2026-09-08"
    story.mkdir(parents=True)
    (story / "a.html").write_bytes(b"x" * 100)
    (story / "a.png").write_bytes(b"x" * 300)
    (story.parent / "2026-09-08.html").write_bytes(b"the issue page is not a story")
    found = story_outputs(tmp_path)
    assert found == {"pages": 1, "page_bytes": 100, "cards": 1, "card_bytes": 300}
    visit = {"raw": 4096, "gzip": 2048, "requests": 3}
    bundle = {"total": 0, "index": 0, "files": 0}
    rows = measure_rows(
        {
            "output_mib": 1.0,
            "output_files": 12,
            "stories": found,
            "search_bundle": bundle,
            "story_first_visit": visit,
        }
    )
    assert rows["output files"] == "12"
    assert rows["story pages / cards: count, MiB"] == "1, 0.0 MiB / 1, 0.0 MiB"
    assert rows["first visit of a story page: raw / gzipped"].endswith("(3 requests)")
