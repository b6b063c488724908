"""Read a handful of changed pages in the main process, not in a forked worker.

Sphinx reads in parallel whenever ``-j`` allows it, however few pages changed, and each
worker sends its whole environment back to the main process (20 MB at 1,000 issues):
adding one issue then spends more time pickling the environment than reading the page.
Below ``SERIAL_READ_BELOW`` pages the read is serial; writing stays parallel (Sphinx
decides that after reading, from the restored setting).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

SERIAL_READ_BELOW = 8
SAVED_PARALLEL = "_radar_parallel"


def read_few_pages_serially(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if app.parallel > 1 and len(docnames) < SERIAL_READ_BELOW:
        setattr(app, SAVED_PARALLEL, app.parallel)
        app.parallel = 1


def restore_parallel(app: Sphinx, env: BuildEnvironment) -> None:
    if hasattr(app, SAVED_PARALLEL):
        app.parallel = getattr(app, SAVED_PARALLEL)
        delattr(app, SAVED_PARALLEL)
