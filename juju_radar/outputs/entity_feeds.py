"""An Atom feed per registered entity, ``entities/<id>.atom.xml``, and its JSON Feed 1.1
beside it, ``entities/<id>.json``: the stories that mention it, newest first, written
with feedgen from the entity page's view model, as the topic feeds are
(``outputs/feeds.py``)."""

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
    json_feed_text,
    published_at,
    stable_id,
)

FOLDER = "entities"  # beside the pages, one folder deep as feeds/ is


def feed_path(entity_id: str) -> str:
    return f"{FOLDER}/{entity_id}.atom.xml"


def json_feed_path(entity_id: str) -> str:
    return f"{FOLDER}/{entity_id}.json"


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


def feed_inputs(context: FeedContext, page: EntityPage) -> str:
    """What an entity's feeds are made of besides the site's settings and this code: the
    entity and each story they list (its issue's date and title, the whole record)."""
    refs = list(_refs(context, page))[: context.limit]
    return repr(
        (page.entity, [(ref.docname, ref.issue.date, ref.issue.title, ref.item) for ref in refs])
    )


def feed_files(outdir: Path, entity_id: str) -> tuple[Path, Path]:
    """The Atom and the JSON feed of an entity."""
    return outdir / feed_path(entity_id), outdir / json_feed_path(entity_id)


def write_entity_feeds(context: FeedContext, pages: Iterable[EntityPage], outdir: Path) -> None:
    """The feeds, Atom and JSON, of the entities of ``pages`` (a file is written only
    when its bytes change)."""
    stylesheet = f"../{FEED_DIR}/{STYLESHEET}"
    as_json = context.for_json()
    for page in pages:
        entity_id = page.entity.id
        atom, document = feed_files(outdir, entity_id)
        feed = entity_feed(context, page)
        _write_changed(atom, atom_document(feed, context.xml_base, stylesheet))
        text = json_feed_text(
            entity_feed(as_json, page), as_json, entity_id, json_feed_path(entity_id)
        )
        _write_changed(document, text.encode("utf-8"))


def remove_stale_feeds(outdir: Path, registered: Iterable[str]) -> None:
    """The feeds of entities no longer registered, as a clean build would not have them."""
    folder = outdir / FOLDER
    if not folder.is_dir():
        return
    kept = {path for entity_id in registered for path in feed_files(outdir, entity_id)}
    for stale in sorted({*folder.glob("*.atom.xml"), *folder.glob("*.json")} - kept):
        stale.unlink()


def _write_changed(target: Path, content: bytes) -> None:
    if not target.is_file() or target.read_bytes() != content:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
