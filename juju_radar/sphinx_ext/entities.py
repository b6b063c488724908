"""Entities: the registry read at the start of a build, mentions linked in the stories,
and a page and a feed per entity with an index of them all.

- ``entities.yaml`` is read once a build (``load_registry``); its problems are reported
  at ``entities.yaml:LINE``. When it changed, every issue page is read again (the links
  in them are made while reading).
- While an issue page is read, ``LinkMentions`` finds the registry's names in each
  story's text (``model.mentions``), links the first mention of each entity and keeps
  the story's entities under the page's docname (purged and merged by docname).
- At ``html-collect-pages`` the entity pages and the index are rendered from their view
  models (``model.entity_views``) through the templates ``radar-entity.html`` and
  ``radar-entities.html``; a page whose view model is the one it was written from is
  not written again. Feeds are written at the end of the build.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from juju_radar.model.entities import REGISTRY_FILE, Registry, read_registry
from juju_radar.model.entity_views import EntityPage, entity_index, entity_pages, shown_name
from juju_radar.model.issue_records import is_issue_path
from juju_radar.model.mentions import Matcher, story_entities, unknown_entities
from juju_radar.model.page_files import read_utf8
from juju_radar.outputs import entity_feeds
from juju_radar.sphinx_ext.bibliography import citation_id, load_bibliography
from juju_radar.sphinx_ext.collector import ISSUE_READ, IssueRead, radar_data, warn
from juju_radar.sphinx_ext.reference_pages import reference_places
from juju_radar.store.cache import build_cache, digest, source_digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from juju_radar.sphinx_ext.pipeline import Steps

logger = logging.getLogger(__name__)

PAGE_FOLDER = "entities"
INDEX_PAGE = f"{PAGE_FOLDER}/index"
PAGE_TEMPLATE = "radar-entity.html"
INDEX_TEMPLATE = "radar-entities.html"
# The build cache's record of the feeds written: entity id -> the digest they were made at.
FEEDS_WRITTEN = "entity-feeds"
# Where a mention is never linked: links, code, headings, the item's meta and sources.
UNLINKED = (nodes.reference, nodes.literal, nodes.literal_block, nodes.title, nodes.raw)
UNLINKED_CLASSES = frozenset({"radar-item-meta", "radar-sources"})


@dataclass
class EntityData:
    """The entities' part of the pickled environment."""

    registry: Registry = field(default_factory=Registry)
    # The registry the pages were read with (its digest): a change reads them all again.
    read_with: str = ""
    # docname -> item id -> the story's entities, in order of first mention.
    mentions: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    # Page name -> the digest of the view model it was last written from.
    written: dict[str, str] = field(default_factory=dict)
    # What every entity page is made of besides its own stories (``page_frame``) when
    # the view models were last made: while it holds, only the touched ones are made.
    frame: str = ""
    # Entity id -> the stories mentioning it, for the index.
    totals: dict[str, int] = field(default_factory=dict)
    # The docnames read or removed at this build, and the entities they mentioned
    # before: with those they mention now, the entities whose view models may change.
    touched_docs: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)
    # The pages whose view model changed at this build's reading.
    changed: set[str] = field(default_factory=set)
    # This build's pages as rendered (page name, view model, template); never pickled.
    _rendered: list[tuple[str, object, str]] | None = field(default=None, repr=False, compare=False)
    # This build's view models, made once for the pages and the feeds; never pickled.
    _views: dict[str, EntityPage] | None = field(default=None, repr=False, compare=False)
    # The matcher of the registry it was made from (that object itself: the registry is
    # read anew each build, and its digest costs more than finding the names in a story).
    _matcher: tuple[Registry, Matcher] | None = field(default=None, repr=False, compare=False)

    def matcher(self) -> Matcher:
        if self._matcher is None or self._matcher[0] is not self.registry:
            self._matcher = (self.registry, Matcher(self.registry))
        return self._matcher[1]

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_matcher": None, "_rendered": None, "_views": None}


