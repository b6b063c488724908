"""The export-format parser, the escaping and the page/bib rendering, without Sphinx."""

from __future__ import annotations

import datetime as dt
import html
import re
import runpy
from pathlib import Path

import pytest
from conftest import SEED_EXPORT, SEED_SITE, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from juju_radar.bib.check import check_bib_text
from juju_radar.editors.export_reader import parse_export
from juju_radar.editors.import_ids import citation_key_for, item_id_for
from juju_radar.editors.page_writer import (
    escape_paragraph,
    option_value,
    render_bib_entry,
    render_page,
    to_issue,
    unescape,
    yaml_scalar,
)
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import split_emoji
from juju_radar.model.vocabulary import vocabulary_from_config

FIXTURES = Path(__file__).parent / "fixtures" / "export"
DATE = dt.date(2026, 9, 8)


@pytest.fixture(scope="module")
def vocab():
    conf = runpy.run_path(str(SEED_SITE / "conf.py"))
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


@pytest.fixture(scope="module")
def myst_html():
    config = MdParserConfig(
        enable_extensions={"colon_fence"}, disable_syntax=["html_block", "html_inline"]
    )
    return create_md_parser(config, RendererHTML).render


def parse_ok(text, vocab, path="export.txt"):
    issue, problems = parse_export(text, path, vocab)
    assert issue is not None, [problem.format() for problem in problems]
    return issue


# --- the seed ---------------------------------------------------------------------------


def test_the_seed_parses_into_five_items_with_their_fields(vocab):
    issue = parse_ok(SEED_EXPORT.read_text(encoding="utf-8"), vocab)
    assert issue.date == DATE
    assert issue.title == "让 AI 造一个客服，难在代码之外"
    assert issue.stated_length == "约 2,500 字 · 阅读约 9 分钟"
    assert len(issue.lead) == 2
    assert [
        (item.emoji, item.topic, item.tags, item.score, item.verdict) for item in issue.items
    ] == [
        ("🛠️", "agent", ("Coding Agent",), 9, "dig-deeper"),
        ("🧠", "training", (), 8.5, "dig-deeper"),
        ("🪑", "3d", ("仿真",), 8.5, "keep-watching"),
        ("🧪", "ai-for-science", ("生物医药",), 8.5, "keep-watching"),
        ("⚖️", "governance", ("应用边界",), 8.5, "read-original"),
    ]
    assert issue.items[0].labels == ("论文与完整实验", "代码与任务")
    assert issue.items[4].labels == ("最高法发布说明及《意见》全文",)
    assert [len(item.body) for item in issue.items] == [4, 3, 3, 3, 3]
    assert issue.closing[1].endswith("能力往前走，验证和责任也得跟上。")


def test_a_wrapped_paragraph_loses_only_the_breaks_between_chinese_characters(vocab):
    wrapped = (
        SEED_EXPORT.read_text(encoding="utf-8")
        .replace("先靠能验算的答案确定进步方向", "先靠能验算的答案\n确定进步方向")
        .replace("Claude Opus", "Claude\nOpus")
    )
    bodies = "\n\n".join(text for item in parse_ok(wrapped, vocab).items for text in item.body)
    assert "先靠能验算的答案确定进步方向" in bodies
    assert "Claude\nOpus" in bodies  # a Markdown line break: read as a space


def test_the_seed_renders_the_hand_written_page_apart_from_ids_and_keys(vocab):
    export = parse_ok(SEED_EXPORT.read_text(encoding="utf-8"), vocab)
    hand_written = parse_issue(
        (SEED_SITE / "issues/2026/2026-09-08.md").read_text(encoding="utf-8"),
        "issues/2026/2026-09-08.md",
        vocab,
    )[0]
    ids = [item.id for item in hand_written.items]
    keys = [[f"k{n}-{m}" for m in range(len(item.labels))] for n, item in enumerate(export.items)]
    page = render_page(to_issue(export, ids, keys, "issues/2026/2026-09-08.md"))
    rendered, problems = parse_issue(page, "issues/2026/2026-09-08.md", vocab)
    assert problems == []
    assert rendered.lead == hand_written.lead
    assert rendered.closing == hand_written.closing
    for mine, theirs in zip(rendered.items, hand_written.items, strict=True):
        assert (
            mine.id,
            mine.heading,
            mine.topic,
            mine.tags,
            mine.score,
            mine.verdict,
            mine.body,
        ) == (
            theirs.id,
            theirs.heading,
            theirs.topic,
            theirs.tags,
            theirs.score,
            theirs.verdict,
            theirs.body,
        )
        assert [source.label for source in mine.sources] == [s.label for s in theirs.sources]


@pytest.mark.parametrize("name, items", [("2026-09-09.txt", 3), ("2026-09-10.txt", 6)])
def test_the_fixtures_parse(vocab, name, items):
    issue = parse_ok((FIXTURES / name).read_text(encoding="utf-8"), vocab)
    assert len(issue.items) == items


