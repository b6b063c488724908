"""``radar``: import the seed and the fixtures into site copies, build them with the real
Sphinx, and check that every sentence an editor wrote is on the page a reader sees."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from bs4 import BeautifulSoup
from conftest import SEED_EXPORT, SEED_SITE, copy_site, sphinx_build
from conftest import page_text as article_text
from live_preview import HANG_GUARD, STOP_TIMEOUT, free_port, radar_serve, serving

from juju_radar.editors import cli
from juju_radar.editors.export_category import CATEGORY_RE
from juju_radar.editors.page_writer import unescape
from juju_radar.model.archive_rules import nearest_keys

FIXTURES = Path(__file__).parent / "fixtures" / "export"
SEED_PAGE = "issues/2026/2026-09-08.md"
BIB_HEADER = "% The documents the archive's items cite.\n"


def radar(root: Path, *args: str) -> int:
    return cli.main(["--root", str(root), *args])


def normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sentences(export: str) -> list[str]:
    """The export's sentences (split on 。！？ and line ends), category lines aside."""
    found = []
    for line in export.splitlines():
        line = line.strip().removeprefix("\ufeff")
        if not line or CATEGORY_RE.match(line):
            continue
        found += [normalized(part) for part in re.split(r"(?<=[。！？])", line) if part.strip()]
    return found


def page_text(html_path: Path) -> str:
    """The reader's text of the article (``conftest.page_text``), whitespace normalized."""
    return normalized(article_text(html_path))


def import_and_build(base: Path, exports: list[Path], keep_seed: bool) -> tuple[Path, Path]:
    src = copy_site(base / "src")
    if not keep_seed:
        (src / SEED_PAGE).unlink()
        (src / "references.bib").write_text(BIB_HEADER, encoding="utf-8")
    assert radar(src, "import", *map(str, exports)) == 0
    if keep_seed:
        assert radar(src, "new", "2026-09-11") == 0
    html = base / "html"
    sphinx_build(src, html)
    return src, html


@pytest.fixture(scope="module")
def seed_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return import_and_build(tmp_path_factory.mktemp("seed"), [SEED_EXPORT], keep_seed=False)


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    exports = sorted(FIXTURES.glob("*.txt"))
    return import_and_build(tmp_path_factory.mktemp("fixtures"), exports, keep_seed=True)


# --- import, lossless -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "export, date",
    [
        (SEED_EXPORT, "2026-09-08"),
        (FIXTURES / "2026-09-09.txt", "2026-09-09"),
        (FIXTURES / "2026-09-10.txt", "2026-09-10"),
    ],
    ids=["seed", "fixture-09", "fixture-10"],
)
@pytest.mark.site
def test_every_sentence_is_on_the_page_and_the_built_page(request, export, date):
    src, html = request.getfixturevalue("seed_site" if export == SEED_EXPORT else "fixture_site")
    source = (src / f"issues/2026/{date}.md").read_text(encoding="utf-8")
    built = page_text(html / f"issues/2026/{date}.html")
    expected = sentences(export.read_text(encoding="utf-8"))
    assert len(expected) > 20
    # The length line is the editors' (front matter): readers see the counted length only.
    stated = export.read_text(encoding="utf-8").split("\n\n")[2].strip()
    assert stated.startswith("约 ") and stated not in built
    assert [s for s in expected if s not in built and s != stated] == []
    # In the page source, the date line is front matter and labels are each beside their key.
    page_source = normalized(unescape(source))
    in_source = [
        part for s in expected if not s.startswith("Juju Radar") for part in s.split(" · ")
    ]
    assert [s for s in in_source if s not in page_source] == []
    assert f"\ndate: {date}\n" in source


def test_the_seed_page_is_the_hand_written_one_apart_from_ids_and_keys(seed_site):
    src, _ = seed_site
    written = (src / SEED_PAGE).read_text(encoding="utf-8")
    original = (SEED_SITE / SEED_PAGE).read_text(encoding="utf-8")
    id_or_sources = re.compile(r"^:(id|sources): .*$", re.MULTILINE)
    assert id_or_sources.sub("", written) == id_or_sources.sub("", original)
    assert ":id: rise\n" in written and ":id: item-20260908-1\n" in written
    assert (
        ":sources: 论文与完整实验 <item-20260908-1-1> · 代码与任务 <item-20260908-1-2>" in written
    )


