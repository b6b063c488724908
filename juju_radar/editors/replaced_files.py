"""Nothing an editor wrote is lost: what ``radar`` wrote, and what it replaces.

``radar`` notes the SHA-256 of every page it writes (``radar import``, ``radar new``) in
``_build/radar-written.json``, by path. A page whose bytes are not the ones noted was
edited by hand since, or written before radar kept a note (a fresh clone, ``rm -rf
_build``): ``--force`` alone does not replace it; ``--discard-edits`` does. Whatever a
command replaces (a page, or ``references.bib`` that ``radar refs`` rewrites) is first
copied to ``_build/replaced/<UTC time>/<its path>``, and the command prints where and the
difference.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from juju_radar.editors.site_files import Site, atomic_write
from juju_radar.model.messages import _

WRITTEN = Path("_build") / "radar-written.json"
REPLACED = Path("_build") / "replaced"


def text_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def edited_message(relative: str) -> str:
    """Why ``--force`` alone does not replace the page at ``relative``."""
    return _(
        "{path} differs from what radar wrote there (edited by hand, or written before "
        "radar kept a note of it): pass --discard-edits with --force to replace it (its "
        "text is then kept under _build/replaced/)"
    ).format(path=relative)


@dataclass
class Replacement:
    relative: str
    kept: Path  # the copy of the replaced text
    old: str
    new: str


@dataclass
class Replacements:
    """One command's record of what radar wrote and of what it replaced."""

    site: Site
    stamp: str = field(default_factory=lambda: dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ"))
    written: dict[str, str] = field(default_factory=dict)
    replaced: list[Replacement] = field(default_factory=list)

    def __post_init__(self) -> None:
        try:
            loaded = json.loads((self.site.root / WRITTEN).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        if isinstance(loaded, dict):
            self.written = {str(k): str(v) for k, v in loaded.items()}

    def edited(self, target: Path) -> bool:
        """Whether the file at ``target`` holds text radar did not write there last."""
        if not target.exists():
            return False
        try:
            data = target.read_bytes()
        except OSError:
            return True
        return self.written.get(self.site.relative(target)) != text_digest(data)

    def keep(self, target: Path, new_text: str) -> None:
        """Copy the file ``new_text`` is about to replace (when it differs) under
        ``_build/replaced/``."""
        try:
            data = target.read_bytes()
        except OSError:
            return
        if data == new_text.encode("utf-8"):
            return
        relative = self.site.relative(target)
        kept = self.site.root / REPLACED / self.stamp / relative
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(target, kept)
        old = data.decode("utf-8", errors="replace")
        self.replaced.append(Replacement(relative, kept, old, new_text))

    def wrote(self, target: Path, text: str) -> None:
        self.written[self.site.relative(target)] = text_digest(text.encode("utf-8"))

    def save(self) -> None:
        # Unsaved, the next --force asks for --discard-edits: nothing is lost.
        with contextlib.suppress(OSError):
            text = json.dumps(self.written, indent=1, sort_keys=True)
            atomic_write(self.site.root / WRITTEN, text)

    def show(self, out: TextIO) -> None:
        """Where each replaced text is kept, and what changed."""
        for each in self.replaced:
            kept = each.kept.relative_to(self.site.root).as_posix()
            print(
                _("{path}: replaced; its former text is kept in {kept}").format(
                    path=each.relative, kept=kept
                ),
                file=out,
            )
            lines = difflib.unified_diff(
                each.old.splitlines(keepends=True),
                each.new.splitlines(keepends=True),
                fromfile=kept,
                tofile=each.relative,
            )
            out.writelines(line if line.endswith("\n") else line + "\n" for line in lines)
