"""``length-mismatch``: an issue whose ``length`` states a number of 字 off the counted one
by more than half of it is an error at its ``length`` line (issue 31, point 7a), in
``radar check`` as in the build (issue 52: one severity table)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SEED_SITE, copy_site
from import_cases import GOOD, run_import, site_files

from juju_radar.editors import cli
from juju_radar.editors.site_files import open_site
from juju_radar.model.issue_reader import parse_issue, stated_chars

ISSUE = "issues/2026/2026-09-09.md"
LENGTH_LINE = 5
# About 600 字 counted: the title, the lead, the item's title, body and source label,
# the closing's title and paragraph.
LEAD = "本期只有一条，讲的是一个长期跟踪的问题。" * 10
BODY = "这一条的正文写得比较长，为的是让计数落在六百字上下。" * 12
CLOSING = "今天的主线很简单：说多长，就写多长。" * 4


def issue_page(length: str) -> str:
    return f"""---
date: 2026-09-09
title: 篇幅核对
status: published
length: {length}
---

{LEAD}

:::{{radar-item}} 🧪 一条用来核对篇幅的条目
:id: length-check
:topic: agent
:score: 8
:verdict: keep-watching
:sources: 论文 <taubench2026paper>

{BODY}
:::

:::{{radar-closing}} 今天的主线

{CLOSING}
:::
"""


def counted() -> int:
    issue, _ = parse_issue(issue_page("约 600 字"), ISSUE, open_site(SEED_SITE).vocabulary)
    assert issue is not None
    return issue.stats.words


def length_problems(length: str) -> list[tuple[int, str, str]]:
    _, problems = parse_issue(issue_page(length), ISSUE, open_site(SEED_SITE).vocabulary)
    return [(p.line, p.severity, p.message) for p in problems if p.code == "length-mismatch"]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "src")


def run_check(root: Path, capsys: pytest.CaptureFixture[str], *options: str):
    """The exit status of ``radar check`` and its errors and warnings (not its notes)."""
    code = cli.main(["--root", str(root), "check", "--format", "json", *options])
    problems = json.loads(capsys.readouterr().out)
    return code, [p for p in problems if p["severity"] in ("error", "warning")]


def test_the_page_counts_about_600():
    assert 550 <= counted() <= 650


def test_radar_check_fails_at_the_length_line_naming_both_numbers(site, capsys):
    (site / ISSUE).write_text(issue_page("约 1,600 字 · 阅读约 5 分钟"), encoding="utf-8")
    code, problems = run_check(site, capsys)
    assert code == 1  # an error, as the build makes it
    found = [p for p in problems if p["code"] == "length-mismatch"]
    assert [(p["path"], p["line"], p["severity"]) for p in found] == [(ISSUE, LENGTH_LINE, "error")]
    assert found[0]["message"] == (
        f"the stated length (1,600 字) differs from the counted one ({counted():,} 字) "
        "by more than half: correct the `length` line"
    )
    # The seed page states 2,500 for 2,324 counted: nothing to say about it.
    assert [p for p in problems if p["path"] != ISSUE] == []


def test_radar_check_strict_fails_on_it_too(site, capsys):
    (site / ISSUE).write_text(issue_page("约 1,600 字 · 阅读约 5 分钟"), encoding="utf-8")
    code, problems = run_check(site, capsys, "--strict")
    assert code == 1
    assert [p["code"] for p in problems] == ["length-mismatch"]


@pytest.mark.parametrize(
    "length", ["约 800 字 · 阅读约 2 分钟", "约 400 字 · 阅读约 1 分钟", "约 600 字"]
)
def test_a_figure_within_half_of_the_count_passes_strict(site, capsys, length):
    (site / ISSUE).write_text(issue_page(length), encoding="utf-8")
    assert run_check(site, capsys, "--strict") == (0, [])


@pytest.mark.parametrize("length", ["阅读约 5 分钟", "篇幅适中", "约两千字", ""])
def test_a_length_without_a_number_of_characters_is_not_checked(length):
    assert length_problems(length) == []


def test_the_bound_is_half_of_the_counted_length():
    words = counted()
    half = words // 2
    assert length_problems(f"约 {words + half} 字") == []
    assert length_problems(f"约 {words - half} 字") == []
    assert [line for line, _, _ in length_problems(f"约 {words + half + 1} 字")] == [LENGTH_LINE]
    assert [line for line, _, _ in length_problems(f"约 {words - half - 1} 字")] == [LENGTH_LINE]


@pytest.mark.parametrize(
    ("length", "chars"),
    [
        ("约 2,500 字 · 阅读约 9 分钟", 2500),
        ("约 3，100 字 · 阅读约 10 分钟", 3100),
        ("约 1.2 万字", 12000),
        ("约 ６００ 字", 600),
        ("2026 年第 3 期，约 800字", 800),
        ("阅读约 9 分钟", None),
        ("约 " + "9" * 40 + " 字", None),
    ],
)
def test_the_stated_number_is_the_first_number_followed_by_zi(length, chars):
    assert stated_chars(length) == chars


def test_separators_and_ten_thousands_are_read_in_the_check():
    assert [line for line, _, _ in length_problems("约 1，600 字")] == [LENGTH_LINE]
    assert [line for line, _, _ in length_problems("约 0.1 万字")] == [LENGTH_LINE]
    assert length_problems("约 0.06 万字") == []


def test_a_page_with_errors_is_not_checked():
    """An error (here a refused score drops the item) leaves text uncounted."""
    text = issue_page("约 1,600 字").replace(":score: 8", ":score: 11")
    _, problems = parse_issue(text, ISSUE, open_site(SEED_SITE).vocabulary)
    assert [p.code for p in problems] == ["bad-score", "no-items"]


def test_radar_import_refuses_an_export_stating_far_more_than_it_holds(site, tmp_path, capsys):
    """Issue 52: 约 1,900 字 stated, a few dozen counted: a truncated export. The import
    refuses it at the export's length line and writes nothing, instead of importing a
    page that ``radar check`` and the build then refuse."""
    before = site_files(site)
    export = GOOD.replace("约 40 字 · 阅读约 1 分钟", "约 1,900 字 · 阅读约 5 分钟")
    assert run_import(site, tmp_path, export.encode()) == 1
    err = capsys.readouterr().err
    assert "export.txt:5: error: the stated length (1,900 字) differs" in err
    assert err.count("[length-mismatch]") == 1 and "[invalid-page]" not in err
    assert site_files(site) == before
