"""Listings of item lines written as HTML, not as nodes (``ITEM_LIST_WRITER``).

A clean build at 3,650 issues shows 81,000 item lines (three earlier items of the topic
under each story, every item again on its topic's and the best items' year pages). Built
as docutils nodes, walked by every post-transform and translated on each page, they took
about 25 s of CPU. A list is here an ``html_listing`` node holding the HTML Sphinx's
writer makes of the lines' nodes (``item_lines.line_nodes``), written directly: every
text and attribute value is escaped as the writer escapes them (``HTMLTranslator.encode``
and ``attval``), and ``check_page_html`` checks the page like any other. Its children are
the nodes of as many first lines as a reader of the page's text takes (the opengraph
description, when a site address loads it), so that text is the same too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from docutils import nodes

from juju_radar.model.archive import ItemLine
from juju_radar.model.issue_records import format_score
from juju_radar.model.vocabulary import Topic, Vocabulary
from juju_radar.sphinx_ext.item_lines import (
    ENGLISH_LABEL_CLASS,
    ITEM_LIST_WRITER,
    LIST_CLASS,
    TOPIC_CLASS,
    ItemListWriter,
    Linker,
    item_list_nodes,
)
from juju_radar.sphinx_ext.item_lines import (
    writer_text as text,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

ATTRIBUTE_WHITESPACE_RE = re.compile("[\n\r\t\v\f]")
# The attribute ``translator.RadarHTMLTranslator`` gives a listing Pagefind leaves out.
# The list is never inside another list, so docutils calls it "simple".
LIST_START = f'<ul class="{LIST_CLASS} simple" data-pagefind-ignore="">\n'


class html_listing(nodes.General, nodes.Element):  # noqa: N801 (docutils naming)
    """A listing the HTML writer writes as its ``html``, skipping its children: the nodes
    of its first lines, for readers of the page's text."""


def visit_html_listing(translator: Any, node: html_listing) -> None:
    translator.body.append(node["html"])
    raise nodes.SkipNode


def depart_html_listing(translator: Any, node: html_listing) -> None:
    pass  # never reached: the visit skips the node


def connect(app: Sphinx, steps: Steps) -> None:
    app.add_node(html_listing, html=(visit_html_listing, depart_html_listing))
    app.connect(ITEM_LIST_WRITER, writer)


def writer(app: Sphinx) -> ItemListWriter:
    return item_list_html


def attribute(value: str) -> str:
    return text(ATTRIBUTE_WHITESPACE_RE.sub(" ", value))


def link(uri: str, content: str, classes: str = "") -> str:
    """An internal reference: its classes, then Sphinx's; an empty URI is the page."""
    return (
        f'<a class="{attribute(f"{classes} reference internal".lstrip())}" '
        f'href="{attribute(uri or "#")}">{content}</a>'
    )


def topic_label(topic: Topic) -> str:
    """``topic_name``: the label, and the English label beside it (read as English)."""
    english = (
        f'<span class="{ENGLISH_LABEL_CLASS}" lang="en">{text(f" {topic.english_beside}")}</span>'
        if topic.english_beside
        else ""
    )
    return f'<span class="{TOPIC_CLASS}">{text(topic.label)}{english}</span>'


def line_html(line: ItemLine, vocabulary: Vocabulary, uri: Linker, with_date: bool) -> str:
    """``line_nodes`` as the writer writes them in a list item."""
    topic = vocabulary.topic_by_key(line.topic)
    verdict = vocabulary.verdict_by_key(line.verdict)
    date = f"{link(uri(line.docname, ''), text(line.date), 'radar-date')} · " if with_date else ""
    tags = "".join(f' <span class="radar-tag">{text(tag)}</span>' for tag in line.tags)
    return (
        f'<li><p class="radar-item-line">{date}'
        f"{link(uri(line.docname, line.item_id), text(line.heading), 'radar-item-title')} · "
        f"{link(uri(f'topics/{topic.key}', ''), topic_label(topic))}"
        f" · {text(format_score(line.score))}/10｜"
        f'<span class="{attribute(f"radar-verdict radar-verdict-{verdict.key}")}">'
        f"{text(verdict.label)}</span>{tags}</p></li>\n"
    )


def item_list_html(
    lines: Iterable[ItemLine],
    vocabulary: Vocabulary,
    uri: Linker,
    with_date: bool,
    text_read: int = 0,
) -> html_listing | None:
    """The list, or None when there is no item. ``text_read``: how much of a page's text
    its readers take (0: none reads it), which the nodes of the first lines must hold."""
    lines = list(lines)
    if not lines:
        return None
    written = "".join(line_html(line, vocabulary, uri, with_date) for line in lines)
    listing = html_listing("", html=f"{LIST_START}{written}</ul>\n")
    if text_read:
        readable = item_list_nodes(lines, vocabulary, uri, with_date, until=text_read)
        listing += readable or []
    return listing
