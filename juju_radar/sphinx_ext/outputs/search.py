"""Search: the Pagefind index of the built site and its reader interface.

Sphinx's own search (``searchindex.js``, ``searchtools.js``, ``language_data.js`` and
its ``search.html``) is switched off: its zh_CN scripts throw on every page. In its
place ``search.html`` (the ``search.md`` page) and the theme's search dialog (header
button, Ctrl+K / ⌘K) run ``the theme's search.js`` over the Pagefind bundles that are
built into ``OUTDIR/pagefind/<part>/`` at the end of every successful html build.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from juju_radar.model.messages import _
from juju_radar.outputs.search.index import Folders, IndexState, IndexUpdate, SearchPage, usable
from juju_radar.outputs.search.jobs import pagefind
from juju_radar.outputs.search.parts import BUNDLE_DIR
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.entities import searchable_entities
from juju_radar.sphinx_ext.item_lines import topic_name
from juju_radar.sphinx_ext.listing_pages import listing_titles
from juju_radar.sphinx_ext.preview import skipped_in_preview
from juju_radar.sphinx_ext.translator import RadarHTMLTranslator, is_searchable
from juju_radar.store.cache import build_cache

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

logger = logging.getLogger(__name__)

SEARCH_DOC = "search"
# Kept with the doctrees: the records Pagefind indexed last and its bundle, a folder
# each per piece, and what the index was built from (index.IndexState).
RECORD_SITE = "radar-search-records"
PIECES = "radar-search-pieces"
SEARCH_BUNDLES = "search-bundles"
# Emitted once a build: a handler may answer with an ``index.Merger`` (the acceleration
# ``accel.search_merge``), else each part of the index is indexed whole.
SEARCH_MERGER = "radar-search-merger"
# Likewise: a handler may answer with a ``jobs.Indexer`` (the acceleration
# ``accel.pagefind_service``), else Pagefind's command line indexes each piece.
SEARCH_INDEXER = "radar-search-indexer"
INDEX_STATE = "index"
NOSCRIPT_TEXT = "搜索需要启用 JavaScript。"


class SearchPageDirective(SphinxDirective):
    """``{radar-search}``: where ``search.js`` puts the search form, filters and results."""

    def run(self) -> list[nodes.Node]:
        vocab = vocabulary(self.config)
        box = nodes.container(classes=["radar-search-page"])
        box += nodes.paragraph("", NOSCRIPT_TEXT, classes=["radar-search-status"])
        # The filters' values are the Chinese labels. From these (hidden) lists search.js
        # reads the English label to show beside a topic, and the other names an address
        # may give a topic or verdict by: its key (?topic=training) or English label.
        box += names_list("topic", [(topic.key, topic_name(topic)) for topic in vocab.topics])
        box += names_list(
            "verdict",
            [
                (verdict.key, nodes.inline("", verdict.label, classes=["radar-verdict"]))
                for verdict in vocab.verdicts
            ],
        )
        return [box]


def names_list(kind: str, names: list[tuple[str, nodes.inline]]) -> nodes.bullet_list:
    listed = nodes.bullet_list(classes=[f"radar-{kind}-names", "radar-filter-names"])
    for key, name in names:
        key_node = nodes.inline("", key, classes=["radar-name-key"])
        listed += nodes.list_item("", nodes.paragraph("", "", key_node, name))
    return listed


def disable_sphinx_search(app: Sphinx) -> None:
    """No ``searchindex.js`` and no generated ``search.html``: ``search.md`` replaces it."""
    if app.builder.format == "html":
        app.builder.search = False  # type: ignore[attr-defined]


def default_color_mode(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """pydata-sphinx-theme logs a console error on every page when ``default_mode`` is
    unset ("Got invalid theme mode"); the search pages must run without script errors."""
    context.setdefault("default_mode", "auto")


def searchable_pages(app: Sphinx) -> list[SearchPage]:
    """The searchable documents and the listing pages (``listing_pages``), by name."""
    env = app.env
    issues = {issue.docname: issue for issue in radar_data(env).archive().published}
    titles = {
        docname: env.titles[docname].astext()
        for docname in env.found_docs
        if is_searchable(env, docname) and docname in env.titles
    }
    titles.update(listing_titles(app))
    return [
        SearchPage(docname, app.builder.get_target_uri(docname), title, issues.get(docname))
        for docname, title in sorted(titles.items())
    ] + [
        SearchPage(name, filename, title, None)
        for name, filename, title in searchable_entities(app)
    ]


def build_pagefind_index(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    started = time.perf_counter()
    cache = build_cache(app.doctreedir)

    def save_state(state: IndexState) -> None:
        cache.put(SEARCH_BUNDLES, INDEX_STATE, state)
        cache.save()

    state = cache.peek(SEARCH_BUNDLES, INDEX_STATE)
    folders = Folders(
        bundles=Path(app.builder.outdir, BUNDLE_DIR),
        record_sites=Path(app.doctreedir, RECORD_SITE),
        pieces=Path(app.doctreedir, PIECES),
    )
    update = IndexUpdate(
        Path(app.builder.outdir),
        folders,
        vocabulary(app.config),
        (app.config.language or "en").replace("_", "-"),
        state if usable(state) else IndexState(),
        save_state,
        merger=app.emit_firstresult(SEARCH_MERGER),
        index=app.emit_firstresult(SEARCH_INDEXER) or pagefind,
    )
    report = update.run(searchable_pages(app))
    for failure in report.failures:
        logger.warning(
            _("the search index could not be built: {failure}").format(failure=failure),
            type="radar",
            subtype="search",
        )
    if report.failures:
        return
    if not (report.pieces_indexed or report.parts_merged):
        logger.info("search index: unchanged (%s)", ", ".join(report.parts))
        return
    logger.info(
        "search index: %d pages read, %d pieces indexed, parts merged: %s, in %.2f s",
        report.pages_read,
        len(report.pieces_indexed),
        ", ".join(report.parts_merged) or "none",
        time.perf_counter() - started,
    )


def setup(app: Sphinx, steps: Steps) -> None:
    app.set_translator("html", RadarHTMLTranslator)
    app.add_directive("radar-search", SearchPageDirective)
    steps.offer("disable-sphinx-search", disable_sphinx_search)
    steps.offer("build-pagefind-index", skipped_in_preview(build_pagefind_index))
    app.add_js_file("search.js", loading_method="defer")
    app.add_css_file("search.css")
    steps.offer("default-color-mode", default_color_mode)
