"""Keep an incremental build equal to a clean one: outputs no longer built go too."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.bib.exchange import ALL_DOWNLOAD_SUFFIXES
from juju_radar.sphinx_ext.listing_pages import listing_titles
from juju_radar.store.build_state import build_state

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def note_removed_docs(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    build_state(app).removed_docs = set(removed)
    return []


def remove_stale_outputs(app: Sphinx, exception: Exception | None) -> None:
    """Sphinx never deletes the page of a removed source; a clean build has none."""
    if exception is not None or app.builder.format != "html":
        return
    # Sphinx keeps the previous .buildinfo when html settings changed; a clean build has none.
    Path(app.outdir, ".buildinfo.bak").unlink(missing_ok=True)
    if not app.config.html_use_index:  # written while it was on
        Path(app.outdir, "genindex.html").unlink(missing_ok=True)
    collected = listing_titles(app)  # pages that were documents once (the period stubs)
    for docname in sorted(build_state(app).removed_docs):
        if docname in app.env.found_docs or docname in collected:
            continue
        Path(app.outdir, app.builder.get_target_uri(docname)).unlink(missing_ok=True)
        for suffix in ALL_DOWNLOAD_SUFFIXES:
            Path(app.outdir, f"{docname}{suffix}").unlink(missing_ok=True)
