"""Output files written only when their content changes."""

from __future__ import annotations

from pathlib import Path


def write_if_changed(path: Path, text: str) -> None:
    """Rewriting a file costs ~100 times reading it on the build machines' file system,
    and most outputs of an incremental build come out as they were."""
    encoded = text.encode("utf-8")
    try:
        if path.read_bytes() == encoded:
            return
    except OSError:
        pass
    path.write_bytes(encoded)
