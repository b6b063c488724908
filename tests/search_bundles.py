"""A Pagefind bundle as search reads it, to compare two bundles of the same records:
each page (its fragment's content, whatever the file's name, and word count), each
word's pages with their locations (metadata locations by field name), the filters'
pages, and the metadata fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from juju_radar.outputs.search.bundle import bundle_language, read_data


def read_bundle(bundle: Path) -> dict[str, Any]:
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    language = bundle_language(entry)
    meta = read_data(bundle / f"pagefind.{entry['languages'][language]['hash']}.pf_meta")
    fields = meta[5]
    # A page is its fragment's content.
    pages = [(bundle / "fragment" / f"{name}.pf_fragment").read_bytes() for name, _ in meta[1]]

    def located(entries: list[list[Any]]) -> frozenset[tuple[Any, ...]]:
        found, number = set(), 0
        for delta, locs, meta_locs in entries:
            number += delta
            named = tuple(fields[-loc - 1] if loc < 0 else loc for loc in meta_locs)
            found.add((pages[number], tuple(locs), named))
        return frozenset(found)

    words = {}
    for *_, chunk in meta[2]:
        for word, entries, variants in read_data(bundle / "index" / f"{chunk}.pf_index")[0]:
            assert word not in words, f"{word} in two chunks"
            words[word] = (located(entries), {form: located(v) for form, v in variants})
    filters = {}
    for name, filter_hash in meta[3]:
        _, values = read_data(bundle / "filter" / f"{filter_hash}.pf_filter")
        filters[name] = {value: {pages[n] for n in numbers} for value, numbers in values}
    return {
        "pages": sorted(zip(pages, (count for _, count in meta[1]), strict=True)),
        "page_count": entry["languages"][language]["page_count"],
        "names": [name for name, _ in meta[1]],
        "words": words,
        "filters": filters,
        "fields": fields,
    }


def same_search(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "names"} == {
        k: v for k, v in b.items() if k != "names"
    }


def search_differences(left: Path, right: Path) -> list[str]:
    """The search parts of two built sites that search does not read alike."""
    parts = sorted(path.name for path in (left / "pagefind").iterdir() if path.is_dir())
    assert parts == sorted(path.name for path in (right / "pagefind").iterdir() if path.is_dir())
    return [
        part
        for part in parts
        if not same_search(
            read_bundle(left / "pagefind" / part), read_bundle(right / "pagefind" / part)
        )
    ]
