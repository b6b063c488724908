"""`radar import` and `radar new` write only inside the repository, and a failed write
leaves references.bib as it was (issue 18)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from conftest import SEED_EXPORT, copy_site

from juju_radar.editors import cli, import_run


def export_for(tmp_path: Path, date: str) -> Path:
    """The seed export, dated ``date`` (YYYY.MM.DD)."""
    text = SEED_EXPORT.read_text(encoding="utf-8").replace("2026.09.08", date, 1)
    path = tmp_path / f"{date}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_import_refuses_a_year_folder_linked_outside_the_repository(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (src / "issues" / "2027").symlink_to(elsewhere)
    bib = (src / "references.bib").read_bytes()
    assert cli.main(["--root", str(src), "import", str(export_for(tmp_path, "2027.01.05"))]) == 1
    err = capsys.readouterr().err
    assert "issues/2027/2027-01-05.md leads outside the repository" in err
    assert "[unwritable]" in err
    assert list(elsewhere.iterdir()) == []
    assert (src / "references.bib").read_bytes() == bib


def test_new_refuses_a_year_folder_linked_outside_the_repository(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (src / "issues" / "2027").symlink_to(elsewhere)
    assert cli.main(["--root", str(src), "new", "2027-01-05"]) == 1
    assert "leads outside the repository" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


def test_a_full_disk_leaves_references_bib_as_it_was(tmp_path, capsys, monkeypatch):
    src = copy_site(tmp_path / "src")
    bib = (src / "references.bib").read_bytes()
    real_write = import_run.atomic_write

    def full_disk(path: Path, text: str) -> None:
        if path.suffix == ".md":
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(path, text)

    monkeypatch.setattr(import_run, "atomic_write", full_disk)
    assert cli.main(["--root", str(src), "import", str(export_for(tmp_path, "2026.09.20"))]) == 1
    err = capsys.readouterr().err
    assert "cannot write issues/2026/2026-09-20.md: No space left on device" in err
    assert "references.bib was left as it was" in err
    assert "None" not in err
    assert (src / "references.bib").read_bytes() == bib
    assert not (src / "issues/2026/2026-09-20.md").exists()


@pytest.mark.parametrize("date", ["0001.01.01", "9999.12.31"])
def test_import_refuses_a_date_outside_the_span(tmp_path, capsys, date):
    src = copy_site(tmp_path / "src")
    assert cli.main(["--root", str(src), "import", str(export_for(tmp_path, date))]) == 1
    err = capsys.readouterr().err
    assert f"{date}.txt:3: error: date" in err and "[date-out-of-range]" in err
    assert not (src / "issues" / date[:4]).exists()
