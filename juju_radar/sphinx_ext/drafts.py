"""Drafts stay private: a draft issue is left out of the build entirely (no page, no
file, no entry in any index), unless ``radar_build_drafts`` is on. ``radar serve`` sets
it, so editors preview their drafts; ``make html`` and the deploy never build them.

Which issues are drafts is known before Sphinx reads a page, from each issue's facts
(``paging.note_drafts_ahead``). They are taken out of ``env.found_docs`` on
``env-get-outdated``: a draft never read, and a page published before and now a draft
again removed like a deleted page (its output goes with it, ``build.stale_outputs``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from juju_radar.sphinx_ext.preview import is_preview
from juju_radar.store.build_state import build_state

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment


def builds_drafts(config: Config) -> bool:
    return bool(config.radar_build_drafts) or is_preview(config)


def note_drafts(app: Sphinx, paths: set[str]) -> None:
    """The draft issues, by their path from the source folder."""
    build_state(app).drafts = {path.removesuffix(".md") for path in paths}


def drafts_left_out(app: Sphinx) -> int:
    return 0 if builds_drafts(app.config) else len(build_state(app).drafts)


def leave_out_drafts(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    if builds_drafts(app.config):
        return []
    drafts = build_state(app).drafts & env.found_docs
    env.found_docs.difference_update(drafts)
    added -= drafts
    changed -= drafts
    removed |= drafts & env.all_docs.keys()
    return []
