"""Keep Python's cycle collector off the objects a build keeps for its whole length.

At 1,000 issues the environment holds millions of objects, and every full collection
walks all of them: 23 s of a 97 s serial build went to 32 such walks. In forked readers
and writers a walk also writes into each object's header, copying the parent's memory
page by page. The gc documentation's advice for fork without exec is to freeze what is
alive before forking; the build does so before reading and, with ``-j``, before
writing, and thaws everything when it ends, so that a process which builds again can
still free it. A serial build keeps every doctree it read in memory until the page is
written; frozen, none would be freed (1.2 GiB at 1,000 issues instead of 870 MiB).

A preview session (``build.preview``) freezes, itself, what its first build left, for as
long as the application lives: a full collection of the environment of 3,650 issues took
2 s, and came in the middle of a save every few saves.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from juju_radar.sphinx_ext.pipeline import Steps


_collection_deferred = False


def defer_collection_until_reading() -> None:
    """For a process that builds once (``sphinxbuild``): no collection until the build
    starts reading. Loading the environment and the caches of 3,650 issues made millions
    of objects and so triggered full collections (seconds), and the collection before
    freezing walked them all again (1.6 s), to find little: unpickled objects are no
    garbage. What garbage the start leaves is frozen with the rest, once."""
    global _collection_deferred
    gc.disable()
    _collection_deferred = True


def freeze_alive() -> None:
    gc.collect()  # what is garbage now would otherwise be kept while frozen
    gc.freeze()


def freeze_survivors(app: Sphinx, *args: Any) -> None:
    global _collection_deferred
    if _collection_deferred:
        gc.freeze()
        gc.enable()
        _collection_deferred = False
    else:
        freeze_alive()


def freeze_before_writers(app: Sphinx, env: BuildEnvironment) -> None:
    if app.parallel > 1:
        freeze_survivors(app)


def thaw(app: Sphinx, exception: BaseException | None) -> None:
    global _collection_deferred
    if _collection_deferred:  # a build that read nothing
        gc.enable()
        _collection_deferred = False
    gc.unfreeze()


def connect(app: Sphinx, steps: Steps) -> None:
    from juju_radar.sphinx_ext.preview import deferred_in_preview

    steps.offer("freeze-survivors", deferred_in_preview(freeze_survivors))
    steps.offer("freeze-before-writers", freeze_before_writers)
    steps.offer("thaw", deferred_in_preview(thaw))
