"""Merged pieces make the bundle Pagefind makes of all their records at once.

The records are those the build wrote for ``tests/roots/test-years`` (a piece a year
before 2026). A bundle is compared by what search reads from it: each page (its
fragment's content, whatever the file's name, and word count), each word's pages with
their locations (metadata locations by field name), the filters' pages, and the
metadata fields.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import doctrees_of
from search_bundles import read_bundle, same_search
from site_builds import differences

from juju_radar.accel import search_merge
from juju_radar.accel.pagefind_bundle import references_are_whole
from juju_radar.accel.search_merge import (
    MERGER,
    WRITTEN_FOR_PAGEFIND,
    merge_bundles,
    merge_part,
    mergeable,
)
from juju_radar.outputs.search import index
from juju_radar.outputs.search.bundle import bundle_is_complete
from juju_radar.outputs.search.jobs import index_piece, merge_step, run_job


@pytest.fixture(scope="module")
def built(built_years_site: Path) -> Path:
    """The years site's doctree folder, with its record sites and piece bundles."""
    return doctrees_of(built_years_site)


def index_together(built: Path, pieces: list[str], into: Path) -> Path:
    site = into / "records"
    for piece in pieces:
        shutil.copytree(built / "radar-search-records" / piece, site, dirs_exist_ok=True)
    index_piece(site, into / "bundle", "all")
    return into / "bundle"


@pytest.mark.parametrize(
    "pieces",
    [
        ["stories-2024", "stories-2025", "stories-2026-09"],  # filters in every piece
        ["other-2024", "other-2026-09", "other-site"],  # pieces of different metadata fields
    ],
)
@pytest.mark.site
def test_merged_pieces_equal_one_index_of_their_records(
    built: Path, tmp_path: Path, pieces: list[str]
) -> None:
    whole = read_bundle(index_together(built, pieces, tmp_path))
    merge_bundles([built / "radar-search-pieces" / piece for piece in pieces], tmp_path / "m")
    merged = read_bundle(tmp_path / "m")
    assert merged["page_count"] == len(merged["pages"]) > len(pieces)
    assert same_search(merged, whole)
    # Shorter fragment names than Pagefind's: the page list is what every query loads.
    assert max(map(len, merged["names"])) < min(map(len, whole["names"]))
    if pieces[0].startswith("other"):
        fields = [read_bundle(built / "radar-search-pieces" / piece)["fields"] for piece in pieces]
        assert len({tuple(f) for f in fields}) > 1, "the pieces should differ in fields"
    assert references_are_whole(tmp_path / "m")


def test_pages_that_share_a_fragment_name_keep_both(built: Path, tmp_path: Path) -> None:
    """Fragment names are a few hex digits of a hash of the fragment, which two pages can
    share: the later page is given a longer name, and both fragments are kept."""
    piece = built / "radar-search-pieces" / "stories-2024"
    merge_bundles([piece, piece], tmp_path / "twice")
    once, twice = read_bundle(piece), read_bundle(tmp_path / "twice")
    assert sorted(twice["pages"]) == sorted(once["pages"] * 2)
    assert len(set(twice["names"])) == len(twice["names"]) == 2 * len(once["names"])
    fragments = list((tmp_path / "twice" / "fragment").iterdir())
    assert len(fragments) == len(twice["names"])
    assert references_are_whole(tmp_path / "twice")


def test_a_bundle_missing_a_file_or_holding_a_stray_one_is_not_complete(
    built: Path, tmp_path: Path
) -> None:
    """The core's check, by the seal the bundle was written with; and the merge's own, by
    what the bundle's files reference."""
    bundle = tmp_path / "piece"
    shutil.copytree(built / "radar-search-pieces" / "stories-2024", bundle)
    assert bundle_is_complete(bundle) and references_are_whole(bundle)
    stray = bundle / "index" / "zh-cn_00000.pf_index"
    stray.write_bytes(b"")
    assert not bundle_is_complete(bundle) and not references_are_whole(bundle)
    stray.unlink()
    assert bundle_is_complete(bundle)
    next((bundle / "fragment").iterdir()).unlink()
    assert not bundle_is_complete(bundle) and not references_are_whole(bundle)


def test_pieces_of_another_pagefind_format_are_indexed_whole_not_merged(
    built: Path, tmp_path: Path
) -> None:
    names = ["stories-2024", "stories-2025"]
    pieces = [tmp_path / "pieces" / name for name in names]
    for name, piece in zip(names, pieces, strict=True):
        shutil.copytree(built / "radar-search-pieces" / name, piece)
    assert mergeable(pieces)
    entry_file = pieces[1] / "pagefind-entry.json"
    entry = json.loads(entry_file.read_text(encoding="utf-8"))
    assert entry["version"] == WRITTEN_FOR_PAGEFIND
    entry_file.write_text(json.dumps({**entry, "version": "9.0.0"}), encoding="utf-8")
    assert not mergeable(pieces)
    merge_part(tmp_path / "part", pieces, built / "radar-search-records")
    part = read_bundle(tmp_path / "part")
    assert same_search(part, read_bundle(index_together(built, names, tmp_path / "whole")))
    # Pagefind's own fragment names, not the merge's shorter ones.
    merge_bundles(pieces[:1], tmp_path / "merged")
    assert min(map(len, part["names"])) > max(map(len, read_bundle(tmp_path / "merged")["names"]))
    assert bundle_is_complete(tmp_path / "part") and references_are_whole(tmp_path / "part")
    assert not list(tmp_path.glob("**/*.whole")), "the records indexed together are removed"


def test_another_pagefind_makes_every_piece_again(monkeypatch: pytest.MonkeyPatch) -> None:
    index.code_version.cache_clear()
    now = index.code_version()
    monkeypatch.setattr(index, "pagefind_version", lambda: "9.0.0")
    index.code_version.cache_clear()
    try:
        assert index.code_version() != now
    finally:
        index.code_version.cache_clear()


def test_a_few_pages_merge_in_the_build_s_process_and_more_in_their_own_alike(
    built: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    started_processes: list[list[str]],
) -> None:
    names = ["stories-2024", "stories-2025", "stories-2026-09"]
    pieces = [built / "radar-search-pieces" / name for name in names]
    pages = sum(len(list((piece / "fragment").iterdir())) for piece in pieces)
    assert 1 < pages <= search_merge.MERGED_HERE_UP_TO
    records = built / "radar-search-records"
    assert run_job(merge_step(MERGER, tmp_path / "here", pieces, records)) is None
    assert started_processes == []
    monkeypatch.setattr(search_merge, "MERGED_HERE_UP_TO", pages - 1)
    assert run_job(merge_step(MERGER, tmp_path / "own", pieces, records)) is None
    assert [command[: len(MERGER.command)] for command in started_processes] == [
        list(MERGER.command)
    ]
    assert bundle_is_complete(tmp_path / "here")
    assert differences(tmp_path / "here", tmp_path / "own") == []
