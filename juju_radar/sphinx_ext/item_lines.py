"""Item lines (``DATE · HEADING · TOPIC · 8.5/10｜VERDICT TAG...``) and their lists.

A clean build at 3,650 issues shows 81,000 item lines (three earlier items of the topic
under each story, every item again on its topic's and the best items' year pages). Built
as docutils nodes, walked by every post-transform and translated on each page, they took
about 25 s of CPU. A list is now an ``html_listing`` node holding the HTML Sphinx's writer
makes of the lines' nodes (``line_nodes``), written here directly: every text and
attribute value is escaped as the writer escapes them (``HTMLTranslator.encode`` and
``attval``), and ``check_page_html`` checks the page like any other. Its children are the
nodes of as many first lines as a reader of the page's text takes (the opengraph
description, when a site address loads it), so that text is the same too.

That HTML is an acceleration (``html-item-lists`` in the register): without it each list
is its lines' nodes (``item_list_nodes``), and the build's output is the same bytes
(tests/test_accel.py builds a site both ways).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from docutils import nodes

from juju_radar.model.archive import ItemLine, ItemRef, item_line
from juju_radar.model.issue_records import format_score
from juju_radar.model.vocabulary import Topic, Verdict, Vocabulary
from juju_radar.sphinx_ext.nodes import html_listing

# URI of a document relative to the page being written, with an optional anchor.
Linker = Callable[[str, str], str]
ENGLISH_LABEL_CLASS = "radar-topic-en"
TOPIC_CLASS = "radar-topic"
LIST_CLASS = "radar-item-list"

# docutils' HTML writer: the characters it escapes in text and attribute values.
SPECIAL_CHARACTERS = {
    ord("&"): "&amp;",
    ord("<"): "&lt;",
    ord('"'): "&quot;",
    ord(">"): "&gt;",
    ord("@"): "&#64;",
}
ATTRIBUTE_WHITESPACE_RE = re.compile("[\n\r\t\v\f]")
# The attribute ``translator.RadarHTMLTranslator`` gives a listing Pagefind leaves out.
# The list is never inside another list, so docutils calls it "simple".
LIST_START = f'<ul class="{LIST_CLASS} simple" data-pagefind-ignore="">\n'


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
    refs: Iterable[ItemRef], vocabulary: Vocabulary, uri: Linker, with_date: bool, until: int = 0
) -> nodes.bullet_list | None:
    """The list as nodes, or None when there is no item; with ``until``, only as many
    first lines as hold twice that much text (a description drops spaces around the
    separators: twice as much is plenty)."""
    listing = nodes.bullet_list(classes=[LIST_CLASS])
    for ref in refs:
        listing += nodes.list_item("", line_nodes(item_line(ref), vocabulary, uri, with_date))
        if until and len(listing.astext()) > 2 * until:
            break
    return listing if len(listing) else None


# --- as HTML ------------------------------------------------------------------------


def text(value: str) -> str:
    """Text content, as the writer writes a Text node (``astext`` drops the NUL escapes)."""
    return (nodes.unescape(value) if "\x00" in value else value).translate(SPECIAL_CHARACTERS)


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
    refs: Iterable[ItemRef],
    vocabulary: Vocabulary,
    uri: Linker,
    with_date: bool,
    text_read: int = 0,
) -> html_listing | None:
    """The list, or None when there is no item. ``text_read``: how much of a page's text
    its readers take (0: none reads it), which the nodes of the first lines must hold."""
    refs = list(refs)
    if not refs:
        return None
    lines = "".join(line_html(item_line(ref), vocabulary, uri, with_date) for ref in refs)
    listing = html_listing("", html=f"{LIST_START}{lines}</ul>\n")
    if text_read:
        readable = item_list_nodes(refs, vocabulary, uri, with_date, until=text_read)
        listing += readable or []
    return listing
