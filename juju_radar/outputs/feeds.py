"""Atom and JSON feeds of the published archive, written with feedgen after every html
build.

``feeds/all.atom.xml`` is a digest, one entry per issue (its lead and its stories'
links), and says so in its title; ``feeds/<topic>.atom.xml`` has one entry per item of
that topic, linking to the item's anchor. Beside each, ``<name>.json`` holds the same
entries as JSON Feed 1.1. Everything comes from the collected issues (the same
``Archive`` as the listing pages), so an incremental build writes the same feeds as a
clean one.

An Atom feed names the site's root in ``xml:base`` (the address, or ``../`` from the
feed's folder without one) and its links are written from there; it names the
stylesheet ``feeds/feed.xsl``, which a browser applies to show a readable page with the
feed's address instead of raw XML. JSON Feed has no base: without a site address its
links are relative to the feed's own location.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feedgen.feed import FeedGenerator
from lxml import etree
from markupsafe import Markup

from juju_radar.model.archive import Archive, ItemRef
from juju_radar.model.corrections import last_correction
from juju_radar.model.issue_records import Issue, format_score, plain_text
from juju_radar.model.vocabulary import Topic, Vocabulary
from juju_radar.outputs.siteurl import SiteUrl

FEED_DIR = "feeds"
ALL_FEED = "all"
DIGEST_TITLE = "每期摘要"  # the all feed: one entry per issue, not every story
DIGEST_SUBTITLE = "每期一条：导语与本期各条目的链接"
STYLESHEET = "feed.xsl"  # in FEED_DIR, beside the feeds
STYLESHEET_SOURCE = Path(__file__).with_name(STYLESHEET)
JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
# An issue goes out at 08:00 Beijing time on its date.
BEIJING = dt.timezone(dt.timedelta(hours=8), "Asia/Shanghai")
PUBLICATION_TIME = dt.time(8, 0)
LANGUAGE = "zh-CN"
# Chosen once at random and fixed forever: every feed and entry id derives from it.
ID_NAMESPACE = uuid.UUID("5045f685-b1fa-444e-af68-885a110767bd")

# docname -> output file name (``issues/2026/2026-09-08.html``)
TargetUri = Callable[[str], str]


@dataclass(frozen=True)
class FeedContext:
    """What every feed is built from."""

    archive: Archive
    vocabulary: Vocabulary
    site: SiteUrl
    target_uri: TargetUri
    site_title: str
    author: str
    limit: int
    # Without a site URL, what a link starts with: "" in Atom (relative to its xml:base,
    # the site's root), the way up to the root in JSON Feed (relative to the feed).
    relative_prefix: str = ""

    def page_url(self, docname: str, anchor: str = "") -> str:
        """Absolute with a site URL; else relative (``relative_prefix``)."""
        return self._url(self.target_uri(docname), anchor)

    def feed_url(self, name: str, path: str = "") -> str:
        return self._url(path or feed_path(name))

    def _url(self, target: str, anchor: str = "") -> str:
        if self.site:
            return self.site.url(target, anchor)
        relative = self.relative_prefix + target
        return f"{relative}#{anchor}" if anchor else relative

    @property
    def xml_base(self) -> str:
        """The site's root: its address, or the way up from the feeds' folder."""
        return self.site.url("") if self.site else root_from_feeds()

    def for_json(self) -> FeedContext:
        return dataclasses.replace(self, relative_prefix=root_from_feeds())

    def entry_id(self, docname: str, anchor: str = "") -> str:
        return stable_id(self.target_uri(docname) + (f"#{anchor}" if anchor else ""))


def root_from_feeds() -> str:
    """The site's root, relative to the feeds' folder."""
    return "../" * (FEED_DIR.count("/") + 1)


def stable_id(path: str) -> str:
    """A feed or entry id from its path in the site (``issues/2026/2026-09-08.html#x``):
    the same whatever the site's address, so a reader never sees an entry twice."""
    return uuid.uuid5(ID_NAMESPACE, path).urn


def feed_path(name: str) -> str:
    """Output path of a feed, relative to the site root."""
    return f"{FEED_DIR}/{name}.atom.xml"


def json_feed_path(name: str) -> str:
    """Output path of a feed's JSON Feed, relative to the site root."""
    return f"{FEED_DIR}/{name}.json"


def published_at(issue: Issue) -> dt.datetime:
    return dt.datetime.combine(issue.date, PUBLICATION_TIME, BEIJING)


def updated_at(issue: Issue) -> dt.datetime:
    """When the issue last changed: its latest correction's date (at the hour an issue
    goes out: only the day is recorded), else its publication."""
    corrected = last_correction(issue.corrections)
    if corrected is None:
        return published_at(issue)
    return max(published_at(issue), dt.datetime.combine(corrected, PUBLICATION_TIME, BEIJING))


def fallback_now() -> dt.datetime:
    """The build's "now" for a feed with no entry: ``SOURCE_DATE_EPOCH`` when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return dt.datetime.fromtimestamp(int(epoch), BEIJING)
    return dt.datetime.now(BEIJING).replace(microsecond=0)


def _new_feed(
    context: FeedContext, name: str, title: str, subtitle: str, page: str
) -> FeedGenerator:
    feed = FeedGenerator()
    feed.id(stable_id(feed_path(name)))
    feed.title(title)
    feed.subtitle(subtitle)
    feed.author({"name": context.author})
    feed.link(href=context.page_url(page), rel="alternate", type="text/html")
    feed.link(href=context.feed_url(name), rel="self", type="application/atom+xml")
    feed.language(LANGUAGE)
    published = context.archive.published[: context.limit]
    feed.updated(max(map(updated_at, published)) if published else fallback_now())
    return feed


def _item_summary_line(context: FeedContext, ref: ItemRef) -> str:
    item = ref.item
    topic = context.vocabulary.topic_by_key(item.topic)
    verdict = context.vocabulary.verdict_by_key(item.verdict)
    tags = " / ".join(item.tags)
    return " · ".join(
        part
        for part in (topic.label, tags, f"{format_score(item.score)}/10｜{verdict.label}")
        if part
    )


def _paragraphs(texts: Iterable[str]) -> Markup:
    return Markup("").join(Markup("<p>{}</p>").format(plain_text(text)) for text in texts)


def issue_content(context: FeedContext, issue: Issue) -> str:
    """The issue's lead and its items, each linked to its anchor, as HTML."""
    entries = Markup("").join(
        Markup('<li><a href="{}">{}</a>（{}）</li>').format(
            context.page_url(issue.docname, item.id),
            item.heading,
            _item_summary_line(context, ItemRef(issue, item)),
        )
        for item in issue.items
    )
    return str(
        _corrections(issue) + _paragraphs(issue.lead) + Markup("<ul>{}</ul>").format(entries)
    )


def _corrections(issue: Issue) -> Markup:
    """The corrections notice, as the page shows it."""
    return Markup("").join(
        Markup('<p class="radar-correction">更正（{}）：{}</p>').format(
            correction.date.isoformat(), plain_text(correction.text)
        )
        for correction in issue.corrections
    )


def item_content(context: FeedContext, ref: ItemRef) -> str:
    meta = Markup('<p class="radar-item-meta">{}</p>').format(_item_summary_line(context, ref))
    source = Markup('<p>出自 <a href="{}">{} · {}</a></p>').format(
        context.page_url(ref.docname), ref.date, ref.issue.title
    )
    return str(meta + _paragraphs(ref.item.body) + source)


def all_issues_feed(context: FeedContext) -> FeedGenerator:
    feed = _new_feed(
        context, ALL_FEED, f"{context.site_title} · {DIGEST_TITLE}", DIGEST_SUBTITLE, "index"
    )
    for issue in context.archive.published[: context.limit]:
        entry = feed.add_entry(order="append")
        url = context.page_url(issue.docname)
        entry.id(context.entry_id(issue.docname))
        entry.title(issue.title)
        entry.link(href=url, rel="alternate", type="text/html")
        entry.summary("\n".join(plain_text(paragraph) for paragraph in issue.lead))
        entry.content(issue_content(context, issue), type="html")
        entry.published(published_at(issue))
        entry.updated(updated_at(issue))
        for key in dict.fromkeys(item.topic for item in issue.items):
            topic = context.vocabulary.topic_by_key(key)
            entry.category(term=topic.key, label=topic.title)
    return feed


def topic_feed(context: FeedContext, topic: Topic) -> FeedGenerator:
    feed = _new_feed(
        context,
        topic.key,
        f"{context.site_title} · {topic.title}",
        topic.description or topic.label,
        f"topics/{topic.key}",
    )
    for ref in context.archive.topic_items(topic.key)[: context.limit]:
        entry = feed.add_entry(order="append")
        url = context.page_url(ref.docname, ref.item.id)
        entry.id(context.entry_id(ref.docname, ref.item.id))
        entry.title(ref.item.heading)
        entry.link(href=url, rel="alternate", type="text/html")
        entry.summary(plain_text(ref.item.body[0]) if ref.item.body else ref.item.title)
        entry.content(item_content(context, ref), type="html")
        entry.published(published_at(ref.issue))
        entry.updated(updated_at(ref.issue))
        entry.category(term=topic.key, label=topic.title)
        for tag in ref.item.tags:
            entry.category(term=tag)
    return feed


def all_feeds(context: FeedContext) -> dict[str, FeedGenerator]:
    """Feed name -> feed: the whole archive, then one per topic in vocabulary order."""
    feeds = {ALL_FEED: all_issues_feed(context)}
    for topic in context.vocabulary.topics:
        feeds[topic.key] = topic_feed(context, topic)
    return feeds


def write_feeds(context: FeedContext, outdir: Path) -> list[Path]:
    """Write every feed, Atom and JSON, and the stylesheet; remove feeds of topics no
    longer configured (as a clean build)."""
    written = [outdir / FEED_DIR / STYLESHEET]
    written[0].parent.mkdir(parents=True, exist_ok=True)
    written[0].write_bytes(STYLESHEET_SOURCE.read_bytes())
    json_feeds = all_feeds(context.for_json())
    for name, feed in all_feeds(context).items():
        atom = outdir / feed_path(name)
        atom.write_bytes(atom_document(feed, context.xml_base))
        as_json = outdir / json_feed_path(name)
        as_json.write_text(json_feed_text(json_feeds[name], context.for_json(), name), "utf-8")
        written += [atom, as_json]
    for stale in sorted(set((outdir / FEED_DIR).glob("*")) - set(written)):
        stale.unlink()
    return written


def atom_document(feed: FeedGenerator, xml_base: str, stylesheet: str = STYLESHEET) -> bytes:
    """The feed as feedgen writes it, with its ``xml:base`` and its stylesheet (its address
    relative to the feed's own)."""
    root = etree.fromstring(feed.atom_str(pretty=False))
    root.set(XML_BASE, xml_base)
    root.addprevious(etree.PI("xml-stylesheet", f'type="text/xsl" href="{stylesheet}"'))
    return etree.tostring(
        root.getroottree(), xml_declaration=True, encoding="UTF-8", pretty_print=True
    )


def json_feed_text(feed: FeedGenerator, context: FeedContext, name: str, path: str = "") -> str:
    """JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/) of the entries of ``feed``,
    read through feedgen's getters: the same entries as the Atom feed. ``path``: its
    output path when it is not ``feeds/<name>.json`` (an entity's)."""
    home = next(link["href"] for link in feed.link() if link["rel"] == "alternate")
    document = {
        "version": JSON_FEED_VERSION,
        "title": feed.title(),
        "home_page_url": home,
        "feed_url": context.feed_url(name, path or json_feed_path(name)),
        "description": feed.subtitle(),
        "language": LANGUAGE,
        "authors": [{"name": context.author}],
        "items": [json_item(entry) for entry in feed.entry()],
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def json_item(entry: Any) -> dict[str, Any]:
    tags = [category.get("label") or category["term"] for category in entry.category() or []]
    summary = entry.summary()  # none in an entity's feed
    return {
        "id": entry.id(),
        "url": entry.link()[0]["href"],
        "title": entry.title(),
        "content_html": entry.content()["content"],
        **({"summary": summary["summary"]} if summary else {}),
        "date_published": entry.published().isoformat(),
        "date_modified": entry.updated().isoformat(),
        **({"tags": list(dict.fromkeys(tags))} if tags else {}),
    }
