"""Bounded input (issue 18): hostile pages and .bib files are refused at file:line by
`radar check` and by the build, quickly, and an exception in the build is one line
naming the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOTS, copy_site, sphinx_build

pytestmark = pytest.mark.site

SECOND = ROOTS / "test-second-issue" / "issues" / "2026" / "2026-09-09.md"
SECOND_TEXT = SECOND.read_text(encoding="utf-8")
# Guards against a hang (a pathological input must end), not measures: a loaded machine
# is slow, not wrong.
BUILD_TIMEOUT = 900
CHECK_TIMEOUT = 300


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
    """A build that must fail without a traceback, within ``BUILD_TIMEOUT``."""
    result = sphinx_build(
        srcdir, srcdir.parent / "html", *extra, check=False, timeout=BUILD_TIMEOUT
    )
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


def test_a_character_yaml_refuses_in_the_front_matter_is_refused_at_its_line(tmp_path):
    """PyYAML refuses U+0001 before reading anything: the check and the build once
    crashed on it instead of reporting it."""
    text = with_front("title", "第二\x01期")
    line = text.split("\n").index("title: 第二\x01期") + 1
    srcdir = site_with_page(tmp_path, text)
    assert_refused(srcdir, "issues/2026/2026-09-09.md", line, "front-matter")


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
    [
        "### 看 [首页](../../index.md)",
        "### 下载 {download}`文献 <../../references.bib>`",
        "看 [首页](../../index.md)\n---",
        "见 <https://example.org/>\n===",
    ],
    ids=["internal-link", "download-role", "setext-link", "setext-autolink"],
)
def test_a_heading_holds_text_only(tmp_path, heading):
    text = SECOND_TEXT.replace("三个团队按论文披露", f"{heading}\n\n三个团队按论文披露", 1)
    srcdir = site_with_page(tmp_path, text)
    line = text.split("\n").index(heading.split("\n")[0]) + 1
    result = assert_refused(srcdir, "issues/2026/2026-09-09.md", line, "heading-markup")
    assert "anchorname" not in result.stderr


@pytest.mark.parametrize("target", ["closing", "cite-taubench2026paper", "top", "Main Content"])
def test_a_target_taking_an_id_of_the_page_is_refused(tmp_path, target):
    text = SECOND_TEXT.replace("三个团队按论文披露", f"({target})=\n三个团队按论文披露", 1)
    srcdir = site_with_page(tmp_path, text)
    line = text.split("\n").index(f"({target})=") + 1
    assert_refused(srcdir, "issues/2026/2026-09-09.md", line, "reserved-id")


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


# --- issue 26: characters, limits, dates, code files --------------------------------------

ITEM = """:::{{radar-item}} 🧪 第 {n} 条
:id: item-{n}
:topic: agent
:score: 5
:verdict: read-original

正文 {n}。
:::
"""


def dated(day: int, text: str = SECOND_TEXT) -> tuple[str, str]:
    date = f"2026-09-{day:02d}"
    return f"issues/2026/{date}.md", text.replace("2026-09-09", date)


def many_items(count: int) -> str:
    items = "\n".join(ITEM.format(n=n) for n in range(count))
    return SECOND_TEXT.replace(":::{radar-item} 🔁", items + "\n:::{radar-item} 🔁", 1)


# (path, text, line, code): each refused at its file and line, by the check and the build.
HOSTILE_PAGES = [
    (*dated(11, SECOND_TEXT.replace("第二期的导语", "第二期\x01的导语")), 8, "control-character"),
    (
        *dated(12, SECOND_TEXT.replace("第二期的导语", "第二期\x1b[31m的导语")),
        8,
        "control-character",
    ),
    # "8.5/10" shown as "01/5.8" in listing lines.
    (
        *dated(13, SECOND_TEXT.replace("被更多团队复现", "\u202e被更多团队复现")),
        10,
        "control-character",
    ),
    (*dated(14, SECOND_TEXT.replace("第二期的导语", "第二期\u2028的导语")), 8, "control-character"),
    (*dated(15, SECOND_TEXT.replace("2026-09-09", "20260915", 1)), 2, "bad-date"),
    (*dated(16, SECOND_TEXT.replace("2026-09-09", "2026-W38-3", 1)), 2, "bad-date"),
    (*dated(17, many_items(101)), 8 + 9 * 100 + 2, "too-many-items"),
    (*dated(18, SECOND_TEXT + "\n" + "长" * 600_000 + "\n"), 1, "page-too-large"),
]


def test_hostile_characters_limits_and_dates_are_refused_at_file_and_line(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    for path, text, _, _ in HOSTILE_PAGES:
        (srcdir / path).write_text(text, encoding="utf-8")
    found = {(p["path"], p["line"], p["code"]) for p in check(srcdir)}
    for path, _, line, code in HOSTILE_PAGES:
        assert (path, line, code) in found, (path, code, sorted(found))
    result = build(srcdir)
    for path, _, line, code in HOSTILE_PAGES:
        assert f"{srcdir / path}:{line}: ERROR:" in result.stderr, (path, result.stderr)
        assert f"[radar.{code}]" in result.stderr
    assert "internal-error" not in result.stderr


def test_the_limits_are_set_in_conf_py(tmp_path):
    srcdir = site_with_page(tmp_path, many_items(4))  # six items; the seed issue has five
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("\nradar_max_items = 5\n")
    assert_refused(srcdir, "issues/2026/2026-09-09.md", 10 + 9 * 4 + 11, "too-many-items")


def test_a_docutils_conf_is_refused_and_never_read(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    written = tmp_path / "written-by-docutils"
    (srcdir / "docutils.conf").write_text(
        f"[general]\nraw_enabled: 1\nfile_insertion_enabled: 1\nrecord_dependencies: {written}\n",
        encoding="utf-8",
    )
    assert ("docutils.conf", 1, "refused-file") in {
        (p["path"], p["line"], p["code"]) for p in check(srcdir)
    }
    result = build(srcdir)
    assert f"{srcdir / 'docutils.conf'}:1: ERROR:" in result.stderr
    assert "[radar.refused-file]" in result.stderr
    assert not written.exists()
