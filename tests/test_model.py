"""The model without Sphinx: parsing, validation with line numbers, derived counts."""

from __future__ import annotations

import datetime as dt
import runpy
import sys

import pytest
from conftest import SEED_SITE

from juju_radar.model.archive_rules import check_archive
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import date_from_path, first_sentence, split_emoji, text_stats
from juju_radar.model.item_options import parse_score
from juju_radar.model.vocabulary import Vocabulary, vocabulary_from_config

SEED_PAGE = SEED_SITE / "issues" / "2026" / "2026-09-08.md"
SEED_PATH = "issues/2026/2026-09-08.md"


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    conf = runpy.run_path(str(SEED_SITE / "conf.py"))
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


def page(items: str, front: str = "", closing: bool = True) -> str:
    head = (
        front
        or "date: 2026-09-09\ntitle: 测试一期\nstatus: published\nlength: 约 30 字 · 阅读约 1 分钟"
    )
    tail = ":::{radar-closing} 今天的主线\n\n收尾一段。\n:::\n" if closing else ""
    return f"---\n{head}\n---\n\n导语一段。\n\n{items}\n{tail}"


def item(**options: str) -> str:
    fields = {"id": "sample-item", "topic": "agent", "score": "8", "verdict": "dig-deeper"}
    fields.update(options)
    lines = [f":{name}: {value}" for name, value in fields.items() if value is not None]
    title = options.pop("title", None) or "🛠️ 一条测试条目"
    return f":::{{radar-item}} {title}\n" + "\n".join(lines) + "\n\n正文一段。\n:::\n"


def codes(problems) -> list[tuple[int, str]]:
    return [(problem.line, problem.code) for problem in problems]


def test_seed_page_parses_into_five_items(vocab):
    issue, problems = parse_issue(SEED_PAGE.read_text(encoding="utf-8"), SEED_PATH, vocab)
    assert problems == []
    assert issue is not None
    assert issue.date == dt.date(2026, 9, 8)
    assert issue.title == "让 AI 造一个客服，难在代码之外"
    assert issue.stated_length == "约 2,500 字 · 阅读约 9 分钟"
    assert [item.topic for item in issue.items] == [
        "agent",
        "training",
        "3d",
        "ai-for-science",
        "governance",
    ]
    assert [item.tags for item in issue.items] == [
        ("Coding Agent",),
        (),
        ("仿真",),
        ("生物医药",),
        ("应用边界",),
    ]
    assert [item.score for item in issue.items] == [9, 8.5, 8.5, 8.5, 8.5]
    assert [item.verdict for item in issue.items] == [
        "dig-deeper",
        "dig-deeper",
        "keep-watching",
        "keep-watching",
        "read-original",
    ]
    first = issue.items[0]
    assert (first.emoji, first.title) == ("🛠️", "客服能跑起来，不代表能处理好客户的问题")
    assert [source.label for source in first.sources] == ["论文与完整实验", "代码与任务"]
    assert issue.items[4].citation_keys == ("spc2026release", "spc2026opinion")
    assert len(first.body) == 4
    assert issue.closing_title == "今天的主线"
    assert len(issue.closing) == 2
    assert issue.docname == "issues/2026/2026-09-08"


def test_word_count_is_computed_from_the_text(vocab):
    issue, _ = parse_issue(SEED_PAGE.read_text(encoding="utf-8"), SEED_PATH, vocab)
    assert issue is not None
    assert (issue.stats.cjk_chars, issue.stats.latin_words) == (2260, 64)
    assert issue.stats.minutes == 6, "2260 / 400 + 64 / 200 minutes, rounded up"


def test_text_stats_counts_chinese_characters_and_latin_words_apart():
    stats = text_stats("模型 Qwen3-8B 在零售领域达到 72.8%。")
    assert stats.latin_words == 2  # "Qwen3-8B", "72.8"
    assert stats.cjk_chars == len("模型在零售领域达到") + 1  # + the full stop
    assert text_stats("中文" * 400).minutes == 2


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"topic": "agnet"}, (12, "unknown-topic")),
        ({"verdict": "深挖"}, (14, "unknown-verdict")),
        ({"score": "11"}, (13, "bad-score")),
        ({"score": "8.3"}, (13, "bad-score")),
        ({"score": "high"}, (13, "bad-score")),
        ({"id": "客服"}, (11, "bad-id")),
        ({"id": "closing"}, (11, "reserved-id")),
        ({"id": "cite-paper2026"}, (11, "reserved-id")),
        ({"sources": "论文 without key"}, (15, "bad-sources")),
    ],
)
def test_bad_item_metadata_is_reported_at_its_line(vocab, options, expected):
    options.setdefault("sources", "论文 <paper2026>")
    _, problems = parse_issue(page(item(**options)), "issues/2026/2026-09-09.md", vocab)
    assert expected in codes(problems)


def test_unknown_topic_suggests_the_closest_key(vocab):
    _, problems = parse_issue(page(item(topic="trainng")), "x.md", vocab)
    assert "did you mean 'training'" in problems[0].message