def test_imported_references_name_their_item_and_invent_nothing(seed_site):
    src, html = seed_site
    bib = (src / "references.bib").read_text(encoding="utf-8")
    assert (
        "@misc{rise-1,\n  title     = {RISE 论文（RISE：沿着刚刚学会的方向，再往前走一点）},\n"
        in bib
    )
    # The editors' note of where the entry came from is kept in a field no page shows.
    assert (
        "  radarnote = {Juju Radar 2026-09-08 条目 rise（RISE：沿着刚刚学会的方向，再往前走一点）"
        "的来源链接“RISE 论文”},\n" in bib
    )
    assert not re.search(r"^\s*note\s*=", bib, re.MULTILINE)
    assert bib.count("@misc{") == 7
    for field in ("doi", "url", "eprint", "author", "year", "isbn"):
        assert not re.search(rf"^\s*{field}\s*=", bib, re.MULTILINE)
    built = page_text(html / "issues/2026/2026-09-08.html")
    assert built.count("（原文未附链接）") == 7, "one short mark per entry"
    assert built.count("待编辑补全") == 1, "explained once, by the page, not the note"
    assert "Juju Radar 2026-09-08 条目" not in built, "no editors' bookkeeping for readers"
    for suffix in (".bib", ".ris", ".csl.json"):
        download = (html / f"issues/2026/2026-09-08{suffix}").read_text(encoding="utf-8")
        assert "RISE 论文（RISE：" in download
        assert "radarnote" not in download and "2026-09-08 条目" not in download, suffix


def test_categories_show_the_topic_label_for_an_alias(fixture_site):
    _, html = fixture_site
    built = page_text(html / "issues/2026/2026-09-10.html")
    assert "AI for Science / 蛋白质 / 结构预测 · 9/10｜建议深挖" in built  # written AI4Science
    assert "3D 生成 / 建筑 · 7.5/10｜持续观察" in built  # written 3D生成
    assert "模型训练 · 6.5/10｜持续观察" in built  # written Model training, no tags
    built_09 = page_text(html / "issues/2026/2026-09-09.html")
    assert "Agent / Coding Agent · 8/10｜持续观察" in built_09  # written 智能体


def test_markup_characters_in_prose_are_shown_not_interpreted(fixture_site):
    src, html = fixture_site
    page = (src / "issues/2026/2026-09-09.md").read_text(encoding="utf-8")
    assert "\\<b>" in page, "written escaped, so it is text, not raw HTML"
    soup = BeautifulSoup((html / "issues/2026/2026-09-09.html").read_text("utf-8"), "html.parser")
    article = soup.find("article")
    assert article.find("b") is None and article.find("em") is None
    assert article.find("blockquote") is None and article.find("ol") is None
    assert "直接保留了 <b> 这样的 HTML 标签" in article.get_text()
    assert "写出 *过于宽松* 的测试" in article.get_text()


def test_reimport_with_force_reuses_ids_and_references(fixture_site, tmp_path):
    src = copy_site(tmp_path / "src")
    export = FIXTURES / "2026-09-09.txt"
    assert radar(src, "import", str(export)) == 0
    page = (src / "issues/2026/2026-09-09.md").read_text(encoding="utf-8")
    bib = (src / "references.bib").read_text(encoding="utf-8")
    assert radar(src, "import", "--force", str(export)) == 0
    assert (src / "issues/2026/2026-09-09.md").read_text(encoding="utf-8") == page
    assert (src / "references.bib").read_text(encoding="utf-8") == bib
    # Entries an earlier version imported carry a longer note; they are reused too.
    former = re.sub(
        r"”\}", "”；由 radar import 生成，标识符（DOI、arXiv 编号或网址）待编辑补全}", bib
    ).replace("  radarnote = {", "  note      = {")
    assert former != bib
    (src / "references.bib").write_text(former, encoding="utf-8")
    assert radar(src, "import", "--force", str(export)) == 0
    assert (src / "issues/2026/2026-09-09.md").read_text(encoding="utf-8") == page
    assert (src / "references.bib").read_text(encoding="utf-8") == former


