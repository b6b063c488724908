"""The search index in pieces and parts, so that a change indexes only what it touches.

Pagefind has no incremental mode and holds all it indexes in memory, so the records are
indexed in **pieces**: the pages of one period (an issue's by its date; the year-period
pages ``topics/<topic>/YYYY``, ``best/YYYY`` and ``references/YYYY-MM`` by theirs; the
other pages in ``site``), a year each, or a month each in the newest year. A period's
stories and its other records are two pieces. A piece is indexed again only when the
records of its period change, and one to four hundred records keep Pagefind small.

The pieces are merged (``accel.search_merge``; without it, their records are indexed
whole) into the **parts** the browser loads: the stories of the newest year and the older
stories, then the other records (the rest of each issue
page, listings, periods) of the newest year (with the pages of no period) and the older
ones. ``OUTDIR/pagefind/parts.json`` lists the parts and the kind of their records;
search.js loads the first part's runtime, merges the others into it
(``pagefind.mergeIndex``) and gives each its kind as a filter that costs no download
(``mergeFilter``). Each part costs a first query its page list and a chunk of word index
a word, so there are four: adding an issue merges the newest year's two parts again,
and an older part only changes when an old issue does.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path

from juju_radar.outputs.files import write_if_changed

BUNDLE_DIR = "pagefind"  # under the output folder: the parts' bundles and PARTS_FILE
PARTS_FILE = "parts.json"
# Pagefind's highlighter, copied to BUNDLE_DIR for the pages (radar.js) to load without
# knowing the parts.
HIGHLIGHTER = "pagefind-highlight.js"
SITE_PERIOD = "site"
STORIES = "stories"  # the group (and kind filter) of story records
OTHER = "other"  # of every other record
OLDER = "older"  # the part of the years before the newest
KIND_OF_GROUP = {STORIES: "story", OTHER: "other"}


def period_name(year: int | None, month: int | None, newest: int | None) -> str:
    """The period of a page of ``year`` (and ``month``), ``newest`` being the newest
    issue's year: ``site``, ``YYYY``, or ``YYYY-MM`` in the newest year."""
    if year is None:
        return SITE_PERIOD
    if year == newest and month is not None:
        return f"{year}-{month:02d}"
    return f"{year}"


def piece_name(group: str, period: str) -> str:
    return f"{group}-{period}"


def part_of_piece(piece: str, newest: int | None) -> str:
    """The newest year's pieces (and the pages of no period, which list it) go to the
    part of that year, the others to the older part of their group."""
    group, _, period = piece.partition("-")
    if period == SITE_PERIOD or newest is None:
        return f"{group}-{newest or SITE_PERIOD}"
    return f"{group}-{newest if period.startswith(f'{newest}') else OLDER}"


def parts_of(pieces: Iterable[str], newest: int | None) -> dict[str, list[str]]:
    """Part -> its pieces in merge order; the stories first, the newest first."""
    parts: dict[str, list[str]] = {}
    for piece in sorted(pieces):
        parts.setdefault(part_of_piece(piece, newest), []).append(piece)
    ages = (newest or SITE_PERIOD, OLDER)
    order = [f"{group}-{age}" for group in (STORIES, OTHER) for age in ages]
    return {name: parts[name] for name in order if name in parts}


def part_kind(part: str) -> str:
    return KIND_OF_GROUP[part.partition("-")[0]]


def publish_parts(names: list[str], bundles: Path) -> None:
    """Write the list of parts the pages load, and delete every other bundle (a part that
    no longer exists, or the bundles of earlier layouts)."""
    remove_all_but(bundles, {*names, PARTS_FILE, HIGHLIGHTER})
    bundles.mkdir(parents=True, exist_ok=True)
    listing = {"parts": names, "kinds": {name: part_kind(name) for name in names}}
    write_if_changed(bundles / PARTS_FILE, json.dumps(listing, sort_keys=True) + "\n")
    if names:
        highlighter = (bundles / names[0] / HIGHLIGHTER).read_text(encoding="utf-8")
        write_if_changed(bundles / HIGHLIGHTER, highlighter)


def remove_all_but(folder: Path, names: set[str]) -> None:
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if path.name in names:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
