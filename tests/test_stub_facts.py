"""The facts the generated period pages are made from, kept between builds."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from types import SimpleNamespace

from conftest import SEED_SITE, seed_conf_vocabulary, seed_vocabulary

from juju_radar.sphinx_ext.paging import ISSUE_FACTS, published_issue_files
from juju_radar.store.cache import BuildCache, build_cache

SEED = "issues/2026/2026-09-08.md"


def topics(srcdir: Path, cache: BuildCache) -> set[str]:
    return {
        topic
        for facts in published_issue_files(srcdir, seed_vocabulary(), cache)
        for topic in facts.topics
    }


def test_an_edit_keeping_size_and_time_is_seen_until_the_file_settles(tmp_path: Path) -> None:
    srcdir, cache = tmp_path / "site", BuildCache(tmp_path / "cache")
    (srcdir / "issues" / "2026").mkdir(parents=True)
    issue = srcdir / SEED
    shutil.copy(SEED_SITE / SEED, issue)
    assert "3d" in topics(srcdir, cache)
    stamp = issue.stat().st_mtime_ns
    text = issue.read_text(encoding="utf-8")
    assert ":topic: 3d" in text
    issue.write_text(text.replace(":topic: 3d", ":topic: ai"), encoding="utf-8")  # same size
    os.utime(issue, ns=(stamp, stamp))
    assert "3d" not in topics(srcdir, cache)  # a fresh file is known by its text


def test_an_unreadable_issue_is_left_out_and_nothing_is_kept_for_it(tmp_path: Path) -> None:
    srcdir, cache = tmp_path / "site", BuildCache(tmp_path / "cache")
    (srcdir / "issues" / "2026").mkdir(parents=True)
    issue = srcdir / SEED
    issue.write_bytes(b"\xff\xfe not UTF-8")
    settled = issue.stat().st_mtime_ns - 10_000_000_000
    os.utime(issue, ns=(settled, settled))
    assert published_issue_files(srcdir, seed_vocabulary(), cache) == []
    assert cache.store(ISSUE_FACTS) == {}
    shutil.copy(SEED_SITE / SEED, issue)
    os.utime(issue, ns=(settled, settled))
    assert len(published_issue_files(srcdir, seed_vocabulary(), cache)) == 1


def test_issues_parsed_ahead_in_a_forked_process_give_the_same_facts(
    tmp_path: Path, monkeypatch
) -> None:
    from juju_radar.accel import facts_ahead
    from juju_radar.sphinx_ext import paging

    srcdir = seed_archive(tmp_path)
    text = (SEED_SITE / SEED).read_text(encoding="utf-8")
    for day in range(9, 13):
        dated = text.replace("2026-09-08", f"2026-09-{day:02d}").replace(":topic: 3d", ":topic: ai")
        (srcdir / "issues" / "2026" / f"2026-09-{day:02d}.md").write_text(dated, encoding="utf-8")
    serial = published_issue_files(srcdir, seed_vocabulary(), BuildCache(tmp_path / "serial"))
    assert len(serial) == 5

    monkeypatch.setattr(facts_ahead, "FORK_FACTS_FROM", 3)
    facts_ahead.parse_facts_ahead(fake_app(srcdir, tmp_path / "ahead"))  # type: ignore[arg-type]
    assert srcdir in facts_ahead.parsing_ahead, "parsed in another process, collected later"
    ahead = facts_ahead.parsed_ahead(srcdir)
    assert ahead is not None and len(ahead) == 5 and srcdir not in facts_ahead.parsing_ahead
    cache = BuildCache(tmp_path / "with-ahead")
    monkeypatch.setattr(paging, "_facts", lambda *_: None)  # nothing parsed here again
    assert published_issue_files(srcdir, seed_vocabulary(), cache, ahead) == serial


def test_a_forked_parse_that_dies_leaves_the_parse_to_this_process(
    tmp_path: Path, monkeypatch
) -> None:
    from juju_radar.accel import facts_ahead

    srcdir = seed_archive(tmp_path)
    monkeypatch.setattr(facts_ahead, "FORK_FACTS_FROM", 1)
    monkeypatch.setattr(facts_ahead, "send_facts", lambda *_: time.sleep(60))
    facts_ahead.parse_facts_ahead(fake_app(srcdir, tmp_path / "ahead"))  # type: ignore[arg-type]
    process, _ = facts_ahead.parsing_ahead[srcdir]
    process.kill()  # as the kernel kills a process out of memory
    assert facts_ahead.parsed_ahead(srcdir) is None
    cache = BuildCache(tmp_path / "cache")
    facts = published_issue_files(srcdir, seed_vocabulary(), cache, None)
    assert [file.month for file in facts] == ["2026-09"]


def seed_archive(tmp_path: Path) -> Path:
    """A site of the archive's layout (it has period pages) holding the seed issue."""
    srcdir = tmp_path / "site"
    (srcdir / "issues" / "2026").mkdir(parents=True)
    (srcdir / "references.md").write_text("# 参考文献\n", encoding="utf-8")
    shutil.copy(SEED_SITE / SEED, srcdir / SEED)
    return srcdir


