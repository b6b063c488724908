"""A Pagefind bundle as search reads it, to compare two bundles of the same records:
each page (its fragment's content, whatever the file's name, and word count), each
word's pages with their locations (metadata locations by field name), the filters'
pages, and the metadata fields."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from juju_radar.accel.pagefind_bundle import bundle_language, read_data


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


FRAGMENT_SIGNATURE = b"pagefind_dcd"


def search_parts(site: Path) -> list[str]:
    """The parts of the search index, as the pages read them."""
    parts: list[str] = json.loads((site / "pagefind" / "parts.json").read_text())["parts"]
    return parts


def pagefind_records(site: Path, part: str | None = None) -> list[dict[str, Any]]:
    """The records of the built Pagefind bundles (or of one part's), decoded from their
    fragment files."""
    records = []
    for name in search_parts(site) if part is None else [part]:
        for fragment in sorted((site / "pagefind" / name / "fragment").iterdir()):
            data = gzip.decompress(fragment.read_bytes())
            assert data.startswith(FRAGMENT_SIGNATURE)
            records.append(json.loads(data[len(FRAGMENT_SIGNATURE) :]))
    return records


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
