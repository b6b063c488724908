"""Per-issue downloads written beside each issue page: the ``.bib`` of what it cites."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .bibcheck import bib_entry_texts
from .collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx


@lru_cache(maxsize=4)
def _entries(path: str, mtime_ns: int, size: int) -> dict[str, str]:
    return bib_entry_texts(Path(path).read_text(encoding="utf-8"))


def bib_entries(app: Sphinx) -> dict[str, str]:
    entries: dict[str, str] = {}
    for name in app.config.bibtex_bibfiles or ():
        path = Path(app.srcdir, name)
        stat = path.stat()
        entries |= _entries(str(path), stat.st_mtime_ns, stat.st_size)
    return entries


def write_issue_bib(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    issue = radar_data(app.env).issues.get(pagename)
    if issue is None or app.builder.format != "html":
        return
    keys = dict.fromkeys(key for item in issue.items for key in item.citation_keys)
    if not keys:
        return
    entries = bib_entries(app)
    text = "\n".join(entries[key] for key in keys if key in entries)
    target = Path(app.outdir, f"{pagename}.bib")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
