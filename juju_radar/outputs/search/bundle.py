"""Pagefind bundles: whether one is whole (every file it references there, no other).

A bundle's ``pagefind-entry.json`` names its metadata file per language; the metadata
lists its fragments, word-index chunks and filters. Its files are ``pagefind_dcd`` +
CBOR, gzip-compressed: in the metadata, ``[1]`` lists the pages (fragment hash, word
count), ``[2]`` the word-index chunks and ``[3]`` the filters. Reading them is how an
interrupted or damaged bundle is told from a whole one; writing them is the merge's
(the acceleration ``accel.search_merge``).
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import cbor2

SIGNATURE = b"pagefind_dcd"


def read_data(path: Path) -> Any:
    data = gzip.decompress(path.read_bytes())
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path} is not a Pagefind data file")
    return cbor2.loads(data[len(SIGNATURE) :])


ENTRY_FILE = "pagefind-entry.json"
DATA_FOLDERS = ("fragment", "index", "filter")
META_PREFIX, META_SUFFIX = "pagefind.", ".pf_meta"


def meta_file(meta_hash: str) -> str:
    """The name of a bundle's metadata file for one language."""
    return f"{META_PREFIX}{meta_hash}{META_SUFFIX}"


def _live_files(bundle: Path) -> set[str] | None:
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


def _data_files(bundle: Path) -> set[str]:
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


def remove_unreferenced_files(bundle: Path) -> None:
    """Delete the data files of earlier indexes that the current bundle does not use."""
    live = _live_files(bundle)
    if live is None:
        raise ValueError(f"{bundle} is not a complete Pagefind bundle")
    for name in sorted(_data_files(bundle) - live):
        (bundle / name).unlink()


def bundle_is_complete(bundle: Path) -> bool:
    """The bundle exists, every file it references exists, and it has no stray data file."""
    try:
        live = _live_files(bundle)
    except (OSError, ValueError, KeyError, IndexError):
        return False
    return live is not None and _data_files(bundle) | {ENTRY_FILE} == live
