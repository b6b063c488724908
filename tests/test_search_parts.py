"""The search index in parts: which records go to which bundle, and that a change
re-indexes only the part it falls in, with the same bundles as a clean build.

The site is the seed (one issue of 2026) with ``tests/roots/test-years`` laid over it:
an issue of 2024 and one of 2025, so the records fall in the parts ``site`` (the other
pages), ``2026`` (the newest year) and ``older``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOTS, site_with_root, sphinx_build
from test_search import pagefind_records, search_parts, tree_bytes

from juju_radar.outputs.search.parts import part_name
from juju_radar.outputs.search.records import period_year

NEW_ISSUE = Path("issues/2026/2026-09-09.md")
OLD_ISSUE = Path("issues/2024/2024-05-14.md")


def test_records_go_to_the_part_of_their_year() -> None:
    assert [
        period_year(link) for link in ("topics/agent/2024.html", "references/2025-03.html")
    ] == [
        2024,
        2025,
    ]
    assert period_year("best/2026.html") == 2026
    assert period_year("topics/agent.html") is None
    assert period_year("issues/2026/2026-09-08.html") is None  # an issue's year is its date's
    assert [part_name(year, 2026) for year in (None, 2026, 2025, 2017)] == [
        "site",
        "2026",
        "older",
        "older",
    ]


@pytest.fixture(scope="module")
def years_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("years")
    outdir = base / "html"
    sphinx_build(site_with_root("years", base / "src"), outdir)
    return outdir


def links_by_part(site: Path) -> dict[str, set[str]]:
    return {
        part: {record["meta"]["link"] for record in pagefind_records(site, part)}
        for part in search_parts(site)
    }


def test_each_year_part_holds_its_issues_and_period_pages(years_site: Path) -> None:
    assert search_parts(years_site) == ["site", "2026", "older"]
    parts = links_by_part(years_site)
    assert "issues/2024/2024-05-14.html#swarm-warehouse-robots" in parts["older"]
    assert "issues/2025/2025-03-11.html#coral-reef-acoustics" in parts["older"]
    assert "issues/2026/2026-09-08.html#tau-bench-customer-service" in parts["2026"]
    assert {"references/2024-05.html", "references/2025-03.html"} <= parts["older"]
    assert "references/2026-09.html" in parts["2026"]
    assert {"index.html", "issues/index.html", "topics/agent.html"} <= parts["site"]
    assert not any(link.startswith("issues/20") for link in parts["site"])
    # The pages load one highlighter, whatever the parts.
    assert (years_site / "pagefind" / "pagefind-highlight.js").is_file()


def part_files(site: Path) -> dict[str, dict[str, tuple[int, bytes]]]:
    """Part -> its bundle's files (path -> modification time, content)."""
    return {
        part: {
            path.relative_to(site / "pagefind" / part).as_posix(): (
                path.stat().st_mtime_ns,
                path.read_bytes(),
            )
            for path in sorted((site / "pagefind" / part).rglob("*"))
            if path.is_file()
        }
        for part in search_parts(site)
    }


def rewritten(before: dict[str, dict[str, tuple[int, bytes]]], after: dict) -> set[str]:
    """The parts whose bundle Pagefind wrote again (every file of it gets a new time)."""
    return {
        part
        for part, files in after.items()
        if part not in before
        or files["pagefind-entry.json"][0] != before[part]["pagefind-entry.json"][0]
    }


@pytest.mark.slow
def test_a_change_reindexes_only_its_part_and_equals_a_clean_build(tmp_path: Path) -> None:
    srcdir, outdir = site_with_root("years", tmp_path / "src"), tmp_path / "html"
    sphinx_build(srcdir, outdir)
    start = part_files(outdir)

    sphinx_build(srcdir, outdir)
    assert rewritten(start, part_files(outdir)) == set(), "nothing changed, nothing indexed"

    # A new issue of the newest year: its year and the listings, not the older years,
    # although it cites a reference of 2024 (whose page and citing issue now list it, in
    # parts that search leaves out).
    new_issue = (ROOTS / "test-second-issue" / NEW_ISSUE).read_text(encoding="utf-8")
    citing_old = new_issue.replace(
        ":sources: 论文与完整实验 <taubench2026paper>",
        ":sources: 论文与完整实验 <taubench2026paper> · 旧文 <swarm2024fixture>",
    )
    assert citing_old != new_issue
    (srcdir / NEW_ISSUE).write_text(citing_old, encoding="utf-8")
    sphinx_build(srcdir, outdir)
    added = part_files(outdir)
    assert "2026-09-09" in (outdir / "references" / "2024-05.html").read_text(encoding="utf-8")
    assert rewritten(start, added) == {"site", "2026"}
    assert added["older"] == start["older"]
    assert "issues/2026/2026-09-09.html#long-context-recipe" in links_by_part(outdir)["2026"]

    # An edit of the text of a story of 2024: the older years' part only.
    old = srcdir / OLD_ISSUE
    old.write_text(old.read_text(encoding="utf-8").replace("彼此协商任务", "彼此协商工作"), "utf-8")
    sphinx_build(srcdir, outdir)
    edited = part_files(outdir)
    assert rewritten(added, edited) == {"older"}
    story = next(
        record
        for record in pagefind_records(outdir, "older")
        if record["meta"]["link"].endswith("#swarm-warehouse-robots")
    )
    assert "彼此协商工作" in story["content"].replace("\u200b", "")

    # Incremental == clean, and two clean builds give the same bundles.
    clean_a, clean_b = tmp_path / "clean-a" / "html", tmp_path / "clean-b" / "html"
    sphinx_build(srcdir, clean_a)
    sphinx_build(srcdir, clean_b)
    assert tree_bytes(outdir / "pagefind") == tree_bytes(clean_a / "pagefind")
    assert tree_bytes(clean_a / "pagefind") == tree_bytes(clean_b / "pagefind")
