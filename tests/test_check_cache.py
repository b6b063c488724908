"""``radar check`` keeps what it learned from each file in ``_build/radar-check`` (issue
19): an unchanged issue is not parsed again, an edited one is; a damaged cache is
rebuilt; ``--changed`` still applies the archive-wide rules to every issue."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_site

from juju_radar.bib import segment_cache
from juju_radar.bib.check import check_bib_text
from juju_radar.bib.segment_facts import Segment
from juju_radar.editors import check_cache, cli
from juju_radar.store.cache import unsealed

SEED_PAGE = "issues/2026/2026-09-08.md"
SECOND_PAGE = "issues/2026/2026-09-09.md"
CACHE = Path("_build") / "radar-check"


def radar(root: Path, *args: str) -> int:
    return cli.main(["--root", str(root), *args])


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The seed site with a second issue (its ids renamed so both are valid)."""
    src = copy_site(tmp_path / "src")
    text = (src / SEED_PAGE).read_text(encoding="utf-8")
    second = text.replace("2026-09-08", "2026-09-09").replace(":id: ", ":id: second-")
    (src / SECOND_PAGE).write_text(second, encoding="utf-8")
    return src


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The issue pages the check parses, in order."""
    seen: list[str] = []
    real = check_cache.parse_issue

    def counting(text: str, path: str, *args: object) -> object:
        seen.append(path)
        return real(text, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(check_cache, "parse_issue", counting)
    return seen


def check_output(src: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = radar(src, "check", *args)
    return status, capsys.readouterr().out


def test_an_unchanged_issue_is_not_checked_again_an_edited_one_is(site, parsed, capsys):
    first = check_output(site, capsys)
    assert first[0] == 0
    assert sorted(parsed) == [SEED_PAGE, SECOND_PAGE]
    parsed.clear()
    assert check_output(site, capsys) == first, "the cached facts give the same report"
    assert parsed == []
    page = site / SECOND_PAGE
    page.write_text(
        page.read_text("utf-8").replace(":topic: training", ":topic: trainnig"), "utf-8"
    )
    status, out = check_output(site, capsys)
    assert parsed == [SECOND_PAGE]
    assert status == 1
    assert f"{SECOND_PAGE}:32: error: unknown topic 'trainnig'" in out


def test_a_changed_bibliography_is_checked_again(site, capsys):
    assert check_output(site, capsys)[0] == 0
    bib = site / "references.bib"
    bib.write_text(bib.read_text("utf-8").replace("2026-09-04 公开", "50% 公开"), "utf-8")
    status, out = check_output(site, capsys)
    assert status == 1
    assert "references.bib:15: error: unescaped '%'" in out


def counted_segments(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of the segments the check reads from now on (not taken from its cache)."""
    segments_read: list[str] = []
    real = segment_cache.segment_facts

    def counting(segment: Segment, *args: Any) -> Any:
        segments_read.append(segment.text)
        return real(segment, *args)

    monkeypatch.setattr(segment_cache, "segment_facts", counting)
    return segments_read


def test_a_cold_check_reads_the_bibliography_whole(site, capsys, monkeypatch):
    """With nothing kept, one whole reading: cheaper than segment by segment."""
    segments_read = counted_segments(monkeypatch)
    assert check_output(site, capsys)[0] == 0
    assert segments_read == []


def test_an_edited_bibliography_checks_again_only_its_changed_segment(site, capsys, monkeypatch):
    """The .bib read by segment, as the build reads it, once a version of it was checked:
    the problems a whole-file check finds, with only the edited entry's segment read
    again."""
    assert check_output(site, capsys)[0] == 0
    bib = site / "references.bib"
    segments_read = counted_segments(monkeypatch)
    bib.write_text(bib.read_text("utf-8") + "\n% 编辑的注释\n", "utf-8")
    assert check_output(site, capsys)[0] == 0
    assert len(segments_read) > 1, "the first edit after a cold check reads every segment"
    segments_read.clear()
    bib.write_text(bib.read_text("utf-8").replace("2026-09-04 公开", "50% 公开"), "utf-8")
    status, out = check_output(site, capsys)
    assert status == 1
    expected = check_bib_text(bib.read_text("utf-8"), "references.bib")
    shown = [line for line in out.splitlines() if re.match(r"references\.bib:\d+: ", line)]
    assert shown == [problem.format() for problem in expected if problem.severity != "note"]
    assert len(shown) == 1
    assert len(segments_read) == 1 and "50% 公开" in segments_read[0]


