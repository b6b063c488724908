"""Merge Pagefind bundles ("pieces") into one bundle, as if indexed together: the
acceleration ``search-merge``, which answers ``radar-search-merger`` with how to run it
(``python -m juju_radar.accel.search_merge``); without it each part is indexed whole.

Pagefind has no incremental mode and holds every page it indexes in memory (about
110 KB a record), so the archive is indexed in pieces (a year, or a month of the
newest year) and the pieces are merged here into the bundles the pages load. A piece
is only indexed again when its records change, and a merge never runs Pagefind.

Everything Pagefind's ranking reads is per page or derived from the postings (a word's
pages give its document frequency, the page list the page count and average length),
so merging the pages, the word postings and the filters gives the search a bundle of
the same records would give. The pieces are Pagefind's own bundles, their pages in the
order the file system listed the records; each piece's pages are renumbered by their
fragment's hash as they are read (``bundle.page_numbers_by_content``), and the merged
bundle numbers them piece after piece, in the order the pieces are given, so it is the
same whatever order Pagefind numbered them in. (Rewriting each piece in that order
first, and reading it again, took a sixth of a clean build's search index.)

The word index is read and written one chunk at a time (a k-way merge of the pieces'
sorted words), so a merge holds no more than a chunk of each piece in memory. Its
chunks are cut smaller than Pagefind's (``CHUNK_SIZE``): a query loads the chunk of
each of its words in every part, and that is most of what a first query downloads.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from juju_radar.accel import pagefind_bundle
from juju_radar.accel.pagefind_bundle import (
    DATA_FOLDERS,
    ENTRY_FILE,
    HashedNames,
    encode,
    meta_file,
    page_numbers_by_content,
    read_data,
    read_meta,
    renumbered,
)
from juju_radar.outputs.search.jobs import Merger, index_whole, replace_whole
from juju_radar.store.cache import source_digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

# The bundle format (Pagefind's version, in each bundle's entry and metadata) this merge
# reads and writes; its encoding changed as recently as 1.5 (January 2026). Pieces of
# another version are not merged: their part is indexed whole (``merge_part``).
WRITTEN_FOR_PAGEFIND = "1.5.2"
# In Pagefind's unit (a page's locations of the word, plus one), as PAGEFIND_UNSTABLE_
# INDEX_CHUNK_SIZE; Pagefind's default is 20,000. At 3,650 issues 4,000 took a first
# query from 104 KB of word index to 27 KB, for 13 KB more of metadata.
CHUNK_SIZE = 4000
# gzip levels: the metadata (each part's page list, which every query loads whole) gets
# the smallest file; the word index, 1,500 chunks at 3,650 issues, level 6: a fifth of
# the time of level 9 (1 against 4.7 ms a chunk) for 3.5 % more bytes, about 1 KB of
# a first query.
META_COMPRESSION = 9
CHUNK_COMPRESSION = 6
FRAGMENT_NAME_LENGTH = 5
RUNTIME_SUFFIXES = frozenset({".js", ".css", ".pagefind"})

Word = list[Any]  # [word, [[page delta, locs, meta locs], ...], [[form, pages], ...]]


@dataclass
class Piece:
    bundle: Path
    language: str
    entry: dict[str, Any]
    meta: list[Any]
    offset: int  # its first page's number in the merged bundle
    field_map: list[int] | None  # its metadata field ids -> the merged ones, if they differ
    renumber: list[int]  # Pagefind's page numbers -> the piece's, in fragment hash order


def read_pieces(bundles: list[Path]) -> list[Piece]:
    pieces, offset = [], 0
    for bundle in bundles:
        entry, language, meta = read_meta(bundle)
        renumber = page_numbers_by_content(meta[1])
        meta[1] = sorted(meta[1], key=itemgetter(0))
        pieces.append(Piece(bundle, language, entry, meta, offset, None, renumber))
        offset += len(meta[1])
    if len({piece.language for piece in pieces}) > 1:
        raise ValueError("the pieces are indexed in different languages")
    return pieces


def mergeable(bundles: list[Path]) -> bool:
    """Whether every bundle is in the format this merge was written for."""
    for bundle in bundles:
        entry, _, meta = read_meta(bundle)
        if entry.get("version") != WRITTEN_FOR_PAGEFIND or meta[0] != WRITTEN_FOR_PAGEFIND:
            return False
    return True


def merged_fields(pieces: list[Piece]) -> list[str]:
    fields = sorted({field for piece in pieces for field in piece.meta[5]})
    for piece in pieces:
        if piece.meta[5] != fields:
            piece.field_map = [fields.index(field) for field in piece.meta[5]]
    return fields


def merge_bundles(pieces_bundles: list[Path], out: Path, chunk_size: int = CHUNK_SIZE) -> None:
    """Write into ``out`` (emptied first) the bundle of all ``pieces_bundles``."""
    if not pieces_bundles:
        raise ValueError("nothing to merge")
    pieces = read_pieces(pieces_bundles)
    language = pieces[0].language
    if out.exists():
        shutil.rmtree(out)
    for folder in DATA_FOLDERS:
        (out / folder).mkdir(parents=True)
    _copy_runtime(pieces[0].bundle, out)
    fields = merged_fields(pieces)
    pages = _merge_pages(pieces, out, language)
    chunks = _write_chunks(_merged_words(pieces), out, language, chunk_size)
    filters = _merge_filters(pieces, out, language)
    meta = [pieces[0].meta[0], pages, chunks, filters, [], fields]
    meta_name = HashedNames(language, 13).write(
        lambda name: out / meta_file(name), encode(meta, META_COMPRESSION)
    )
    entry = pieces[0].entry
    entry["languages"] = {
        language: {**entry["languages"][language], "hash": meta_name, "page_count": len(pages)}
    }
    (out / ENTRY_FILE).write_text(
        json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
    )


def _copy_runtime(bundle: Path, out: Path) -> None:
    """Pagefind's scripts and WebAssembly, the same in every piece."""
    for path in bundle.iterdir():
        if path.is_file() and path.suffix in RUNTIME_SUFFIXES:
            shutil.copyfile(path, out / path.name)


