"""The site navigation rendered once per folder, not once per page (an acceleration,
``accel/register.py``, ``toctree-once-per-folder``).

pydata-sphinx-theme gives each page's context a ``generate_toctree_html`` function that
renders the whole navigation and parses it again with BeautifulSoup; the name of that
context entry and what its arguments mean are the theme's, not documented API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

TOCTREE_FUNCTION = "generate_toctree_html"
CACHE_ATTRIBUTE = "radar_toctree_html"
# Set in the context of a generated page that no toctree lists (the entity pages).
SHARED_GENERATED = "radar_generated"


def reset_shared_toctrees(app: Sphinx, env: Any) -> None:
    """Each build starts with none (the toctree may have changed)."""
    setattr(app.builder, CACHE_ATTRIBUTE, {})


def share_toctree_html(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The theme renders the whole site navigation for every page and parses it again with
    BeautifulSoup (~6 ms a page, more as the period pages add up). A page that no toctree
    lists (every issue page, story page and entity page) marks nothing in it, so its
    navigation differs from another such page's only by where relative links start: one
    rendering serves each folder."""
    generate = context.get(TOCTREE_FUNCTION)
    env = app.env
    # Generated pages (the 404 page's links are rewritten) and pages in a toctree keep
    # their own; the story and entity pages (no toctree can list them) share them.
    listed = pagename in env.files_to_rebuild or pagename == app.config.root_doc
    shared_page = (
        pagename in env.found_docs
        or context.get("radar_story", False)
        or context.get(SHARED_GENERATED, False)
    )
    if generate is None or not shared_page or listed:
        return
    shared = getattr(app.builder, CACHE_ATTRIBUTE, None)
    if shared is None:
        return
    folder = pagename.rpartition("/")[0]

    def generate_for_folder(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("kind", args[0] if args else None) != "sidebar":
            return generate(*args, **kwargs)  # "raw" is a BeautifulSoup tree, changed by callers
        key = (folder, args, tuple(sorted(kwargs.items())))
        if key not in shared:
            shared[key] = str(generate(*args, **kwargs))
        return shared[key]

    context[TOCTREE_FUNCTION] = generate_for_folder


def connect(app: Sphinx, steps: Steps) -> None:
    steps.offer("reset-shared-toctrees", reset_shared_toctrees)
    steps.offer("share-toctree-html", share_toctree_html)
