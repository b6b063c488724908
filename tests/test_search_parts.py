"""The search index in pieces and parts: which records go where, and that a change
indexes only the pieces it touches and merges only their parts, with the same bundles
as a clean build.

The site is the seed (one issue of 2026) with ``tests/roots/test-years`` laid over it:
an issue of 2024 and one of 2025. The pieces are a year each before 2026 and a month
each in 2026 (plus ``site``, the pages of no period); the parts are ``stories-2026``,
``stories-older``, ``other-2026`` (with the pages of no period) and ``other-older``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOTS, site_with_root, sphinx_build
from search_bundles import pagefind_records, search_differences, search_parts, tree_bytes

from juju_radar.outputs.search.index import IndexState, code_version, usable
from juju_radar.outputs.search.parts import parts_of, period_name
from juju_radar.outputs.search.records import link_period

NEW_ISSUE = Path("issues/2026/2026-09-09.md")
OLD_ISSUE = Path("issues/2024/2024-05-14.md")


def test_pages_fall_in_the_period_of_their_year_and_month() -> None:
    assert [
        link_period(link)
        for link in (
            "topics/agent/2024.html",
            "references/2025-03.html",
            "best/2026.html",
            "topics/agent.html",
            "issues/2026/2026-09-08.html",  # an issue's period is its date's
        )
    ] == [(2024, None), (2025, 3), (2026, None), (None, None), (None, None)]
    assert [
        period_name(year, month, 2026)
        for year, month in ((None, None), (2026, 9), (2026, None), (2025, 3), (2017, None))
    ] == ["site", "2026-09", "2026", "2025", "2017"]


def test_pieces_are_merged_into_four_parts_in_order() -> None:
    pieces = [
        "other-site",
        "stories-2026-09",
        "other-2026-09",
        "stories-2024",
        "other-2026",
        "stories-2026-01",
        "other-2024",
        "stories-2025",
    ]
    assert parts_of(pieces, 2026) == {
        "stories-2026": ["stories-2026-01", "stories-2026-09"],
        "stories-older": ["stories-2024", "stories-2025"],
        "other-2026": ["other-2026", "other-2026-09", "other-site"],
        "other-older": ["other-2024"],
    }
    assert parts_of(["other-site"], None) == {"other-site": ["other-site"]}


@pytest.fixture(scope="module")
def years_site(built_years_site: Path) -> Path:
    return built_years_site


def links_by_part(site: Path) -> dict[str, set[str]]:
    return {
        part: {record["meta"]["link"] for record in pagefind_records(site, part)}
        for part in search_parts(site)
    }


@pytest.mark.site
def test_each_part_holds_its_stories_or_the_other_records(years_site: Path) -> None:
    assert search_parts(years_site) == [
        "stories-2026",
        "stories-older",
        "other-2026",
        "other-older",
    ]
    parts = links_by_part(years_site)
    assert "issues/2024/2024-05-14.html#swarm-warehouse-robots" in parts["stories-older"]
    assert "issues/2025/2025-03-11.html#coral-reef-acoustics" in parts["stories-older"]
    assert "issues/2026/2026-09-08.html#tau-bench-customer-service" in parts["stories-2026"]
    assert all("#" in link for link in parts["stories-2026"] | parts["stories-older"])
    assert {"references/2024-05.html", "issues/2024/2024-05-14.html"} <= parts["other-older"]
    assert {
        "references/2026-09.html",
        "issues/2026/2026-09-08.html",
        "index.html",
        "topics/agent.html",
    } <= parts["other-2026"]
    others = parts["other-2026"] | parts["other-older"]
    assert not any("#" in link for link in others), "a story among the others"
    # The pages load one highlighter, whatever the parts.
    assert (years_site / "pagefind" / "pagefind-highlight.js").is_file()


def bundle_times(folder: Path) -> dict[str, int]:
    """Bundle -> when its entry was written (a bundle is always written whole)."""
    return {
        entry.parent.name: entry.stat().st_mtime_ns
        for entry in sorted(folder.glob("*/pagefind-entry.json"))
    }


def written(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {name for name, time in after.items() if before.get(name) != time}


@pytest.mark.slow
def test_a_change_indexes_only_its_pieces_and_equals_a_clean_build(tmp_path: Path) -> None:
    srcdir, outdir = site_with_root("years", tmp_path / "src"), tmp_path / "html"
    pieces = tmp_path / "html.doctrees" / "radar-search-pieces"
    sphinx_build(srcdir, outdir)
    start = (bundle_times(pieces), bundle_times(outdir / "pagefind"))
    assert set(start[0]) == {
        "stories-2024",
        "stories-2025",
        "stories-2026-09",
        "other-2024",
        "other-2025",
        "other-2026",
        "other-2026-09",
        "other-site",
    }

    sphinx_build(srcdir, outdir)
    assert (bundle_times(pieces), bundle_times(outdir / "pagefind")) == start, (
        "nothing changed, nothing indexed"
    )

    # A new issue of the newest year: its month and the pages of no period (the counts on
    # the home and stats pages), not the older years, although it cites a reference of
    # 2024 (whose page and citing issue now list it, in parts that search leaves out).
    new_issue = (ROOTS / "test-second-issue" / NEW_ISSUE).read_text(encoding="utf-8")
    citing_old = new_issue.replace(
        ":sources: 论文与完整实验 <taubench2026paper>",
        ":sources: 论文与完整实验 <taubench2026paper> · 旧文 <swarm2024fixture>",
    )
    assert citing_old != new_issue
    (srcdir / NEW_ISSUE).write_text(citing_old, encoding="utf-8")
    sphinx_build(srcdir, outdir)
    added = (bundle_times(pieces), bundle_times(outdir / "pagefind"))
    assert "2026-09-09" in (outdir / "references" / "2024-05.html").read_text(encoding="utf-8")
    assert written(start[0], added[0]) == {"stories-2026-09", "other-2026-09", "other-site"}
    assert written(start[1], added[1]) == {"stories-2026", "other-2026"}
    parts = links_by_part(outdir)
    assert "issues/2026/2026-09-09.html#long-context-recipe" in parts["stories-2026"]
    assert "issues/2026/2026-09-09.html" in parts["other-2026"]

    # An edit of the text of a story of 2024: that year's stories and their part only.
    old = srcdir / OLD_ISSUE
    old.write_text(old.read_text(encoding="utf-8").replace("彼此协商任务", "彼此协商工作"), "utf-8")
    sphinx_build(srcdir, outdir)
    edited = (bundle_times(pieces), bundle_times(outdir / "pagefind"))
    assert written(added[0], edited[0]) == {"stories-2024"}
    assert written(added[1], edited[1]) == {"stories-older"}
    story = next(
        record
        for record in pagefind_records(outdir, "stories-older")
        if record["meta"]["link"].endswith("#swarm-warehouse-robots")
    )
    assert "彼此协商工作" in story["content"].replace("\u200b", "")

    # Incremental == clean, and two clean builds give the same bundles.
    clean_a, clean_b = tmp_path / "clean-a" / "html", tmp_path / "clean-b" / "html"
    sphinx_build(srcdir, clean_a)
    sphinx_build(srcdir, clean_b)
    assert tree_bytes(outdir / "pagefind") == tree_bytes(clean_a / "pagefind")
    assert tree_bytes(clean_a / "pagefind") == tree_bytes(clean_b / "pagefind")


def test_the_state_of_other_code_starts_the_index_afresh() -> None:
    """The state names the code that wrote it: after an upgrade every piece and part is
    made again, even where no page changed."""
    assert usable(IndexState(code_version()))
    assert not usable(IndexState("the code of an earlier release"))
    assert not usable({"pages": "a state of an earlier layout"})


def test_a_piece_that_fails_leaves_the_published_parts_as_they_were(
    years_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pagefind failing on a piece: no part is merged or published, the failure names the
    piece, and the next update, Pagefind working, makes the index whole."""
    from juju_radar.model.vocabulary import Vocabulary
    from juju_radar.outputs.search import index

    pages = [
        index.SearchPage("index", "index.html", "首页", None),
        index.SearchPage("topics/agent", "topics/agent.html", "Agent", None),
    ]
    outdir = tmp_path / "html"
    for page in pages:
        (outdir / page.filename).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(years_site / page.filename, outdir / page.filename)
    folders = index.Folders(outdir / "pagefind", tmp_path / "records", tmp_path / "pieces")
    saved: list[IndexState] = []

    def update(state: IndexState) -> index.IndexReport:
        return index.IndexUpdate(
            outdir, folders, Vocabulary((), ()), "zh-cn", state, saved.append
        ).run(pages)

    real_run_job = index.run_job
    monkeypatch.setattr(index, "run_job", lambda step: "pagefind broke")
    failed = update(IndexState())
    assert failed.failures == ["other-site: pagefind broke"]
    assert not folders.bundles.exists(), "a part was published"
    assert all(state.pages is None for state in saved), "a failed update claims the pages"

    monkeypatch.setattr(index, "run_job", real_run_job)
    done = update(saved[-1] if saved else IndexState())
    assert done.failures == [] and done.parts == ["other-site"]
    assert {record["meta"]["link"] for record in pagefind_records(outdir)} == {
        "index.html",
        "topics/agent.html",
    }