def _merge_pages(pieces: list[Piece], out: Path, language: str) -> list[list[Any]]:
    """The merged page list, each page's fragment linked in under a shorter name.

    Every query downloads the page list of every part whole, and Pagefind's fragment
    names (seven hex digits) were most of it: 4.7 of the 6.8 bytes a page at 3,650
    issues. Five digits of the fragment's own hash (more where two pages would share
    a name) keep the name content-addressed, as a cached fragment must be."""
    names = HashedNames(language, FRAGMENT_NAME_LENGTH)
    pages: list[list[Any]] = []
    for piece in pieces:
        for fragment_hash, word_count in piece.meta[1]:
            source = piece.bundle / "fragment" / f"{fragment_hash}.pf_fragment"
            name = names.link(lambda name: out / "fragment" / f"{name}.pf_fragment", source)
            pages.append([name, word_count])
    return pages


def _piece_words(index: int, piece: Piece) -> Iterator[tuple[str, int, Word]]:
    for *_, chunk in piece.meta[2]:
        for word in read_data(piece.bundle / "index" / f"{chunk}.pf_index")[0]:
            word[1] = renumbered(word[1], piece.renumber)
            # Variants (a word's other diacritic forms) list their pages the same way.
            word[2] = [[form, renumbered(pages, piece.renumber)] for form, pages in word[2]]
            yield word[0], index, word


def _merged_words(pieces: list[Piece]) -> Iterator[Word]:
    streams = [_piece_words(index, piece) for index, piece in enumerate(pieces)]
    for text, group in groupby(heapq.merge(*streams, key=itemgetter(0, 1)), key=itemgetter(0)):
        found = [(pieces[index], word) for _, index, word in group]
        pages = _joined([(piece, word[1]) for piece, word in found])
        forms: dict[str, list[tuple[Piece, list[list[Any]]]]] = {}
        for piece, word in found:
            for form, form_pages in word[2]:
                forms.setdefault(form, []).append((piece, form_pages))
        yield [text, pages, [[form, _joined(forms[form])] for form in sorted(forms)]]


def _joined(lists: list[tuple[Piece, list[list[Any]]]]) -> list[list[Any]]:
    """Delta-encoded page lists of pieces in order, as one list of merged page numbers:
    only the first entry of each piece's list changes."""
    joined: list[list[Any]] = []
    last = 0  # the merged number of the last page joined
    for piece, entries in lists:
        if not entries:
            continue
        if piece.field_map is not None:
            entries = [
                [delta, locs, _remapped(meta_locs, piece.field_map)]
                for delta, locs, meta_locs in entries
            ]
        piece_last = sum(map(itemgetter(0), entries))
        first = [piece.offset + entries[0][0] - last, *entries[0][1:]]
        joined += [first, *entries[1:]]
        last = piece.offset + piece_last
    return joined


