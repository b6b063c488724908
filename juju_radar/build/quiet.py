"""Build output that says what matters: noise from Sphinx and MyST left out.

Dropped, by logging filters on Sphinx's console handlers:

- MyST-Parser's dump of its whole configuration ("myst v5.2.0: MdParserConfig(...)") at
  the start of every build;
- Sphinx's "Writing evaluated template result to …" for each static template, which names
  the build tree the staged build writes into (``_build/trees/…``), not the site.

Warnings and errors are never dropped.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from sphinx.util.console import strip_colors

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SPHINX_LOGGER = "sphinx"
MYST_LOGGER = "sphinx.myst_parser"
MYST_CONFIG_DUMP = "myst v"


class NoiseFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        if getattr(record, "subtype", None) == "template_evaluation":
            return False
        # Bold when the console takes colour (a terminal, or FORCE_COLOR as CI sets it).
        message = strip_colors(str(record.msg))
        return not (record.name.startswith(MYST_LOGGER) and message.startswith(MYST_CONFIG_DUMP))


def quiet_console(app: Sphinx) -> None:
    """Filter Sphinx's handlers (set up anew by each Sphinx application, before any
    extension's setup)."""
    for handler in logging.getLogger(SPHINX_LOGGER).handlers:
        if not any(isinstance(existing, NoiseFilter) for existing in handler.filters):
            handler.addFilter(NoiseFilter())