def test_topic_and_verdict_accept_labels_and_aliases(vocab):
    issue, problems = parse_issue(page(item(topic="模型训练", verdict="持续观察")), "x.md", vocab)
    assert problems == []
    assert issue is not None
    assert (issue.items[0].topic, issue.items[0].verdict) == ("training", "keep-watching")


def test_duplicate_item_ids_and_titles_in_one_issue(vocab):
    text = page(item() + "\n" + item())
    _, problems = parse_issue(text, "x.md", vocab)
    assert ("duplicate-id") in [problem.code for problem in problems]
    assert ("duplicate-title") in [problem.code for problem in problems]


def test_missing_closing_section_is_an_error(vocab):
    _, problems = parse_issue(page(item(), closing=False), "x.md", vocab)
    assert "missing-closing" in [problem.code for problem in problems]


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("date: 2026-02-30\ntitle: t", (2, "bad-date")),
        ("title: t", (1, "missing-date")),
        ("date: 2026-09-10\ntitle: t", (2, "date-mismatch")),
        ("date: 2026-09-09\ntitle: t\nstatus: archived", (4, "unknown-status")),
        ("date: 2026-09-09\ntitle: [unclosed", (3, "front-matter")),
        ("date: 2026-09-09\ntitle: t\n2026: x\nnote: y", (4, "unknown-field")),
        ("date: 2026-09-09\ntitle: t\n2026: x\nnote: y", (5, "unknown-field")),
    ],
)
def test_front_matter_problems_carry_their_line(vocab, front, expected):
    _, problems = parse_issue(page(item(), front=front), "issues/2026/2026-09-09.md", vocab)
    assert expected in codes(problems)


def test_raw_html_is_refused_at_its_line(vocab):
    text = page(item()).replace("导语一段。", "导语<script>alert(1)</script>一段。")
    _, problems = parse_issue(text, "x.md", vocab)
    assert (8, "raw-html") in codes(problems)


def test_windows_line_endings_parse_the_same(vocab):
    text = page(item())
    unix, _ = parse_issue(text, "x.md", vocab)
    windows, problems = parse_issue(text.replace("\n", "\r\n"), "x.md", vocab)
    assert problems == []
    assert windows == unix


def test_archive_check_finds_ids_reused_across_issues_and_unknown_keys(vocab):
    first, _ = parse_issue(
        page(item(sources="论文 <known2026>")), "issues/2026/2026-09-09.md", vocab
    )
    second_text = page(item(sources="论文 <unknown2026>")).replace("2026-09-09", "2026-09-10")
    second, _ = parse_issue(second_text, "issues/2026/2026-09-10.md", vocab)
    assert first and second
    problems = check_archive([first, second], {"known2026"})
    assert [(p.path, p.code) for p in problems] == [
        ("issues/2026/2026-09-10.md", "duplicate-id"),
        ("issues/2026/2026-09-10.md", "missing-citation"),
    ]
    assert "already used in issues/2026/2026-09-09.md" in problems[0].message


def test_helpers():
    assert split_emoji("🛠️ 标题") == ("🛠️", "标题")
    assert split_emoji("🛠 标题") == ("🛠", "标题")
    assert split_emoji("RISE：标题") == ("", "RISE：标题")
    assert parse_score("8.5") == 8.5
    assert parse_score("8.5/10") == 8.5
    assert parse_score("10.5") is None
    assert date_from_path("issues/2026/2026-09-08.md") == dt.date(2026, 9, 8)
    assert date_from_path("issues/2025/2026-09-08.md") is None
    assert date_from_path("index.md") is None


def test_model_imports_neither_sphinx_nor_docutils():
    import subprocess

    code = (
        "import sys, juju_radar.model.issue_reader, juju_radar.model.archive_rules, "
        "juju_radar.model.archive; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_bibtex_for_citing_an_issue_escapes_its_title_in_one_pass(vocab):
    import dataclasses

    from juju_radar.bib.cite_this import bibtex, issue_work

    issue, _ = parse_issue(page(item()), "issues/2026/2026-09-09.md", vocab)
    work = issue_work(dataclasses.replace(issue, title="C:\\x {a} 5%"), "https://e.org/")
    expected = (
        "  title        = {{C:\\textbackslash{}x \\textbraceleft{}a\\textbraceright{} 5\\%}},"
    )
    assert expected in bibtex(work, "2026-09-10").splitlines()


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "给 AI 一道代码题，和交给它一个客户，是两回事。今天的一项评测……",
            "给 AI 一道代码题，和交给它一个客户，是两回事。",
        ),
        ("他说：“够用了吗？”然后离开。", "他说：“够用了吗？”"),
        ("GPT-5.1 is out. More soon.", "GPT-5.1 is out."),
        ("没有句号的导语", "没有句号的导语"),
    ],
)
def test_the_first_sentence_ends_at_its_stop_and_closing_quote(text, first):
    assert first_sentence(text) == first
