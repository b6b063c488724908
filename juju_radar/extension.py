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
    app.connect("builder-inited", init_env)
    app.add_event(paging.FACTS_PARSED_AHEAD)
    app.add_event(SHARE_PAGE_DIGESTS)
    app.connect("builder-inited", paging.note_drafts_ahead)
    app.connect("builder-inited", listing_pages.remove_old_stubs, priority=300)
    app.connect("html-collect-pages", listing_pages.collect_listing_pages)
    app.connect("builder-inited", buildcache.start_build, priority=100)
    app.connect("env-before-read-docs", bibliography.load_before_reading)
    accelerations.connect(app)
    forget_removed_entries = deferred_in_preview(bibliography.forget_removed_entries)
    app.connect("build-finished", forget_removed_entries, priority=400)
    app.connect("build-finished", deferred_in_preview(buildcache.finish_build), priority=800)
    app.add_source_parser(content.ContentParser, override=True)
    app.connect("config-inited", content.only_markdown_sources)
    app.connect("builder-inited", content.refuse_outside_symlinks, priority=300)
    app.connect("builder-inited", content.lock_down_parsing)
    app.connect("builder-inited", safety.check_built_pages)
    app.add_transform(content.RefuseForeignNodes)
    app.connect("html-page-context", safety.escape_theme_text, priority=900)
    # After every other handler: the policy allows the inline code they leave.
    app.connect("html-page-context", csp.add_policy, priority=990)
    # After the handlers that add files to a page, before the policy is written.
    app.connect("html-page-context", page_assets.keep_used_assets, priority=980)
    app.add_post_transform(safety.UnsafeLinkTransform)
    app.connect("builder-inited", checks.refuse_unreadable_bib, priority=400)
    app.connect("env-check-consistency", checks.check_archive_consistency)
    app.connect("env-get-outdated", unreadable_pages.leave_out_unreadable, priority=300)
    app.connect("env-get-outdated", drafts.leave_out_drafts, priority=400)
    app.connect("env-get-outdated", integrity.note_removed_docs)
    app.connect("env-get-outdated", saved_during_read.read_saved_again, priority=550)
    app.connect("env-get-outdated", page_history.read_history, priority=560)
    app.connect("html-page-context", page_history.show_last_change)
    app.connect("env-before-read-docs", saved_during_read.note_read_start, priority=990)
    app.connect("env-updated", saved_during_read.forget_unsaved)
    app.connect("build-finished", integrity.remove_stale_outputs)
    app.connect("html-page-context", downloads.write_issue_bib)
    write_missing_issue_bibs = deferred_in_preview(downloads.write_missing_issue_bibs)
    app.connect("build-finished", write_missing_issue_bibs, priority=300)
    app.connect("html-page-context", sidebar.issue_period)
    app.connect("html-page-context", sidebar.no_page_toc)
    app.connect("html-page-context", add_banner)
    app.add_css_file("radar.css")
    app.add_js_file("radar.js")
    search.setup(app)
    publishing.setup(app)
    entities.setup(app)
