"""Nothing an editor wrote is lost (issue 52, point 4): ``--force`` replaces only a page as
radar wrote it; a page edited since (or never noted as radar's) needs ``--discard-edits``,
and whatever is replaced is kept under ``_build/replaced/`` and shown as a difference."""

from __future__ import annotations

from pathlib import Path

from conftest import SEED_EXPORT
from import_cases import GOOD, ISSUE, run_import

from juju_radar.editors import cli

EDIT = "导语。"
HAND = "导语，编辑亲手改过的一句。"


def kept_copies(root: Path, relative: str) -> list[str]:
    return [
        path.read_text(encoding="utf-8")
        for path in sorted((root / "_build" / "replaced").glob(f"*/{relative}"))
    ]


def test_force_over_a_hand_edited_page_refuses_and_keeps_the_edit(site_copy, tmp_path, capsys):
    assert run_import(site_copy, tmp_path, GOOD.encode()) == 0
    page = site_copy / ISSUE
    edited = page.read_text(encoding="utf-8").replace(EDIT, HAND)
    page.write_text(edited, encoding="utf-8")
    capsys.readouterr()
    assert run_import(site_copy, tmp_path, GOOD.encode(), "--force") == 1
    err = capsys.readouterr().err
    assert f"export.txt:1: error: {ISSUE} differs from what radar wrote there" in err
    assert "[edited]" in err and "--discard-edits" in err
    assert page.read_text(encoding="utf-8") == edited


def test_discard_edits_replaces_keeping_the_text_and_showing_the_difference(
    site_copy, tmp_path, capsys
):
    assert run_import(site_copy, tmp_path, GOOD.encode()) == 0
    page = site_copy / ISSUE
    edited = page.read_text(encoding="utf-8").replace(EDIT, HAND)
    page.write_text(edited, encoding="utf-8")
    capsys.readouterr()
    assert run_import(site_copy, tmp_path, GOOD.encode(), "--force", "--discard-edits") == 0
    out = capsys.readouterr().out
    assert HAND not in page.read_text(encoding="utf-8")
    assert kept_copies(site_copy, ISSUE) == [edited]  # the edit is recoverable
    assert f"{ISSUE}: replaced; its former text is kept in _build/replaced/" in out
    assert f"-{HAND}\n" in out and f"+{EDIT}\n" in out  # the difference, as a diff


def test_force_replaces_a_page_as_radar_wrote_it_and_keeps_it_too(site_copy, tmp_path, capsys):
    assert run_import(site_copy, tmp_path, GOOD.encode()) == 0
    first = (site_copy / ISSUE).read_text(encoding="utf-8")
    changed = GOOD.replace("正文一。", "正文一，更正后。")
    assert run_import(site_copy, tmp_path, changed.encode(), "--force") == 0
    assert "正文一，更正后。" in (site_copy / ISSUE).read_text(encoding="utf-8")
    assert kept_copies(site_copy, ISSUE) == [first]
    # Imported again as it is: nothing replaced, nothing kept.
    capsys.readouterr()
    assert run_import(site_copy, tmp_path, changed.encode(), "--force") == 0
    assert "replaced" not in capsys.readouterr().out
    assert len(kept_copies(site_copy, ISSUE)) == 1


def test_a_page_radar_has_no_note_of_is_not_replaced_by_force_alone(site_copy, capsys):
    """A fresh clone: the seed issue was committed, not written here by radar."""
    page = site_copy / "issues/2026/2026-09-08.md"
    before = page.read_bytes()
    assert cli.main(["--root", str(site_copy), "import", "--force", str(SEED_EXPORT)]) == 1
    assert "[edited]" in capsys.readouterr().err
    assert page.read_bytes() == before


def test_a_skipping_re_import_says_so_in_its_last_line(site_copy, tmp_path, capsys):
    assert run_import(site_copy, tmp_path, GOOD.encode()) == 0
    capsys.readouterr()
    assert run_import(site_copy, tmp_path, GOOD.encode()) == 0
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == (
        "0 imported, 1 skipped (already in the archive: --force replaces them), 0 failed"
    )


def test_new_force_over_an_edited_page_refuses_unless_told(site_copy, capsys):
    root = str(site_copy)
    assert cli.main(["--root", root, "new", "2026-10-01"]) == 0
    page = site_copy / "issues/2026/2026-10-01.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n手写的一段。\n", encoding="utf-8")
    edited = page.read_text(encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["--root", root, "new", "2026-10-01", "--force"]) == 1
    assert "--discard-edits" in capsys.readouterr().err
    assert page.read_text(encoding="utf-8") == edited
    assert cli.main(["--root", root, "new", "2026-10-01", "--force", "--discard-edits"]) == 0
    assert "手写的一段" not in page.read_text(encoding="utf-8")
    assert kept_copies(site_copy, "issues/2026/2026-10-01.md") == [edited]
    assert "-手写的一段。" in capsys.readouterr().out
