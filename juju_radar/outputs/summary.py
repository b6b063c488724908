"""What a quiet ``make html`` says once the site is built: what changed, what the site
holds, and what editors still have to complete. Sphinx's own progress is for ``-v``
(``RADAR_VERBOSE=1``); warnings and errors are always printed, with their file and line.

The build writes these lines to ``SUMMARY`` in its doctree folder; the staged build
(``build.staged``) prints them after publishing, above the line saying where the site is.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model.issues import is_issue_path

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

SUMMARY = "radar-summary.txt"
CHANGES = "_radar_changes"
BARE_ENTRIES = "_radar_bare_entries"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def note_changes(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    setattr(app, CHANGES, (set(added), set(changed), set(removed)))
    return []


def note_bare_entries(app: Sphinx, name: str, count: int) -> None:
    """``count`` entries of the .bib file ``name`` have no identifier yet."""
    counts: dict[str, int] = getattr(app, BARE_ENTRIES, {})
    setattr(app, BARE_ENTRIES, {**counts, name: count})


def changes_line(app: Sphinx) -> str:
    added: set[str]
    changed: set[str]
    removed: set[str]
    added, changed, removed = getattr(app, CHANGES, (set(), set(), set()))
    if not (added or changed or removed):
        return "Nothing changed since the last build."
    kinds: list[tuple[set[str], str]] = [(added, "added"), (changed, "changed")]
    kinds.append((removed, "removed"))
    issues = [
        plural(len([doc for doc in docs if is_issue_path(doc)]), "issue") + f" {what}"
        for docs, what in kinds
        if any(is_issue_path(doc) for doc in docs)
    ]
    pages = plural(len(added | changed), "page") + " read"
    return f"{pages}: {', '.join(issues)}." if issues else f"{pages}."


def summary_lines(app: Sphinx, holdings: str) -> list[str]:
    lines = [changes_line(app), holdings]
    for name, count in sorted(getattr(app, BARE_ENTRIES, {}).items()):
        lines.append(
            f"{name}: {count} {'entry' if count == 1 else 'entries'} without a "
            "DOI/URL/arXiv id/ISBN yet (`radar refs missing` lists them)."
        )
    return lines


def write_summary(app: Sphinx, holdings: str) -> None:
    Path(app.doctreedir, SUMMARY).write_text("\n".join(summary_lines(app, holdings)) + "\n")
