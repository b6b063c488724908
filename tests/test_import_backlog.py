"""A backlog imports in one pass, as strictly as one file (issue 19): bad files are
reported at file:line and skipped, a write failure half-way leaves nothing written, and
the work done does not grow with the backlog (references.bib written once, the
archive's ids and the .bib file's keys read once)."""

from __future__ import annotations

import errno
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import SEED_EXPORT, copy_site

from juju_radar.editors import check_cache, cli, import_run
from juju_radar.editors.check_cache import CheckCache, bib_facts
from juju_radar.editors.site_files import open_site

SEED_DATE = "2026.09.08"


def export(folder: Path, date: str, change: tuple[str, str] | None = None) -> Path:
    """The seed export dated ``date`` (YYYY.MM.DD), with one text replaced."""
    text = SEED_EXPORT.read_text(encoding="utf-8").replace(SEED_DATE, date, 1)
    if change is not None:
        assert change[0] in text
        text = text.replace(*change, 1)
    path = folder / f"{date}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def backlog(folder: Path, count: int, first_day: int = 1) -> list[Path]:
    folder.mkdir(exist_ok=True)
    return [export(folder, f"2027.01.{day:02d}") for day in range(first_day, first_day + count)]


def radar(root: Path, *args: str | Path) -> int:
    return cli.main(["--root", str(root), *map(str, args)])


def pages(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted((root / "issues").rglob("*"))
        if path.is_file()
    }


def item_ids(root: Path) -> list[str]:
    text = "".join(path.read_text(encoding="utf-8") for path in (root / "issues").rglob("*.md"))
    return re.findall(r"^:id: (.+)$", text, re.M)


