"""Writing Pagefind bundles, for the merge (``accel.search_merge``): encoding, file names
from content hashes, and the pages in a stable order.

Pagefind 1.5.2 writes its filter values and the filter list in hash-map order, which
changes from run to run; since chunk names are content hashes, so do the file names,
the metadata file and ``pagefind-entry.json``. It also numbers pages in the order the
file system lists them, so the word index and the filters change with the directory
order (on tmpfs, the order files were created in).
The merge, which writes every bundle the site publishes, renumbers the pages by their
fragment's content hash (``page_numbers_by_content``) and writes every file in sorted
order with names hashed from its content, so two builds of the same records give the
same bundle on any file system. An index chunk lists words with their pages, each page
number given as the difference from the previous one (``renumbered``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from typing import Any

import cbor2

from juju_radar.outputs.search.bundle import ENTRY_FILE, SIGNATURE, meta_file, read_data


def encode(value: Any, level: int = 9) -> bytes:
    return gzip.compress(SIGNATURE + cbor2.dumps(value), compresslevel=level, mtime=0)


def bundle_language(entry: dict[str, Any]) -> str:
    """The one language of a bundle's ``pagefind-entry.json`` (the records set one)."""
    languages = list(entry["languages"])
    if len(languages) != 1:
        raise ValueError(f"a bundle of one language was expected, not {languages}")
    return languages[0]


def read_meta(bundle: Path) -> tuple[dict[str, Any], str, list[Any]]:
    """A bundle's entry, its language and its metadata (which must hold no sort data)."""
    entry = json.loads((bundle / ENTRY_FILE).read_text(encoding="utf-8"))
    language = bundle_language(entry)
    meta = read_data(bundle / meta_file(entry["languages"][language]["hash"]))
    if meta[4]:
        raise ValueError(f"{bundle}: page sort data is not supported")
    return entry, language, meta


class HashedNames:
    """Names of data files from their content's hash, as Pagefind names them: the
    language, then the first ``length`` hex digits, one more for each name taken."""

    def __init__(self, language: str, length: int) -> None:
        self.language = language
        self.length = length
        self.used: set[str] = set()

    def name(self, content: bytes) -> str:
        full = hashlib.sha256(content).hexdigest()
        length = self.length
        while f"{self.language}_{full[:length]}" in self.used and length < len(full):
            length += 1
        name = f"{self.language}_{full[:length]}"
        self.used.add(name)
        return name

    def write(self, path_of: Callable[[str], Path], content: bytes) -> str:
        name = self.name(content)
        path_of(name).write_bytes(content)
        return name

    def link(self, path_of: Callable[[str], Path], source: Path) -> str:
        """Name ``source``'s content and link it in under that name: a hard link where
        the file system allows (bundles are written whole, never in place), else a copy."""
        name = self.name(source.read_bytes())
        try:
            os.link(source, path_of(name))
        except OSError:
            shutil.copyfile(source, path_of(name))
        return name


def page_numbers_by_content(pages: list[list[Any]]) -> list[int]:
    """Old page number -> new one, the pages ordered by their fragment's hash."""
    order = sorted(range(len(pages)), key=lambda number: pages[number][0])
    renumber = [0] * len(pages)
    for new, old in enumerate(order):
        renumber[old] = new
    return renumber


def renumbered(entries: list[list[Any]], renumber: list[int]) -> list[list[Any]]:
    """A delta-encoded page list, its pages renumbered and in order again."""
    absolute, page = [], 0
    for entry in entries:
        page += entry[0]
        absolute.append([renumber[page], *entry[1:]])
    absolute.sort(key=itemgetter(0))
    previous = 0
    for entry in absolute:
        entry[0], previous = entry[0] - previous, entry[0]
    return absolute
