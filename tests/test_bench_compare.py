"""The side-by-side benchmark (``bench/compare_bench.py``, ``make bench AGAINST=REF``):
its checkout of the reference, its alternation, its table, and a tiny run of its
editors' rows with this checkout standing for the reference (not timed)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

sys.path[:0] = [str(ROOT / "bench")]

from compare_bench import (  # noqa: E402
    Side,
    alternating,
    clone_reference,
    ratio_cell,
    side_by_side,
)


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_the_reference_is_cloned_at_its_commit_in_a_folder_of_its_own(tmp_path):
    source = tmp_path / "repo"
    source.mkdir()
    git(source, "init", "-q")
    for text in ("before", "after"):
        (source / "file.txt").write_text(text)
        git(source, "add", "file.txt")
        git(source, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", text)
    first = git(source, "rev-parse", "HEAD~1")
    checkout = clone_reference("HEAD~1", tmp_path / "against", source)
    assert checkout == tmp_path / "against" / first[:12]
    assert (checkout / "file.txt").read_text() == "before"
    assert (source / "file.txt").read_text() == "after", "the repository is left as it was"
    assert clone_reference(first, tmp_path / "against", source) == checkout  # kept


def test_each_run_swaps_the_side_that_goes_first():
    sides = [Side("REF", ROOT, Path(sys.executable)), Side("HEAD", ROOT, Path(sys.executable))]
    firsts = [alternating(sides, run)[0].name for run in range(4)]
    assert firsts == ["REF", "HEAD", "REF", "HEAD"]


def test_a_row_more_than_ten_percent_slower_is_marked():
    assert ratio_cell(1.10, 1.0) == "1.10"
    assert ratio_cell(1.11, 1.0) == "**1.11 ✗**"
    assert ratio_cell(0.5, 1.0) == "0.50"


def test_the_table_has_both_columns_and_the_ratios():
    samples = {
        "REF": [{"wall": 2.0, "cpu": 1.0}, {"wall": 4.0, "cpu": 3.0}, {"wall": 3.0, "cpu": 2.0}],
        "HEAD": [{"wall": 3.0, "cpu": 2.0}, {"wall": 3.3, "cpu": 2.0}, {"wall": 3.6, "cpu": 2.0}],
    }
    result = {
        "corpus": "imported",
        "issues": 3650,
        "runs": 3,
        "rows": {"check_cold": {"label": "`radar check`, cold", "samples": samples}},
    }
    table = side_by_side(result, "REF")
    assert "| measure | REF: wall / CPU | HEAD: wall / CPU | ratio wall | ratio CPU |" in table
    # Medians: REF 3.0 s / 2.0 s, HEAD 3.3 s / 2.0 s.
    assert "| `radar check`, cold | 3.00 s / 2.00 s | 3.30 s / 2.00 s | 1.10 | 1.00 |" in table


TABLE_ROW = re.compile(
    r"^\| [^|]+ \| [\d.]+ s / [\d.]+ s \| [\d.]+ s / [\d.]+ s \| [^|]+ \| [^|]+ \|$"
)


@pytest.mark.slow
def test_the_editors_rows_run_side_by_side_on_a_tiny_archive(tmp_path):
    """Both corpora at 3 issues, this checkout standing for the reference: a table per
    corpus, a row per editors' tool, both columns filled."""
    command = [
        sys.executable,
        str(ROOT / "bench" / "compare_bench.py"),
        "--against", "self",
        "--against-root", str(ROOT),
        "--sizes", "3",
        "--runs", "1",
        "--rows", "editors",
        "--no-write",
        "--json", str(tmp_path / "samples.json"),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    tables = result.stdout.split("corpus, 3 issues")
    assert len(tables) == 3, result.stdout  # the introduction, then imported and synthetic
    rows = [line for line in result.stdout.splitlines() if TABLE_ROW.match(line)]
    labels = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    assert labels.count("`radar check`, cold (no `_build`)") == 2
    assert labels.count("backlog import of the exports into a fresh site") == 1  # imported only
    assert labels.count("one more import after `references.bib` was edited by hand") == 2
    assert labels.count("`radar refs missing`") == 2
    assert len(rows) == 6 + 5
    kept = json.loads((tmp_path / "samples.json").read_text("utf-8"))
    assert [(result["corpus"], len(result["rows"])) for result in kept] == [
        ("imported", 6),
        ("synthetic", 5),
    ]
    for row in (row for result in kept for row in result["rows"].values()):
        assert [len(row["samples"][side]) for side in ("self", "HEAD")] == [1, 1]