def _remapped(meta_locs: list[int], field_map: list[int]) -> list[int]:
    """Meta locations name their field by a negative marker, -(field id + 1)."""
    return [-(field_map[-loc - 1] + 1) if loc < 0 else loc for loc in meta_locs]


def _chunk_weight(word: Word) -> int:
    """Pagefind's measure of a word's share of a chunk."""
    return sum(len(entry[1]) + len(entry[2]) + 1 for entry in word[1])


def _write_chunks(
    words: Iterator[Word], out: Path, language: str, chunk_size: int
) -> list[list[str]]:
    names = HashedNames(language, 7)
    bounds: list[list[str]] = []
    chunk: list[Word] = []
    weight = 0

    def flush() -> None:
        name = names.write(
            lambda name: out / "index" / f"{name}.pf_index", encode([chunk], CHUNK_COMPRESSION)
        )
        bounds.append([chunk[0][0], chunk[-1][0], name])

    for word in words:
        chunk.append(word)
        weight += _chunk_weight(word)
        if weight >= chunk_size:
            flush()
            chunk, weight = [], 0
    if chunk:
        flush()
    return _trimmed_bounds(bounds)


def _prefixes(a: str, b: str) -> tuple[str, str]:
    common = 0
    for left, right in zip(b, a, strict=False):
        if left != right:
            break
        common += 1
    return a[: common + 1], b[: common + 1]


def _trimmed_bounds(bounds: list[list[str]]) -> list[list[str]]:
    """Pagefind's ``chunk_meta``: each boundary between chunks cut to the shortest
    prefixes that still tell the two apart, which the runtime's prefix search expects."""
    for first, second in itertools.pairwise(bounds):
        before, after = _prefixes(first[1], second[0])
        if before >= first[0]:
            first[1] = before
        second[0] = after
    return bounds


def _merge_filters(pieces: list[Piece], out: Path, language: str) -> list[list[str]]:
    values: dict[str, dict[str, list[int]]] = {}
    for piece in pieces:
        for name, filter_hash in piece.meta[3]:
            _, piece_values = read_data(piece.bundle / "filter" / f"{filter_hash}.pf_filter")
            merged = values.setdefault(name, {})
            for value, pages in piece_values:
                numbers = sorted(piece.renumber[page] for page in pages)
                merged.setdefault(value, []).extend(piece.offset + page for page in numbers)
    names = HashedNames(language, 7)
    return [
        [
            name,
            names.write(
                lambda file: out / "filter" / f"{file}.pf_filter",
                encode([name, [[value, values[name][value]] for value in sorted(values[name])]]),
            ),
        ]
        for name in sorted(values)
    ]


def merge_part(bundle: Path, pieces: list[Path], record_sites: Path) -> None:
    """Merge ``pieces`` into ``bundle``; pieces in a format the merge was not written
    for are not merged: Pagefind indexes their records (``record_sites``/piece) whole."""
    if mergeable(pieces):
        replace_whole(bundle, lambda fresh: merge_bundles(pieces, fresh))
    else:
        index_whole(bundle, [record_sites / piece.name for piece in pieces])


def connect(app: Sphinx, steps: Steps) -> None:
    # Here, not at the top: the merge job (``main``) runs without Sphinx.
    from juju_radar.sphinx_ext.outputs.search import SEARCH_MERGER

    app.connect(SEARCH_MERGER, lambda _app: MERGER)


# Up to this many pages, a merge runs in the build's process: the seed site's parts merge
# in 7 ms there, and in 50 ms in a process of their own, most of it starting Python. A
# merge takes about 1.5 ms a page, so this is at most about 0.15 s of the build's thread.
MERGED_HERE_UP_TO = 100


def merges_here(pieces: list[Path]) -> bool:
    try:
        pages = sum(len(os.listdir(piece / "fragment")) for piece in pieces)
    except OSError:  # its process reports what is wrong with the pieces
        return False
    return pages <= MERGED_HERE_UP_TO


MERGER = Merger(
    command=(sys.executable, "-m", __name__),
    version=source_digest(sys.modules[__name__], pagefind_bundle),
    merge=merge_part,
    merges_here=merges_here,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {__name__}")
    parser.add_argument("--record-sites", type=Path, required=True)
    parser.add_argument("bundle", type=Path)
    parser.add_argument("pieces", type=Path, nargs="+")
    args = parser.parse_args(argv)
    merge_part(args.bundle, args.pieces, args.record_sites)
    return 0


if __name__ == "__main__":
    sys.exit(main())