def test_a_damaged_cache_is_rebuilt(site, parsed, capsys):
    first = check_output(site, capsys)
    store = site / CACHE / "pages.pickle"
    data = bytearray(store.read_bytes())
    data[-10] ^= 0xFF  # one byte of the content: its digest no longer matches
    store.write_bytes(bytes(data))
    parsed.clear()
    assert check_output(site, capsys) == first
    assert sorted(parsed) == [SEED_PAGE, SECOND_PAGE], "nothing was taken from the damaged file"
    assert unsealed(store.read_bytes()) is not None, "the file was written again, whole"
    parsed.clear()
    (site / CACHE / "pages.pickle").write_bytes(b"not a cache")
    (site / CACHE / "bib.pickle").unlink()
    assert check_output(site, capsys) == first
    assert sorted(parsed) == [SEED_PAGE, SECOND_PAGE]


def test_a_new_setting_in_conf_py_is_not_answered_from_the_cache(site, capsys):
    assert check_output(site, capsys)[0] == 0
    conf = site / "conf.py"
    conf.write_text(
        conf.read_text("utf-8") + "\nradar_date_span = (2000, 2025)\n", encoding="utf-8"
    )
    status, out = check_output(site, capsys)
    assert status == 1
    assert f"{SEED_PAGE}:2: error: " in out and "[date-out-of-range]" in out


def test_changed_reads_only_changed_files_and_reports_a_duplicate_id_they_make(
    site, parsed, capsys
):
    assert check_output(site, capsys, "--changed")[0] == 0
    parsed.clear()
    page = site / SECOND_PAGE
    page.write_text(
        page.read_text("utf-8").replace(":id: second-rise", ":id: rise"), encoding="utf-8"
    )
    status, out = check_output(site, capsys, "--changed")
    assert parsed == [SECOND_PAGE], "the unchanged issue was not read again"
    assert status == 1
    duplicate = [line for line in out.splitlines() if "[duplicate-id]" in line]
    assert duplicate == [
        f"{SECOND_PAGE}:31: error: item id 'rise-self-extrapolation' is already used in "
        f"{SEED_PAGE} [duplicate-id]"
    ]


def test_changed_trusts_size_and_time_and_the_full_check_does_not(site, parsed, capsys):
    page = site / SECOND_PAGE
    a_minute_ago = time.time_ns() - 60 * 10**9
    os.utime(page, ns=(a_minute_ago, a_minute_ago))
    assert check_output(site, capsys, "--changed")[0] == 0
    stat = page.stat()
    text = page.read_text("utf-8")
    page.write_text(text.replace(":topic: training", ":topic: trainnig"), "utf-8")
    os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time
    parsed.clear()
    assert check_output(site, capsys, "--changed")[0] == 0
    assert parsed == []
    status, out = check_output(site, capsys)
    assert parsed == [SECOND_PAGE]
    assert status == 1 and "[unknown-topic]" in out


def test_a_file_changed_just_now_is_read_again_even_by_changed(site, parsed, capsys):
    """Within a clock tick, an edit could keep a file's size and time: a recent time is
    not trusted."""
    page = site / SECOND_PAGE
    assert check_output(site, capsys, "--changed")[0] == 0
    stat = page.stat()
    page.write_text(
        page.read_text("utf-8").replace(":topic: training", ":topic: trainnig"), "utf-8"
    )
    os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    parsed.clear()
    status, out = check_output(site, capsys, "--changed")
    assert parsed == [SECOND_PAGE]
    assert status == 1 and "[unknown-topic]" in out
