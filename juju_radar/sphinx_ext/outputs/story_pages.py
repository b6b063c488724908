"""A page per story, ``issues/YYYY/YYYY-MM-DD/<anchor>.html``, with its share card.

Each page is rendered from its view model (``model.story_pages.StoryView``) through the
template ``radar-story.html`` and handed to Sphinx at ``html-collect-pages``, as Sphinx
hands over its own search and index pages; it is not a document. A page is handed over
again only when the digest of what it shows changed (or its file is gone), and the
pages of stories no longer published are removed, so an incremental build leaves the
same files as a clean one.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from markupsafe import Markup
from sphinx.util import logging

from juju_radar.bib import cite_this as cite
from juju_radar.bib.exchange import CITE_SUFFIXES, DOWNLOAD_SUFFIXES
from juju_radar.bib.identifiers import source_url
from juju_radar.model.archive import Archive
from juju_radar.model.issue_records import format_score
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem
from juju_radar.model.story_pages import (
    StoryView,
    published_stories,
    single_reviewed_work,
    story_view,
    topic_neighbours,
)
from juju_radar.outputs import story_cards
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.bibliography import Bibliography, load_bibliography
from juju_radar.sphinx_ext.cite_as import cite_boxes
from juju_radar.sphinx_ext.collector import radar_data, warn
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.outputs.citation_meta import (
    CitedPage,
    citation_metatags,
    schema_work,
)
from juju_radar.sphinx_ext.outputs.downloads import cited_records
from juju_radar.sphinx_ext.outputs.story_bodies import STORY_BODIES, file_key, issue_story_texts
from juju_radar.sphinx_ext.page_assets import load_on_demand
from juju_radar.sphinx_ext.sidebar import ARCHIVE_DOC, period_context
from juju_radar.store.cache import BuildCache, build_cache, digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

STORY_TEMPLATE = "radar-story.html"
# Pagename -> the digest of what its page was written from (its view, the page's frame).
STORY_PAGES = "story-pages"
# Card file -> the digest of its inputs (``story_cards.card_key``).
STORY_CARDS = "story-cards"
STORY_CONTEXT = "radar_story"
TEMPLATES = Path(__file__).parents[2] / "theme" / "templates"


def collected_page(view: Any, template: str, pagename: str) -> tuple[str, dict[str, Any], str]:
    """A page rendered from ``view`` through ``template``, as ``html-collect-pages``
    takes it (``title`` from the view's)."""
    context = {"title": getattr(view, "title", ""), "radar_view": view, "metatags": ""}
    return pagename, context, template


def reference_addresses(bibliography: Bibliography, keys: set[str]) -> dict[str, str]:
    """Citation key -> where a reader follows it (DOI, arXiv or URL), "" when unknown."""
    entries = bibliography.data.entries
    return {
        key: source_url({name.lower(): value for name, value in entries[key].fields.items()}) or ""
        for key in keys
        if key in entries
    }


def story_views(app: Sphinx, archive: Archive, cache: BuildCache) -> list[StoryView]:
    """The view of every published story, its text read back from its issue's page."""
    outdir = Path(app.outdir)
    words = vocabulary(app.config)
    refs = published_stories(archive)
    keys = {key for ref in refs for key in ref.item.citation_keys}
    addresses = reference_addresses(load_bibliography(app.env), keys)
    texts: dict[str, dict[str, str]] = {}
    neighbours = topic_neighbours(archive)
    views = []
    for ref in refs:
        docname = ref.issue.docname
        if docname not in texts:
            page = outdir / app.builder.get_target_uri(docname)
            texts[docname] = issue_story_texts(cache, page)
        body = texts[docname].get(ref.item.id, "")
        views.append(story_view(words, ref, body, addresses, neighbours))
    return views


def frame_digest(app: Sphinx) -> str:
    """What every story page shows besides its view: the templates, the html settings
    and the site's navigation (its toctree and titles)."""
    env = app.env
    templates = sorted(TEMPLATES.rglob("*.html"))
    includes = env.toctree_includes
    navigation = repr(sorted((doc, tuple(children)) for doc, children in includes.items()))
    # Only the titles the navigation shows: an issue is in no toctree, and a new one
    # would otherwise rewrite every story's page.
    listed = {app.config.root_doc, *includes, *(doc for docs in includes.values() for doc in docs)}
    titles = repr(sorted((doc, env.titles[doc].astext()) for doc in listed if doc in env.titles))
    config_hash = getattr(getattr(app.builder, "build_info", None), "config_hash", "")
    return digest(
        *(path.read_bytes() for path in templates),
        navigation,
        titles,
        config_hash,
        Path(__file__).read_bytes(),
    )


def story_url(app: Sphinx, pagename: str) -> str:
    site = SiteUrl.from_config(app.config)
    return site.url(app.builder.get_target_uri(pagename)) if site else ""


def card_text(app: Sphinx, view: StoryView) -> story_cards.CardText:
    topic = f"{view.topic_label} {view.topic_label_en}".strip()
    archive_name = str(app.config.html_title or app.config.project)
    score = f"{format_score(view.score)}/10"
    return story_cards.CardText(
        view.title, topic, score, view.verdict_label, view.date, archive_name
    )


def card_file(pagename: str) -> str:
    return f"{pagename}{story_cards.CARD_SUFFIX}"


def write_card(
    app: Sphinx, cache: BuildCache, view: StoryView, fonts: story_cards.CardFonts
) -> None:
    """The story's card, drawn again only when its inputs changed or its file is gone."""
    card = card_text(app, view)
    key = story_cards.card_key(card, fonts)
    path = Path(app.outdir, card_file(view.pagename))
    if cache.peek(STORY_CARDS, view.pagename) == key and path.is_file():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(story_cards.card_png(card, fonts))
    cache.put(STORY_CARDS, view.pagename, key)


def missing_fonts(app: Sphinx) -> None:
    problem = Problem(
        "conf.py",
        1,
        "error",
        "card-font-missing",
        _(
            "no story card is drawn: the font Noto Sans CJK ({files}) is not installed in "
            "{folders}; install Debian's fonts-noto-cjk"
        ).format(
            files=", ".join(story_cards.FONT_FILES),
            folders=", ".join(str(folder) for folder in story_cards.FONT_FOLDERS),
        ),
    )
    warn(problem, str(Path(app.confdir, "conf.py")))


def remove_stale(outdir: Path, cache: BuildCache, live: set[str], cards: bool) -> None:
    """The pages and cards of stories no longer published, and every card when the site
    draws none (a clean build has none of them)."""
    kept_cards = live if cards else set()
    for namespace, suffix, kept in (
        (STORY_PAGES, ".html", live),
        (STORY_CARDS, story_cards.CARD_SUFFIX, kept_cards),
    ):
        for pagename in [name for name in cache.store(namespace) if name not in kept]:
            Path(outdir, f"{pagename}{suffix}").unlink(missing_ok=True)
            folder = Path(outdir, pagename).parent
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        cache.keep_only(namespace, kept)


def collect_story_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Every published story's page whose view changed since it was written, and its card."""
    if app.builder.format != "html":
        return
    cache = build_cache(app.doctreedir)
    archive = radar_data(app.env).archive()
    views = story_views(app, archive, cache)
    live = {view.pagename for view in views}
    cards = bool(app.config.radar_story_cards)
    remove_stale(Path(app.outdir), cache, live, cards)
    fonts = story_cards.find_fonts() if cards else None
    if cards and fonts is None and views:
        missing_fonts(app)
    frame = frame_digest(app)
    bibliography = load_bibliography(app.env)
    for view in views:
        if fonts is not None:
            write_card(app, cache, view, fonts)
        # Its head describes each cited work (citation_reference, JSON-LD) as its entry does.
        cited = (bibliography.digest(key) for key in view.citation_keys)
        state = digest(frame, repr(view), story_url(app, view.pagename), *cited)
        path = Path(app.outdir, app.builder.get_target_uri(view.pagename))
        if cache.peek(STORY_PAGES, view.pagename) == state and path.is_file():
            continue
        cache.put(STORY_PAGES, view.pagename, state)
        yield collected_page(view, STORY_TEMPLATE, view.pagename)
    keep_story_bodies(app, cache, archive)


def keep_story_bodies(app: Sphinx, cache: BuildCache, archive: Archive) -> None:
    """Forget the stories of pages no longer as they are now."""
    now = time.time_ns()
    keys = [
        file_key(Path(app.outdir, app.builder.get_target_uri(issue.docname)), now)
        for issue in archive.published
    ]
    cache.keep_only(STORY_BODIES, [key for key in keys if key is not None])


# --- what the template shows beside the view --------------------------------------------


def cite_html(app: Sphinx, view: StoryView, url: str) -> str:
    """The cite-as boxes of the story, as the issue page writes an item's (its own URL)."""
    issue = radar_data(app.env).issues[view.issue_docname]
    item = next(item for item in issue.items if item.id == view.item_id)
    container = nodes.container(classes=["radar-story-cite-boxes"])
    container.extend(cite_boxes(cite.item_work(issue, item, url)))
    return str(app.builder.render_partial(container)["fragment"])  # type: ignore[attr-defined]


def download_links(view: StoryView) -> list[tuple[str, str]]:
    """(file next to the story's folder, suffix) of the issue's downloads the story's
    page links: how to cite the issue and its stories, and what it cites."""
    name = view.issue_docname.rsplit("/", 1)[-1]
    suffixes = CITE_SUFFIXES + (DOWNLOAD_SUFFIXES if view.citation_keys else ())
    return [(f"../{name}{suffix}", suffix) for suffix in suffixes]


def story_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """What the story template shows beside its view: the cite-as boxes, the QR code,
    the downloads, the card; and the sidebar marks the issue's period."""
    view = context.get("radar_view")
    if templatename != STORY_TEMPLATE or not isinstance(view, StoryView):
        return
    url = story_url(app, pagename)
    context[STORY_CONTEXT] = True
    context.setdefault("metatags", "")
    context["radar_cite_html"] = cite_html(app, view, url)
    # What the page shows of documents' HTML, which the template prints: the page's
    # style sheets are chosen from its classes (``page_assets.keep_used_assets``).
    context["body"] = view.body_html + context["radar_cite_html"]
    load_on_demand(context)
    context["radar_qr_svg"] = story_cards.qr_svg(url, "本条页面的二维码") if url else ""
    context["radar_downloads"] = download_links(view)
    context["radar_card"] = card_file(view.pagename).rsplit("/", 1)[-1]
    context["radar_score"] = f"{format_score(view.score)}/10"
    if ARCHIVE_DOC in app.env.all_docs:
        context["radar_period"] = period_context(dt.date.fromisoformat(view.date))


# --- what the story page tells link previews and reference managers ---------------------

OPEN_GRAPH = Markup('\n<meta property="{}" content="{}" />')
NAMED = Markup('\n<meta name="{}" content="{}" />')


def card_tags(app: Sphinx, view: StoryView, url: str) -> list[tuple[Markup, str, str]]:
    """OpenGraph and Twitter tags of the story's card (only with the site's address: a
    preview needs absolute addresses); a summary without an image where the site draws
    no cards (``radar_story_cards = False``)."""
    tags = [
        (OPEN_GRAPH, "og:title", view.title),
        (OPEN_GRAPH, "og:type", "article"),
        (OPEN_GRAPH, "og:url", url),
        (OPEN_GRAPH, "og:site_name", str(app.config.html_title or app.config.project)),
        (OPEN_GRAPH, "og:description", view.description),
        (OPEN_GRAPH, "og:locale", "zh_CN"),
    ]
    dated = [
        (OPEN_GRAPH, "article:published_time", view.date),
        (OPEN_GRAPH, "article:section", view.topic_label),
    ]
    if not app.config.radar_story_cards:
        return [*tags, *dated, (NAMED, "twitter:card", "summary")]
    card_url = url.removesuffix(".html") + story_cards.CARD_SUFFIX
    width, height = story_cards.CARD_SIZE
    return [
        *tags,
        (OPEN_GRAPH, "og:image", card_url),
        (OPEN_GRAPH, "og:image:type", "image/png"),
        (OPEN_GRAPH, "og:image:width", str(width)),
        (OPEN_GRAPH, "og:image:height", str(height)),
        (OPEN_GRAPH, "og:image:alt", f"{view.title}（{view.topic_label}，{view.verdict_label}）"),
        *dated,
        (NAMED, "twitter:card", "summary_large_image"),
    ]


def review_of(
    view: StoryView, records: list[dict[str, Any]], url: str
) -> tuple[dict[str, Any], ...]:
    """The story's score as a schema.org ``Review`` of the one work it cites; none when
    it cites no work or several (its score then reviews no single work)."""
    reviewed = single_reviewed_work(view.citation_keys)
    record = next((record for record in records if record.get("id") == reviewed), None)
    if reviewed is None or record is None:
        return ()
    review: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Review",
        "name": view.title,
        "itemReviewed": schema_work(record),
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": view.score,
            "bestRating": 10,
            "worstRating": 0,
        },
        "author": {"@type": "Organization", "name": cite.PUBLISHER},
        "datePublished": view.date,
    }
    if url:
        review["url"] = url
    return (review,)


def add_story_meta(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    view = context.get("radar_view")
    if templatename != STORY_TEMPLATE or not isinstance(view, StoryView):
        return
    url = story_url(app, pagename)
    tags = [(NAMED, "description", view.description)]
    if url:
        tags += card_tags(app, view, url)
    context["metatags"] += "".join(str(tag.format(name, value)) for tag, name, value in tags)
    records = cited_records(app, view.citation_keys)
    modified = dt.date.fromisoformat(view.modified) if view.modified else None
    page = CitedPage(view.title, dt.date.fromisoformat(view.date), story=True, modified=modified)
    reviews = review_of(view, records, url)
    context["metatags"] += citation_metatags(app, page, url, records, reviews)
