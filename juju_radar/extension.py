"""Wiring: every ``app.add_*`` and ``app.connect`` of the extension, nothing else."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from juju_radar.accel import register as accelerations
from juju_radar.bib.style import register as register_bib_style
from juju_radar.build import quiet
from juju_radar.build import stale_outputs as integrity
from juju_radar.build.builder import stock_builder
from juju_radar.build.staged import STAGED_BUILD_ENV
from juju_radar.outputs import siteurl
from juju_radar.sphinx_ext import archive_checks as checks
from juju_radar.sphinx_ext import (
    bibliography,
    config,
    content,
    csp,
    drafts,
    entities,
    front_page,
    listing_pages,
    page_assets,
    page_history,
    paging,
    safety,
    saved_during_read,
    sidebar,
    translations,
    unreadable_pages,
)
from juju_radar.sphinx_ext.collector import SHARE_PAGE_DIGESTS, RadarCollector, init_env
from juju_radar.sphinx_ext.directives import (
    ClosingDirective,
    ItemDirective,
    TopicDirective,
    listing_directive,
)
from juju_radar.sphinx_ext.headings import FlattenHeadings, WholeWordsInHeadings
from juju_radar.sphinx_ext.item_lines import ITEM_LIST_WRITER
from juju_radar.sphinx_ext.nodes import (
    depart_disclosure,
    depart_disclosure_summary,
    disclosure,
    disclosure_summary,
    radar_placeholder,
    visit_disclosure,
    visit_disclosure_summary,
)
from juju_radar.sphinx_ext.outputs import downloads, search
from juju_radar.sphinx_ext.outputs import hooks as publishing
from juju_radar.sphinx_ext.pipeline import Steps
from juju_radar.sphinx_ext.preview import BUILD_AGAIN, add_banner, deferred_in_preview
from juju_radar.sphinx_ext.transforms import (
    IssuePageTransform,
    PlaceholderTransform,
    add_renderer,
)
from juju_radar.store import cache as buildcache

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LISTINGS = {
    "radar-front": "front",
    "radar-archive": "archive",
    "radar-topic-index": "topic-index",
    "radar-best": "best",
    "radar-references-index": "references-index",
    "radar-feeds": "feeds",
}


def setup_extension(app: Sphinx) -> None:
    steps = Steps()  # what runs at the events where order matters (sphinx_ext/pipeline.py)
    quiet.quiet_console(app)
    config.add_config_values(app)
    siteurl.apply_environment(app)
    app.connect("config-inited", config.check_config)
    app.connect("config-inited", config.add_theme_files)
    app.connect("config-inited", config.exclude_non_site)
    app.connect("config-inited", config.no_documentation_pager)
    app.connect("config-inited", translations.compile_translations)
    register_bib_style()
    staged = bool(os.environ.get(STAGED_BUILD_ENV))
    app.add_builder(accelerations.fast_builder(staged) or stock_builder(staged), override=True)
    app.add_event(BUILD_AGAIN)
    app.add_node(radar_placeholder)
    app.add_node(disclosure, html=(visit_disclosure, depart_disclosure))
    app.add_event(ITEM_LIST_WRITER)
    app.add_event(search.SEARCH_MERGER)
    app.add_event(search.SEARCH_INDEXER)
    app.add_node(disclosure_summary, html=(visit_disclosure_summary, depart_disclosure_summary))
    app.add_directive("radar-item", ItemDirective)
    app.add_directive("radar-closing", ClosingDirective)
    app.add_directive("radar-topic", TopicDirective)
    for name, kind in LISTINGS.items():
        app.add_directive(name, listing_directive(kind))
    add_renderer("front", front_page.render_front_page)
    app.add_env_collector(RadarCollector)
    app.add_transform(IssuePageTransform)
    app.add_transform(FlattenHeadings)
    app.add_post_transform(WholeWordsInHeadings)
    app.add_post_transform(PlaceholderTransform)
    steps.offer("init-env", init_env)
    app.add_event(paging.FACTS_PARSED_AHEAD)
    app.add_event(SHARE_PAGE_DIGESTS)
    steps.offer("note-drafts-ahead", paging.note_drafts_ahead)
    steps.offer("remove-old-stubs", listing_pages.remove_old_stubs)
    steps.offer("collect-listing-pages", listing_pages.collect_listing_pages)
    steps.offer("start-build-cache", buildcache.start_build)
    steps.offer("load-bibliography-before-reading", bibliography.load_before_reading)
    accelerations.connect(app, steps)
    steps.offer("forget-removed-entries", deferred_in_preview(bibliography.forget_removed_entries))
    steps.offer("finish-build-cache", deferred_in_preview(buildcache.finish_build))
    app.add_source_parser(content.ContentParser, override=True)
    app.connect("config-inited", content.only_markdown_sources)
    steps.offer("refuse-outside-symlinks", content.refuse_outside_symlinks)
    steps.offer("lock-down-parsing", content.lock_down_parsing)
    steps.offer("check-built-pages", safety.check_built_pages)
    app.add_transform(content.RefuseForeignNodes)
    steps.offer("escape-theme-text", safety.escape_theme_text)
    steps.offer("add-policy", csp.add_policy)
    steps.offer("keep-used-assets", page_assets.keep_used_assets)
    app.add_post_transform(safety.UnsafeLinkTransform)
    steps.offer("refuse-unreadable-bib", checks.refuse_unreadable_bib)
    app.connect("env-check-consistency", checks.check_archive_consistency)
    steps.offer("leave-out-unreadable", unreadable_pages.leave_out_unreadable)
    steps.offer("leave-out-drafts", drafts.leave_out_drafts)
    steps.offer("note-removed-docs", integrity.note_removed_docs)
    steps.offer("read-saved-again", saved_during_read.read_saved_again)
    steps.offer("read-history", page_history.read_history)
    steps.offer("show-last-change", page_history.show_last_change)
    steps.offer("note-read-start", saved_during_read.note_read_start)
    steps.offer("forget-unsaved", saved_during_read.forget_unsaved)
    steps.offer("remove-stale-outputs", integrity.remove_stale_outputs)
    steps.offer("write-issue-bib", downloads.write_issue_bib)
    steps.offer("write-missing-issue-bibs", deferred_in_preview(downloads.write_missing_issue_bibs))
    steps.offer("issue-period", sidebar.issue_period)
    steps.offer("no-page-toc", sidebar.no_page_toc)
    steps.offer("preview-banner", add_banner)
    app.add_css_file("radar.css")
    app.add_js_file("radar.js")
    search.setup(app, steps)
    publishing.setup(app, steps)
    entities.setup(app, steps)
    steps.connect(app)  # last: in the table's order (sphinx_ext/pipeline.py)
