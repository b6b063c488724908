"""Whether the workarounds of Sphinx's internals (``sphinx_internals``) run.

They run on the Sphinx version they were written for, when every private name they use
still imports. That module is imported only here, and only then: a private name renamed
by an upgrade turns the workarounds off (one info line says why) instead of stopping the
extension from loading. Without them the build is Sphinx's own: slower, same output.
"""

from __future__ import annotations

import functools
import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING

import sphinx
from sphinx.util import logging

if TYPE_CHECKING:
    from pathlib import Path

    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

WRITTEN_FOR_SPHINX = "9.0.4"
# Set to build with Sphinx's own builder whatever the version (to compare, or to debug).
STOCK_BUILDER_ENV = "RADAR_STOCK_BUILDER"
INTERNALS = "juju_radar.build.sphinx_internals"


@functools.cache
def _imported() -> ModuleType | str:
    """The workarounds' module, or why it does not import."""
    try:
        return importlib.import_module(INTERNALS)
    except (ImportError, AttributeError) as error:
        return f"{type(error).__name__}: {error}"


def _refusal() -> str | None:
    if os.environ.get(STOCK_BUILDER_ENV):
        return f"{STOCK_BUILDER_ENV} is set"
    if sphinx.__version__ != WRITTEN_FOR_SPHINX:
        installed = sphinx.__version__
        return f"Sphinx {installed} is not {WRITTEN_FOR_SPHINX}, the version they were written for"
    imported = _imported()
    return imported if isinstance(imported, str) else None


def internals() -> ModuleType | None:
    """The workarounds, where they may run."""
    if _refusal() is not None:
        return None
    imported = _imported()
    return imported if isinstance(imported, ModuleType) else None


def fallback_notice() -> str:
    return (
        f"juju_radar: {_refusal()}: building with Sphinx's own builder, without the "
        "workarounds of its internals (slower, same output)"
    )


def connect(app: Sphinx) -> None:
    """Connect the workarounds; where they may not run, say once why."""
    module = internals()
    if module is None:
        logger.info(fallback_notice())
    else:
        module.connect(app)


def report_crashes_as_one_line(srcdir: Path) -> None:
    module = internals()
    if module is not None:
        module.report_crashes_as_one_line(srcdir)


def start_another_build(app: Sphinx) -> None:
    module = internals()
    if module is not None:
        module.start_another_build(app)
