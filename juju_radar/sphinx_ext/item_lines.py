"""Item lines (``DATE · HEADING · TOPIC · 8.5/10｜VERDICT TAG...``) and their lists, as
docutils nodes, each line rendered from its view model (``model.archive.ItemLine``).

A writer of the lists as HTML may answer ``ITEM_LIST_WRITER`` (the acceleration
``accel.html_item_lists``): the build's output is then the same bytes (tests/test_accel.py
builds a site both ways).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from docutils import nodes

from juju_radar.model.archive import ItemLine
from juju_radar.model.issue_records import format_score
from juju_radar.model.vocabulary import Topic, Verdict, Vocabulary

# docutils' HTML writer: the characters it escapes in text and attribute values.
SPECIAL_CHARACTERS = {
    ord("&"): "&amp;",
    ord("<"): "&lt;",
    ord('"'): "&quot;",
    ord(">"): "&gt;",
    ord("@"): "&#64;",
}


def writer_text(value: str) -> str:
    """Text content, as docutils' HTML writer writes a Text node (``astext`` drops the NUL
    escapes)."""
    return (nodes.unescape(value) if "\x00" in value else value).translate(SPECIAL_CHARACTERS)


# URI of a document relative to the page being written, with an optional anchor.
Linker = Callable[[str, str], str]
ENGLISH_LABEL_CLASS = "radar-topic-en"
TOPIC_CLASS = "radar-topic"
LIST_CLASS = "radar-item-list"

# (lines, vocabulary, link, with_date, text_read) -> the list's node, or None without items.
ItemListWriter = Callable[
    [Iterable[ItemLine], Vocabulary, Linker, bool, int], "nodes.Element | None"
]
# Emitted once a page: a handler may answer with an ``ItemListWriter``.
ITEM_LIST_WRITER = "radar-item-list-writer"


# --- as nodes -----------------------------------------------------------------------


def english_label(topic: Topic) -> list[nodes.inline]:
    """The English label to show beside the topic's label, unless they are the same."""
    if not topic.english_beside:
        return []
    return [nodes.inline("", f" {topic.english_beside}", classes=[ENGLISH_LABEL_CLASS])]


def topic_name(topic: Topic) -> nodes.inline:
    """The topic's label with its English label beside it."""
    return nodes.inline("", topic.label, *english_label(topic), classes=[TOPIC_CLASS])


def verdict_name(verdict: Verdict) -> nodes.inline:
    return nodes.inline(
        "", verdict.label, classes=["radar-verdict", f"radar-verdict-{verdict.key}"]
    )


def internal_link(uri: str, text: str, classes: Iterable[str] = ()) -> nodes.reference:
    return nodes.reference("", text, refuri=uri, internal=True, classes=list(classes))


def line_nodes(
    line: ItemLine, vocabulary: Vocabulary, uri: Linker, with_date: bool
) -> nodes.paragraph:
    paragraph = nodes.paragraph(classes=["radar-item-line"])
    if with_date:
        paragraph += internal_link(uri(line.docname, ""), line.date, ["radar-date"])
        paragraph += nodes.Text(" · ")
    paragraph += internal_link(uri(line.docname, line.item_id), line.heading, ["radar-item-title"])
    paragraph += nodes.Text(" · ")
    topic = vocabulary.topic_by_key(line.topic)
    paragraph += nodes.reference(
        "", "", topic_name(topic), refuri=uri(f"topics/{topic.key}", ""), internal=True
    )
    paragraph += nodes.Text(f" · {format_score(line.score)}/10｜")
    paragraph += verdict_name(vocabulary.verdict_by_key(line.verdict))
    for tag in line.tags:
        paragraph += nodes.Text(" ")
        paragraph += nodes.inline("", tag, classes=["radar-tag"])
    return paragraph


def item_list_nodes(
    lines: Iterable[ItemLine], vocabulary: Vocabulary, uri: Linker, with_date: bool, until: int = 0
) -> nodes.bullet_list | None:
    """The list as nodes, or None when there is no item; with ``until``, only as many
    first lines as hold twice that much text (a description drops spaces around the
    separators: twice as much is plenty)."""
    listing = nodes.bullet_list(classes=[LIST_CLASS])
    for line in lines:
        listing += nodes.list_item("", line_nodes(line, vocabulary, uri, with_date))
        if until and len(listing.astext()) > 2 * until:
            break
    return listing if len(listing) else None
