"""The benchmark is a script, not a test; this small run keeps it from rotting."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

# The whole benchmark on a tiny archive: `make test` runs it, `make test-fast` not.
pytestmark = pytest.mark.slow


def tiny_run(script: str, *options: str) -> list[dict]:
    """``bench/<script>`` on an archive of 3 issues, once: the JSON report it prints."""
    command = [sys.executable, str(ROOT / "bench" / script), "--sizes", "3", "--runs", "1"]
    command += options
    # A hang guard: about a minute on a quiet machine.
    result = subprocess.run([*command, "--no-write"], capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    report: list[dict] = json.loads(result.stdout[result.stdout.index("[") :])
    return report


def test_build_benchmark_runs_on_a_tiny_archive():
    (tiny,) = tiny_run("build_bench.py", "--corpus", "synthetic")
    assert (tiny["corpus"], tiny["issues"], tiny["issue_pages"]) == ("synthetic", 3, 3)
    assert tiny["clean_j1"]["written"] >= 3 + 10  # the issues and the site pages
    assert tiny["clean_jauto"]["read"] == tiny["clean_j1"]["read"] >= 3
    assert tiny["second"]["read"] == 0, "the second build starts from a copy of the first"
    assert tiny["no_change"]["read"] == 0
    assert tiny["add_issue"]["read"] == 1, "adding an issue reads only that issue"
    assert tiny["edit_sentence"]["read"] == 1
    # The spare tree is one step behind: the content path's new issue, and the back-filled.
    assert tiny["back_fill"]["read"] == 2
    # Summed over the processes: the staged build, sphinx-build and its -j workers.
    assert tiny["clean_jauto"]["processes"] >= 3
    assert tiny["clean_jauto"]["rss_mib"] >= tiny["clean_jauto"]["pss_mib"] > 50
    assert "edit_preview" in tiny
    assert tiny["first_visit"]["gzip"] < tiny["first_visit"]["raw"]
    assert tiny["search_cold"]["bytes"]["index"] > 0
    assert tiny["clean_jauto"]["search_index_s"] > 0, "the build's search-index line was not found"
    assert tiny["search_bundle"]["files"] > 0
    assert tiny["search_repeat_filters_open_ms_median"] > 0
    shares = tiny["search_match_shares"]
    assert len(shares) == 32 and all(0 <= share <= 1 for share in shares) and max(shares) > 0


def test_build_benchmark_imports_a_tiny_archive():
    (tiny,) = tiny_run("build_bench.py", "--corpus", "imported")
    assert (tiny["corpus"], tiny["issues"]) == ("imported", 3)
    assert tiny["issue_pages"] == 3 + 1, "the seed site's own issue stays"
    assert tiny["bib_entries"] > 3 * 4
    assert tiny["backlog_import_s"] > 0 and tiny["add_issue_import_s"] > 0
    assert tiny["second"]["read"] == tiny["no_change"]["read"] == 0
    assert tiny["add_issue"]["read"] == 1, "adding an issue reads only that issue"
    # One step behind: each build reads the step before's issue too.
    assert tiny["back_fill"]["read"] == 2
    # The back-filled issue: a reference's title changes the pages written, not read.
    assert tiny["edit_reference"]["read"] == 1 and tiny["edit_reference"]["written"] > 1


def test_editors_benchmark_runs_on_a_tiny_archive():
    (tiny,) = tiny_run("editors_bench.py")
    assert tiny["issues"] == 3
    assert tiny["backlog_import_s"] > 0 and tiny["one_import_s"] > 0
    assert tiny["check_cold_s"] > 0 and tiny["check_warm_s"] > 0
    assert tiny["cache_mib"] > 0, "radar check left its cache in _build/radar-check"
