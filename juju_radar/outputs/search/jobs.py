"""The search index's heavy steps, run two at a time.

Indexing a piece or a part whole is Pagefind's process: ``run_job`` runs such a step in
the calling thread, which holds the interpreter lock only to start Pagefind and put its
bundle in place. Merging pieces into a part (the acceleration ``accel.search_merge``) is
pure Python, so it is a process of its own (``merger_step``): in a thread it would share
one core and keep its memory in the build's process, which holds the whole environment.
A merge of a few pages is the exception (``merge_step``): it costs less than the process
it would start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from juju_radar.outputs.search.bundle import bundle_is_complete, seal

# Merges ``pieces`` into ``bundle`` (``record_sites`` holds the records they were indexed from).
MergeFunction = Callable[[Path, list[Path], Path], None]


@dataclass(frozen=True)
class Merger:
    """How a part is merged from its pieces' bundles instead of indexed whole (the
    acceleration ``accel.search_merge``): a job command, run with ``--record-sites DIR
    BUNDLE PIECE...``, the version of its code, and the same merge as a function, run in
    the build's process for the pieces ``merges_here`` accepts."""

    command: tuple[str, ...]
    version: str
    merge: MergeFunction
    merges_here: Callable[[list[Path]], bool]


# In a piece's bundle, the digest of the records it was indexed from.
PIECE_STATE = "radar-records.digest"
IGNORED = shutil.ignore_patterns("*.json")


def piece_state(bundle: Path) -> str | None:
    """The digest of the records ``bundle`` holds, or None if it is missing or broken."""
    try:
        state = (bundle / PIECE_STATE).read_text(encoding="utf-8")
    except OSError:
        return None
    return state if bundle_is_complete(bundle) else None


def pagefind(record_site: Path, bundle: Path) -> None:
    """Index ``record_site`` into ``bundle`` with Pagefind's command line."""
    from juju_radar.outputs.search.records import run_pagefind

    result = run_pagefind(record_site, bundle)
    if result.returncode != 0:
        said = result.stderr.strip()
        raise RuntimeError(f"pagefind exited with {result.returncode}: {said}")


# Indexes a record site into a bundle: ``pagefind``, or the acceleration
# ``accel.pagefind_service``.
Indexer = Callable[[Path, Path], None]


def index_piece(record_site: Path, bundle: Path, state: str, index: Indexer = pagefind) -> None:
    """Index ``record_site`` (whose records' digest is ``state``) into ``bundle``, as
    Pagefind writes it: only the merge reads it, and puts its pages in a stable order.
    The bundle is written whole in a folder beside it and then put in its place, so that
    no failure leaves half of one, or one that says it holds other records."""

    def write(fresh: Path) -> None:
        index(record_site, fresh)
        (fresh / PIECE_STATE).write_text(state, encoding="utf-8")

    replace_whole(bundle, write)


def index_whole(bundle: Path, sites: list[Path], index: Indexer = pagefind) -> None:
    """Index the records of all ``sites`` at once, as one piece."""
    together = sites[0].with_name(f"{bundle.name}.whole")
    shutil.rmtree(together, ignore_errors=True)
    for site in sites:  # Pagefind reads the records (HTML), not the sites' manifests
        shutil.copytree(site, together, ignore=IGNORED, dirs_exist_ok=True, copy_function=os.link)
    try:
        replace_whole(bundle, lambda fresh: index(together, fresh))
    finally:
        shutil.rmtree(together, ignore_errors=True)


def replace_whole(bundle: Path, write: Callable[[Path], None]) -> None:
    """``write`` a new bundle in a folder beside ``bundle``, seal it, then put it in its
    place."""
    fresh = bundle.with_name(f"{bundle.name}.new")
    shutil.rmtree(fresh, ignore_errors=True)
    write(fresh)
    seal(fresh)
    shutil.rmtree(bundle, ignore_errors=True)
    fresh.rename(bundle)


# A step of the index: returns when done, raises what went wrong.
Step = Callable[[], None]


class StepFailed(Exception):
    """A step's process said why it failed (its last line, or its exit status)."""


def merger_step(command: list[str]) -> Step:
    """The merger's command as a step."""

    def run() -> None:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            said = result.stderr.strip()
            raise StepFailed(said.splitlines()[-1] if said else f"exit {result.returncode}")

    return run


def merge_step(merger: Merger, bundle: Path, pieces: list[Path], record_sites: Path) -> Step:
    """``merger`` merging ``pieces`` into ``bundle``: in this thread when they are few
    enough (``Merger.merges_here``, asked once they are indexed), else in its process."""

    def run() -> None:
        if merger.merges_here(pieces):
            merger.merge(bundle, pieces, record_sites)
            return
        bundles = [str(piece) for piece in pieces]
        merger_step([*merger.command, "--record-sites", str(record_sites), str(bundle), *bundles])()

    return run


def run_job(step: Step) -> str | None:
    """Run ``step``; None when it succeeded, else one line of what went wrong."""
    try:
        step()
    except StepFailed as failure:
        return str(failure)
    except Exception as error:  # its first line: Pagefind says what failed twice
        return f"{type(error).__name__}: {error}".splitlines()[0].strip()
    return None