def test_parts_indexed_whole_index_no_pieces_and_search_the_same(
    years_site: Path, tmp_path: Path
) -> None:
    """Without the merge (RADAR_ACCEL=0) Pagefind indexes each part's records whole, and
    no piece: the same search as the merged parts, from half the Pagefind runs."""
    from juju_radar.accel.search_merge import MERGER
    from juju_radar.model.vocabulary import Vocabulary
    from juju_radar.outputs.search import index

    pages = [
        index.SearchPage("index", "index.html", "首页", None),
        index.SearchPage("topics/agent", "topics/agent.html", "Agent", None),
    ]
    reports = {}
    for merge in (True, False):
        outdir = tmp_path / f"merge-{merge}" / "html"
        for page in pages:
            (outdir / page.filename).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(years_site / page.filename, outdir / page.filename)
        folders = index.Folders(
            outdir / "pagefind", outdir.parent / "records", outdir.parent / "pieces"
        )
        merger = MERGER if merge else None
        update = index.IndexUpdate(
            outdir, folders, Vocabulary((), ()), "zh-cn", IndexState(), lambda state: None, merger
        )
        reports[merge] = update.run(pages)
    assert reports[True].pieces_indexed and not reports[False].pieces_indexed
    assert reports[False].parts == reports[True].parts == ["other-site"]
    merged, whole = (tmp_path / f"merge-{merge}" / "html" for merge in (True, False))
    assert search_differences(merged, whole) == []


