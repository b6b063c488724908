"""Whether a search bundle is whole: every file it was written with, and no other.

Every bundle (a piece, or a part the pages load) is written in a folder of its own and
put in its place whole (``jobs.replace_whole``), which then seals it: a file holding the
digest of the names of all the others (names, not sizes: a part has 20,000 files, and
listing a folder reads no file's size). A bundle an interrupted build or a
hand left damaged no longer matches its seal, and is made again. The seal knows nothing
of Pagefind's format (what a bundle's files reference is the merge's concern,
``accel.pagefind_bundle``).
"""

from __future__ import annotations

import os
from pathlib import Path

from juju_radar.store.cache import digest

SEAL = "radar-files.seal"


def files_digest(bundle: Path) -> str:
    """The digest of every file's name (relative to ``bundle``), but the seal's."""
    root = str(bundle)
    files = [
        name if folder == root else f"{folder[len(root) + 1 :]}{os.sep}{name}"
        for folder, _, names in os.walk(root)
        for name in names
    ]
    return digest(*sorted(name for name in files if name != SEAL))


def seal(bundle: Path) -> None:
    (bundle / SEAL).write_text(files_digest(bundle), encoding="utf-8")


def bundle_is_complete(bundle: Path) -> bool:
    """The bundle exists, and holds the files it was sealed with, and no other."""
    try:
        return (bundle / SEAL).read_text(encoding="utf-8") == files_digest(bundle)
    except OSError:
        return False
