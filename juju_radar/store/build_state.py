"""What the extension's steps tell one another during an application's builds: one typed
record per Sphinx application, reached by ``build_state(app)``, instead of attributes set
on the application. It lives as long as the application (a preview session's builds share
it) and is never stored: what a later build needs goes in the environment or the build
cache. A forked writer works on its own copy, as it did with attributes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary


@dataclass
class BuildState:
    # preview: after a session's first build, pages that only list the saved one wait
    deferring: bool = False
    # drafts: the draft issues, by docname, left out unless drafts are built
    drafts: set[str] = field(default_factory=set)
    # stale outputs: the pages removed since the last build, whose outputs go
    removed_docs: set[str] = field(default_factory=set)
    # summary: the pages added, changed and removed, for the build's last lines
    changes: tuple[set[str], set[str], set[str]] = field(
        default_factory=lambda: (set(), set(), set())
    )
    # summary: per .bib file, how many entries have no identifier yet
    bare_entries: dict[str, int] = field(default_factory=dict)
    # publishing: the feeds, export and sitemap being written, and the export's version
    publications: tuple[Any, str] | None = None


_STATES: WeakKeyDictionary[object, BuildState] = WeakKeyDictionary()


def build_state(app: object) -> BuildState:
    """The state of ``app``'s builds (a new one for an application not seen yet)."""
    state = _STATES.get(app)
    if state is None:
        state = _STATES[app] = BuildState()
    return state
