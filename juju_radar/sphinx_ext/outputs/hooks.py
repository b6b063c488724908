"""Publishing: feeds, data export, statistics page, sitemap, social and citation meta,
404 page.

``setup(app)`` is called from ``extension.setup_extension`` after the configuration
values are declared. Feeds and the export are written by every build (with relative
links while the site's address is unknown); the sitemap, ``robots.txt`` and social meta
need the address, and the build says in one line when they are left out (an info line
of Sphinx's log, and a line of the quiet ``make html``'s summary; never a warning, which
``-W`` would make an error).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.errors import SphinxParallelError
from sphinx.util import logging
from sphinx.util.parallel import ParallelTasks, SerialTasks, parallel_available

from juju_radar.model.messages import _, ngettext
from juju_radar.outputs import export, summary
from juju_radar.outputs.export import ExportContext, export_complete, write_export
from juju_radar.outputs.feeds import FeedContext, write_feeds
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.bibliography import load_bibliography
from juju_radar.sphinx_ext.collector import archive_version, radar_data
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.directives import listing_directive
from juju_radar.sphinx_ext.drafts import drafts_left_out
from juju_radar.sphinx_ext.outputs import (
    citation_meta,
    license_notice,
    sitemap,
    social,
    stats,
    story_pages,
    theme_css,
)
from juju_radar.sphinx_ext.outputs.sitemap import ROBOTS_FILE, SITEMAP_FILE
from juju_radar.sphinx_ext.preview import skipped_in_preview
from juju_radar.sphinx_ext.transforms import add_renderer, listing_view
from juju_radar.store.build_state import build_state
from juju_radar.store.cache import build_cache, digest, source_digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

logger = logging.getLogger(__name__)


def citation_identifiers(app: Sphinx) -> dict[str, dict[str, str]]:
    return load_bibliography(app.env).identifiers


def without_site_url(app: Sphinx) -> list[str]:
    """The line saying what a build without the site's address leaves out, if it has none."""
    if SiteUrl.from_config(app.config):
        return []
    return [
        _(
            "the site's address is not set (RADAR_SITE_URL or radar_site_url): no "
            "sitemap, robots.txt or social meta tags; feeds and the export use relative "
            "links"
        )
    ]


def say_without_site_url(app: Sphinx) -> None:
    """In Sphinx's log (a verbose build); a quiet one has it in its summary, not as a
    warning, which -W would make an error."""
    for line in without_site_url(app):
        logger.info(line)


def remove_url_outputs(outdir: Path) -> None:
    """What a build with a site URL wrote and a build without one does not write."""
    for name in (SITEMAP_FILE, ROBOTS_FILE):
        (outdir / name).unlink(missing_ok=True)


def holdings(app: Sphinx) -> str:
    """What the built site holds, in one sentence."""
    data = radar_data(app.env)
    archive = data.archive()
    drafts = len(data.issues) - len(archive.published)
    items = sum(len(issue.items) for issue in archive.published)
    references = len(load_bibliography(app.env).data.entries)
    published = len(archive.published)
    issues = ngettext("{count} published issue", "{count} published issues", published)
    issues = issues.format(count=published)
    if drafts:
        issues += ngettext(" (and {count} draft)", " (and {count} drafts)", drafts).format(
            count=drafts
        )
    elif left_out := drafts_left_out(app):
        issues += ngettext(
            " ({count} draft left out)", " ({count} drafts left out)", left_out
        ).format(count=left_out)
    return _("The site holds {issues}, {items} and {references}.").format(
        issues=issues,
        items=ngettext("{count} item", "{count} items", items).format(count=items),
        references=ngettext("{count} reference", "{count} references", references).format(
            count=references
        ),
    )


def say_holdings(app: Sphinx, exception: BaseException | None) -> None:
    """The build's last words (Sphinx's closing message, after "build succeeded")."""
    if exception is None and app.builder.format == "html":
        # The class's: a preview's builder says this after every build (Sphinx's text is
        # a lazy translation).
        held = holdings(app)
        said = (str(type(app.builder).epilog or ""), held)
        app.builder.epilog = " ".join(part for part in said if part)  # type: ignore[misc]
        summary.write_summary(app, held, without_site_url(app))


EXPORTS = "data-export"


