"""One reading of a page (issue 26, section 1): MyST sees exactly the front matter the
archive read and validated, never the page's own, and the same blocks and fences as the
content check, whatever the front matter's key spellings and closing lines."""

from __future__ import annotations

import yaml
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig, read_topmatter
from myst_parser.parsers.mdit import create_md_parser

from juju_radar.model.content import (
    ACTIVE_FRONT_MATTER,
    MarkdownSyntax,
    check_content,
    markdown,
    renderer_fields,
)
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.page import Page
from juju_radar.model.vocabulary import Vocabulary

SYNTAX = MarkdownSyntax()
MYST = create_md_parser(
    MdParserConfig(enable_extensions={"colon_fence"}, disable_syntax=["html_block", "html_inline"]),
    RendererHTML,
)
PATH = "issues/2026/2026-09-09.md"

KEYS = [
    "date",
    "title",
    "status",
    "length",
    "orphan",
    "description",
    "myst",
    '"myst"',
    "'myst'",
    "!!str myst",
    "html_meta",
    "substitutions",
    "2026",
    "yes",
]
VALUES = [
    "2026-09-09",
    "第二期",
    '"引号 ---"',
    "published",
    "draft",
    "true",
    "{enable_extensions: [substitution]}",
    "[a, b]",
    "|\n  多行\n  ---",
    "'\u2028---'",
    "a\x01b",
    "",
]
FRONT_LINES = st.one_of(
    st.builds(lambda key, value: f"{key}: {value}", st.sampled_from(KEYS), st.sampled_from(VALUES)),
    st.sampled_from(
        [
            "<<: {myst: {enable_extensions: [substitution]}}",
            "? myst\n: {enable_extensions: [substitution]}",
            "{myst: {enable_extensions: [substitution]}}",
            "  enable_extensions: [substitution]",
            "# a comment ---",
        ]
    ),
)
CLOSINGS = ["---", " ---", "--- ", "----", "...", "- - -", "---x", "  ---  ", "\t---"]
OPENINGS = ["---", "--- ", "---x", " ---", "# 标题", ""]
BODY_LINES = st.sampled_from(
    [
        "",
        "正文 {{ env }} 段落。",
        "---",
        "```",
        "```{radar-item} 标题",
        "~~~",
        ":::",
        ":::{radar-item} 标题",
        ":::{radar-closing} 今天的主线",
        ":id: a-id",
        "    缩进的代码",
        "> 引用 ---",
        "myst:",
        "  enable_extensions: [substitution]",
        "...",
        "# 标题",
        "标题\n===",
    ]
)


@st.composite
def pages(draw: st.DrawFn) -> str:
    opening = draw(st.sampled_from(OPENINGS))
    front = draw(st.lists(FRONT_LINES, max_size=6))
    closings = draw(st.lists(st.sampled_from(CLOSINGS), min_size=1, max_size=3))
    middle = draw(st.lists(FRONT_LINES, max_size=2))
    body = draw(st.lists(BODY_LINES, max_size=12))
    lines = [opening, *front, closings[0], *middle, *closings[1:], *body]
    return "\n".join(lines) + "\n"


def shape(tokens):
    return [
        (t.type, t.info, t.map, t.content, dict(t.attrs), shape(t.children or [])) for t in tokens
    ]


def kept_fields(page: Page, kind: str) -> dict:
    fields = renderer_fields(kind)  # type: ignore[arg-type]
    return {
        key: value
        for key, value in page.front.fields.items()
        if key in fields and isinstance(value, str | bool)
    }


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=pages(), kind=st.sampled_from(["issue", "site"]))
def test_myst_reads_only_the_fields_the_archive_read(text: str, kind: str) -> None:
    page = Page.read(text, PATH)
    source = page.renderer_source(renderer_fields(kind))  # type: ignore[arg-type]
    settings_read = read_topmatter(source) or {}
    # MyST's own reader of file-level settings and its front matter token agree with
    # the archive's reading, and hold only the fields a page of this kind may have.
    assert settings_read == kept_fields(page, kind)
    assert not set(settings_read) & ACTIVE_FRONT_MATTER
    tokens = MYST.parse(source)
    front_tokens = [token for token in tokens if token.type == "front_matter"]
    if settings_read:
        assert yaml.safe_load(front_tokens[0].content) == settings_read
    else:
        assert front_tokens == []
    # Every body line keeps its number, and the check reads the blocks MyST renders.
    if page.front.readable:
        assert source.split("\n")[page.front.end :] == page.lines[page.front.end :]
        assert len(source.split("\n")) == len(page.lines)
    else:
        assert source == ""
    assert shape(markdown(SYNTAX).parse(source)) == shape(tokens)


@settings(max_examples=examples(150), deadline=None)
@given(text=pages())
def test_a_page_the_checks_pass_gives_myst_no_setting(text: str) -> None:
    page = Page.read(text, PATH)
    problems = check_content(page, PATH, "issue")
    _, issue_problems = parse_issue(page, PATH, Vocabulary((), ()))
    errors = [p for p in [*problems, *issue_problems] if p.severity == "error"]
    if any(str(key) in ACTIVE_FRONT_MATTER for key in page.front.fields):
        assert any(p.code == "forbidden-field" for p in errors)
    if not page.front.readable:
        assert any(p.code == "front-matter" for p in errors)
    for problem in errors:
        assert problem.path == PATH and 1 <= problem.line <= len(page.lines)


def test_a_space_before_the_closing_line_is_an_error_at_that_line() -> None:
    text = "---\ndate: 2026-09-09\n ---\nmyst:\n  enable_extensions: [substitution]\n---\n"
    page = Page.read(text, PATH)
    assert not page.front.readable
    assert [(p.line, p.code) for p in page.front.problems] == [(3, "front-matter")]
    assert page.renderer_source({"date"}) == ""


def test_the_renderer_gets_the_fields_on_the_lines_they_took() -> None:
    text = '---\ndate: 2026-09-09\ntitle: "第二期\u2028---"\nnote: x\n---\n\n正文。\n'
    page = Page.read(text, PATH)
    source = page.renderer_source({"date", "title"})
    assert source.split("\n")[:5] == [
        "---",
        '{"date": "2026-09-09", "title": "第二期\\u2028---"}',
        "---",
        "",
        "",
    ]
    assert read_topmatter(source) == {"date": "2026-09-09", "title": "第二期\u2028---"}
    assert page.front.key_lines["title"] == 3
    # YAML counts U+2028 as a line break: such a character is refused in any page.
    assert [(p.line, p.code) for p in page.problems] == [(3, "control-character")]


def test_a_character_yaml_refuses_is_an_error_at_its_line_not_a_crash() -> None:
    text = "---\ndate: 2026-09-09\ntitle: 第二\x01期\n---\n\n正文。\n"
    page = Page.read(text, PATH)
    assert not page.front.readable
    assert [(p.line, p.code) for p in page.front.problems] == [(3, "front-matter")]
    assert "U+0001" in page.front.problems[0].message
