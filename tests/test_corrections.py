"""Corrections in an issue's front matter (issue 56, item 6): the YAML shape the model
reads, and each wrong entry reported at its own line with ``bad-correction``."""

from __future__ import annotations

import datetime as dt
import runpy
from pathlib import Path

import feedparser
import pytest
from conftest import SEED_SITE, copy_site, sphinx_build
from head_metadata import head_meta, json_ld, parsed
from pybtex.database import parse_string
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.model.corrections import Correction
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.vocabulary import Vocabulary, vocabulary_from_config

PATH = "issues/2026/2026-09-09.md"
HEAD = "date: 2026-09-09\ntitle: 测试一期\nstatus: published\nlength: 约 30 字 · 阅读约 1 分钟"
BODY = (
    "导语一段。\n\n:::{radar-item} 🛠️ 一条测试条目\n:id: sample-item\n:topic: agent\n"
    ":score: 8\n:verdict: dig-deeper\n\n正文一段。\n:::\n\n"
    ":::{radar-closing} 今天的主线\n\n收尾一段。\n:::\n"
)


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    conf = runpy.run_path(str(SEED_SITE / "conf.py"))
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


def page(corrections: str, after: str = "") -> str:
    return f"---\n{HEAD}\n{corrections}{after}---\n\n{BODY}"


def test_corrections_are_read_oldest_first(vocab):
    text = page(
        "corrections:\n"
        "  - date: 2026-09-12\n    text: 第二处更正。\n"
        "  - date: 2026-09-10\n    text:  第一处更正，\n      写在两行。\n"
    )
    issue, problems = parse_issue(text, PATH, vocab)
    assert problems == []
    assert issue is not None
    assert issue.corrections == (
        Correction(dt.date(2026, 9, 10), "第一处更正， 写在两行。"),
        Correction(dt.date(2026, 9, 12), "第二处更正。"),
    )


def test_an_issue_without_corrections_has_none(vocab):
    issue, problems = parse_issue(page(""), PATH, vocab)
    assert problems == [] and issue is not None and issue.corrections == ()


CORRECTIONS = (
    "corrections:\n"  # line 6
    "  - date: 2026-09-10\n    text: 对的。\n"  # 7
    "  - date: 2026-09-01\n    text: 早于本期。\n"  # 9
    "  - date: 20260911\n    text: 日期不对。\n"  # 11
    "  - date: 2026-09-11\n"  # 13: no text
    "  - date: 2026-09-11\n    text: ''\n"  # 14
    "  - date: 2026-09-11\n    text: 有\n    author: 多余\n"  # 16
    "  - 2026-09-11\n"  # 19
)


def test_each_wrong_correction_is_an_error_at_its_line(vocab):
    issue, problems = parse_issue(page(CORRECTIONS, "status2: x\n"), PATH, vocab)
    found = [(p.line, p.code) for p in problems if p.code == "bad-correction"]
    assert found == [(line, "bad-correction") for line in (9, 11, 13, 14, 16, 19)]
    assert all(p.severity == "error" for p in problems if p.code == "bad-correction")


def test_corrections_that_are_not_a_list_are_an_error_at_the_key(vocab):
    _issue, problems = parse_issue(page("corrections: 已更正\n"), PATH, vocab)
    assert [(p.line, p.code) for p in problems] == [(6, "bad-correction")]


# --- the built site: the page, its metadata and the feed, as their clients read them ---

SEED = "issues/2026/2026-09-08"
CORRECTED = (
    "status: published\ncorrections:\n"
    "  - date: 2026-09-10\n    text: 第一条的评测任务数原写作 40，实为 45，已更正。\n"
    "  - date: 2026-09-12\n    text: 补上了第三条遗漏的作者单位。\n"
)
BEIJING = dt.timezone(dt.timedelta(hours=8))