def test_bad_files_in_the_middle_are_reported_and_skipped_the_rest_imported(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    folder = tmp_path / "backlog"
    files = backlog(folder, 5)
    files[1] = export(folder, "2027.01.02", ("Agent / Coding Agent", "Agnet / Coding Agent"))
    files[3].write_bytes(files[3].read_bytes().replace("给 AI".encode(), b"\xff", 1))
    assert radar(src, "import", *files) == 1
    captured = capsys.readouterr()
    bad_topic = [line for line in captured.err.splitlines() if "[unknown-topic]" in line]
    assert len(bad_topic) == 1
    assert re.match(rf"{re.escape(str(files[1]))}:\d+: error: item '.+', line \d+: ", bad_topic[0])
    assert f"{files[3]}:" in captured.err and "[encoding]" in captured.err
    assert captured.err.rstrip().endswith("3 imported, 0 skipped, 2 failed")
    assert sorted(pages(src)) == [
        "issues/2026/2026-09-08.md",
        "issues/2027/2027-01-01.md",
        "issues/2027/2027-01-03.md",
        "issues/2027/2027-01-05.md",
        "issues/index.md",
    ]
    for number in (0, 2, 4):
        assert f"{files[number]}: imported as issues/2027/" in captured.out
    ids = item_ids(src)
    assert len(ids) == len(set(ids)) == 4 * 5
    assert radar(src, "check") == 0, capsys.readouterr().out


def test_the_same_date_twice_in_a_backlog_is_skipped_the_second_time(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    files = backlog(tmp_path / "backlog", 1)
    again = tmp_path / "again.txt"
    again.write_bytes(files[0].read_bytes())
    assert radar(src, "import", files[0], again) == 0
    err = capsys.readouterr().err
    assert f"{again}:3: warning: issue 2027-01-01 already exists" in err
    assert err.rstrip().endswith(
        "1 imported, 1 skipped (already in the archive: --force replaces them), 0 failed"
    )


@pytest.mark.parametrize("force", [False, True])
def test_a_write_failure_half_way_leaves_everything_as_it_was(tmp_path, capsys, monkeypatch, force):
    src = copy_site(tmp_path / "src")
    files = backlog(tmp_path / "backlog", 5)
    if force:  # the backlog replaces an existing issue: it is put back too
        files.append(export(tmp_path, SEED_DATE))
        # and references.bib comes back byte for byte, its BOM and line ends included
        bib_path = src / "references.bib"
        crlf = bib_path.read_text("utf-8").replace("\n", "\r\n")
        bib_path.write_bytes(b"\xef\xbb\xbf" + crlf.encode())
    before = pages(src)
    bib = (src / "references.bib").read_bytes()
    real_write = import_run.atomic_write
    written: list[str] = []

    def disk_full_at_the_third_page(path: Path, text: str | bytes) -> None:
        if path.suffix == ".md":
            written.append(path.name)
            if len(written) == 3:
                raise OSError(errno.ENOSPC, "No space left on device")
        real_write(path, text)

    monkeypatch.setattr(import_run, "atomic_write", disk_full_at_the_third_page)
    assert radar(src, "import", *(["--force"] if force else []), *files) == 1
    err = capsys.readouterr().err
    assert "cannot write issues/2027/2027-01-03.md: No space left on device" in err
    assert "references.bib was left as it was" in err
    assert err.rstrip().endswith(f"0 imported, 0 skipped, {len(files)} failed")
    assert (src / "references.bib").read_bytes() == bib
    assert pages(src) == before, "the pages written before the failure are removed"
    assert not (src / "issues" / "2027").exists()
    leftovers = [path.name for path in src.rglob("*.tmp")]
    assert leftovers == []


def test_references_bib_is_written_once_and_the_archive_read_once(tmp_path, monkeypatch):
    """What a backlog costs does not grow with its length: count the calls."""
    src = copy_site(tmp_path / "src")
    calls: dict[str, int] = {"bib-writes": 0, "id-reads": 0, "bib-checks": 0}
    real_write = import_run.atomic_write
    real_ids = check_cache.item_ids_in
    real_check = check_cache.check_bib_text
    real_segments_check = check_cache.check_bib_segments

    def counting_write(path: Path, text: str | bytes) -> None:
        calls["bib-writes"] += path.name == "references.bib"
        real_write(path, text)

    def counting_ids(text: str) -> list[str]:
        calls["id-reads"] += 1
        return real_ids(text)

    def counting_check(text: str, path: str, *limits: object) -> list:
        calls["bib-checks"] += 1
        return real_check(text, path, *limits)

    def counting_segments_check(text: str, path: str, *cache_and_limits: Any) -> Any:
        calls["bib-checks"] += 1
        return real_segments_check(text, path, *cache_and_limits)

    monkeypatch.setattr(import_run, "atomic_write", counting_write)
    monkeypatch.setattr(check_cache, "item_ids_in", counting_ids)
    monkeypatch.setattr(check_cache, "check_bib_text", counting_check)
    monkeypatch.setattr(check_cache, "check_bib_segments", counting_segments_check)
    for count, first_day, unknown_issues in ((2, 1, 1), (6, 3, 2)):
        calls.update({name: 0 for name in calls})
        assert radar(src, "import", *backlog(tmp_path / "backlog", count, first_day)) == 0
        assert calls["bib-writes"] == 1, f"a backlog of {count}"
        # Each issue the cache does not know yet (the seed, then the two pages the first
        # backlog wrote) is read for its ids once, not once per file of the backlog.
        assert calls["id-reads"] == unknown_issues
        # The .bib file as it was (known from the first run on) and the new entries once.
        assert calls["bib-checks"] == (2 if first_day == 1 else 1)


def test_ids_and_keys_follow_earlier_files_of_the_same_backlog(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    files = backlog(tmp_path / "backlog", 3)
    assert radar(src, "import", *files) == 0
    ids = item_ids(src)
    assert len(ids) == len(set(ids)) == 4 * 5
    assert {"rise", "rise-20270102", "rise-20270103"} <= set(ids)
    keys = re.findall(r"^@misc\{([^,]+),", (src / "references.bib").read_text("utf-8"), re.M)
    assert len(keys) == len({key.lower() for key in keys})
    assert radar(src, "check") == 0


def test_the_facts_kept_after_an_import_are_those_a_full_check_finds(tmp_path):
    src = copy_site(tmp_path / "src")
    assert radar(src, "import", *backlog(tmp_path / "backlog", 2)) == 0
    site = open_site(src)
    cache = CheckCache(site)
    text = site.bib_path.read_text(encoding="utf-8")
    kept = cache.bib("references.bib", text)
    assert cache.rechecked == [], "the import left the new file's facts in the cache"
    assert kept == bib_facts(text, "references.bib")
    assert [p for p in kept.problems if p.code == "missing-identifier"][-1].line > 100


def test_synthetic_exports_import_and_check_clean(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    assert radar(src, "synth", "4", "--exports", "--out", tmp_path / "exports") == 0
    files = sorted((tmp_path / "exports").glob("*.txt"))
    assert [path.name for path in files] == [f"2024-01-0{day}.txt" for day in range(1, 5)]
    assert radar(src, "import", *files) == 0
    assert capsys.readouterr().err.rstrip().endswith("4 imported, 0 skipped, 0 failed")
    assert radar(src, "check") == 0
