"""Docutils nodes for what readers see: item metadata, listings, issue header and nav.

The interface text is Chinese; topic names carry their English label beside them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from docutils import nodes

from juju_radar.bib import cite_this as cite
from juju_radar.bib.exchange import (
    BIBTEX_SUFFIX,
    CITE_SUFFIXES,
    CSL_JSON_SUFFIX,
    DOWNLOAD_SUFFIXES,
    RIS_SUFFIX,
)
from juju_radar.model.archive import (
    Archive,
    ItemLine,
    ItemRef,
    issue_link,
    item_line,
    related,
)
from juju_radar.model.issue_records import Issue, Item, format_score
from juju_radar.model.listing_views import (
    LISTING_VIEWS,
    ArchiveView,
    Landing,
    ViewSettings,
)
from juju_radar.model.story_pages import story_pagename
from juju_radar.model.vocabulary import Topic, Verdict, Vocabulary
from juju_radar.outputs.feeds import ALL_FEED, DIGEST_TITLE, feed_path, json_feed_path
from juju_radar.sphinx_ext.bibliography import (
    Bibliography,
    bibliography_nodes,
    citation_id,
    citation_numbers,
    citation_reference,
    missing_identifier_explanation,
    source_link,
)
from juju_radar.sphinx_ext.cite_as import cite_boxes, cite_disclosure
from juju_radar.sphinx_ext.item_lines import (
    ItemListWriter,
    Linker,
    english_label,
    internal_link,
    item_list_nodes,
    verdict_name,
)
from juju_radar.sphinx_ext.reference_pages import (
    UNCITED,
    month_label,
    reference_groups,
    reference_places,
)


@dataclass(frozen=True)
class RenderContext:
    """What a placeholder is rendered from: the archive and the page being written."""

    archive: Archive
    vocabulary: Vocabulary
    docname: str
    issue: Issue | None
    link: Linker
    site_url: str
    bibliography: Bibliography
    preview: bool = False  # ``radar serve`` (``preview``): no charts
    text_read: int = 0  # of a page's text, what its readers take (``list_writer``)
    view_settings: ViewSettings = ViewSettings(10, ())  # what listings take from conf.py
    list_writer: ItemListWriter | None = None  # item lists other than as nodes (``accel``)
    # (label, address) of the ways to subscribe other than feeds (``radar_subscribe_*``)
    subscribe_links: tuple[tuple[str, str], ...] = ()

    def listing_view(self, kind: str, attributes: Mapping[str, str]) -> Any:
        """What a listing of ``kind`` shows (its view model; ``model.listing_views``)."""
        return LISTING_VIEWS[kind](self.archive, attributes, self.view_settings)

    def absolute(self, docname: str, anchor: str = "") -> str:
        """The public URL of a page, or "" while no site URL is configured."""
        if not self.site_url:
            return ""
        url = f"{self.site_url.rstrip('/')}/{docname}.html"
        return f"{url}#{anchor}" if anchor else url


def topic_link(topic: Topic) -> nodes.Node:
    from sphinx.addnodes import pending_xref

    xref = pending_xref(
        "",
        refdomain="std",
        reftype="doc",
        reftarget=f"/topics/{topic.key}",
        refexplicit=True,
        refwarn=True,
    )
    xref += nodes.inline("", topic.label)
    # Sphinx rebuilds a resolved page link's text, so the English label goes beside it.
    return nodes.inline("", "", xref, *english_label(topic), classes=["radar-topic"])


def item_meta(
    topic: Topic | None, tags: list[str], score: float | None, verdict: Verdict | None
) -> nodes.paragraph:
    """The category line as editors write it: ``TOPIC / TAG · 9/10｜VERDICT``."""
    meta = nodes.paragraph(classes=["radar-item-meta"])
    if topic is not None:
        meta += topic_link(topic)
    for tag in tags:
        meta += nodes.Text(" / ")
        meta += nodes.inline("", tag, classes=["radar-tag"])
    if score is not None:
        meta += nodes.Text(" · ")
        meta += nodes.inline("", f"{format_score(score)}/10", classes=["radar-score"])
    if verdict is not None:
        meta += nodes.Text("｜")
        meta += verdict_name(verdict)
    return meta


def _feed_link(context: RenderContext, name: str, text: str) -> list[nodes.Node]:
    """A link to a feed, for readers without a feed-aware browser (every build writes
    the feeds)."""
    return [
        internal_link(
            "../" * context.docname.count("/") + feed_path(name), text, ["radar-feed-link"]
        )
    ]


def _date(date: dt.date) -> nodes.inline:
    """A date that never breaks across lines (``.radar-date`` is ``nowrap``)."""
    return nodes.inline("", date.isoformat(), classes=["radar-date"])


def _empty(text: str) -> nodes.paragraph:
    return nodes.paragraph("", text, classes=["radar-empty"])


def item_list(
    context: RenderContext, lines: Iterable[ItemLine], with_date: bool = True
) -> nodes.Element:
    listing: nodes.Element | None
    if context.list_writer is not None:
        text_read = context.text_read
        listing = context.list_writer(lines, context.vocabulary, context.link, with_date, text_read)
    else:
        listing = item_list_nodes(lines, context.vocabulary, context.link, with_date)
    return listing if listing is not None else _empty("暂无条目。")


def _landing(context: RenderContext, view: Landing, folder: str) -> list[nodes.Node]:
    """The newest items, then one link per year to the page listing all of that year's."""
    count = nodes.paragraph(
        "",
        f"共 {view.total} 条；下面是最新的 {len(view.newest)} 条，按日期从新到旧排列。",
        classes=["radar-count"],
    )
    years = nodes.paragraph(classes=["radar-years"])
    years += nodes.Text("按年份：")
    for index, (year, items) in enumerate(view.years):
        if index:
            years += nodes.Text(" · ")
        years += internal_link(context.link(f"{folder}/{year}", ""), f"{year} 年")
        years += nodes.Text(f"（{items} 条）")
    return [count, item_list(context, view.newest), *([years] if view.total else [])]


