"""Bounded input (issue 18): hostile pages and .bib files are refused at file:line by
`radar check` and by the build, quickly, and an exception in the build is one line
naming the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOTS, copy_site

from juju_radar.build.staged import sphinx_command

SECOND = ROOTS / "test-second-issue" / "issues" / "2026" / "2026-09-09.md"
SECOND_TEXT = SECOND.read_text(encoding="utf-8")
BUILD_TIMEOUT = 300
CHECK_TIMEOUT = 60


def site_with_page(tmp_path: Path, text: str, path: str = "issues/2026/2026-09-09.md") -> Path:
    srcdir = copy_site(tmp_path / "src")
    target = srcdir / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return srcdir


def with_front(field: str, value: str) -> str:
    """The second issue with one front-matter line replaced."""
    lines = SECOND_TEXT.split("\n")
    index = next(n for n, line in enumerate(lines) if line.startswith(f"{field}:"))
    lines[index] = f"{field}: {value}"
    return "\n".join(lines)


def check(srcdir: Path) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--format", "json", "--root", str(srcdir)],
        capture_output=True,
        text=True,
        timeout=CHECK_TIMEOUT,
    )
    assert result.returncode == 1, result.stderr
    return [problem for problem in json.loads(result.stdout) if problem["severity"] == "error"]


def build(srcdir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    outdir = srcdir.parent / "html"
    command = sphinx_command(srcdir, outdir, srcdir.parent / "doctrees", "-W", "--keep-going")
    command[-2:-2] = list(extra)
    result = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    assert result.returncode != 0, "the build must fail"
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result


def assert_refused(
    srcdir: Path, path: str, line: int, code: str
) -> subprocess.CompletedProcess[str]:
    errors = check(srcdir)
    assert (path, line, code) in {(p["path"], p["line"], p["code"]) for p in errors}, errors
    result = build(srcdir)
    assert f"{srcdir / path}:{line}: ERROR:" in result.stderr, result.stderr
    assert f"[radar.{code}]" in result.stderr
    return result


# --- dates -------------------------------------------------------------------------------


def test_a_page_dated_year_one_is_refused(tmp_path):
    text = with_front("date", "0001-01-01")
    srcdir = site_with_page(tmp_path, text, "issues/0001/0001-01-01.md")
    assert_refused(srcdir, "issues/0001/0001-01-01.md", 2, "date-out-of-range")


def test_a_date_after_the_span_is_refused(tmp_path):
    srcdir = site_with_page(tmp_path, with_front("date", "9999-12-31"), "issues/9999/9999-12-31.md")
    assert_refused(srcdir, "issues/9999/9999-12-31.md", 2, "date-out-of-range")


def test_the_span_is_configured_in_conf_py(tmp_path):
    srcdir = site_with_page(tmp_path, SECOND_TEXT)
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("\nradar_date_span = (2000, 2025)\n")
    assert_refused(srcdir, "issues/2026/2026-09-09.md", 2, "date-out-of-range")


def test_a_date_that_does_not_exist_is_refused(tmp_path):
    srcdir = site_with_page(tmp_path, with_front("date", "2026-13-45"))
    assert_refused(srcdir, "issues/2026/2026-09-09.md", 2, "bad-date")


# --- front matter ------------------------------------------------------------------------

ALIAS_BOMB = "\n".join(
    ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    + [f"{chr(98 + n)}: &{chr(98 + n)} [{','.join([f'*{chr(97 + n)}'] * 9)}]" for n in range(8)]
)


def test_an_alias_bomb_in_the_date_is_refused_at_once(tmp_path):
    text = with_front("date", "*i").replace("---\n", "---\n" + ALIAS_BOMB + "\n", 1)
    srcdir = site_with_page(tmp_path, text)
    assert_refused(srcdir, "issues/2026/2026-09-09.md", 3, "front-matter")


def test_huge_front_matter_is_refused(tmp_path):
    text = SECOND_TEXT.replace("---\n", "---\n" + "pad: " + "x" * 30_000 + "\n", 1)
    srcdir = site_with_page(tmp_path, text)
    assert_refused(srcdir, "issues/2026/2026-09-09.md", 1, "front-matter")


def test_deeply_nested_front_matter_is_refused(tmp_path):
    text = with_front("title", "[" * 5000 + "]" * 5000)
    srcdir = site_with_page(tmp_path, text)
    errors = check(srcdir)
    assert [p["code"] for p in errors] == ["front-matter"], errors
    result = build(srcdir)
    assert f"{srcdir / 'issues/2026/2026-09-09.md'}:" in result.stderr
    assert "[radar.front-matter]" in result.stderr


# --- headings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "heading",
    ["### 看 [首页](../../index.md)", "### 下载 {download}`文献 <../../references.bib>`"],
    ids=["internal-link", "download-role"],
)
def test_a_heading_holds_text_only(tmp_path, heading):
    text = SECOND_TEXT.replace("三个团队按论文披露", f"{heading}\n\n三个团队按论文披露", 1)
    srcdir = site_with_page(tmp_path, text)
    line = text.split("\n").index(heading) + 1
    result = assert_refused(srcdir, "issues/2026/2026-09-09.md", line, "heading-markup")
    assert "anchorname" not in result.stderr


# --- references.bib ----------------------------------------------------------------------


def site_with_bib(tmp_path: Path, extra: str) -> tuple[Path, int]:
    srcdir = copy_site(tmp_path / "src")
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text + "\n" + extra, encoding="utf-8")
    return srcdir, text.count("\n") + 2


def test_a_crossref_loop_is_refused(tmp_path):
    loop = "@misc{loopa,\n  title = {A},\n  crossref = {loopb},\n}\n\n"
    loop += "@misc{loopb,\n  title = {B},\n  crossref = {loopa},\n}\n"
    srcdir, first = site_with_bib(tmp_path, loop)
    assert_refused(srcdir, "references.bib", first + 2, "crossref-loop")


def test_a_crossref_to_itself_is_refused(tmp_path):
    srcdir, first = site_with_bib(tmp_path, "@misc{me,\n  title = {Me},\n  crossref = {me},\n}\n")
    assert_refused(srcdir, "references.bib", first + 2, "crossref-loop")


def test_a_long_crossref_chain_is_refused(tmp_path):
    chain = "".join(
        f"@misc{{link{n},\n  title = {{{n}}},\n  crossref = {{link{n + 1}}},\n}}\n\n"
        for n in range(5)
    )
    srcdir, first = site_with_bib(tmp_path, chain + "@misc{link5,\n  title = {5},\n}\n")
    assert_refused(srcdir, "references.bib", first + 2, "crossref-depth")


def test_a_megabyte_field_is_refused(tmp_path):
    entry = "@misc{huge,\n  title = {" + "长" * 1_000_000 + "},\n}\n"
    srcdir, first = site_with_bib(tmp_path, entry)
    errors = check(srcdir)
    assert ("references.bib", first + 1, "field-too-long") in {
        (p["path"], p["line"], p["code"]) for p in errors
    }


# --- no crash without a location ---------------------------------------------------------

CRASHING_EXTENSION = """
def _crash(app, doctree):
    if app.env.docname == "issues/2026/2026-09-09":
        raise KeyError("anchorname")


def setup(app):
    app.connect("doctree-read", _crash)
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_exception_is_one_line_naming_the_file(tmp_path, jobs):
    srcdir = site_with_page(tmp_path, SECOND_TEXT)
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(CRASHING_EXTENSION)
    result = build(srcdir, "-j", jobs, "-E")
    lines = [line for line in result.stderr.splitlines() if "internal-error" in line]
    assert lines == [
        f"{srcdir / 'issues/2026/2026-09-09.md'}: ERROR: the build failed on this file: "
        "KeyError: 'anchorname' [radar.internal-error]"
    ], result.stderr
    assert "sphinx-err" not in result.stderr
