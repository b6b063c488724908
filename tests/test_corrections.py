"""Corrections in an issue's front matter (issue 56, item 6): the YAML shape the model
reads, and each wrong entry reported at its own line with ``bad-correction``."""

from __future__ import annotations

import datetime as dt
import runpy

import pytest
from conftest import SEED_SITE

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
