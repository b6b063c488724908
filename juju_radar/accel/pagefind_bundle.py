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

SIGNATURE = b"pagefind_dcd"
ENTRY_FILE = "pagefind-entry.json"
DATA_FOLDERS = ("fragment", "index", "filter")
META_PREFIX, META_SUFFIX = "pagefind.", ".pf_meta"


def read_data(path: Path) -> Any:
    """A Pagefind data file: ``pagefind_dcd`` + CBOR, gzip-compressed. In a bundle's
    metadata, ``[1]`` lists the pages (fragment hash, word count), ``[2]`` the word-index
    chunks and ``[3]`` the filters."""
    data = gzip.decompress(path.read_bytes())
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path} is not a Pagefind data file")
    return cbor2.loads(data[len(SIGNATURE) :])


def meta_file(meta_hash: str) -> str:
    """The name of a bundle's metadata file for one language."""
    return f"{META_PREFIX}{meta_hash}{META_SUFFIX}"


def referenced_files(bundle: Path) -> set[str] | None:
    """Every file the bundle's entry and metadata reference, by its name in the bundle,
    or None if one is missing. Names, not paths: a part has 20,000 files."""
    entry_path = bundle / ENTRY_FILE
    if not entry_path.is_file():
        return None
    live = {ENTRY_FILE}
    for details in json.loads(entry_path.read_text(encoding="utf-8"))["languages"].values():
        meta_name = meta_file(details["hash"])
        if not (bundle / meta_name).is_file():
            return None
        meta = read_data(bundle / meta_name)
        live.add(meta_name)
        live.update(f"fragment/{page_hash}.pf_fragment" for page_hash, *_ in meta[1])
        live.update(f"index/{chunk[-1]}.pf_index" for chunk in meta[2])
        live.update(f"filter/{filter_hash}.pf_filter" for _, filter_hash in meta[3])
    return live


def data_files(bundle: Path) -> set[str]:
    """The bundle's metadata and data files, by name, in one listing of each folder."""
    data = {
        name
        for name in os.listdir(bundle)
        if name.startswith(META_PREFIX)
        and name.endswith(META_SUFFIX)
        and len(name) >= len(META_PREFIX) + len(META_SUFFIX)
    }
    for folder in DATA_FOLDERS:
        if (bundle / folder).is_dir():
            data.update(f"{folder}/{name}" for name in os.listdir(bundle / folder))
    return data


def references_are_whole(bundle: Path) -> bool:
    """Every file the bundle references exists, and it has no data file it does not
    reference: what the merge must write."""
    try:
        live = referenced_files(bundle)
    except (OSError, ValueError, KeyError, IndexError):
        return False
    return live is not None and data_files(bundle) | {ENTRY_FILE} == live


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
