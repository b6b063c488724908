"""Make a Pagefind bundle byte-reproducible.

Pagefind 1.5.2 writes its filter values, the filter list and the metadata field list
in hash-map order, which changes from run to run; since chunk names are content
hashes, so do the file names, the metadata file and ``pagefind-entry.json``. It also
numbers pages in the order the file system lists them, so the word index and the
filters change with the directory order (on tmpfs, the order files were created in).
This renumbers the pages by their fragment's content hash and rewrites the unstable
files in sorted order with names hashed from their new content, so two builds of the
same records give the same bundle on any file system. The files are ``pagefind_dcd`` +
CBOR, gzip-compressed. In the metadata, ``[1]`` lists the pages (fragment hash, word
count) by page number, ``[2]`` the word-index chunks and ``[3]`` the filters; an index
chunk lists words with their pages, each page number given as the difference from the
previous one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cbor2

SIGNATURE = b"pagefind_dcd"


def _read(path: Path) -> Any:
    data = gzip.decompress(path.read_bytes())
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path} is not a Pagefind data file")
    return cbor2.loads(data[len(SIGNATURE) :])


def _encode(value: Any) -> bytes:
    return gzip.compress(SIGNATURE + cbor2.dumps(value), mtime=0)


def _write_hashed(
    path_of: Callable[[str], Path], language: str, content: bytes, length: int
) -> str:
    name = f"{language}_{hashlib.sha256(content).hexdigest()[:length]}"
    path_of(name).write_bytes(content)
    return name


def canonicalize_bundle(bundle: Path) -> None:
    entry_path = bundle / "pagefind-entry.json"
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    for language, details in entry["languages"].items():
        details["hash"] = _canonical_language(bundle, language, details["hash"])
    entry_path.write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))


def _page_numbers_by_content(pages: list[list[Any]]) -> dict[int, int]:
    """Old page number -> new one, the pages ordered by their fragment's hash."""
    order = sorted(range(len(pages)), key=lambda number: pages[number][0])
    return {old: new for new, old in enumerate(order)}


def _renumber_word(entries: list[list[Any]], renumber: dict[int, int]) -> list[list[Any]]:
    absolute, page = [], 0
    for delta, *rest in entries:
        page += delta
        absolute.append([renumber[page], *rest])
    absolute.sort(key=lambda entry: entry[0])
    previous = 0
    for entry in absolute:
        entry[0], previous = entry[0] - previous, entry[0]
    return absolute


def _canonical_chunk(bundle: Path, language: str, chunk: str, renumber: dict[int, int]) -> str:
    chunk_path = bundle / "index" / f"{chunk}.pf_index"
    words, *rest = _read(chunk_path)
    chunk_path.unlink()
    for word in words:
        word[1] = _renumber_word(word[1], renumber)
    content = _encode([words, *rest])
    return _write_hashed(lambda name: bundle / "index" / f"{name}.pf_index", language, content, 7)


def _canonical_language(bundle: Path, language: str, meta_hash: str) -> str:
    meta_path = bundle / f"pagefind.{meta_hash}.pf_meta"
    meta = _read(meta_path)
    if meta[4]:
        raise ValueError(f"{meta_path}: page sort data is not supported")
    renumber = _page_numbers_by_content(meta[1])
    meta[1] = sorted(meta[1], key=lambda page: page[0])
    meta[2] = [
        [*bounds, _canonical_chunk(bundle, language, chunk, renumber)] for *bounds, chunk in meta[2]
    ]
    filters = []
    for name, filter_hash in meta[3]:
        filter_path = bundle / "filter" / f"{filter_hash}.pf_filter"
        filter_name, values = _read(filter_path)
        filter_path.unlink()
        values = [[value, sorted(renumber[page] for page in pages)] for value, pages in values]
        content = _encode([filter_name, sorted(values, key=lambda value: value[0])])
        filter_file = _write_hashed(
            lambda name: bundle / "filter" / f"{name}.pf_filter", language, content, 7
        )
        filters.append([name, filter_file])
    meta[3] = sorted(filters)
    meta[5] = sorted(meta[5])
    meta_path.unlink()
    return _write_hashed(
        lambda name: bundle / f"pagefind.{name}.pf_meta", language, _encode(meta), 13
    )


def _live_files(bundle: Path) -> set[Path] | None:
    """Every data file the bundle's entry and metadata reference, or None if one is missing."""
    entry_path = bundle / "pagefind-entry.json"
    if not entry_path.is_file():
        return None
    live = {entry_path}
    for details in json.loads(entry_path.read_text(encoding="utf-8"))["languages"].values():
        meta_path = bundle / f"pagefind.{details['hash']}.pf_meta"
        if not meta_path.is_file():
            return None
        meta = _read(meta_path)
        live.add(meta_path)
        live |= {bundle / "fragment" / f"{page_hash}.pf_fragment" for page_hash, *_ in meta[1]}
        live |= {bundle / "index" / f"{chunk[-1]}.pf_index" for chunk in meta[2]}
        live |= {bundle / "filter" / f"{filter_hash}.pf_filter" for _, filter_hash in meta[3]}
    return live


def _data_files(bundle: Path) -> set[Path]:
    data = set(bundle.glob("pagefind.*.pf_meta"))
    for folder in ("fragment", "index", "filter"):
        if (bundle / folder).is_dir():
            data |= set((bundle / folder).iterdir())
    return data


def remove_unreferenced_files(bundle: Path) -> None:
    """Delete the data files of earlier indexes that the current bundle does not use."""
    live = _live_files(bundle)
    if live is None:
        raise ValueError(f"{bundle} is not a complete Pagefind bundle")
    for path in _data_files(bundle) - live:
        path.unlink()


def bundle_is_complete(bundle: Path) -> bool:
    """The bundle exists, every file it references exists, and it has no stray data file."""
    try:
        live = _live_files(bundle)
    except (OSError, ValueError, KeyError, IndexError):
        return False
    # One listing of each folder, not a look-up of each of its thousands of files.
    return live is not None and _data_files(bundle) | {bundle / "pagefind-entry.json"} == live
