"""Headings hold inline text only: a link, image or role in a title is flattened to text.

A title holding an internal link or a ``{download}`` role crashed the table of contents
(``KeyError: 'anchorname'``). The content check refuses such a heading
(``heading-markup``, ``model.content``); whatever reaches a title anyway is reported
here, and the page builds.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from juju_radar.model.messages import _

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