def test_aliases_map_to_topic_keys_and_a_category_may_have_no_tags(vocab):
    issue = parse_ok((FIXTURES / "2026-09-10.txt").read_text(encoding="utf-8"), vocab)
    assert [(item.topic, item.tags) for item in issue.items] == [
        ("ai-for-science", ("蛋白质", "结构预测")),  # AI4Science
        ("training", ("蒸馏",)),
        ("3d", ("建筑",)),  # 3D生成
        ("agent", ("安全",)),
        ("governance", ("版权",)),  # 监管
        ("training", ()),  # Model training
    ]
    assert issue.stated_length == "约 1，100 字 · 阅读约 3 分钟"
    assert issue.items[0].labels == ("预印本", "图谱浏览器", "数据下载说明")


# --- headings and names -------------------------------------------------------------------


@pytest.mark.parametrize(
    "heading, expected",
    [
        ("🛠️ 客服", ("🛠️", "客服")),
        ("🛠 客服", ("🛠", "客服")),
        ("⚖️AI 治理", ("⚖️", "AI 治理")),
        ("👩🏽‍🔬 科学家", ("👩🏽‍🔬", "科学家")),
        ("客服能跑起来", ("", "客服能跑起来")),
        ("《意见》全文", ("", "《意见》全文")),
    ],
)
def test_split_emoji(heading, expected):
    assert split_emoji(heading) == expected


@pytest.mark.parametrize(
    "title, taken, expected",
    [
        ("RISE：沿着刚刚学会的方向", set(), "rise"),
        ("WorldSculpt：把生成的房间拆开", set(), "worldsculpt"),
        ("τ^τ-Bench 把客服做成了测试", set(), "bench"),
        ("Claude Opus 5 与 GPT-5 的长跑对决", set(), "claude-opus-5-gpt"),
        ("客服能跑起来，不代表能处理好客户的问题", set(), "item-20260908-2"),
        ("AI 换脸", set(), "item-20260908-2"),
        ("3D 场景生成", set(), "item-20260908-2"),
        ("RISE：再往前走一点", {"rise"}, "rise-20260908"),
        # The issue page's own anchors (its sections, citations, the theme's) are not taken.
        ("References 的整理方法", set(), "references-20260908"),
        ("Cite this：引用的规范", set(), "item-20260908-2"),
        ("RISE：再往前走一点", {"rise", "rise-20260908"}, "rise-20260908-2"),
    ],
)
def test_item_ids_are_ascii_readable_and_unique(title, taken, expected):
    assert item_id_for(title, DATE, 2, taken) == expected


def test_citation_keys_are_unique_ignoring_case():
    assert citation_key_for("rise", 1, set()) == "rise-1"
    assert citation_key_for("rise", 1, {"rise-1"}) == "rise-1-2"


# --- escaping -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "# 不是标题",
        "- 不是列表",
        "+ 也不是",
        "1. 不是编号列表",
        "2) 也不是",
        "> 不是引用",
        "% 不是注释",
        "::: 不是块",
        "```不是代码```",
        "~~~ 不是代码",
        "(target)= 不是锚点",
        "=== 不是标题线",
        "强调 *不会* 变斜体，_下划线_ 与 __粗体__ 也不会",
        "反引号 `code` 与角括号 <b>粗体</b>、<!-- 注释 --> 都原样显示",
        "链接 [文字](地址) 与 ![图](x) 不会生效",
        "角色 {cite}`key` 不会生效",
        "实体 &amp; 与 &#35; 原样",
        "反斜杠 C:\\models\\ 与行尾反斜杠\\",
        "表格 | a | b |",
        "3B < 70B > 1B",
    ],
)
def test_escaped_text_renders_exactly_as_written(myst_html, text):
    rendered = myst_html(escape_paragraph(text))
    assert html.unescape(re.sub(r"</?p>", "", rendered)).strip() == text


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(
                min_codepoint=32, max_codepoint=0x9FFF, exclude_categories=("Cc", "Cs", "Zl", "Zp")
            ),
            min_size=1,
            max_size=40,
        )
        .map(str.strip)
        .filter(bool),
        min_size=1,
        max_size=3,
    )
)
def test_any_escaped_paragraph_renders_as_written(myst_html, lines):
    rendered = myst_html(escape_paragraph("\n".join(lines)))
    assert html.unescape(re.sub(r"</?p>", "", rendered)).strip() == "\n".join(lines)
    assert unescape(escape_paragraph("\n".join(lines))) == "\n".join(lines)


@pytest.mark.parametrize(
    "value", ["plain 标题", "RISE: 冒号", "- dash", "'quoted'", "# hash", "[list]", "yes", "12"]
)
def test_yaml_scalars_read_back_unchanged(value):
    import yaml

    assert yaml.safe_load(f"title: {yaml_scalar(value)}") == {"title": value}


@pytest.mark.parametrize("value", ["论文 <k1> · 代码 <k2>", "a # b", '"q" x', "|x", "#tag"])
def test_option_values_read_back_unchanged(value):
    from myst_parser.parsers.options import options_to_items

    assert options_to_items(f"tags: {option_value(value)}")[0] == [("tags", value)]


def test_a_generated_reference_has_only_the_missing_identifier_warning():
    entry = render_bib_entry("rise-1", "RISE 论文（RISE：{50%} \\ 外推）", "来自 2026-09-08")
    problems = check_bib_text(entry, "references.bib")
    assert [(problem.severity, problem.code) for problem in problems] == [
        ("note", "missing-identifier")
    ]
    assert "doi" not in entry and "url" not in entry and "author" not in entry