def topic_list(context: RenderContext, topic: str, view: Landing) -> list[nodes.Node]:
    landing = _landing(context, view, f"topics/{topic}")
    feed = _feed_link(context, topic, "订阅本主题（Atom）")
    return [*landing, *([nodes.paragraph("", "", *feed, classes=["radar-more"])] if feed else [])]


def best_items(context: RenderContext, view: Landing) -> list[nodes.Node]:
    return _landing(context, view, "best")


def topic_index(context: RenderContext, counts: tuple[tuple[str, int], ...]) -> list[nodes.Node]:
    listing = nodes.bullet_list(classes=["radar-topic-index"])
    for key, count in counts:
        topic = context.vocabulary.topic_by_key(key)
        entry = nodes.paragraph()
        entry += internal_link(
            context.link(f"topics/{topic.key}", ""), topic.title, ["radar-topic"]
        )
        entry += nodes.Text(f"（{count} 条）")
        if topic.description:
            entry += nodes.Text(f"：{topic.description}")
        listing += nodes.list_item("", entry)
    return [listing]


def archive_listing(context: RenderContext, view: ArchiveView) -> list[nodes.Node]:
    if not view:
        return [_empty("暂无已发布的一期。")]
    result: list[nodes.Node] = []
    for year, months in view:
        result.append(nodes.rubric("", f"{year} 年", classes=["radar-year"], ids=[f"y{year}"]))
        for month, issues in months:
            result.append(
                nodes.rubric(
                    "",
                    f"{year} 年 {month} 月",
                    classes=["radar-month"],
                    ids=[f"y{year}-m{month:02d}"],
                )
            )
            listing = nodes.bullet_list(classes=["radar-issue-list"])
            for issue in issues:
                entry = nodes.paragraph()
                entry += nodes.inline("", issue.link.date.isoformat(), classes=["radar-date"])
                entry += nodes.Text(" · ")
                entry += internal_link(
                    context.link(issue.link.docname, ""), issue.link.title, ["radar-issue-title"]
                )
                entry += nodes.Text(f"（{issue.items} 条）")
                listing += nodes.list_item("", entry)
            result.append(listing)
    return result


