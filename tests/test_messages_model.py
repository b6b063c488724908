"""The model's problems in the editors' language (issue 31): what ``radar check`` and
the build say about a page, a site's files and its address, in Chinese with ``--lang zh``
(the codes, files and lines as they are), and in English word for word as before."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import runpy
from pathlib import Path

import pytest
from conftest import SEED_SITE, copy_site, sphinx_build

from juju_radar.editors import cli
from juju_radar.model.archive_rules import check_archive
from juju_radar.model.content import check_content
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import Issue, date_outside_span
from juju_radar.model.messages import use_language
from juju_radar.model.page import Page
from juju_radar.model.site_layout import refused_code_files
from juju_radar.model.translations import check_translations
from juju_radar.model.vocabulary import Vocabulary, vocabulary_from_config
from juju_radar.outputs.siteurl import url_problem

SEED_PATH = "issues/2026/2026-09-08.md"


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    conf = runpy.run_path(str(SEED_SITE / "conf.py"))
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


def issue_page(item_options: str, front: str = "") -> str:
    head = front or "date: 2026-09-08\ntitle: 测试一期\nstatus: published\nlength: 约 30 字"
    return (
        f"---\n{head}\n---\n\n导语一段。\n\n"
        f":::{{radar-item}} 🛠️ 一条测试条目\n{item_options}\n\n正文一段。\n:::\n\n"
        ":::{radar-closing} 今天的主线\n\n收尾一段。\n:::\n"
    )


def messages(problems) -> list[tuple[int, str, str]]:
    return [(problem.line, problem.code, problem.message) for problem in problems]


def test_radar_check_speaks_chinese_with_the_code_and_line_kept(tmp_path: Path, capsys):
    site = copy_site(tmp_path / "site")
    page = site / SEED_PATH
    page.write_text(
        page.read_text(encoding="utf-8").replace(":topic: agent", ":topic: agnet", 1),
        encoding="utf-8",
    )
    (site / "docutils.conf").write_text("[general]\n", encoding="utf-8")

    assert cli.main(["--root", str(site), "--lang", "zh", "check"]) == 1

    out = capsys.readouterr()
    said = out.out + out.err
    assert f"{SEED_PATH}:14: 错误: 未知的主题“agnet”（是否想写“agent”？） [unknown-topic]" in said
    assert (
        "docutils.conf:1: 错误: docutils.conf 会改变构建的配置：归档的设置都在 conf.py "
        "和软件包中；请删除它 [refused-file]"
    ) in said
    assert "unknown topic" not in said


def test_an_issues_problems_in_chinese(vocab: Vocabulary):
    use_language("zh")
    text = issue_page(
        ":id: Bad_Id\n:topic: agent\n:score: 11\n:verdict: 建议深究\n:colour: red",
        front="date: 2026-09-09\ntitle: 测试一期\nstatus: final\nextra: 1",
    )
    _issue, problems = parse_issue(text, SEED_PATH, vocab)
    said = messages(problems)
    assert (2, "date-mismatch", "日期 2026-09-09 与文件名（2026-09-08）不符") in said
    assert (4, "unknown-status", "status“final”不是以下之一：published, draft") in said
    assert (5, "unknown-field", "未知的文件头字段“extra”") in said
    assert (
        11,
        "bad-id",
        "条目 id“Bad_Id”只能由小写 ASCII 字母、数字和“-”组成",
    ) in said
    assert (13, "bad-score", "评分“11”必须是 0 到 10 之间、以 0.5 为单位的数字") in said
    assert (14, "unknown-verdict", "未知的判断“建议深究”（是否想写“建议深挖”？）") in said
    assert (15, "unknown-option", "未知的条目选项“:colour:”") in said
    assert (7, "no-items", "本期没有条目") in said


def test_the_same_problems_read_as_before_in_english(vocab: Vocabulary):
    text = issue_page(":id: top\n:topic: agnet\n:score: 8\n:verdict: dig-deeper")
    _issue, problems = parse_issue(text, SEED_PATH, vocab)
    assert messages(problems) == [
        (
            11,
            "reserved-id",
            "item id 'top' is an id the issue page uses for its own parts: choose another",
        ),
        (12, "unknown-topic", "unknown topic 'agnet' (did you mean 'agent'?)"),
        (7, "no-items", "the issue has no items"),
    ]


def test_the_reading_of_a_page_in_chinese(vocab: Vocabulary):
    use_language("zh")
    unclosed = Page.read("---\ndate: 2026-09-08\n---x\n正文\n", SEED_PATH)
    assert messages(unclosed.problems) == [
        (1, "front-matter", "文件头没有以“---”一行结束"),
    ]
    longer = Page.read("---\ndate: 2026-09-08\n----\n正文\n", SEED_PATH)
    assert messages(longer.problems) == [
        (3, "front-matter", "'----' 不能结束文件头：请单独写一行“---”"),
    ]
    bidi = Page.read("---\ntitle: a\n---\n\n8.5/10 \u202e反转\n", "about.md")
    assert messages(bidi.problems) == [
        (5, "control-character", "双向控制字符 U+202E：请删除"),
    ]
    fence = issue_page(":id: a\n:topic: agent\n:score: 8\n:verdict: dig-deeper\n\n```python")
    _issue, problems = parse_issue(fence, SEED_PATH, vocab)
    assert (16, "unclosed-fence", "这个代码块围栏（```）没有关闭：页面其余部分都会被当作代码") in (
        messages(problems)
    )


def test_the_content_check_in_chinese():
    use_language("zh")
    text = (
        "---\ntitle: 关于\nmyst: {}\n---\n\n# 关于\n\n"
        "[外站](ftp://example.com/a) ![图](https://example.com/a.png)\n\n"
        "```{literalinclude} /etc/passwd\n```\n"
    )
    said = messages(check_content(text, "about.md", "site"))
    assert (3, "forbidden-field", "不允许使用文件头字段“myst”") in said
    assert (
        2,
        "forbidden-field",
        "不允许使用文件头字段“title”（站点页面可以有：description, orphan）",
    ) in (said)
    assert (8, "forbidden-link", "链接“ftp://example.com/a”：只允许 http(s) 和 mailto 链接") in said
    assert (
        8,
        "forbidden-image",
        "图片“https://example.com/a.png”来自其他主机：归档不显示图片",
    ) in (said)
    refused = [message for line, code, message in said if code == "forbidden-directive"]
    assert refused and refused[0].startswith("站点页面中不允许使用块“{literalinclude}”（允许：")


def test_archive_wide_problems_and_the_site_in_chinese(vocab: Vocabulary, tmp_path: Path):
    use_language("zh")
    text = issue_page(":id: same\n:topic: agent\n:score: 8\n:verdict: dig-deeper")
    first, _problems = parse_issue(text, SEED_PATH, vocab)
    assert isinstance(first, Issue)
    copy = dataclasses.replace(first, path="issues/2026/2026-09-08-b.md")
    problems = check_archive([first, copy], bib_keys=set())
    assert messages(problems)[0] == (
        2,
        "duplicate-date",
        "issues/2026/2026-09-08-b.md 已经是 2026-09-08 的那一期",
    )
    assert "条目 id“same”已在 issues/2026/2026-09-08-b.md 中使用" in [p.message for p in problems]
    assert date_outside_span(dt.date(1999, 1, 1), (2000, 2100)) == (
        "日期 1999-01-01 不在归档的年份范围 2000–2100 内（conf.py 中的 radar_date_span）"
    )
    assert url_problem("example.com/radar") == (
        "站点地址必须是带主机名的 http(s) URL，而不是 'example.com/radar'"
    )
    (tmp_path / "docutils.conf").write_text("", encoding="utf-8")
    assert [p.code for p in refused_code_files(tmp_path)] == ["refused-file"]
    script = tmp_path / "locales" / "zh_CN" / "LC_MESSAGES" / "sphinx.js"
    script.parent.mkdir(parents=True)
    script.write_text("", encoding="utf-8")
    assert [p.message for p in check_translations(tmp_path, [])] == [
        "Sphinx 会把这个脚本发布为每个页面的 _static/translations.js：本站的翻译只用 .po 文件"
    ]


@pytest.mark.site
def test_the_build_refuses_a_bad_address_in_the_language_of_conf_py(tmp_path: Path):
    """The address is checked in the extension's setup, before config-inited: the line
    is already in conf.py's language (the seed site's: Chinese) when no locale names one."""
    srcdir = copy_site(tmp_path / "src")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("RADAR_SITE_URL", "RADAR_DEPLOY")},
        "LANGUAGE": "",
        "LC_ALL": "C.UTF-8",
        "RADAR_DEPLOY": "1",
    }
    result = sphinx_build(srcdir, tmp_path / "html", check=False, env=env)
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "conf.py: ERROR: RADAR_DEPLOY=1，但站点地址未知：请设置 RADAR_SITE_URL、"
        "-D radar_site_url=… 或 conf.py 中的 radar_site_url [radar.no-site-url]"
    ), result.stderr
