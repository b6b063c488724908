"""The search index in parts, so that a change re-indexes only the part it falls in.

Pagefind has no incremental mode: a bundle is indexed whole. So the records are split
by the year they belong to (an issue's stories and page by the issue's date; the
year-period pages ``topics/<topic>/YYYY``, ``best/YYYY`` and ``references/YYYY-MM`` by
their year) and every other page (home, listings, stats) goes to the small ``site``
part. Each part is its own bundle, ``OUTDIR/pagefind/<part>/``, indexed only when its
records changed, the changed parts side by side (Pagefind is a subprocess). The
reader's browser loads the runtime of the first part listed in
``OUTDIR/pagefind/parts.json`` and merges the others into it (``pagefind.mergeIndex``).

Every part costs the first query a meta file, a filter index and a word-index chunk or
two (~30-35 KB at 1,000 issues, whatever the part's size), so only the newest year has
a part of its own and every older year shares the ``older`` part. Adding an issue (or
editing one of the newest year) re-indexes that year and the ``site`` part; editing an
older issue re-indexes the ``older`` part; the first issue of a new year moves the year
before into ``older``, once a year.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from juju_radar.outputs.files import write_if_changed
from juju_radar.outputs.search.bundle import bundle_is_complete
from juju_radar.outputs.search.records import (
    SearchRecord,
    build_index,
    documents_digest,
    record_digests,
    record_documents,
)

BUNDLE_DIR = "pagefind"  # under the output folder: the parts' bundles and PARTS_FILE
SITE_PART = "site"
PARTS_FILE = "parts.json"
# Pagefind's highlighter, copied to BUNDLE_DIR for the pages (radar.js) to load without
# knowing the parts.
HIGHLIGHTER = "pagefind-highlight.js"
OLDER_PART = "older"


def part_name(year: int | None, newest: int | None) -> str:
    """The part of a record of ``year``, ``newest`` being the newest issue's year."""
    if year is None:
        return SITE_PART
    return f"{year}" if year == newest else OLDER_PART


def partition(records: Iterable[SearchRecord], newest: int | None) -> dict[str, list[SearchRecord]]:
    """Part name -> its records: ``site`` first (its bundle's runtime is the one the
    browser loads), then the newest year's, then the older years'."""
    parts: dict[str, list[SearchRecord]] = {}
    for record in records:
        parts.setdefault(part_name(record.year, newest), []).append(record)
    order = [SITE_PART, f"{newest}", OLDER_PART]
    return {name: parts[name] for name in order if name in parts}


@dataclass(frozen=True)
class Part:
    name: str
    records: int
    documents: dict[str, str]
    digests: dict[str, str]

    @property
    def state(self) -> str:
        return documents_digest(self.digests)


def parts_of(records: Iterable[SearchRecord], newest: int | None, lang: str) -> list[Part]:
    parts = []
    for name, part_records in partition(records, newest).items():
        documents = record_documents(part_records, lang)
        parts.append(Part(name, len(part_records), documents, record_digests(documents)))
    return parts


def needs_indexing(part: Part, bundles: Path, indexed_state: str | None) -> bool:
    return indexed_state != part.state or not bundle_is_complete(bundles / part.name)


def index_parts(
    parts: list[Part], bundles: Path, record_sites: Path
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Index ``parts`` into ``bundles/<part>``, at most one Pagefind per core at a time."""
    if not parts:
        return {}
    workers = min(len(parts), os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = pool.map(
            lambda part: build_index(
                part.documents, part.digests, bundles / part.name, record_sites / part.name
            ),
            parts,
        )
        return {part.name: result for part, result in zip(parts, results, strict=True)}


def publish_parts(names: list[str], bundles: Path, record_sites: Path) -> None:
    """Write the list of parts the pages load, and delete every other bundle and record
    folder (a part that no longer exists, or the single bundle of earlier builds)."""
    for folder in (bundles, record_sites):
        if folder.is_dir():
            for path in folder.iterdir():
                if path.name not in {*names, PARTS_FILE, HIGHLIGHTER}:
                    shutil.rmtree(
                        path
                    ) if path.is_dir() and not path.is_symlink() else path.unlink()
    bundles.mkdir(parents=True, exist_ok=True)
    write_if_changed(bundles / PARTS_FILE, json.dumps({"parts": names}) + "\n")
    if names:
        highlighter = (bundles / names[0] / HIGHLIGHTER).read_text(encoding="utf-8")
        write_if_changed(bundles / HIGHLIGHTER, highlighter)