def fake_app(srcdir: Path, doctreedir: Path) -> SimpleNamespace:
    conf = SimpleNamespace(radar_preview=False, **seed_conf_vocabulary())
    return SimpleNamespace(srcdir=srcdir, parallel=2, config=conf, doctreedir=doctreedir)


STOPPED_BUILD = """
import sys
from pathlib import Path
from types import SimpleNamespace
from juju_radar.accel import facts_ahead
site, vocabulary = Path(sys.argv[1]), eval(sys.argv[2])
config = SimpleNamespace(radar_preview=False, **vocabulary)
app = SimpleNamespace(srcdir=site, parallel=2, config=config, doctreedir=site / "_doctrees")
facts_ahead.parse_facts_ahead(app)
assert facts_ahead.parsing_ahead, "the parse should have been forked"
raise SystemExit(2)  # as the build stops on an unreadable .bib, before note_drafts_ahead
"""


def test_a_build_stopped_before_the_stubs_does_not_wait_for_the_forked_parse(
    tmp_path: Path,
) -> None:
    """The forked process hands its parse over a pipe; more than a pipe holds (1,200
    issues) would keep it, and so the stopped build, waiting for ever."""
    import datetime as dt
    import subprocess
    import sys

    srcdir = seed_archive(tmp_path)
    text = (SEED_SITE / SEED).read_text(encoding="utf-8")
    for offset in range(1200):
        day = dt.date(2024, 1, 1) + dt.timedelta(days=offset)
        path = srcdir / "issues" / str(day.year) / f"{day}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("2026-09-08", str(day)), encoding="utf-8")
    command = [sys.executable, "-c", STOPPED_BUILD, str(srcdir), repr(seed_conf_vocabulary())]
    stopped = subprocess.run(command, capture_output=True, text=True, timeout=600)  # a hang guard
    assert stopped.returncode == 2, stopped.stderr


def test_a_build_after_one_that_parsed_the_issues_forks_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    from juju_radar.accel import facts_ahead

    srcdir = seed_archive(tmp_path)
    monkeypatch.setattr(facts_ahead, "FORK_FACTS_FROM", 1)
    cache = build_cache(tmp_path / "doctrees")
    assert (
        len(published_issue_files(srcdir, seed_vocabulary(), cache)) == 1
    )  # as note_drafts_ahead keeps them
    text = (SEED_SITE / SEED).read_text(encoding="utf-8").replace("2026-09-08", "2026-09-09")
    (srcdir / "issues" / "2026" / "2026-09-09.md").write_text(text, encoding="utf-8")
    facts_ahead.parse_facts_ahead(fake_app(srcdir, tmp_path / "doctrees"))  # type: ignore[arg-type]
    assert srcdir not in facts_ahead.parsing_ahead
