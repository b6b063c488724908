"""Period pages are collected pages: no source is generated, each page is rendered from
its view model and written again only when what it shows changes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import ROOTS, copy_site, page_text, seed_vocabulary, sphinx_build
from conftest import topic_page_uri as uri

from juju_radar.model.archive import Archive, ItemRef
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.period_pages import BEST_YEAR, TOPIC_YEAR, period_pages, year_view

SEED = "issues/2026/2026-09-08.md"


def git(srcdir: Path, *arguments: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *arguments]
    return subprocess.run(command, cwd=srcdir, check=True, capture_output=True, text=True).stdout


def seed_archive(replace: tuple[str, str] = ("", "")) -> Archive:
    text = (ROOTS / "test-seed" / SEED).read_text(encoding="utf-8").replace(*replace)
    issue, _ = parse_issue(text, SEED, seed_vocabulary())
    assert issue is not None
    return Archive({issue.docname: issue})


def test_the_period_pages_of_an_archive():
    pages = {page.pagename: page for page in period_pages(seed_archive(), seed_vocabulary())}
    assert set(pages) == {
        "references/2026-09",
        "references/uncited",
        "best/2026",
        "topics/agent/2026",
        "topics/training/2026",
        "topics/3d/2026",
        "topics/ai-for-science/2026",
        "topics/governance/2026",
    }
    assert pages["best/2026"].title == "精选 · 2026 年"
    assert pages["topics/training/2026"].title == "模型训练 · Training · 2026 年"
    assert pages["references/uncited"].title == "参考文献 · 未被已发布的任何一期引用"
    without_governance = seed_archive((":topic: governance", ":topic: agent"))
    pagenames = {page.pagename for page in period_pages(without_governance, seed_vocabulary())}
    assert pagenames == set(pages) - {"topics/governance/2026"}, "no page for a topic's empty year"


def test_a_year_view_holds_the_items_of_its_year_and_topic():
    archive = seed_archive()
    pages = period_pages(archive, seed_vocabulary())
    agent = next(page for page in pages if page.pagename == "topics/agent/2026")
    best = next(page for page in pages if page.kind == BEST_YEAR)
    assert agent.kind == TOPIC_YEAR
    view = year_view(archive, seed_vocabulary(), agent)
    assert view.landing == "topics/agent" and view.year == "2026"
    assert {line.topic for line in view.lines} == {"agent"} and view.lines
    best_view = year_view(archive, seed_vocabulary(), best)
    assert best_view.landing == "best"
    assert [line.item_id for line in best_view.lines] == [
        "tau-bench-customer-service",
        "rise-self-extrapolation",
    ]


@pytest.mark.slow
def test_a_build_generates_no_source_file(tmp_path):
    """``git status --ignored`` of a fresh copy of a site after its build: nothing new,
    nothing ignored (the output goes outside the source tree)."""
    srcdir = copy_site(tmp_path / "src")
    git(srcdir, "init", "-q")
    git(srcdir, "add", "-A")
    git(srcdir, "commit", "-q", "-m", "site")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    assert git(srcdir, "status", "--porcelain", "--ignored", "--untracked-files=all") == ""
    year = page_text(outdir / "topics/agent/2026.html")
    assert "2026 年共 1 条，按日期从新到旧排列。" in year
    assert "客服能跑起来，不代表能处理好客户的问题" in year
    references = page_text(outdir / "references/2026-09.html")
    assert "被 1 条引用：" in references and "RISE 论文" in references
    assert "这一页暂无文献。" in page_text(outdir / "references/uncited.html")


@pytest.mark.slow
def test_a_period_page_is_written_again_only_when_its_view_changes(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    agent, training = outdir / "topics/agent/2026.html", outdir / "topics/training/2026.html"
    written = {page: page.stat().st_mtime_ns for page in (agent, training)}
    seed = srcdir / SEED
    text = seed.read_text(encoding="utf-8")
    assert ":score: 8.5" in text
    seed.write_text(text.replace(":score: 8.5", ":score: 7", 1), encoding="utf-8")
    sphinx_build(srcdir, outdir)
    assert agent.stat().st_mtime_ns == written[agent], "the agent items did not change"
    assert training.stat().st_mtime_ns != written[training]
    assert "7/10" in page_text(training)
    training.unlink()
    sphinx_build(srcdir, outdir)
    assert training.is_file(), "a page whose file is gone is written again"


@pytest.mark.slow
def test_a_source_at_a_period_page_is_reported_and_its_page_replaced(tmp_path):
    """A stub an older build wrote (or any page at that name) is named at its file, and
    the page at that address is the generated one."""
    srcdir = copy_site(tmp_path / "src")
    (srcdir / "best").mkdir()
    (srcdir / "best/2026.md").write_text(
        "---\norphan: true\n---\n\n# 手写的精选\n\n手写的内容。\n", encoding="utf-8"
    )
    outdir = tmp_path / "html"
    result = sphinx_build(srcdir, outdir, check=False)
    assert result.returncode != 0, "a warning fails a build with -W"
    messages = result.stdout + result.stderr
    assert "best/2026" in messages and "[radar.generated-page]" in messages
    page = page_text(outdir / "best/2026.html")
    assert "手写的内容" not in page and "2026 年共 2 条" in page


@pytest.mark.slow
def test_an_older_builds_stubs_are_removed_and_an_editors_page_kept(tmp_path):
    """A clone made before the period pages were collected holds the stubs its builds
    wrote (with directives that are gone): the build removes them, and only them."""
    from juju_radar.sphinx_ext.listing_pages import OLD_STUB_MARK

    srcdir = copy_site(tmp_path / "src")
    (srcdir / "references").mkdir()
    stub = srcdir / "references/2026-09.md"
    stub.write_text(
        f"---\norphan: true\n---\n\n{OLD_STUB_MARK}\n\n# 2026 年 9 月\n\n"
        "```{radar-references}\n:month: 2026-09\n```\n",
        encoding="utf-8",
    )
    kept = srcdir / "references/notes.md"
    kept.write_text("---\norphan: true\n---\n\n# 编辑的笔记\n\n手写的内容。\n", encoding="utf-8")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    assert not stub.exists() and kept.exists()
    assert "2026" in page_text(outdir / "references/2026-09.html")


HOSTILE = '<b onclick="x">A & B @ "q"</b>'


def hostile_refs() -> list[ItemRef]:
    """The seed's items, one heading and one tag written as HTML."""
    text = (ROOTS / "test-seed" / SEED).read_text(encoding="utf-8")
    text = text.replace("🪑 WorldSculpt：把生成的房间拆成能单独取用的物体", HOSTILE)
    issue, _ = parse_issue(text.replace(":tags: 仿真", ":tags: <i>x</i>"), SEED, seed_vocabulary())
    assert issue is not None
    return [ItemRef(issue, item) for item in issue.items]


def test_the_item_list_template_writes_what_the_html_writer_writes():
    """The template's list, editors' text escaped, is byte for byte the list
    ``accel.html_item_lists`` writes (which tests/test_accel.py holds to docutils')."""
    from juju_radar.accel.html_item_lists import item_list_html
    from juju_radar.model.archive import item_line
    from juju_radar.model.issue_records import format_score
    from juju_radar.sphinx_ext.listing_pages import body_templates

    refs = hostile_refs()
    for with_date in (True, False):
        written = (
            body_templates()
            .get_template("item-list.html")
            .render(
                lines=tuple(map(item_line, refs)),
                with_date=with_date,
                vocabulary=seed_vocabulary(),
                link=uri,
                format_score=format_score,
            )
        )
        listing = item_list_html(map(item_line, refs), seed_vocabulary(), uri, with_date)
        assert listing is not None and written == listing["html"]
        assert "A &amp; B &#64; &quot;q&quot;" in written and "<i>" not in written
