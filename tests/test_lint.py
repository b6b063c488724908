"""The code stays as clean as it is committed: ruff and mypy, configured in pyproject.toml."""

from __future__ import annotations

import ast
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


def test_test_modules_import_no_other_test_module():
    """What tests share lives in helper modules (conftest, site_builds, search_bundles,
    import_cases…): a test module imported by another would run its tests' set-up twice
    and tie the two together."""
    importing = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            if any(name.split(".")[-1].startswith("test_") for name in names):
                importing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not importing
