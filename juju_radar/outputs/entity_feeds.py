"""An Atom feed per registered entity, ``entities/<id>.atom.xml``: the stories that
mention it, newest first, written with feedgen from the entity page's view model, as the
topic feeds are (``outputs/feeds.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from feedgen.feed import FeedGenerator

from juju_radar.model.archive import ItemRef
from juju_radar.model.entity_views import EntityPage, shown_name
from juju_radar.outputs.feeds import (
    FEED_DIR,
    LANGUAGE,
    STYLESHEET,
    FeedContext,
    atom_document,
    fallback_now,
    item_content,
    published_at,
    stable_id,
)

FOLDER = "entities"  # beside the pages, one folder deep as feeds/ is


def feed_path(entity_id: str) -> str:
    return f"{FOLDER}/{entity_id}.atom.xml"


def feed_url(context: FeedContext, entity_id: str) -> str:
    """Absolute with a site URL; else from the site's root, the feed's ``xml:base``."""
    return context.feed_url(entity_id, feed_path(entity_id))


def entity_feed(context: FeedContext, page: EntityPage) -> FeedGenerator:
    entity = page.entity
    feed = FeedGenerator()
    feed.id(stable_id(feed_path(entity.id)))
    feed.title(f"{context.site_title} · {shown_name(entity)}")
    feed.subtitle(f"提到{entity.name_zh}的条目")
    feed.author({"name": context.author})
    feed.link(href=context.page_url(f"{FOLDER}/{entity.id}"), rel="alternate", type="text/html")
    feed.link(href=feed_url(context, entity.id), rel="self", type="application/atom+xml")
    feed.language(LANGUAGE)
    refs = list(_refs(context, page))[: context.limit]
    feed.updated(published_at(refs[0].issue) if refs else fallback_now())
    for ref in refs:
        entry = feed.add_entry(order="append")
        entry.id(context.entry_id(ref.docname, ref.item.id))
        entry.title(ref.item.heading)
        entry.link(
            href=context.page_url(ref.docname, ref.item.id), rel="alternate", type="text/html"
        )
        entry.content(item_content(context, ref), type="html")
        entry.published(published_at(ref.issue))
        entry.updated(published_at(ref.issue))
        entry.category(term=entity.id, label=entity.name_zh)
    return feed


def _refs(context: FeedContext, page: EntityPage) -> Iterable[ItemRef]:
    issues = context.archive.all_issues
    for _year, lines in page.years:
        for line in lines:
            issue = issues[line.docname]
            item = next(item for item in issue.items if item.id == line.item_id)
            yield ItemRef(issue, item)


def write_entity_feeds(
    context: FeedContext, pages: Iterable[EntityPage], outdir: Path
) -> list[Path]:
    """Every entity's feed; the feeds of entities no longer registered removed."""
    folder = outdir / FOLDER
    written = []
    for page in pages:
        target = outdir / feed_path(page.entity.id)
        target.parent.mkdir(parents=True, exist_ok=True)
        stylesheet = f"../{FEED_DIR}/{STYLESHEET}"
        content = atom_document(entity_feed(context, page), context.xml_base, stylesheet)
        if not target.is_file() or target.read_bytes() != content:
            target.write_bytes(content)
        written.append(target)
    for stale in sorted(set(folder.glob("*.atom.xml")) - set(written)) if folder.is_dir() else ():
        stale.unlink()
    return written