SUBSCRIBE_PAGE = "subscribe"  # the page listing every feed (subscribe.md)
FEED_READER = (
    "RSS 阅读器（如 Feedly、Inoreader、NetNewsWire）是一种收取网站更新的应用："
    "把订阅地址粘贴到它的“添加订阅”里，每出新的一期，阅读器就会自动收到，不必再回网站查看。"
)


def feed_choices(vocabulary: Vocabulary) -> list[tuple[str, str, str]]:
    """(feed name, label, what it holds) of every feed (``outputs/feeds.py``)."""
    choices = [(ALL_FEED, DIGEST_TITLE, "每期一条：本期导语与各条目的链接。")]
    choices += [
        (topic.key, f"主题：{topic.label}", f"“{topic.label}”主题的每一条，每条一项。")
        for topic in vocabulary.topics
    ]
    return choices


def feeds_page(context: RenderContext) -> list[nodes.Node]:
    """The subscribe page: what a feed reader is, each feed with its address (a copy
    button is added by radar.js), and the other ways conf.py sets."""
    up = "../" * context.docname.count("/")
    box = nodes.container(classes=["radar-subscribe", "radar-feeds"])
    box += nodes.paragraph("", FEED_READER, classes=["radar-subscribe-howto"])
    listing = nodes.bullet_list(classes=["radar-feed-list"])
    for name, label, holds in feed_choices(context.vocabulary):
        entry = nodes.list_item(classes=["radar-feed"])
        title = nodes.paragraph(classes=["radar-feed-title"])
        title += nodes.strong("", label)
        title += nodes.Text(f"　{holds}")
        entry += title
        address = nodes.paragraph(classes=["radar-feed-address"])
        address += internal_link(up + feed_path(name), "Atom 地址", ["radar-feed-link"])
        address += nodes.Text(" · ")
        address += internal_link(
            up + json_feed_path(name), "JSON Feed 地址", ["radar-json-feed-link"]
        )
        entry += address
        listing += entry
    box += listing
    for label, address in context.subscribe_links:
        other = nodes.paragraph(classes=["radar-subscribe-other"])
        other += nodes.reference("", label, refuri=address, classes=["radar-subscribe-external"])
        box += other
    return [box]


def issue_header(context: RenderContext) -> list[nodes.Node]:
    issue = context.issue
    if issue is None:
        return []
    result: list[nodes.Node] = []
    if not issue.published:
        note = nodes.admonition(classes=["radar-draft", "warning"])
        note += nodes.title("", "草稿")
        note += nodes.paragraph("", "本期尚未发布：它不出现在归档、主题、首页与参考文献中。")
        result.append(note)
    line = nodes.paragraph(classes=["radar-issue-meta"])
    line += nodes.inline("", f"Juju Radar · {issue.date:%Y.%m.%d}", classes=["radar-date"])
    # One length and one reading time, the counted ones: the editors' stated length is
    # theirs to check against it (length-mismatch), never shown beside it.
    line += nodes.Text(" · ")
    stats = issue.stats
    line += nodes.inline(
        "", f"正文实计 {stats.words:,} 字，阅读约 {stats.minutes} 分钟", classes=["radar-stats"]
    )
    result.append(line)
    result += corrections_notice(issue)
    # The neighbours at the top too: at the page's end they are thousands of pixels down
    # on a phone, after the references and the citation block.
    result += issue_nav(context, ["radar-issue-nav-top"])
    return result


def corrections_notice(issue: Issue) -> list[nodes.Node]:
    """What the editors corrected since the issue was published, oldest first, under the
    date of the last change."""
    if not issue.corrections:
        return []
    note = nodes.admonition(classes=["radar-corrections", "note"])
    last = issue.corrections[-1].date.isoformat()
    note += nodes.title("", f"更正（本页最后修改于 {last}）")
    listing = nodes.bullet_list()
    for correction in issue.corrections:
        entry = nodes.paragraph()
        entry += nodes.inline("", correction.date.isoformat(), classes=["radar-correction-date"])
        entry += nodes.Text(f"：{correction.text}")
        listing += nodes.list_item("", entry)
    note += listing
    return [note]