def test_a_failed_index_step_says_so_in_one_line_without_a_python_process(
    tmp_path: Path, started_processes: list[list[str]]
) -> None:
    """The index steps run in the build's thread: Pagefind is the only process."""
    import functools
    import sys

    from juju_radar.outputs.search.jobs import index_piece, run_job

    empty = tmp_path / "records"
    empty.mkdir()
    said = run_job(functools.partial(index_piece, empty, tmp_path / "bundle", "state"))
    assert said == (
        "RuntimeError: pagefind exited with 1: Error: Pagefind was not able to build an index."
    )
    assert not (tmp_path / "bundle").exists()
    programs = [command[0] for command in started_processes]
    assert len(programs) == 1 and sys.executable not in programs, programs


def test_a_failed_merge_says_the_last_line_its_process_wrote() -> None:
    import sys

    from juju_radar.outputs.search.jobs import merger_step, run_job

    failing = [sys.executable, "-c", "import sys; sys.exit('reading the pieces\\npiece 3 broke')"]
    assert run_job(merger_step(failing)) == "piece 3 broke"
    silent = [sys.executable, "-c", "raise SystemExit(3)"]
    assert run_job(merger_step(silent)) == "exit 3"
    assert run_job(merger_step([sys.executable, "-c", "pass"])) is None
