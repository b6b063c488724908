"""Headings hold inline text only: a link, image or role in a title is flattened to text;
and a heading's line never breaks inside a Chinese word.

A title holding an internal link or a ``{download}`` role crashed the table of contents
(``KeyError: 'anchorname'``). The content check refuses such a heading
(``heading-markup``, ``model.content``); whatever reaches a title anyway is reported
here, and the page builds.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from juju_radar.model.messages import _
from juju_radar.model.segmentation import unbreakable_words

logger = logging.getLogger(__name__)

NOT_TEXT = (
    nodes.reference,
    nodes.image,
    nodes.raw,
    addnodes.pending_xref,
    addnodes.download_reference,
)


class FlattenHeadings(SphinxTransform):
    default_priority = 200  # before the collectors read the titles

    def apply(self, **kwargs: object) -> None:
        for title in list(self.document.findall(nodes.title)):
            markup = [node for node in title.findall() if isinstance(node, NOT_TEXT)]
            for node in markup:
                if node.parent is not None:
                    node.replace_self(nodes.Text(node.astext()))
            if markup:
                logger.error(
                    _("a heading holds text only: move the link, image or role into a paragraph"),
                    location=title,
                    type="radar",
                    subtype="heading-markup",
                )


WORD_CLASS = "radar-word"  # white-space: nowrap (radar.css)


class WholeWordsInHeadings(SphinxPostTransform):
    """Each Chinese word of a section title (the site's segmentation, as the search
    index cuts it) becomes a ``<span class="radar-word">`` the browser does not break
    inside: a phone wrapped an issue's title inside 客服. Done when the page is written,
    so the table of contents and the page's title keep the plain text."""

    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs: object) -> None:
        for title in list(self.document.findall(nodes.title)):
            if isinstance(title.parent, nodes.section):
                for text in list(title.findall(nodes.Text)):
                    text.parent.replace(text, word_nodes(str(text)))


def word_nodes(text: str) -> list[nodes.Node]:
    return [
        nodes.inline(run, run, classes=[WORD_CLASS]) if whole else nodes.Text(run)
        for run, whole in unbreakable_words(text)
    ]
