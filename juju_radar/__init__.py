"""Juju Radar archive: the Sphinx extension and the editors' command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__version__ = "0.1.0"


def setup(app: Sphinx) -> dict[str, Any]:
    from juju_radar.extension import setup_extension

    setup_extension(app)
    return {
        "version": __version__,
        # Raise it when what pages show changes, or the model's classes that the
        # environment pickles: Sphinx then reads and rebuilds every page once.
        "env_version": 8,  # 8: EntityData.frame, totals, touched (partial entity pages)
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