def issue_nav(context: RenderContext, classes: Sequence[str] = ()) -> list[nodes.Node]:
    older, newer = (issue_link(issue) for issue in context.archive.neighbours(context.docname))
    if older is None and newer is None:
        return []
    nav = nodes.paragraph(classes=["radar-issue-nav", *classes])
    if older is not None:
        prev = internal_link(context.link(older.docname, ""), "← 上一期：", ["radar-prev"])
        prev += [_date(older.date), nodes.Text(f" {older.title}")]
        nav += prev
    if older is not None and newer is not None:
        nav += nodes.Text(" ｜ ")
    if newer is not None:
        following = internal_link(context.link(newer.docname, ""), "下一期：", ["radar-next"])
        following += [_date(newer.date), nodes.Text(f" {newer.title} →")]
        nav += following
    return [nav]


def cite_refs(context: RenderContext, keys: list[str]) -> list[nodes.Node]:
    numbers = citation_numbers(context.issue.citation_keys) if context.issue else {}
    return [citation_reference(keys, numbers)]


def source(context: RenderContext, label: str, keys: list[str]) -> list[nodes.Node]:
    version_date = context.issue.date.isoformat() if context.issue else ""
    return source_link(label, keys, context.bibliography, version_date)


def on_references_page(context: RenderContext, key: str) -> list[nodes.Node]:
    """A link to the entry on the references page, with how many items cite it."""
    place = reference_places(context.archive, context.bibliography).get(key)
    if place is None:
        return []
    selector, count = place
    line = nodes.paragraph(classes=["radar-on-references-page"])
    text = f"在参考文献页查看（被 {count} 条引用）" if count else "在参考文献页查看"
    line += internal_link(context.link(f"references/{selector}", citation_id(key)), text)
    return [line]


def issue_bibliography(context: RenderContext) -> list[nodes.Node]:
    issue = context.issue
    if issue is None:
        return []
    keys = issue.citation_keys
    listing = nodes.container(classes=["citation-list", "radar-bibliography"])
    listing.extend(
        bibliography_nodes(keys, context.bibliography, partial(on_references_page, context))
    )
    return [
        listing,
        *missing_identifier_explanation(keys, context.bibliography),
        issue_downloads(issue, DOWNLOAD_SUFFIXES, "下载本期参考文献：", "bib"),
    ]


DOWNLOAD_LABELS = {BIBTEX_SUFFIX: "BibTeX", RIS_SUFFIX: "RIS", CSL_JSON_SUFFIX: "CSL-JSON"}


def issue_downloads(
    issue: Issue, suffixes: tuple[str, ...], caption: str, kind: str
) -> nodes.paragraph:
    """Links to the files written beside the issue page (``sphinx_ext/outputs/downloads.py``)."""
    download = nodes.paragraph(classes=[f"radar-{kind}-download"])
    download += nodes.Text(caption)
    name = issue.docname.rsplit("/", 1)[-1]
    for index, suffix in enumerate(suffixes):
        if index:
            download += nodes.Text(" · ")
        download += nodes.reference(
            "",
            f"{DOWNLOAD_LABELS[suffix.removeprefix('.cite')]}（{suffix}）",
            refuri=f"{name}{suffix}",
        )
    return download


def issue_cite(context: RenderContext) -> list[nodes.Node]:
    issue = context.issue
    if issue is None:
        return []
    boxes = cite_boxes(cite.issue_work(issue, context.absolute(issue.docname)))
    caption = "下载本期及其各条的引用："
    return [*boxes, issue_downloads(issue, CITE_SUFFIXES, caption, "cite")]


