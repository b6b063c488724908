"""What a quiet ``make html`` says once the site is built: what changed, what the site
holds, what editors still have to complete, and what the build left out (the outputs that
need the site's address, when it has none). Sphinx's own progress is for ``-v``
(``RADAR_VERBOSE=1``); warnings and errors are always printed, with their file and line.

The build writes these lines to ``SUMMARY`` in its doctree folder; the staged build
(``build.staged``) prints them after publishing, above the line saying where the site is.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model.issue_records import is_issue_path
from juju_radar.model.messages import N_, _, ngettext
from juju_radar.store.build_state import build_state

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

SUMMARY = "radar-summary.txt"


def note_changes(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    build_state(app).changes = (set(added), set(changed), set(removed))
    return []


def note_bare_entries(app: Sphinx, name: str, count: int) -> None:
    """``count`` entries of the .bib file ``name`` have no identifier yet."""
    state = build_state(app)
    state.bare_entries = {**state.bare_entries, name: count}


def changes_line(app: Sphinx) -> str:
    added, changed, removed = build_state(app).changes
    if not (added or changed or removed):
        return _("Nothing changed since the last build.")
    pages = len(added | changed)
    issues = issue_changes(issue_count(added), issue_count(changed), issue_count(removed))
    if not issues:
        return ngettext("{count} page read.", "{count} pages read.", pages).format(count=pages)
    return ngettext("{count} page read: {issues}.", "{count} pages read: {issues}.", pages).format(
        count=pages, issues=issues
    )


def issue_count(docs: set[str]) -> int:
    return len([doc for doc in docs if is_issue_path(doc)])


# Each kind of change: its message first in a list, and after another (with the
# separator a translation gives it).
ISSUE_CHANGES = (
    (
        (N_("{count} issue added"), N_("{count} issues added")),
        (N_(", {count} issue added"), N_(", {count} issues added")),
    ),
    (
        (N_("{count} issue changed"), N_("{count} issues changed")),
        (N_(", {count} issue changed"), N_(", {count} issues changed")),
    ),
    (
        (N_("{count} issue removed"), N_("{count} issues removed")),
        (N_(", {count} issue removed"), N_(", {count} issues removed")),
    ),
)


def issue_changes(added: int, changed: int, removed: int) -> str:
    """The issues added, changed and removed, those there are, in a list."""
    said = ""
    for count, (first, after) in zip((added, changed, removed), ISSUE_CHANGES, strict=True):
        if count:
            singular, plural = after if said else first
            said += ngettext(singular, plural, count).format(count=count)
    return said


def summary_lines(app: Sphinx, holdings: str, left_out: list[str]) -> list[str]:
    lines = [changes_line(app), holdings]
    for name, count in sorted(build_state(app).bare_entries.items()):
        said = ngettext(
            "{name}: {count} entry without a DOI/URL/arXiv id/ISBN yet "
            "(`radar refs missing` lists them).",
            "{name}: {count} entries without a DOI/URL/arXiv id/ISBN yet "
            "(`radar refs missing` lists them).",
            count,
        )
        lines.append(said.format(name=name, count=count))
    return lines + left_out


def write_summary(app: Sphinx, holdings: str, left_out: list[str]) -> None:
    lines = summary_lines(app, holdings, left_out)
    Path(app.doctreedir, SUMMARY).write_text("\n".join(lines) + "\n", encoding="utf-8")
