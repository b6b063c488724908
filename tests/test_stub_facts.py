"""The facts the generated period pages are made from, kept between builds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from conftest import SEED_SITE

from juju_radar.build.cache import BuildCache
from juju_radar.model.issues import vocabulary_from_config
from juju_radar.sphinx_ext.paging import ISSUE_FACTS, published_issue_files

SEED = "issues/2026/2026-09-08.md"


def vocab():  # type: ignore[no-untyped-def]
    conf: dict = {}
    exec((SEED_SITE / "conf.py").read_text(encoding="utf-8"), conf)
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


def topics(srcdir: Path, cache: BuildCache) -> set[str]:
    return {
        topic for facts in published_issue_files(srcdir, vocab(), cache) for topic in facts.topics
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
    assert published_issue_files(srcdir, vocab(), cache) == []
    assert cache.store(ISSUE_FACTS) == {}
    shutil.copy(SEED_SITE / SEED, issue)
    os.utime(issue, ns=(settled, settled))
    assert len(published_issue_files(srcdir, vocab(), cache)) == 1