def item_extras(context: RenderContext, item_id: str) -> list[nodes.Node]:
    issue = context.issue
    item = next((item for item in issue.items if item.id == item_id), None) if issue else None
    if issue is None or item is None:
        return []
    found = related(context.archive, issue, item)
    result: list[nodes.Node] = [story_page_line(context, issue, item)] if issue.published else []
    if found.earlier_same_topic:
        topic = context.vocabulary.topic_by_key(item.topic)
        result.append(
            nodes.paragraph(
                "", f"同主题（{topic.label}）此前的条目：", classes=["radar-related-caption"]
            )
        )
        result.append(item_list(context, map(item_line, found.earlier_same_topic)))
    if found.sharing_sources:
        also = nodes.paragraph(classes=["radar-also-covered"])
        also += nodes.Text("同一文献也见于：")
        for index, ref in enumerate(found.sharing_sources):
            if index:
                also += nodes.Text("；")
            also += story_link(item_line(ref), context.link)
        result.append(also)
    url = context.absolute(issue.docname, item.id)
    result.append(cite_disclosure(cite.item_work(issue, item, url)))
    return [nodes.container("", *result, classes=["radar-item-extras"])]


def story_page_line(context: RenderContext, issue: Issue, item: Item) -> nodes.paragraph:
    """The link to the story's own page (``model.story_pages``), to share and cite it."""
    line = nodes.paragraph(classes=[STORY_PAGE_LINE])
    uri = context.link(story_pagename(issue.docname, item.id), "")
    line += internal_link(uri, "本条单独页面（分享、引用）", classes=["radar-story-page-link"])
    return line


STORY_PAGE_LINE = "radar-story-page-line"


def references(context: RenderContext, selector: str) -> list[nodes.Node]:
    """The entries of one references page in .bib order, each with the items citing it."""
    keys = reference_groups(context.archive, context.bibliography).get(selector, [])
    back = nodes.paragraph(classes=["radar-more"])
    back += internal_link(context.link("references", ""), "← 全部参考文献（按月份）")
    if not keys:
        return [back, nodes.paragraph("", "这一页暂无文献。", classes=["radar-empty"])]
    cited_by_key = context.archive.cited_by
    listing = nodes.container(
        classes=["citation-list", "radar-bibliography", "radar-reference-list"]
    )
    listing.extend(
        bibliography_nodes(
            keys,
            context.bibliography,
            lambda key: [cited_by(cited_by_key.get(key, []), context.link)],
        )
    )
    return [back, listing, *missing_identifier_explanation(keys, context.bibliography)]


def references_index(context: RenderContext) -> list[nodes.Node]:
    """The references pages, newest month first, with how many entries each lists."""
    groups = reference_groups(context.archive, context.bibliography)
    months = sorted((name for name in groups if name != UNCITED), reverse=True)
    listing = nodes.bullet_list(classes=["radar-reference-months"])
    for selector in [*months, UNCITED]:
        label = "未被已发布的任何一期引用" if selector == UNCITED else month_label(selector)
        line = nodes.paragraph()
        line += internal_link(context.link(f"references/{selector}", ""), label)
        line += nodes.Text(f"（{len(groups.get(selector, []))} 条）")
        listing += nodes.list_item("", line)
    total = sum(len(keys) for keys in groups.values())
    summary = nodes.paragraph("", f"共 {total} 条文献。", classes=["radar-count"])
    return [summary, listing]


def cited_by(refs: list[ItemRef], link: Linker) -> nodes.paragraph:
    line = nodes.paragraph(classes=["radar-cited-by"])
    label = f"被 {len(refs)} 条引用：" if refs else "被引用："
    line += nodes.inline("", label, classes=["radar-cited-by-label"])
    if not refs:
        line += nodes.Text("暂无已发布条目引用。")
    for index, ref in enumerate(refs):
        if index:
            line += nodes.Text("；")
        line += story_link(item_line(ref), link)
    return line


def story_link(line: ItemLine, link: Linker) -> nodes.reference:
    """``DATE HEADING``, linking the story."""
    return internal_link(link(line.docname, line.item_id), f"{line.date} {line.heading}")
