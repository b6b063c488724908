"""Refuse, before anything is written, interface translations that hold markup
(``model.translations``): Sphinx has loaded them already, and the theme would print them
into every page."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model.translations import check_translations
from juju_radar.sphinx_ext.collector import warn
from juju_radar.sphinx_ext.content import EXIT_REFUSED

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def refuse_unsafe_translations(app: Sphinx) -> None:
    """Name each problem at its file and line, then stop the build."""
    if not app.config.language:
        return
    root = Path(app.srcdir)
    problems = check_translations(root, app.config.locale_dirs, app.config.language)
    for problem in problems:
        warn(problem, f"{root / problem.path}:{problem.line}")
    if problems:
        raise SystemExit(EXIT_REFUSED)
