"""Build integrity: incremental = clean, parallel = serial, listings follow new issues."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOTS, copy_site, page_text, sphinx_build
from site_builds import EPOCH_ENV, clean_build, differences

# Whole-site builds compared with each other: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

SEED = "issues/2026/2026-09-08.md"
SECOND = "issues/2026/2026-09-09.md"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


CHANGES: dict[str, Callable[[Path], None]] = {
    "add an issue": lambda src: shutil.copytree(
        ROOTS / "test-second-issue", src, dirs_exist_ok=True
    ),
    "list no earlier issue on the front page": lambda src: append(
        src / "conf.py", "radar_front_page_issues = 0\n"
    ),
    "and ten again": lambda src: edit(
        src / "conf.py", "radar_front_page_issues = 0", "radar_front_page_issues = 10"
    ),
    "change a topic": lambda src: edit(src / SECOND, ":topic: training", ":topic: 3d"),
    "change a score": lambda src: edit(src / SECOND, ":score: 9.5", ":score: 6"),
    "change a tag": lambda src: edit(
        src / SECOND, ":tags: Coding Agent, 评测", ":tags: 评测, 复现"
    ),
    # An earlier issue's item is listed, with its tags, on the later issue's page.
    "change a tag of an item a later page lists": lambda src: edit(
        src / SEED, ":tags: Coding Agent\n", ":tags: Coding Agent, 客服\n"
    ),
    "change a verdict": lambda src: edit(
        src / SECOND, ":verdict: dig-deeper", ":verdict: read-original"
    ),
    "turn an issue into a draft": lambda src: edit(
        src / SECOND, "status: published", "status: draft"
    ),
    "publish it again": lambda src: edit(src / SECOND, "status: draft", "status: published"),
    "let an issue cite nothing": lambda src: drop_sources(src / SECOND),
    "write it anew, citing again": lambda src: (src / SECOND).write_text(
        (ROOTS / "test-second-issue" / SECOND).read_text(encoding="utf-8"), encoding="utf-8"
    ),
    "cite an entry that takes fields from another (crossref)": lambda src: (
        edit(src / "references.bib", "@misc{rise2026paper,", CROSSREF + "@misc{rise2026paper,")
        or edit(
            src / SECOND,
            "论文与完整实验 <taubench2026paper>",
            "论文与完整实验 <taubench2026paper> · 会议版本 <child2026>",
        )
    ),
    "edit only the entry it takes them from": lambda src: edit(
        src / "references.bib",
        "booktitle = {第一届会议论文集}",
        "booktitle = {第一届会议论文集（修订）}",
    ),
    "edit a reference title": lambda src: edit(
        src / "references.bib", "title = {RISE 论文}", "title = {RISE 论文（修订）}"
    ),
    "cite an uncited reference": lambda src: (
        edit(
            src / "references.bib",
            "@misc{rise2026paper,",
            "@misc{spare2026,\n  title = {备用文献},\n}\n\n@misc{rise2026paper,",
        )
        or edit(src / SECOND, "<rise2026paper>", "<rise2026paper> · 备用 <spare2026>")
    ),
    "use a @string macro in a note": lambda src: (
        edit(src / "references.bib", "@misc{spc2026release,", MACRO + "@misc{spc2026release,")
        or edit(src / "references.bib", "note   = {2026-09-07 发布}", "note   = released")
    ),
    # The formatted entry is kept between builds; its own text did not change.
    "edit the macro only": lambda src: edit(
        src / "references.bib", "{2026-09-07 发布}", "{2026-09-07 正式发布}"
    ),
    # The theme's sheets keep the rules of the classes the pages use: a table's too.
    "write a table in a closing note": lambda src: edit(src / SECOND, CLOSING, CLOSING + TABLE),
    "take the table out again": lambda src: edit(src / SECOND, CLOSING + TABLE, CLOSING),
    "add an issue in a new month": lambda src: add_october_issue(src),
    "delete the issue of that month": lambda src: (src / OCTOBER).unlink(),
    "delete an issue": lambda src: (src / SECOND).unlink(),
    "turn the general index on": lambda src: edit(
        src / "conf.py", "html_use_index = False", "html_use_index = True"
    ),
    "and off again": lambda src: edit(
        src / "conf.py", "html_use_index = True", "html_use_index = False"
    ),
    "translate a theme string differently": lambda src: edit(
        src / "locales/zh_CN/LC_MESSAGES/sphinx.po", 'msgstr "颜色模式"', 'msgstr "配色"'
    ),
}
OCTOBER = "issues/2026/2026-10-01.md"
CLOSING = "第二期的收尾：复现比宣称更重要。\n"
TABLE = "\n| 团队 | 结论 |\n| --- | --- |\n| 甲 | 一致 |\n"
MACRO = "@string{released = {2026-09-07 发布}}\n\n"
CROSSREF = (
    "@inproceedings{child2026,\n  title = {会议版本},\n  author = {Wang, Li},\n"
    "  crossref = {parent2026},\n}\n\n"
    "@proceedings{parent2026,\n  title = {第一届会议论文集},\n"
    "  booktitle = {第一届会议论文集},\n  year = {2026},\n}\n\n"
)


def drop_sources(page: Path) -> None:
    """No item of the issue names a source: it has no references and no .bib download."""
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    page.write_text("".join(line for line in lines if not line.startswith(":sources:")))


def add_october_issue(src: Path, cites: str = "<october2026> · 论文 <taubench2026paper>") -> None:
    """An issue in a month without issues, citing a new reference (and, by default, an
    older one whose "cited by" line on its own month's page then changes)."""
    text = (ROOTS / "test-second-issue" / SECOND).read_text(encoding="utf-8")
    text = text.replace("2026-09-09", "2026-10-01").replace("第二期", "十月一期")
    text = text.replace(":id: taubench-failure-replication", ":id: october-replication")
    text = text.replace(":id: long-context-recipe", ":id: october-recipe")
    text = text.replace("论文与完整实验 <taubench2026paper>", f"十月文献 {cites}")
    text = text.replace("RISE 论文 <rise2026paper>", "十月文献 <october2026>")
    (src / OCTOBER).write_text(text, encoding="utf-8")
    bib = src / "references.bib"
    bib.write_text(
        bib.read_text(encoding="utf-8") + "\n@misc{october2026,\n  title = {十月的新文献},\n}\n",
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def evolving_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("incremental")
    srcdir = copy_site(base / "src")
    sphinx_build(srcdir, base / "incremental", env=EPOCH_ENV)
    return srcdir, base


@pytest.mark.parametrize("change", list(CHANGES))
def test_incremental_build_equals_clean_build(evolving_site, change):
    """The changes apply in order to one site; after each, both builds must agree."""
    srcdir, base = evolving_site
    CHANGES[change](srcdir)
    sphinx_build(srcdir, base / "incremental", env=EPOCH_ENV)
    clean = clean_build(srcdir, base / "clean")
    assert differences(base / "incremental", clean) == []


def test_an_entry_shows_what_it_takes_from_its_crossref(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    bib = srcdir / "references.bib"
    bib.write_text(CROSSREF + bib.read_text(encoding="utf-8"), encoding="utf-8")
    edit(
        srcdir / SEED,
        "RISE 论文 <rise2026paper>",
        "RISE 论文 <rise2026paper> · 会议版本 <child2026>",
    )
    sphinx_build(srcdir, tmp_path / "html")
    entries = [
        entry
        for entry in page_text(tmp_path / "html" / "issues/2026/2026-09-08.html").splitlines()
        if "会议版本" in entry and "第一届会议论文集" in entry
    ]
    assert entries and "2026" in entries[0], entries


def test_edited_macro_reaches_the_pages_of_entries_using_it(evolving_site):
    _, base = evolving_site
    for page in ("references/2026-09.html", "issues/2026/2026-09-08.html"):
        text = page_text(base / "incremental" / page)
        assert "2026-09-07 正式发布" in text, page


def test_adding_an_issue_updates_archive_home_and_topic_pages(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    assert "第二期" not in page_text(outdir / "index.html")
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    sphinx_build(srcdir, outdir)
    home = page_text(outdir / "index.html")
    latest, recent = home.split("近期各期")
    assert "最新一期 · 2026-09-09 · 2 条" in latest and "第二期：评测之外的交付" in latest
    assert "2026-09-08 · 5 条" in recent and "让 AI 造一个客服，难在代码之外" in recent
    archive = page_text(outdir / "issues/index.html")
    assert archive.index("2026-09-09") < archive.index("2026-09-08")
    agent = page_text(outdir / "topics/agent.html")
    assert agent.index("τ^τ-Bench 的失败分析") < agent.index("客服能跑起来")
    assert "共 2 条" in agent
    assert "Agent（2 条）" in page_text(outdir / "topics/index.html")
    first = page_text(outdir / "issues/2026/2026-09-08.html")
    assert "下一期：2026-09-09 第二期：评测之外的交付 →" in first
    references = page_text(outdir / "references/2026-09.html")
    assert "2026-09-09 🔁 τ^τ-Bench 的失败分析被更多团队复现" in references


def test_an_issue_in_a_new_month_adds_a_references_page_and_leaves_older_ones(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    september = outdir / "references/2026-09.html"
    written = september.stat().st_mtime_ns
    add_october_issue(srcdir, cites="<october2026>")
    sphinx_build(srcdir, outdir)
    assert september.stat().st_mtime_ns == written, "an untouched month is not rewritten"
    october = page_text(outdir / "references/2026-10.html")
    assert "十月的新文献" in october and "2026-10-01 🔁 τ^τ-Bench" in october
    assert "2026 年 10 月（1 条）" in page_text(outdir / "references.html")
    (srcdir / OCTOBER).unlink()
    sphinx_build(srcdir, outdir)
    assert not (outdir / "references/2026-10.html").exists()
    assert not (srcdir / "references/2026-10.md").exists()
    assert "十月的新文献" in page_text(outdir / "references/uncited.html")


def test_a_topic_written_as_a_quoted_label_gets_its_year_page(tmp_path):
    """Year pages come from the issues parsed as the build parses them, so a topic given
    by its label or an alias links to a page that exists."""
    srcdir = copy_site(tmp_path / "src")
    text = (ROOTS / "test-second-issue" / SECOND).read_text(encoding="utf-8")
    text = text.replace("2026-09-09", "2027-01-05").replace(
        ":topic: training", ':topic: "AI for Science"'
    )
    (srcdir / "issues/2027").mkdir()
    (srcdir / "issues/2027/2027-01-05.md").write_text(text, encoding="utf-8")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    landing = (outdir / "topics/ai-for-science.html").read_text(encoding="utf-8")
    assert 'href="ai-for-science/2027.html"' in landing
    year = page_text(outdir / "topics/ai-for-science/2027.html")
    assert "2027 年共 1 条" in year and "一种新的长上下文训练配方" in year


def test_a_draft_is_left_out_of_the_build_and_built_only_when_asked(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    shutil.copytree(ROOTS / "test-draft", srcdir, dirs_exist_ok=True)
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    # No page, no file, no entry in any index: not one byte of the built site names it.
    for path in outdir.rglob("*"):
        assert "2026-09-10" not in path.name, path
        if path.is_file():
            data = path.read_bytes()
            assert b"2026-09-10" not in data and "草稿期".encode() not in data, path
    # What `radar serve` builds (and `-D radar_build_drafts=1`): the draft on its own
    # page, kept out of search engines and of every listing.
    previewed = tmp_path / "preview"
    sphinx_build(srcdir, previewed, "-D", "radar_build_drafts=1")
    draft = page_text(previewed / "issues/2026/2026-09-10.html")
    assert "本期尚未发布" in draft
    assert '<meta name="robots" content="noindex" />' in (
        previewed / "issues/2026/2026-09-10.html"
    ).read_text(encoding="utf-8")
    for page in [
        "index.html",
        "issues/index.html",
        "topics/agent.html",
        "topics/training.html",
        "references.html",
        "references/2026-09.html",
        "issues/2026/2026-09-08.html",
    ]:
        html = (previewed / page).read_text(encoding="utf-8")
        assert "2026-09-10" not in html and "草稿期" not in html, page


def test_the_parsed_bib_is_kept_beside_the_environment_and_parsed_again_when_lost(tmp_path):
    from juju_radar.accel.stored_bibdata import PARSED_BIB
    from juju_radar.store.cache import FOLDER_NAME

    srcdir = copy_site(tmp_path / "site")
    outdir = tmp_path / "incremental" / "html"
    doctrees = outdir.parent / "html.doctrees"
    sphinx_build(srcdir, outdir, env=EPOCH_ENV)
    note = "进入 2026-09-07 的 arXiv 公告".encode()  # a field only references.bib holds
    parsed = doctrees / FOLDER_NAME / f"{PARSED_BIB}.pickle"
    assert note in parsed.read_bytes()
    assert note not in (doctrees / "environment.pickle").read_bytes()

    parsed.unlink()
    edit(srcdir / SEED, "RISE", "RISE（更正）")  # a page is read: the environment is loaded
    sphinx_build(srcdir, outdir, env=EPOCH_ENV)
    assert note in parsed.read_bytes()  # sphinxcontrib-bibtex parsed the files again
    assert differences(outdir, clean_build(srcdir, tmp_path / "clean" / "html")) == []
