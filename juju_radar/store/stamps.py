"""Files known by their size and time of change, listed as strings.

A build at 3,650 issues lists thousands of pages and sources to tell which changed; a
``Path`` made, resolved and sliced for each of them cost more than the stat itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from juju_radar.store.cache import SETTLED_NS


@dataclass(frozen=True, slots=True)
class StampedFile:
    relative: str  # from the listed folder, with "/"
    mtime_ns: int
    size: int

    @property
    def stamp(self) -> str:
        return f"{self.mtime_ns} {self.size}"

    def settled(self, now_ns: int) -> bool:
        """Changed further back than a clock tick: its size and time tell any change."""
        return now_ns - self.mtime_ns > SETTLED_NS


def stamped_files(
    root: Path,
    suffix: str,
    *,
    skip_folders: str = "",
    leave_out: frozenset[str] = frozenset(),
    follow_links: bool = False,
) -> list[StampedFile]:
    """The files under ``root`` whose name ends with ``suffix``, ordered by their path's
    parts (as ``sorted(root.rglob(...))``). A folder whose name starts with a character
    of ``skip_folders``, or whose path from ``root`` is in ``leave_out``, is not entered;
    a symlinked folder only with ``follow_links``. A file that cannot be stat'ed is left
    out."""
    found: list[StampedFile] = []

    def visit(folder: str, prefix: str) -> None:
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=follow_links):
                    relative = prefix + entry.name
                    if entry.name[0] not in skip_folders and relative not in leave_out:
                        visit(entry.path, f"{relative}/")
                elif entry.name.endswith(suffix):
                    stat = entry.stat()
                    found.append(StampedFile(prefix + entry.name, stat.st_mtime_ns, stat.st_size))
            except OSError:
                continue

    visit(os.fspath(root), "")
    return found
