"""Lists of item lines, as the HTML Sphinx's writer makes of the same nodes.

A clean build at 3,650 issues shows 81,000 item lines (three earlier items of the topic
under each story, every item again on its topic's and the best items' year pages). Built
as docutils nodes, walked by every post-transform and translated on each page, they took
about 25 s of CPU; written here as one raw HTML node a list, they take about 1 s. Every
text and attribute value is escaped as the writer escapes them (``HTMLTranslator.encode``
and ``attval``), and ``check_page_html`` checks the page they end up in like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from docutils import nodes

from juju_radar.model.archive import ItemRef
from juju_radar.model.issues import Topic, Vocabulary, format_score

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
LIST_START = '<ul class="radar-item-list simple" data-pagefind-ignore="">\n'


def text(value: str) -> str:
    return value.translate(SPECIAL_CHARACTERS)


def attribute(value: str) -> str:
    return text(ATTRIBUTE_WHITESPACE_RE.sub(" ", value))


def link(uri: str, content: str, classes: str = "") -> str:
    """An internal reference: its classes, then Sphinx's; an empty URI is the page."""
    return (
        f'<a class="{attribute(f"{classes} reference internal".lstrip())}" '
        f'href="{attribute(uri or "#")}">{content}</a>'
    )


def topic_label(topic: Topic) -> str:
    """``render.topic_name``: the label, and the English label beside it (read as English)."""
    english = (
        f'<span class="radar-topic-en" lang="en">{text(f" {topic.english_beside}")}</span>'
        if topic.english_beside
        else ""
    )
    return f'<span class="radar-topic">{text(topic.label)}{english}</span>'


def item_line(
    ref: ItemRef, vocabulary: Vocabulary, uri: Callable[[str, str], str], with_date: bool
) -> str:
    """One line: ``DATE · HEADING · TOPIC · 8.5/10｜VERDICT TAG...`` in a list item."""
    item = ref.item
    topic = vocabulary.topic_by_key(item.topic)
    verdict = vocabulary.verdict_by_key(item.verdict)
    date = f"{link(uri(ref.docname, ''), text(ref.date), 'radar-date')} · " if with_date else ""
    tags = "".join(f' <span class="radar-tag">{text(tag)}</span>' for tag in item.tags)
    return (
        f'<li><p class="radar-item-line">{date}'
        f"{link(uri(ref.docname, item.id), text(item.heading), 'radar-item-title')} · "
        f"{link(uri(f'topics/{topic.key}', ''), topic_label(topic))}"
        f" · {text(format_score(item.score))}/10｜"
        f'<span class="{attribute(f"radar-verdict radar-verdict-{verdict.key}")}">'
        f"{text(verdict.label)}</span>{tags}</p></li>\n"
    )


def item_list_html(
    refs: Iterable[ItemRef],
    vocabulary: Vocabulary,
    uri: Callable[[str, str], str],
    with_date: bool,
) -> nodes.raw | None:
    """The list, or None when there is no item."""
    lines = [item_line(ref, vocabulary, uri, with_date) for ref in refs]
    if not lines:
        return None
    html = f"{LIST_START}{''.join(lines)}</ul>\n"
    return nodes.raw("", html, format="html")
