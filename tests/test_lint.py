"""The code stays as clean as it is committed: ruff and mypy, configured in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    result = run(sys.executable, "-m", "ruff", "check", "juju_radar", "tests", "bench", "tools")
    assert result.returncode == 0, result.stdout[-3000:]


def test_code_is_formatted():
    result = run(
        sys.executable, "-m", "ruff", "format", "--check", "juju_radar", "tests", "bench", "tools"
    )
    assert result.returncode == 0, result.stdout[-3000:]


def test_mypy_finds_nothing():
    result = run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout[-3000:]
