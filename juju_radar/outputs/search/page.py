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

from juju_radar.build.cache import build_cache, digest
from juju_radar.outputs.search.bundle import bundle_is_complete
from juju_radar.outputs.search.parts import (
    BUNDLE_DIR,
    Part,
    index_parts,
    needs_indexing,
    parts_of,
    publish_parts,
)
from juju_radar.outputs.search.records import site_records
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.preview import skipped_in_preview
from juju_radar.sphinx_ext.render import topic_name
from juju_radar.sphinx_ext.translator import RadarHTMLTranslator, is_searchable

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

SEARCH_DOC = "search"
# The records Pagefind indexed last (a folder per part), kept with the doctrees, and the
# digest of the records behind each part's bundle in each output folder.
RECORD_SITE = "radar-search-records"
SEARCH_BUNDLES = "search-bundles"
INDEXED_PAGES = "pages"  # the pages' stamps when the parts were last indexed, and the parts
PAGE_RECORDS = "search-page-records"  # the records of each page, and of which version
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


def searchable_pages(app: Sphinx) -> dict[str, tuple[str, str]]:
    """docname -> (output file relative to the output dir, page title)."""
    env = app.env
    return {
        docname: (app.builder.get_target_uri(docname), env.titles[docname].astext())
        for docname in sorted(env.found_docs)
        if is_searchable(env, docname) and docname in env.titles
    }


def build_pagefind_index(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    started = time.perf_counter()
    archive = radar_data(app.env).archive()
    cache = build_cache(app.doctreedir)
    known = cache.peek(PAGE_RECORDS, PAGE_RECORDS)
    records, now_known = site_records(
        app.builder.outdir, searchable_pages(app), archive, vocabulary(app.config), known
    )
    if now_known != known:
        cache.put(PAGE_RECORDS, PAGE_RECORDS, now_known)
    lang = (app.config.language or "en").replace("_", "-")
    bundles = Path(app.builder.outdir, BUNDLE_DIR)
    pages_state = digest(
        lang, *(f"{name}\0{stamp}" for name, (stamp, _) in sorted(now_known.items()))
    )
    indexed_pages = cache.peek(SEARCH_BUNDLES, INDEXED_PAGES)
    if (
        indexed_pages is not None
        and indexed_pages[0] == pages_state
        and all(bundle_is_complete(bundles / name) for name in indexed_pages[1])
    ):
        # Not a page with records was rewritten since the parts were indexed.
        logger.info("search index: %d records, unchanged", len(records))
        return
    cache.put(SEARCH_BUNDLES, INDEXED_PAGES, None)
    newest = max((issue.date.year for issue in archive.published), default=None)
    parts = parts_of(records, newest, lang)
    record_sites = Path(app.doctreedir, RECORD_SITE)

    def key(part: Part) -> str:
        # The cache sits beside the output (one per staged tree, copied with it): the
        # part's name says which bundle, wherever the tree is.
        return part.name

    changed = [
        part
        for part in parts
        if needs_indexing(part, bundles, cache.peek(SEARCH_BUNDLES, key(part)))
    ]
    for part in changed:
        cache.put(SEARCH_BUNDLES, key(part), None)
    if changed:
        cache.save()  # an interrupted indexing must not leave the old state on record
    indexed = {part.name for part in changed}
    failed = False
    for part_name, result in index_parts(changed, bundles, record_sites).items():
        if result.returncode != 0:
            failed = True
            logger.warning(
                "pagefind failed on the search part %s (exit %s): %s",
                part_name,
                result.returncode,
                result.stderr.strip(),
                type="radar",
                subtype="search",
            )
    if failed:
        return
    publish_parts([part.name for part in parts], bundles, record_sites)
    for part in changed:
        cache.put(SEARCH_BUNDLES, key(part), part.state)
    cache.put(SEARCH_BUNDLES, INDEXED_PAGES, (pages_state, [part.name for part in parts]))
    if not changed:
        logger.info("search index: %d records, unchanged", len(records))
        return
    seconds = time.perf_counter() - started
    logger.info(
        "search index: %d records in %.2f s; parts indexed: %s (%s records); unchanged: %s",
        len(records),
        seconds,
        ", ".join(part.name for part in changed),
        sum(part.records for part in changed),
        ", ".join(part.name for part in parts if part.name not in indexed) or "none",
    )


def setup(app: Sphinx) -> None:
    app.set_translator("html", RadarHTMLTranslator)
    app.add_directive("radar-search", SearchPageDirective)
    app.connect("builder-inited", disable_sphinx_search)
    app.connect("build-finished", skipped_in_preview(build_pagefind_index))
    app.add_js_file("search.js", loading_method="defer")
    app.add_css_file("search.css")
    app.connect("html-page-context", default_color_mode)