def test_a_backlog_gets_a_summary_and_distinct_ids(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    exports = [*sorted(FIXTURES.glob("*.txt")), SEED_EXPORT]
    assert radar(src, "import", *map(str, exports)) == 0  # the seed's day is skipped
    captured = capsys.readouterr()
    assert captured.err.rstrip().endswith(
        "2 imported, 1 skipped (already in the archive: --force replaces them), 0 failed"
    )
    assert "issues/2026/2026-09-09.md" in captured.out
    ids = re.findall(
        r"^:id: (.+)$",
        "".join(path.read_text(encoding="utf-8") for path in (src / "issues").glob("*/*.md")),
        re.M,
    )
    assert len(ids) == len(set(ids)) == 5 + 3 + 6


# --- check ----------------------------------------------------------------------------------


def test_check_passes_on_the_imported_site_with_notes_for_incomplete_references(
    fixture_site, capsys
):
    src, _ = fixture_site
    capsys.readouterr()
    assert radar(src, "check", "--verbose") == 0
    out = capsys.readouterr().out.splitlines()
    assert all(": note: " in line for line in out)
    kinds = {line.rsplit(" ", 1)[1] for line in out}
    assert kinds == {"[missing-identifier]", "[latex-special]"}  # the seed's "τ^τ" titles
    assert (
        "references.bib:59: note: entry 'contamscope-1' has no DOI/URL/arXiv id/ISBN: "
        "an editor must complete it [missing-identifier]"
    ) in out
    # By default the notes are one line of their kind, and the summary says where.
    assert radar(src, "check") == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "references.bib: 2 notes [latex-special]: `radar check --verbose` lists them",
        f"references.bib: {len(out) - 2} notes [missing-identifier]: `radar refs missing` "
        "lists them with what to look up",
    ]
    assert captured.err == (
        f"0 errors, 0 warnings, {len(out)} notes: in references.bib ({len(out)}); "
        "4 issues checked\n"
    )
    assert radar(src, "check", "--quiet") == 0
    assert capsys.readouterr() == ("", "")
    assert radar(src, "check", "--strict") == 0, "a note is not a defect, even with --strict"


def test_check_quiet_prints_only_errors(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    page = src / "issues/2026/2026-09-08.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(
        text.replace(":topic: agent", ":topic: agnet", 1).replace("title:", "note: x\ntitle:", 1),
        encoding="utf-8",
    )
    assert radar(src, "check", "--quiet") == 1
    out, err = capsys.readouterr()
    assert err == ""
    # The unknown field is an error as the build makes it (issue 52); the notes of
    # references.bib and the summary are left out.
    assert [line.split(": ")[1] for line in out.splitlines()] == ["error", "error"]
    assert "[unknown-topic]" in out and "[unknown-field]" in out


def test_check_as_json(fixture_site, capsys):
    src, _ = fixture_site
    capsys.readouterr()
    assert radar(src, "check", "--format", "json") == 0
    problems = json.loads(capsys.readouterr().out)
    assert problems[0] == {
        "path": "references.bib",
        "line": 4,
        "severity": "note",
        "code": "missing-identifier",
        "message": "entry 'taubench2026paper' has no DOI/URL/arXiv id/ISBN: an editor must "
        "complete it",
    }


