"""The editors' tools speak Chinese (issue 31): ``radar check``, ``import``, ``new`` and
``links`` say what they found in the language chosen (``--lang``, the locale, then the
site's conf.py), keeping the codes in brackets and the file:line an editor opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SEED_EXPORT, copy_site

from juju_radar.editors import cli
from juju_radar.editors.check_run import check_summary
from juju_radar.model.messages import use_language
from juju_radar.model.problems import Problem

SEED_ISSUE = "issues/2026/2026-09-08.md"


@pytest.fixture
def no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """A locale that names no language (as on a server): conf.py's setting decides."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def mistyped_topic(tmp_path: Path) -> Path:
    """The seed site with its first item's topic mistyped in Chinese (智能体 → 智能题)."""
    src = copy_site(tmp_path / "src")
    page = src / SEED_ISSUE
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(":topic: agent", ":topic: 智能题", 1), encoding="utf-8")
    return src


def test_check_speaks_the_language_of_conf_py(mistyped_topic, no_locale, capsys):
    assert cli.main(["--root", str(mistyped_topic), "check"]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    problem = next(line for line in lines if line.endswith("[unknown-topic]"))
    assert problem.startswith(f"{SEED_ISSUE}:14: 错误: ")
    assert "“智能题”" in problem and "（是否想写“智能体”？）" in problem
    # The notes are summed up by kind, the code kept, the command to run left as typed.
    assert (
        "references.bib: 8 条提示 [missing-identifier]: 这些参考文献缺少标识符："
        "运行 `radar refs missing` 逐条列出，并注明该补查什么"
    ) in lines
    assert (
        "references.bib: 2 条提示 [latex-special]: 运行 `radar check --verbose` 逐条查看" in lines
    )
    assert err == (f"1 个错误，分布在 {SEED_ISSUE}（1 条）；0 个警告，10 条提示；共检查 1 期\n")


def test_check_with_lang_en_speaks_english_whatever_conf_py_says(mistyped_topic, no_locale, capsys):
    assert cli.main(["--root", str(mistyped_topic), "--lang", "en", "check"]) == 1
    out, err = capsys.readouterr()
    assert (
        f"{SEED_ISSUE}:14: error: unknown topic '智能题' (did you mean '智能体'?) [unknown-topic]"
    ) in out.splitlines()
    assert "references.bib: 2 notes [latex-special]: `radar check --verbose` lists them" in out
    assert err == (f"1 error: in {SEED_ISSUE} (1); 0 warnings, 10 notes; 1 issue checked\n")
    assert not any("\u4e00" <= char <= "\u9fff" for char in err)


def test_the_summary_names_five_files_and_counts_the_rest():
    use_language("zh")
    problems = [
        Problem(f"issues/2026/2026-09-0{day}.md", 3, "warning", "x", "m") for day in range(1, 8)
    ]
    summary = check_summary(problems, 7)
    assert summary.startswith(
        "0 个错误，7 个警告，0 条提示，分布在 issues/2026/2026-09-01.md（1 条）、"
    )
    assert summary.endswith("issues/2026/2026-09-05.md（1 条） 以及另外 2 个文件；共检查 7 期")


def test_the_summary_says_the_errors_first_and_the_files_they_are_in():
    """Issue 52: the errors' count and files come first; notes elsewhere are counted."""
    problems = [
        Problem("references.bib", 4, "note", "missing-identifier", "m"),
        Problem("issues/2026/2026-09-02.md", 9, "error", "bad-score", "m"),
        Problem("issues/2026/2026-09-02.md", 12, "error", "bad-id", "m"),
        Problem("conf.py", 3, "error", "missing-topic-page", "m"),
    ]
    assert check_summary(problems, 2) == (
        "3 errors: in conf.py (1), issues/2026/2026-09-02.md (2); 0 warnings, 1 note; "
        "2 issues checked"
    )
    use_language("zh")
    assert check_summary(problems, 2) == (
        "3 个错误，分布在 conf.py（1 条）、issues/2026/2026-09-02.md（2 条）；0 个警告，"
        "1 条提示；共检查 2 期"
    )


def bad_export(tmp_path: Path, old: str, new: str) -> Path:
    text = SEED_EXPORT.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "2026-09-08.txt"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_import_of_a_bad_export_names_file_and_line_in_chinese(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    (src / SEED_ISSUE).unlink()
    export = bad_export(tmp_path, "Juju Radar · 2026.09.08", "Juju Radar 2026.09.08")
    assert cli.main(["--root", str(src), "--lang", "zh", "import", str(export)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"{export}:3: 错误: 这里应是日期行“Juju Radar · YYYY.MM.DD”，"
        "实际是“Juju Radar 2026.09.08” [date-line]",
        "导入 0 个，跳过 0 个，失败 1 个",
    ]
    assert not (src / SEED_ISSUE).exists()


def test_an_item_s_category_line_is_explained_at_its_heading(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    (src / SEED_ISSUE).unlink()
    export = bad_export(
        tmp_path, "Agent / Coding Agent · 9/10｜建议深挖", "Agent / Coding Agent 9/10｜建议深挖"
    )
    assert cli.main(["--root", str(src), "--lang", "zh", "import", str(export)]) == 1
    problem = capsys.readouterr().err.splitlines()[0]
    assert problem == (
        f"{export}:11: 错误: 条目“客服能跑起来，不代表能处理好客户的问题”第 13 行："
        "分类行应写作“分类[ / 标签] · 分数/10｜结论”：分类和分数之间没有“ · ” [bad-category]"
    )


def test_import_and_new_say_what_they_did_in_chinese(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    (src / SEED_ISSUE).unlink()
    assert (
        cli.main(["--root", str(src), "--lang", "zh", "import", "--draft", str(SEED_EXPORT)]) == 0
    )
    out, err = capsys.readouterr()
    assert out == f"{SEED_EXPORT}：已导入为 {SEED_ISSUE}（status: draft，草稿）\n"
    assert err == "导入 1 个，跳过 0 个，失败 0 个\n"
    assert cli.main(["--root", str(src), "--lang", "zh", "import", str(SEED_EXPORT)]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{SEED_EXPORT}:3: 警告: 2026-09-08 这一期已存在（{SEED_ISSUE}）：加 --force 可替换 [exists]",
        "导入 0 个，跳过 1 个（归档中已有：--force 可替换），失败 0 个",
    ]
    assert cli.main(["--root", str(src), "--lang", "zh", "new", "2027-13-45"]) == 2
    assert capsys.readouterr().err == "radar：错误：“2027-13-45”不是日期（应为 YYYY-MM-DD）\n"
    assert cli.main(["--root", str(src), "--lang", "zh", "new", "2026-09-09"]) == 0
    assert capsys.readouterr().out == (
        "已为 2026-09-09 创建 issues/2026/2026-09-09.md（status: draft，草稿）\n"
    )


def test_links_counts_in_chinese(tmp_path, capsys):
    outdir = tmp_path / "html"
    outdir.mkdir()
    (outdir / "index.html").write_text(
        '<a href="a.html">a</a><a href="index.html#nowhere">b</a>', encoding="utf-8"
    )
    assert cli.main(["--root", str(tmp_path), "--lang", "zh", "links", "html"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "index.html: a.html [broken-link]",
        "index.html: index.html#nowhere（没有这个锚点） [broken-link]",
    ]
    assert err == "在 1 个页面中发现 2 个失效链接\n"
