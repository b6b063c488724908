"""The book theme's page description, without reading the whole page.

sphinx-book-theme's ``add_metadata_to_page`` sets ``page_description`` to the first 160
characters of the text of every section, nested ones again inside their parents: on an
issue page that is the page's text several times over (5 s of writing 3,650 issues for
160 characters). Its handler runs here without the doctree, and the description is the
same 160 characters, read section by section only until there are enough.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

DESCRIPTION_LENGTH = 160  # the theme's


def page_description(doctree: nodes.Node) -> str:
    """What the theme writes: the sections' texts in document order, cut at 160."""
    description = ""
    for section in doctree.findall(nodes.section):
        description += section.astext().replace("\n", " ")
        if len(description) >= DESCRIPTION_LENGTH:
            break
    return description[:DESCRIPTION_LENGTH]


def describing_briefly(theme_handler: Any) -> Any:
    def add_metadata(
        app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
    ) -> None:
        theme_handler(app, pagename, templatename, context, None)
        if doctree:
            context["page_description"] = page_description(doctree)

    return add_metadata


def replace_theme_handler(app: Sphinx) -> None:
    """Once the theme connected its handler (it is an extension set up before ours)."""
    from sphinx_book_theme import add_metadata_to_page

    listeners = app.events.listeners["html-page-context"]
    for index, listener in enumerate(listeners):
        if listener.handler is add_metadata_to_page:
            listeners[index] = listener._replace(handler=describing_briefly(listener.handler))


def connect(app: Sphinx, steps: Steps) -> None:
    steps.offer("replace-theme-description", replace_theme_handler)