def entity_data(env: BuildEnvironment) -> EntityData:
    data = getattr(env, "radar_entities", None)
    if data is None:
        data = EntityData()
        env.radar_entities = data  # type: ignore[attr-defined]
    return data


def page_name(entity_id: str) -> str:
    return f"{PAGE_FOLDER}/{entity_id}"


# --- the registry ------------------------------------------------------------------------


def load_registry(app: Sphinx) -> None:
    """Read ``entities.yaml`` (none: an empty registry) and report its problems."""
    data = entity_data(app.env)
    path = Path(app.srcdir, REGISTRY_FILE)
    registry = Registry()
    if path.is_file():
        text, problems = read_utf8(path, REGISTRY_FILE)
        if text is not None:
            registry, found = read_registry(text, REGISTRY_FILE)
            problems = [*problems, *found]
        for problem in problems:
            warn(problem, f"{REGISTRY_FILE}:{problem.line}")
    data.registry = registry


def read_issues_again(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Every issue page, when the registry changed since they were read."""
    data = entity_data(env)
    now = data.registry.digest()
    if data.read_with == now:
        return []
    data.read_with = now
    return sorted(docname for docname in env.found_docs if is_issue_path(docname))


# --- mentions ------------------------------------------------------------------------------


class LinkMentions(SphinxTransform):
    """Link the first mention of each entity in each story of an issue page, and keep
    each story's entities."""

    default_priority = 850  # before doctree-read (880), where the collector takes the issue

    def apply(self, **kwargs: Any) -> None:
        docname = self.env.docname
        if not is_issue_path(docname):
            return
        data = entity_data(self.env)
        data.mentions.pop(docname, None)
        read = cast("IssueRead | None", self.env.current_document.get(ISSUE_READ))
        issue = read[0] if read else None
        if issue is not None:
            for problem in unknown_entities(data.registry, issue):
                warn(problem, (docname, problem.line))
        if not data.registry:
            return
        items = {item.id: item for item in issue.items} if issue else {}
        suffix = self.config.html_link_suffix or self.config.html_file_suffix or ".html"
        matcher = data.matcher()
        known = set(matcher.names.values())
        found: dict[str, tuple[str, ...]] = {}
        for section in self.document.findall(nodes.section):
            if "radar-item" not in section["classes"] or not section["ids"]:
                continue
            item = items.get(section["ids"][0])
            if item is None:
                continue
            stopped = {name for name, _line in item.not_entities}
            in_text = self.link_story(section, matcher, stopped, suffix)
            named = (name for name, _line in item.entities)
            found[item.id] = story_entities(
                in_text, (name for name in named if name in known), stopped
            )
        data.mentions[docname] = found

    def link_story(
        self, section: nodes.section, matcher: Matcher, stopped: set[str], suffix: str
    ) -> list[str]:
        """The entities the story's text mentions, each first mention outside the
        unlinked parts linked; ``stopped`` ones are neither linked nor counted."""
        mentioned: list[str] = []
        linked: set[str] = set(stopped)
        for text in list(section.findall(nodes.Text)):
            mentions = [m for m in matcher.find(str(text)) if m.entity not in stopped]
            mentioned += [mention.entity for mention in mentions]
            if not mentions or _unlinked(text):
                continue
            parts: list[nodes.Node] = []
            position = 0
            for mention in mentions:
                if mention.entity in linked:
                    continue
                linked.add(mention.entity)
                parts.append(nodes.Text(str(text)[position : mention.start]))
                uri = _page_link(self.env.docname, page_name(mention.entity), suffix)
                label = str(text)[mention.start : mention.end]
                parts.append(
                    nodes.reference("", label, refuri=uri, internal=True, classes=["radar-entity"])
                )
                position = mention.end
            if parts:
                parts.append(nodes.Text(str(text)[position:]))
                parent = text.parent
                parent.replace(text, parts)
        return mentioned


def _unlinked(text: nodes.Text) -> bool:
    node: nodes.Node | None = text.parent
    while node is not None and not isinstance(node, nodes.section):
        if isinstance(node, UNLINKED):
            return True
        if isinstance(node, nodes.Element) and UNLINKED_CLASSES & set(node["classes"]):
            return True
        node = node.parent
    return False


def _page_link(base: str, target: str, suffix: str) -> str:
    from juju_radar.sphinx_ext.transforms import page_link

    return page_link(base, target, suffix)


def purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Called in the main process for every page read again or removed (before a
    parallel read too): its entities, before and after, are touched."""
    data = entity_data(env)
    data.touched_docs.add(docname)
    data.touched.update(
        entity for found in data.mentions.pop(docname, {}).values() for entity in found
    )


def merge_mentions(
    app: Sphinx, env: BuildEnvironment, docnames: AbstractSet[str], other: BuildEnvironment
) -> None:
    data, theirs = entity_data(env), entity_data(other)
    for docname in docnames:
        if docname in theirs.mentions:
            data.mentions[docname] = theirs.mentions[docname]


# --- pages ---------------------------------------------------------------------------------


def reference_lines(app: Sphinx) -> dict[str, tuple[str, str]]:
    """Citation key -> (title, references page) of every reference the site knows:
    what an entity page says of the references its stories cite."""
    archive = radar_data(app.env).archive()
    bibliography = load_bibliography(app.env)
    places = reference_places(archive, bibliography)
    lines = {}
    for key in sorted({*bibliography.data.entries, *places}):
        entry = bibliography.data.entries.get(key)
        title = str(entry.fields.get("title", key)) if entry is not None else key
        place = places.get(key)
        lines[key] = (title.replace("{", "").replace("}", ""), place[0] if place else "")
    return lines


def view_models(
    app: Sphinx,
    only: AbstractSet[str] | None = None,
    references: dict[str, tuple[str, str]] | None = None,
) -> dict[str, EntityPage]:
    """Entity id -> its page's view model, of every entity or of those of ``only``."""
    data = entity_data(app.env)
    lines = reference_lines(app) if references is None else references

    def describe(key: str) -> tuple[str, str]:
        return lines.get(key, (key, ""))

    archive = radar_data(app.env).archive()
    return entity_pages(data.registry, archive, data.mentions, describe, only)


def page_frame(app: Sphinx, references: dict[str, tuple[str, str]]) -> str:
    """What every entity page is made of besides its own stories: the code and
    settings (``code_version``), the registry (names of related entities) and the
    references' lines. While it holds, a page changes only when a page mentioning its
    entity was read or removed."""
    return digest(code_version(app), entity_data(app.env).read_with, repr(references))


def rendered_pages(
    pages: dict[str, EntityPage], registry: Registry, totals: dict[str, int]
) -> Iterator[tuple[str, object, str]]:
    """(page name, view model, template) of the entity pages of ``pages``, then the
    index of all (none without a registry: a site without entities.yaml has no entity
    pages)."""
    for entity_id, page in pages.items():
        yield page_name(entity_id), page, PAGE_TEMPLATE
    if registry.entities:
        counted = [(entity, totals.get(entity.id, 0)) for entity in registry.entities]
        yield INDEX_PAGE, entity_index(counted), INDEX_TEMPLATE


def collected_page(
    pagename: str, view: object, template: str, title: str
) -> tuple[str, dict[str, Any], str]:
    """A page rendered from ``view`` through ``template`` (``html-collect-pages``)."""
    return pagename, {"title": title, "view": view, "radar_generated": True}, template


def page_title(view: object) -> str:
    if isinstance(view, EntityPage):
        return shown_name(view.entity)
    return "实体索引"


def note_changed_pages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Once reading is done (the environment is stored after this): which entity pages'
    view models changed since they were written. Their digests are kept in the
    environment, as the collector keeps the issue pages' signatures."""
    data = entity_data(env)
    references = reference_lines(app)
    frame = page_frame(app, references)
    touched = touched_entities(data)
    whole = frame != data.frame
    pages = view_models(app, None if whole else touched, references)
    totals = {} if whole else dict(data.totals)
    totals.update((entity_id, page.total) for entity_id, page in pages.items())
    rendered = list(rendered_pages(pages, data.registry, totals))
    digests = {pagename: digest(frame, repr(view)) for pagename, view, _template in rendered}
    data.changed = {name for name, state in digests.items() if data.written.get(name) != state}
    data.written = digests if whole else {**data.written, **digests}
    data.frame, data.totals = frame, totals
    data._rendered = rendered
    data._views = pages
    return []


def touched_entities(data: EntityData) -> set[str]:
    """The entities the pages read or removed at this build mentioned, before or now
    (taken: the next build starts with none)."""
    touched = data.touched | {
        entity
        for docname in data.touched_docs
        for found in data.mentions.get(docname, {}).values()
        for entity in found
    }
    data.touched, data.touched_docs = set(), set()
    return touched


def collect_pages(app: Sphinx) -> Iterable[tuple[str, dict[str, Any], str]]:
    """The entity pages and the index whose view model changed (or whose file is gone)."""
    if app.builder.format != "html":
        return []
    data = entity_data(app.env)
    if data._rendered is None:
        note_changed_pages(app, app.env)
    rendered = data._rendered or []
    made = {pagename for pagename, _view, _template in rendered}
    present = output_files(Path(app.outdir))

    def on_disk(pagename: str) -> bool:
        return app.builder.get_target_uri(pagename) in present

    lost = {
        entity.id
        for entity in data.registry.entities
        if page_name(entity.id) not in made and not on_disk(page_name(entity.id))
    }
    if lost:  # pages unchanged but gone from the output: made again
        again = view_models(app, lost)
        data._views = {**(data._views or {}), **again}
        rendered += [
            (page_name(entity_id), page, PAGE_TEMPLATE) for entity_id, page in again.items()
        ]
    pages = []
    for pagename, view, template in rendered:
        if pagename in data.changed or not on_disk(pagename):
            pages.append(collected_page(pagename, view, template, page_title(view)))
    data._rendered = None
    return pages


def output_files(outdir: Path) -> set[str]:
    """The files of the entities' folder in the output, as paths from its root: one
    listing instead of a look at each of 1,500 files."""
    folder = outdir / PAGE_FOLDER
    return {f"{PAGE_FOLDER}/{name}" for name in os.listdir(folder)} if folder.is_dir() else set()


def code_version(app: Sphinx) -> str:
    """What else an entity page is made of: its templates, this code, the settings."""
    from juju_radar.model import entity_views
    from juju_radar.theme import TEMPLATES_DIR

    templates = [(TEMPLATES_DIR / name).read_bytes() for name in (PAGE_TEMPLATE, INDEX_TEMPLATE)]
    return digest(
        source_digest(entity_views, entity_feeds),
        *templates,
        repr(sorted((k, repr(v)) for k, v in app.config.html_theme_options.items())),
        app.config.html_title or "",
        app.config.html_link_suffix or app.config.html_file_suffix or ".html",
    )


def template_helpers(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """What the entity templates need besides the view model."""
    if templatename not in (PAGE_TEMPLATE, INDEX_TEMPLATE):
        return
    vocab = radar_vocabulary(app)
    context["topic_label"] = lambda key: vocab.topic_by_key(key).label
    context["verdict_label"] = lambda key: vocab.verdict_by_key(key).label
    context["entity_page"] = page_name
    context["citation_id"] = citation_id
    context["feed_path"] = entity_feeds.feed_path
    context["score"] = lambda value: f"{value:g}"


def radar_vocabulary(app: Sphinx) -> Any:
    from juju_radar.sphinx_ext.config import vocabulary

    return vocabulary(app.config)


def write_feeds(app: Sphinx, exception: BaseException | None) -> None:
    """Each entity's Atom and JSON feeds, written again only when what they are made of
    changed (``feed_digests``) or a file is gone; the pages and feeds of entities no
    longer registered are removed, as a clean build would not have them."""
    if exception is not None or app.builder.format != "html":
        return
    from juju_radar.outputs.feeds import FeedContext
    from juju_radar.outputs.siteurl import SiteUrl

    data = entity_data(app.env)
    views = dict(data._views or {})
    data._views = None
    context = FeedContext(
        archive=radar_data(app.env).archive(),
        vocabulary=radar_vocabulary(app),
        site=SiteUrl.from_config(app.config),
        target_uri=app.builder.get_target_uri,
        site_title=app.config.html_title or app.config.project,
        author=app.config.author,
        limit=app.config.radar_feed_limit,
    )
    outdir = Path(app.outdir)
    cache = build_cache(app.doctreedir)
    written: dict[str, str] = dict(cache.peek(FEEDS_WRITTEN, "feeds") or {})
    frame = feed_frame(app, context)
    registered = [entity.id for entity in data.registry.entities]
    whole = cache.peek(FEEDS_WRITTEN, "frame") != frame

    present = output_files(outdir)

    def lost(entity_id: str) -> bool:
        files = (entity_feeds.feed_path(entity_id), entity_feeds.json_feed_path(entity_id))
        return entity_id not in written or not all(path in present for path in files)

    # The view models made at this build are those of the entities whose pages may
    # have changed; the others' feeds are as written unless the frame changed or a
    # file is gone.
    unmade = {entity_id for entity_id in registered if entity_id not in views}
    again = unmade if whole else {entity_id for entity_id in unmade if lost(entity_id)}
    if again:
        views.update(view_models(app, again))
    current = {entity_id: written[entity_id] for entity_id in registered if entity_id in written}
    current.update(
        (entity_id, digest(frame, entity_feeds.feed_inputs(context, page)))
        for entity_id, page in views.items()
    )
    due = [
        page
        for entity_id, page in views.items()
        if written.get(entity_id) != current[entity_id] or lost(entity_id)
    ]
    entity_feeds.write_entity_feeds(context, due, outdir)
    entity_feeds.remove_stale_feeds(outdir, registered)
    cache.put(FEEDS_WRITTEN, "feeds", current)
    cache.put(FEEDS_WRITTEN, "frame", frame)
    kept = {f"{page_name(entity_id)}.html" for entity_id in registered} | {f"{INDEX_PAGE}.html"}
    folder = outdir / PAGE_FOLDER
    for stale in sorted(folder.glob("*.html")) if folder.is_dir() else ():
        if f"{PAGE_FOLDER}/{stale.name}" not in kept:
            stale.unlink()


def feed_frame(app: Sphinx, context: Any) -> str:
    """What every entity's feeds are made of besides its stories
    (``entity_feeds.feed_inputs``): the feeds' code, the site's settings, the registry."""
    from juju_radar.outputs import feeds

    return digest(
        code_version(app),
        source_digest(feeds),
        repr((context.site, context.site_title, context.author, context.limit)),
        repr(context.vocabulary),
        entity_data(app.env).read_with,
    )


def sitemap_pages(app: Sphinx) -> list[str]:
    """The output paths of the entity pages and their index, for the sitemap."""
    data = entity_data(app.env)
    names = [page_name(entity.id) for entity in data.registry.entities]
    return [app.builder.get_target_uri(name) for name in [INDEX_PAGE, *names] if names]


def searchable_entities(app: Sphinx) -> list[tuple[str, str, str]]:
    """(page name, output file, title) of each entity page, for the search index: their
    names carry a weight above a story's text (``radar-entity.html``), so that a search
    for an entity's name or alias finds its page first."""
    return [
        (page_name(entity.id), app.builder.get_target_uri(page_name(entity.id)), entity.name_zh)
        for entity in entity_data(app.env).registry.entities
    ]


def setup(app: Sphinx, steps: Steps) -> dict[str, Any]:
    steps.offer("load-entities", load_registry)
    steps.offer("read-entity-issues-again", read_issues_again)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_mentions)
    app.add_transform(LinkMentions)
    steps.offer("note-changed-entity-pages", note_changed_pages)
    steps.offer("collect-entity-pages", collect_pages)
    steps.offer("entity-template-helpers", template_helpers)
    steps.offer("write-entity-feeds", write_feeds)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
