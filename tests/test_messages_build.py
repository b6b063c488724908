"""The build speaks the editors' language (issue 31): its warnings and errors, the lines
`make html` ends with and its crash report, in Chinese when the locale names no language
and conf.py asks for Chinese (as the archive's does), in English when the locale says so."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_site, sphinx_build
from site_builds import EPOCH

from juju_radar.build import crash, staged
from juju_radar.model.messages import LOCALE_VARIABLES, use_language
from juju_radar.outputs import summary
from juju_radar.sphinx_ext.safety import check_page_html


def environment(**locale: str) -> dict[str, str]:
    """This process's environment with only ``locale`` for a locale."""
    env = {name: value for name, value in os.environ.items() if name not in LOCALE_VARIABLES}
    return {**env, **locale}


def unreadable_bib_site(tmp_path: Path) -> tuple[Path, int]:
    """The seed site with a .bib entry BibTeX cannot read, and that entry's line."""
    srcdir = copy_site(tmp_path / "src")
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace("title = {RISE 论文},", "title = {RISE 论文,"), encoding="utf-8")
    return srcdir, text[: text.index("@misc{rise2026paper")].count("\n") + 1


@pytest.mark.site
def test_the_build_reports_in_chinese_where_conf_py_asks_for_it(tmp_path):
    srcdir, line = unreadable_bib_site(tmp_path)
    result = sphinx_build(srcdir, tmp_path / "html", check=False, env=environment(LANG="C.UTF-8"))
    assert result.returncode != 0
    assert (
        f"references.bib:{line}: ERROR: BibTeX 无法读取此文件：网站未构建 [radar.bib-unreadable]"
        in result.stderr
    )


@pytest.mark.site
def test_the_build_reports_in_english_where_the_locale_says_so(tmp_path):
    srcdir, line = unreadable_bib_site(tmp_path)
    env = environment(LANGUAGE="en", LANG="C.UTF-8")
    result = sphinx_build(srcdir, tmp_path / "html", check=False, env=env)
    assert result.returncode != 0
    assert (
        f"references.bib:{line}: ERROR: BibTeX cannot read this file: nothing was built "
        "[radar.bib-unreadable]"
    ) in result.stderr
    assert "无法读取" not in result.stderr


def test_the_staged_build_reads_conf_py_for_its_own_lines(tmp_path):
    """A second `make html` while one runs says so before any Sphinx configuration is
    read: in the language of conf.py, unless the locale names one."""
    srcdir = copy_site(tmp_path / "src")
    lock = staged.hold_lock(srcdir / "_build")
    try:
        said = {
            language: subprocess.run(
                [sys.executable, "-m", "juju_radar.build.staged", "-q"],
                cwd=srcdir,
                capture_output=True,
                text=True,
                env=environment(LANG="C.UTF-8", **locale),
            )
            for language, locale in (("zh", {}), ("en", {"LANGUAGE": "en"}))
        }
    finally:
        os.close(lock)
    assert said["zh"].returncode == staged.EXIT_BUSY
    assert said["zh"].stderr.startswith(f"radar: 另一个构建正在 {srcdir / '_build'} 中运行")
    assert said["zh"].stderr.rstrip().endswith("；请等它结束后再试")
    assert said["en"].stderr.startswith(f"radar: another build is running in {srcdir / '_build'}")


@pytest.mark.site
def test_make_html_ends_with_its_summary_in_chinese(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    env = {**environment(LANG="C.UTF-8"), "SOURCE_DATE_EPOCH": EPOCH}
    result = subprocess.run(
        [sys.executable, "-m", "juju_radar.build.staged", "-j", "auto"],
        cwd=srcdir,
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    read, *rest = result.stdout.splitlines()[-5:]
    assert re.fullmatch(r"读入 \d+ 页：新增 1 期。", read)
    assert rest == [
        "网站收录：已发布 1 期，条目 5 条，文献 8 条。",
        "references.bib：8 条文献尚无 DOI、URL、arXiv 编号或 ISBN（`radar refs missing` 会列出）。",
        "未设置网站地址（RADAR_SITE_URL 或 radar_site_url）：不生成 sitemap、robots.txt 和社交媒体 "
        "meta 标签；订阅源和数据导出使用相对链接",
        f"网站已构建于 {srcdir / '_build' / 'html'}",
    ]


class Application:
    """Stands for Sphinx's: the summary reads only its build state."""


def test_the_summary_lines_in_chinese():
    use_language("zh")
    app = Application()
    issues = {"issues/2026/2026-09-08", "issues/2026/2026-09-15"}
    summary.note_changes(app, None, issues, {"index"}, {"issues/2026/2026-09-01"})
    summary.note_bare_entries(app, "references.bib", 8)
    assert summary.summary_lines(app, "网站收录：……", ["未设置网站地址……"]) == [
        "读入 3 页：新增 2 期，删除 1 期。",
        "网站收录：……",
        "references.bib：8 条文献尚无 DOI、URL、arXiv 编号或 ISBN（`radar refs missing` 会列出）。",
        "未设置网站地址……",
    ]
    summary.note_changes(app, None, set(), set(), set())
    assert summary.changes_line(app) == "自上次构建以来没有变化。"


def test_refusals_of_the_built_page_are_translated_when_reported():
    """The page check's results are cached, in English; the report is translated."""
    reported: list = []
    check_page_html('<base href="x"><p onclick="go()">', reported.append)
    use_language("zh")
    assert [refusal.translated() for refusal in reported] == [
        "<base href='x'> 不是本站自己的元素：已删除",
        "页面中不允许出现 <p onclick='go()'>：已删除",
    ]
    assert reported[1] == "<p onclick='go()'> is not allowed in a page: removed"
    assert reported[1].code == "unsafe-url"


def test_the_crash_report_in_chinese(tmp_path):
    use_language("zh")
    page = tmp_path / "issues" / "2026" / "2026-09-08.md"
    page.parent.mkdir(parents=True)
    page.write_text("", encoding="utf-8")
    stderr = io.StringIO()
    crash.report(
        crash.LocatedBuildError("issues/2026/2026-09-08", "KeyError: 'x'"), tmp_path, stderr
    )
    first, second = stderr.getvalue().splitlines()
    assert first == (f"{page}: ERROR: 构建在此文件上失败：KeyError: 'x' [radar.internal-error]")
    assert second.startswith("（错误回溯见 ") and second.endswith("）")
    Path(second.removeprefix("（错误回溯见 ").removesuffix("）")).unlink()