@pytest.mark.site
def test_check_reports_what_the_sphinx_build_reports(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    page = src / SEED_PAGE
    text = page.read_text(encoding="utf-8")
    text = text.replace(":topic: training", ":topic: trainnig").replace(
        "<rise2026paper>", "<rise2026papr>"
    )
    page.write_text(text, encoding="utf-8")
    (src / "references.bib").write_text(
        (src / "references.bib").read_text(encoding="utf-8").replace("2026-09-04 公开", "50% 公开"),
        encoding="utf-8",
    )
    assert radar(src, "check") == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    assert errors == [
        "issues/2026/2026-09-08.md:32: error: unknown topic 'trainnig' (did you mean 'training'?) "
        "[unknown-topic]",
        "references.bib:15: error: unescaped '%' in field 'note' of entry 'taubench2026code': "
        "pybtex drops the rest of the field; write '\\%' [unescaped-percent]",
    ]
    build = sphinx_build(src, tmp_path / "html", check=False)
    assert build.returncode != 0
    assert (
        "2026-09-08.md:32: ERROR: unknown topic 'trainnig' (did you mean 'training'?)"
        in build.stderr
    )
    assert "references.bib:15: ERROR: unescaped '%' in field 'note'" in build.stderr


def test_check_reports_ids_reused_across_issues_and_unknown_keys(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    text = (src / SEED_PAGE).read_text(encoding="utf-8")
    other = text.replace("2026-09-08", "2026-09-09").replace("<rise2026paper>", "<nokey2026>")
    (src / "issues/2026/2026-09-09.md").write_text(other, encoding="utf-8")
    assert radar(src, "check") == 1
    out = capsys.readouterr().out
    assert (
        "issues/2026/2026-09-09.md:13: error: item id 'tau-bench-customer-service' is already "
        "used in issues/2026/2026-09-08.md [duplicate-id]"
    ) in out
    assert (
        "issues/2026/2026-09-09.md:35: error: citation key 'nokey2026' is not in "
        "references.bib [missing-citation]"
    ) in out


def test_a_mistyped_citation_key_names_the_nearest_keys(tmp_path, capsys):
    """Issue 52: a key one letter off the real one says which it may be; one far from
    every key says nothing more."""
    src = copy_site(tmp_path / "src")
    page = src / SEED_PAGE
    text = page.read_text(encoding="utf-8")
    typo = text.replace("<taubench2026paper>", "<taubench2026papr>", 1)
    page.write_text(typo.replace("<rise2026paper>", "<zzz>", 1), encoding="utf-8")
    assert radar(src, "check") == 1
    out = capsys.readouterr().out
    assert (
        "error: citation key 'taubench2026papr' is not in references.bib (did you mean "
        "'taubench2026paper'?) [missing-citation]"
    ) in out
    assert "error: citation key 'zzz' is not in references.bib [missing-citation]" in out
    keys = ["rise2026paper", "rise2026papers", "worldsculpt2026code"]
    assert nearest_keys("rise2026papr", keys) == (
        " (did you mean one of 'rise2026paper', 'rise2026papers'?)"
    )
    assert radar(src, "--lang", "zh", "check") == 1
    said = capsys.readouterr().out
    assert "引用键“taubench2026papr”不在 references.bib 中（是否想写“taubench2026paper”？）" in said


@pytest.mark.site
def test_check_and_build_refuse_misplaced_pages_alike(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    text = (src / SEED_PAGE).read_text(encoding="utf-8")
    (src / "issues/2026/notes.md").write_text(text, encoding="utf-8")
    (src / "issues/2027").mkdir()
    second = text.replace("date: 2026-09-08", "date: 2026-09-09")
    (src / "issues/2027/2026-09-09.md").write_text(second, encoding="utf-8")
    assert radar(src, "check") == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    misplaced = (
        "error: an issue page must be issues/YYYY/YYYY-MM-DD.md, named by its date in the "
        "folder of its year; rename or move it [bad-path]"
    )
    assert f"issues/2026/notes.md:1: {misplaced}" in errors
    assert f"issues/2027/2026-09-09.md:1: {misplaced}" in errors
    # A misplaced page is no issue, for the check as for the build (issue 52): its path
    # is its one problem until it is renamed, so no duplicate date or id is reported.
    assert not [line for line in errors if "[bad-path]" not in line]
    build = sphinx_build(src, tmp_path / "html", check=False)
    assert build.returncode != 0
    assert "issues/2026/notes.md:1: ERROR: an issue page must be" in build.stderr
    assert "issues/2027/2026-09-09.md:1: ERROR: an issue page must be" in build.stderr
    assert "[radar.duplicate-date]" not in build.stderr


def seed_page_problems(tmp_path: Path, page: str, capsys) -> list[str]:
    """What ``radar check`` (exiting 1) says of the seed issue written as ``page``."""
    src = copy_site(tmp_path / "src")
    (src / SEED_PAGE).write_text(page, encoding="utf-8")
    assert radar(src, "check") == 1
    return [line for line in capsys.readouterr().out.splitlines() if SEED_PAGE in line]


@pytest.mark.parametrize(
    "inserted, line, fence",
    [
        ({38: "```python\n"}, 39, "```"),  # inside the second item
        # In the lead, a longer fence that a later ``` line does not close (CommonMark).
        ({9: "````\n", 40: "```\n"}, 10, "````"),
    ],
    ids=["in an item", "in the lead, four backticks"],
)
def test_an_unclosed_code_fence_is_reported_where_it_opens_and_alone(
    tmp_path, capsys, inserted, line, fence
):
    lines = (SEED_SITE / SEED_PAGE).read_text(encoding="utf-8").splitlines(keepends=True)
    for index in sorted(inserted, reverse=True):
        lines.insert(index, inserted[index])
    assert seed_page_problems(tmp_path, "".join(lines), capsys) == [
        f"issues/2026/2026-09-08.md:{line}: error: this code fence ({fence}) is never closed: "
        "the rest of the page reads as code [unclosed-fence]"
    ]


def test_a_missing_closing_colons_is_reported_where_its_block_opens(tmp_path, capsys):
    """Issue 52: the ':::' closing the first item is deleted; the problem is said at the
    line that opens the item (and names where the next block opens), not as a nested
    block at the next one."""
    lines = (SEED_SITE / SEED_PAGE).read_text(encoding="utf-8").splitlines(keepends=True)
    opens = [n for n, line in enumerate(lines, 1) if line.startswith(":::{radar-item}")]
    first_close = next(n for n, line in enumerate(lines, 1) if n > opens[0] and line == ":::\n")
    del lines[first_close - 1]
    assert seed_page_problems(tmp_path, "".join(lines), capsys) == [
        f"issues/2026/2026-09-08.md:{opens[0]}: error: block '{{radar-item}}' is not closed by "
        f"':::' before the next block opens at line {opens[1] - 1} [unclosed-block]"
    ]


def test_a_title_that_is_not_text_is_named_as_such(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    page = src / SEED_PAGE
    title = next(
        line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("title:")
    )
    page.write_text(page.read_text(encoding="utf-8").replace(title, "title: 123"), encoding="utf-8")
    assert radar(src, "check") == 1
    assert (
        'issues/2026/2026-09-08.md:3: error: title must be text (quote it: "...") [front-matter]'
        in capsys.readouterr().out.splitlines()
    )


# --- new ------------------------------------------------------------------------------------


@pytest.mark.site
def test_new_scaffolds_a_draft_that_passes_check_and_builds(fixture_site, capsys, tmp_path):
    src, html = fixture_site
    draft = (src / "issues/2026/2026-09-11.md").read_text(encoding="utf-8")
    assert "status: draft" in draft and "\n% :verdict: dig-deeper（建议深挖）" in draft
    capsys.readouterr()
    assert radar(src, "check") == 0
    assert "2026-09-11" not in capsys.readouterr().out
    assert not (html / "issues/2026/2026-09-11.html").exists()  # a draft is not published
    previewed = tmp_path / "previewed"
    sphinx_build(src, previewed, "-D", "radar_build_drafts=1")
    built = page_text(previewed / "issues/2026/2026-09-11.html")
    assert "草稿 本期尚未发布" in built and ":verdict:" not in built


def test_a_scaffold_published_unwritten_is_refused_at_each_placeholder(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    assert radar(src, "new", "2026-09-12") == 0
    page = src / "issues/2026/2026-09-12.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("status: draft", "status: published"),
        encoding="utf-8",
    )
    capsys.readouterr()
    assert radar(src, "check") == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    message = (
        "error: placeholder text of `radar new` in a published issue: write it, or keep "
        "status: draft [placeholder]"
    )
    assert errors == [
        f"issues/2026/2026-09-12.md:{line}: {message}" for line in (4, 6, 9, 11, 12, 17, 32)
    ]


def test_new_defaults_to_today_in_shanghai_and_refuses_to_overwrite(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    today = dt.datetime.now(ZoneInfo("Asia/Shanghai")).date()
    assert radar(src, "new") == 0
    assert (src / f"issues/{today:%Y}/{today.isoformat()}.md").exists()
    assert radar(src, "new", today.isoformat()) == 1
    assert "already exists: pass --force to replace it" in capsys.readouterr().err
    assert radar(src, "new", "2026-02-30") == 2


@pytest.mark.site
def test_a_topic_without_its_page_is_reported_by_check_and_build(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    conf = src / "conf.py"
    conf.write_text(
        conf.read_text(encoding="utf-8").replace(
            "radar_topics = [\n",
            'radar_topics = [\n    {"key": "robotics", "label": "机器人", "label_en": "Robotics"},\n',
        ),
        encoding="utf-8",
    )
    line = (
        conf.read_text(encoding="utf-8")
        .splitlines()
        .index('    {"key": "robotics", "label": "机器人", "label_en": "Robotics"},')
        + 1
    )
    message = (
        "error: topic 'robotics' has no page: create topics/robotics.md holding a "
        "{radar-topic} robotics block and list it in topics/index.md's toctree"
    )
    assert radar(src, "check") == 1
    assert f"conf.py:{line}: {message} [missing-topic-page]" in capsys.readouterr().out
    result = sphinx_build(src, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert f"conf.py:{line}: ERROR: {message.removeprefix('error: ')}" in result.stderr


def test_new_names_the_file_it_cannot_write(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    (src / "issues" / "2027").write_text("a file where the year's folder would go")
    assert radar(src, "new", "2027-01-02") == 1
    err = capsys.readouterr().err
    assert err.startswith("radar: error: cannot write issues/2027/2027-01-02.md: ")
    assert "Traceback" not in err


# --- serve and entry points -----------------------------------------------------------------


def test_serve_runs_the_preview_server_on_localhost(tmp_path, monkeypatch):
    src = copy_site(tmp_path / "src")
    commands = []

    class FakeServer:
        def __init__(self, command, cwd):
            commands.append((command, cwd))

        def wait(self):
            return 0

    monkeypatch.setattr(cli.subprocess, "Popen", FakeServer)
    assert radar(src, "serve", "--port", "8123") == 0
    command, cwd = commands[0]
    assert command[:5] == [
        sys.executable,
        "-m",
        "juju_radar.editors.preview",
        str(src),
        str(src / "_build" / "preview"),
    ]
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--port") + 1] == "8123"
    assert str(src / ".venv") in command and cwd == src
    assert cli.serve_command(src, 8000)[command.index("--port") + 1] == "8000"


@pytest.mark.site
def test_serve_stopped_by_sigterm_stops_its_preview_server(tmp_path):
    src = copy_site(tmp_path / "src")
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "juju_radar", "--root", str(src), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # as a service manager starts it: no terminal's Ctrl-C
    )
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not serving(port):
            assert serve.poll() is None and time.monotonic() < deadline, "the preview never served"
            time.sleep(0.5)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=STOP_TIMEOUT) == 0
        deadline = time.monotonic() + HANG_GUARD
        while serving(port) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not serving(port), "the preview server outlived radar serve"
    finally:  # whatever is left of its process group
        with contextlib.suppress(ProcessLookupError):
            os.killpg(serve.pid, signal.SIGKILL)


@pytest.mark.site
def test_serve_answers_only_local_host_names(tmp_path):
    src = copy_site(tmp_path / "src")
    with radar_serve(src) as preview:
        port = preview.port
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "localhost"):
            assert status_with_host(port, host) == 200, host
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", ""):
            assert status_with_host(port, host) in (400, 403), host
        # The reload WebSocket: opened from the preview's own pages, refused to any other.
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}", None):
            assert websocket_status(port, origin) == 101, origin
        for origin in ("https://evil.example", f"http://127.0.0.1.evil.example:{port}", "null"):
            assert websocket_status(port, origin) == 403, origin


def websocket_status(port: int, origin: str | None) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    try:
        headers = {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        }
        if origin is not None:
            headers["Origin"] = origin
        connection.request("GET", "/websocket-reload", headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def status_with_host(port: int, host: str) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    try:
        connection.putrequest("GET", "/", skip_host=True)
        if host:
            connection.putheader("Host", host)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_installed_command_and_python_m(tmp_path):
    src = copy_site(tmp_path / "src")
    radar_script = Path(sys.executable).parent / "radar"
    result = subprocess.run([str(radar_script), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "import" in result.stdout
    result = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check"], cwd=src, capture_output=True, text=True
    )
    assert result.returncode == 0
    assert result.stderr.endswith(
        "0 errors, 0 warnings, 10 notes: in references.bib (10); 1 issue checked\n"
    )


def test_new_names_the_date_and_the_time_zone_it_chose(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    assert radar(src, "new") == 0
    out = capsys.readouterr().out
    today = dt.datetime.now(ZoneInfo("Asia/Shanghai")).date().isoformat()
    assert out.strip().endswith(f"(status: draft) for {today}, today in Asia/Shanghai")
    assert radar(src, "new", "2026-09-20") == 0
    assert capsys.readouterr().out.strip().endswith("(status: draft) for 2026-09-20")
    for written in ("20260921", "2026-W38-4", "2026-263"):
        assert radar(src, "new", written) == 2, written
        assert f"'{written}' is not a date (YYYY-MM-DD)" in capsys.readouterr().err
