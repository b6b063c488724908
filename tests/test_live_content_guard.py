"""The guard of the live archive (tests/guard): a test that reads it, itself or through
a Python process it starts in the repository root, fails and names the file; one marked
``live_content`` does not; reading the repository's code and tests is not a read of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import live_content_guard

REPOSITORY_TESTS = """
import subprocess, sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent


def test_reads_an_issue():
    (REPOSITORY / "issues" / "2026-09-08.md").read_text()


def test_runs_python_that_reads_the_references_in_the_root():
    code = "open('references.bib').read()"
    subprocess.run([sys.executable, "-c", code], cwd=REPOSITORY, check=True)


def test_lists_the_live_build():
    list((REPOSITORY / "_build" / "html").iterdir())


def test_reads_its_own_tests_and_the_package():
    (REPOSITORY / "tests" / "data.txt").read_text()
    (REPOSITORY / "pkg" / "code.py").read_text()


@pytest.mark.live_content
def test_marked_reads_an_issue():
    (REPOSITORY / "issues" / "2026-09-08.md").read_text()
"""


def write_repository(repository: Path) -> None:
    files = {
        "issues/2026-09-08.md": "# 一期\n",
        "references.bib": "@misc{a, title={A}}\n",
        "_build/html/index.html": "<html></html>\n",
        "tests/data.txt": "data\n",
        "tests/test_repository.py": REPOSITORY_TESTS,
        "pkg/code.py": "",
    }
    for name, text in files.items():
        (repository / name).parent.mkdir(parents=True, exist_ok=True)
        (repository / name).write_text(text, encoding="utf-8")


def test_a_test_reading_the_live_archive_fails_and_names_the_file(tmp_path):
    repository = tmp_path / "repository"
    write_repository(repository)
    guard_folder = Path(live_content_guard.__file__).parent
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("RADAR_TEST_", "PYTEST_", "PYTHONPATH"))
    }
    env |= {
        "PYTHONPATH": str(guard_folder),
        live_content_guard.ROOT_ENV: str(repository),
        live_content_guard.NOT_LIVE_ENV: live_content_guard.SEPARATOR.join(["tests", "pkg"]),
    }
    command = [sys.executable, "-m", "pytest", "-q", "-p", "live_content_guard", "-p", "no:xdist"]
    command += ["-p", "no:cacheprovider", "--rootdir", str(repository), "tests"]
    result = subprocess.run(command, cwd=repository, capture_output=True, text=True, env=env)
    report = result.stdout
    assert "5 passed, 3 errors" in report, report  # three of the five fail at teardown
    for name in ("issues/2026-09-08.md", "references.bib", "_build/html"):
        assert str(repository / name) in report, name
    assert "ERROR at teardown of test_reads_an_issue" in report
    assert "ERROR at teardown of test_runs_python_that_reads_the_references_in_the_root" in report
    assert "ERROR at teardown of test_lists_the_live_build" in report
    assert "read the live archive" in report
