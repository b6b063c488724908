"""`make html` installs only what building needs; `make test` adds the test tools."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, copy_site

TEST_TOOLS = {"pytest", "playwright", "hypothesis", "ruff", "mypy", "beautifulsoup4"}
# Half the .venv that `make html` made when it installed the test tools too (657 MB).
BUILD_VENV_LIMIT_MB = 328


def requirement_names(requirements: list[str]) -> set[str]:
    return {requirement.split("=")[0].split("[")[0].strip().lower() for requirement in requirements}


def dry_run(target: str, folder: Path) -> list[str]:
    # Run under `make test` too: a make started from make prints the folders it enters.
    outer = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")
    env = {name: value for name, value in os.environ.items() if name not in outer}
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", target],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return result.stdout.splitlines()


def test_make_html_installs_the_package_without_extras_and_make_test_adds_them(tmp_path):
    for name in (
        "Makefile",
        "pyproject.toml",
        "tests/browser/axe/package-lock.json",
        "tests/browser/lighthouse/package-lock.json",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    html = dry_run("html", tmp_path)
    installs = [line for line in html if "pip install" in line]
    assert len(installs) == 1 and installs[0].endswith("-e .")
    assert html[-1].endswith("-m juju_radar.build.staged -j auto")
    test = dry_run("test", tmp_path)
    assert any(line.endswith("-e '.[test]'") for line in test)
    assert any(line.startswith("npm ci --prefix tests/browser/axe") for line in test)
    assert any(line.startswith("npm ci --prefix tests/browser/lighthouse") for line in test)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not requirement_names(project["dependencies"]) & TEST_TOOLS
    assert requirement_names(project["optional-dependencies"]["test"]) >= TEST_TOOLS


@pytest.mark.slow
def test_a_build_only_venv_is_at_most_half_the_old_size_and_builds_the_site(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [
            str(venv / "bin/pip"),
            "install",
            "-q",
            "--no-compile",
            "--disable-pip-version-check",
            "-e",
            str(ROOT),
        ],
        check=True,
    )
    # As installed: the build writes the bytecode of what it imports where Python may.
    size = sum(path.lstat().st_blocks * 512 for path in venv.rglob("*"))  # as du counts
    srcdir = copy_site(tmp_path / "src")
    subprocess.run(
        [
            str(venv / "bin/python"),
            "-m",
            "juju_radar.accel.sphinxbuild",
            "-b",
            "html",
            "-q",
            "-W",
            str(srcdir),
            str(tmp_path / "html"),
        ],
        check=True,
    )
    assert (tmp_path / "html" / "feeds" / "all.atom.xml").is_file()
    assert size / 2**20 <= BUILD_VENV_LIMIT_MB, f"{size / 2**20:.0f} MB"
    print(f"build-only .venv: {size / 2**20:.0f} MB")
    missing = subprocess.run(
        [str(venv / "bin/python"), "-c", "import playwright"], capture_output=True
    )
    assert missing.returncode != 0
