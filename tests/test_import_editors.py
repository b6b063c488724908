"""Import follows how editors write: a heading and its category line without a blank
line between, errors at the item's heading, and --draft."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_cases import GOOD, ISSUE, run_import

from juju_radar.editors.site_files import open_site
from juju_radar.model.issue_reader import parse_issue


def glued(text: str) -> str:
    """Every item heading directly followed by its category line."""
    return text.replace("🛠️ 第一条\n\n", "🛠️ 第一条\n").replace("🧠 第二条\n\n", "🧠 第二条\n")


def imported(root: Path, tmp_path: Path, text: str, *options: str) -> str:
    assert run_import(root, tmp_path, text.encode("utf-8"), *options) == 0
    return (root / ISSUE).read_text(encoding="utf-8")


def test_a_heading_glued_to_its_category_line_imports_the_same(site_copy, tmp_path):
    assert glued(GOOD) != GOOD
    with_blank_lines = imported(site_copy, tmp_path, GOOD)
    bib = (site_copy / "references.bib").read_text(encoding="utf-8")
    assert imported(site_copy, tmp_path, glued(GOOD), "--force") == with_blank_lines
    assert (site_copy / "references.bib").read_text(encoding="utf-8") == bib
    assert ":::{radar-item} 🧠 第二条\n" in with_blank_lines


def test_glued_body_lines_after_the_category_line_are_the_body(site_copy, tmp_path):
    text = GOOD.replace(
        "Agent / Coding Agent · 9/10｜建议深挖\n\n正文一。",
        "Agent / Coding Agent · 9/10｜建议深挖\n正文一。",
    )
    page = imported(site_copy, tmp_path, glued(text))
    assert page == imported(site_copy, tmp_path, GOOD, "--force")


def test_an_error_in_a_glued_item_points_at_its_heading(site_copy, tmp_path, capsys):
    text = glued(GOOD).replace("模型训练 · 8.5/10｜持续观察", "模型训练 · 8.5/10｜再看看")
    assert run_import(site_copy, tmp_path, text.encode("utf-8")) == 1
    lines = capsys.readouterr().err.splitlines()
    # The second heading is on line 16 once the first item lost its blank line.
    assert (
        f"{tmp_path / 'export.txt'}:16: error: item '第二条', line 17: unknown verdict '再看看' "
        "(one of: dig-deeper (建议深挖), keep-watching (持续观察), read-original (建议阅读原文)) "
        "[unknown-verdict]"
    ) in lines


def test_no_items_points_at_what_looked_like_an_item(site_copy, tmp_path, capsys):
    # Without category lines nothing is an item: the error is at the first heading
    # (line 9), not at the lead (line 7).
    text = GOOD.replace("Agent / Coding Agent · 9/10｜建议深挖\n\n", "").replace(
        "模型训练 · 8.5/10｜持续观察\n\n", ""
    )
    assert run_import(site_copy, tmp_path, text.encode("utf-8")) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'export.txt'}:9: error: the issue has no items" in err
    assert "[no-items]" in err


def test_draft_imports_for_review(site_copy, tmp_path, capsys):
    page = imported(site_copy, tmp_path, GOOD, "--draft")
    assert "status: draft\n" in page
    assert "(status: draft)" in capsys.readouterr().out
    site = open_site(site_copy)
    issue, problems = parse_issue(page, ISSUE, site.vocabulary)
    assert issue is not None and not issue.published
    assert [p for p in problems if p.severity == "error"] == []


def test_an_editor_may_choose_an_item_id_after_its_title(site_copy, tmp_path):
    """`第一条` has no Latin letters (its id would be item-20260911-1): the editor names it,
    and the id stays when the issue is imported again."""
    text = GOOD.replace("🛠️ 第一条", "🛠️ 第一条 {#first-story}")
    page = imported(site_copy, tmp_path, text)
    assert ":id: first-story" in page
    assert "{#" not in page and ":::{radar-item} 🛠️ 第一条\n" in page
    assert imported(site_copy, tmp_path, text, "--force") == page


@pytest.mark.parametrize(
    "chosen, code",
    [
        ("First Story", "bad-id"),
        ("", "bad-id"),
        ("closing", "reserved-id"),
        ("cite-x", "reserved-id"),
        ("tau-bench-customer-service", "duplicate-id"),  # an item of the seed issue
    ],
)
def test_a_chosen_id_is_checked_like_any_other(site_copy, tmp_path, capsys, chosen, code):
    before = (site_copy / "references.bib").read_bytes()
    text = GOOD.replace("🛠️ 第一条", f"🛠️ 第一条 {{#{chosen}}}")
    assert run_import(site_copy, tmp_path, text.encode("utf-8")) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'export.txt'}:9: error:" in err and f"[{code}]" in err, err
    assert not (site_copy / ISSUE).exists()
    assert (site_copy / "references.bib").read_bytes() == before