def record_corrections(srcdir: Path) -> None:
    page = srcdir / f"{SEED}.md"
    text = page.read_text(encoding="utf-8")
    assert "status: published\n" in text
    page.write_text(text.replace("status: published\n", CORRECTED, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def corrected_site(tmp_path_factory) -> tuple[Path, Path]:
    """(base, output): the seed site built, then built again with two corrections."""
    base = tmp_path_factory.mktemp("corrected")
    srcdir = copy_site(base / "src")
    sphinx_build(srcdir, base / "html", env=EPOCH_ENV)
    record_corrections(srcdir)
    sphinx_build(srcdir, base / "html", env=EPOCH_ENV)
    return base, base / "html"


def issue_entry(outdir: Path) -> tuple[feedparser.FeedParserDict, feedparser.FeedParserDict]:
    feed = feedparser.parse((outdir / "feeds" / "all.atom.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    (entry,) = [entry for entry in feed.entries if entry.link.endswith(f"{SEED}.html")]
    return feed, entry


@pytest.mark.site
def test_the_page_shows_its_corrections_and_its_last_change(corrected_site):
    _base, outdir = corrected_site
    page = parsed(outdir / f"{SEED}.html")
    (notice,) = page.css("article .radar-corrections")
    assert "本页最后修改于 2026-09-12" in notice.text()
    entries = [" ".join(node.text().split()) for node in notice.css("li")]
    assert entries == [
        "2026-09-10：第一条的评测任务数原写作 40，实为 45，已更正。",
        "2026-09-12：补上了第三条遗漏的作者单位。",
    ]


@pytest.mark.site
def test_the_citation_metadata_carry_the_modified_date(corrected_site):
    _base, outdir = corrected_site
    page = parsed(outdir / f"{SEED}.html")
    assert head_meta(page, "DC.modified") == ["2026-09-12"]
    assert head_meta(page, "DC.date") == ["2026-09-08"]
    document = json_ld(page)
    assert (document["datePublished"], document["dateModified"]) == ("2026-09-08", "2026-09-12")


@pytest.mark.site
def test_the_feed_carries_an_updated_entry(corrected_site):
    _base, outdir = corrected_site
    feed, entry = issue_entry(outdir)
    published = dt.datetime(2026, 9, 8, 8, tzinfo=BEIJING)
    updated = dt.datetime(2026, 9, 12, 8, tzinfo=BEIJING)
    assert dt.datetime.fromisoformat(entry.published) == published
    assert dt.datetime.fromisoformat(entry.updated) == updated
    assert dt.datetime.fromisoformat(feed.feed.updated) == updated
    assert "更正（2026-09-12）：补上了第三条遗漏的作者单位。" in entry.content[0].value


@pytest.mark.site
def test_the_incremental_build_equals_a_clean_one(corrected_site):
    base, outdir = corrected_site
    clean = clean_build(base / "src", base / "clean")
    assert differences(outdir, clean) == []


def test_without_corrections_nothing_says_modified(built_seed_site):
    page = parsed(built_seed_site / f"{SEED}.html")
    assert not page.css(".radar-corrections")
    assert head_meta(page, "DC.modified") == []
    assert "dateModified" not in json_ld(page)
    _feed, entry = issue_entry(built_seed_site)
    assert entry.updated == entry.published


@pytest.mark.site
def test_the_cite_boxes_and_the_bibtex_download_say_which_access_date_to_give(corrected_site):
    _base, outdir = corrected_site
    page = parsed(outdir / f"{SEED}.html")
    boxes = page.css(".radar-cite-bibtex")
    guidance = [node.text() for node in page.css(".radar-cite-bibtex .radar-cite-corrected")]
    assert boxes and len(guidance) == len(boxes)
    assert all(text.startswith("本页于 2026-09-12 更正：引用时 urldate") for text in guidance)
    bib = (outdir / f"{SEED}.cite.bib").read_text(encoding="utf-8")
    assert bib.startswith("% 本页于 2026-09-12 更正：引用时 urldate")
    assert len(parse_string(bib, "bibtex").entries) == len(boxes)  # still read whole


def test_an_uncorrected_page_gives_no_such_guidance(built_seed_site):
    assert not parsed(built_seed_site / f"{SEED}.html").css(".radar-cite-corrected")
    bib = (built_seed_site / f"{SEED}.cite.bib").read_text(encoding="utf-8")
    assert bib.startswith("@misc{")
