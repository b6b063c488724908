"""The front page's body under its title, rendered from its view model.

``index.md`` stays the root document (Sphinx needs one) and holds the archive's title,
its one line and the ``{radar-front}`` placeholder; the placeholder becomes the front
page's view model (``model.listing_views.FrontPage``) rendered through
``theme/templates/radar/front-page.html``, as the period pages' bodies are
(``listing_pages.body_templates``). Its page is rewritten when the view model changes
(the collector's listing digests), so an incremental build equals a clean one.
"""

from __future__ import annotations

from docutils import nodes
from markupsafe import Markup

from juju_radar.model.issue_records import format_score
from juju_radar.model.listing_views import FrontPage
from juju_radar.model.segmentation import unbreakable_words
from juju_radar.model.story_pages import story_pagename
from juju_radar.outputs.feeds import ALL_FEED, feed_path
from juju_radar.sphinx_ext.headings import WORD_CLASS
from juju_radar.sphinx_ext.item_lines import writer_text
from juju_radar.sphinx_ext.listing_pages import body_templates
from juju_radar.sphinx_ext.nodes import radar_placeholder
from juju_radar.sphinx_ext.render import SUBSCRIBE_PAGE, RenderContext

FRONT_TEMPLATE = "front-page.html"


def whole_words(text: str) -> Markup:
    """``text`` escaped, each Chinese word of two or more characters in a span a line
    never breaks inside (as ``headings.word_nodes`` marks the page's own headings)."""
    return Markup("").join(
        Markup(f'<span class="{WORD_CLASS}">{writer_text(run)}</span>')
        if whole
        else Markup(writer_text(run))
        for run, whole in unbreakable_words(text)
    )


def front_page_html(context: RenderContext, view: FrontPage) -> str:
    return (
        body_templates()
        .get_template(FRONT_TEMPLATE)
        .render(
            view=view,
            link=context.link,
            vocabulary=context.vocabulary,
            format_score=format_score,
            story_page=story_pagename,
            subscribe_page=SUBSCRIBE_PAGE,
            all_feed="../" * context.docname.count("/") + feed_path(ALL_FEED),
            whole_words=whole_words,
        )
    )


def render_front_page(context: RenderContext, node: radar_placeholder) -> list[nodes.Node]:
    """The ``front`` placeholder's replacement: the template's HTML."""
    view = context.listing_view(node["kind"], {})
    return [nodes.raw("", front_page_html(context, view), format="html")]