def export_version(app: Sphinx, site: SiteUrl) -> str:
    """What the data export is made of: every page as read, the .bib files, the site's
    address and link style, and the code that writes it (the export took 2.5 s of a 7 s
    no-change build at 3,650 issues)."""
    config = app.config
    return digest(
        archive_version(app.env, load_bibliography(app.env)),
        repr(site),
        repr((config.html_file_suffix, config.html_link_suffix)),
        source_digest(export),
    )


@dataclass
class Publications:
    """Feeds, the data export and the sitemap, written by a forked process beside the
    search index: everything they are made of is gathered first, in the main process,
    and the build cache is touched only there. A thread held the main process's lock
    while the search index's many small file operations waited for it (1 s of adding an
    issue at 3,650 issues)."""

    outdir: Path
    export: ExportContext | None  # None: the export is up to date
    feeds: FeedContext
    sitemap: tuple[SiteUrl, list[tuple[str, dt.date | None]]] | None
    process: ParallelTasks | SerialTasks | None = None

    def write(self) -> None:
        if self.export is not None:
            write_export(self.export, self.outdir)
        write_feeds(self.feeds, self.outdir)
        if self.sitemap is not None:
            sitemap.write_sitemap(*self.sitemap, self.outdir)
        else:
            remove_url_outputs(self.outdir)

    def start(self) -> None:
        """Forked where the platform can fork; written at once where it cannot."""
        self.process = ParallelTasks(1) if parallel_available else SerialTasks()
        self.process.add_task(self.write)

    def join(self) -> None:
        """Raises ``SphinxParallelError`` (with the child's traceback) if writing failed."""
        if self.process is not None:
            self.process.join()


def start_publications(app: Sphinx, exception: BaseException | None) -> None:
    """Feeds and data, from every collected issue: the same after any build."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    archive = radar_data(app.env).archive()
    site = SiteUrl.from_config(app.config)
    target_uri = app.builder.get_target_uri
    words = vocabulary(app.config)
    export_state = export_version(app, site)
    cache = build_cache(app.doctreedir)
    export_current = cache.peek(EXPORTS, EXPORTS) == export_state and export_complete(outdir)
    export_context = ExportContext(archive, words, site, target_uri, citation_identifiers(app))
    feed_context = FeedContext(
        archive=archive,
        vocabulary=words,
        site=site,
        target_uri=target_uri,
        site_title=app.config.html_title or app.config.project,
        author=app.config.author,
        limit=app.config.radar_feed_limit,
    )
    publications = Publications(
        outdir,
        None if export_current else export_context,
        feed_context,
        (site, sitemap.published_pages(app)) if site else None,
    )
    publications.start()
    build_state(app).publications = (publications, export_state)


def finish_publications(app: Sphinx, exception: BaseException | None) -> None:
    state = build_state(app)
    running, state.publications = state.publications, None
    if running is None:
        return
    publications, export_state = running
    try:
        publications.join()
    except SphinxParallelError:
        if exception is None:
            raise
        return  # the build failed first: its error is the one reported
    if exception is None and publications.export is not None:
        build_cache(app.doctreedir).put(EXPORTS, EXPORTS, export_state)


def setup(app: Sphinx, steps: Steps) -> dict[str, Any]:
    app.setup_extension("notfound.extension")
    if SiteUrl.from_config(app.config):
        app.setup_extension("sphinxext.opengraph")
    app.connect("config-inited", social.configure_extensions)
    steps.offer("say-without-site-url", say_without_site_url)
    steps.offer("describe-page", social.describe_page)
    steps.offer("add-feed-links", social.add_feed_links)
    steps.offer("keep-drafts-unindexed", social.keep_drafts_unindexed)
    steps.offer("add-citation-meta", citation_meta.add_citation_meta)
    steps.offer("add-license", license_notice.add_license)
    steps.offer("collect-story-pages", story_pages.collect_story_pages)
    steps.offer("story-page-context", story_pages.story_page_context)
    steps.offer("add-story-meta", story_pages.add_story_meta)
    steps.offer("start-publications", skipped_in_preview(start_publications))
    steps.offer("finish-publications", finish_publications)
    steps.offer("say-holdings", say_holdings)
    steps.offer("subset-theme-sheets", skipped_in_preview(theme_css.subset_theme_sheets))
    steps.offer("note-changes", summary.note_changes)
    app.add_directive("radar-stats", listing_directive("stats"))
    add_renderer(
        "stats", lambda context, node: stats.stats_page(context, listing_view(context, node))
    )
    app.add_css_file("stats.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
