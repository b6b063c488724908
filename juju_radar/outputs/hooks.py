"""Publishing: feeds, data export, statistics page, sitemap, social and citation meta,
404 page.

``setup(app)`` is called from ``extension.setup_extension`` after the configuration
values are declared. Without ``radar_site_url`` nothing that needs absolute URLs is
made (feeds, sitemap, social meta); the build says so in one info line.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from juju_radar.outputs import citation_meta, sitemap, social, stats
from juju_radar.outputs.export import ExportContext, write_export
from juju_radar.outputs.feeds import FEED_DIR, FeedContext, write_feeds
from juju_radar.outputs.sitemap import SITEMAP_FILE
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.bibliography import load_bibliography
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.directives import listing_directive
from juju_radar.sphinx_ext.transforms import add_renderer

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


def citation_identifiers(app: Sphinx) -> dict[str, dict[str, str]]:
    return load_bibliography(app.env).identifiers


def say_without_site_url(app: Sphinx) -> None:
    if not SiteUrl.from_config(app.config):
        logger.info("radar_site_url is not set: no feeds, sitemap or social meta tags are written")


def remove_url_outputs(outdir: Path) -> None:
    """What a build with a site URL wrote and a build without one does not write."""
    shutil.rmtree(outdir / FEED_DIR, ignore_errors=True)
    (outdir / SITEMAP_FILE).unlink(missing_ok=True)


def write_publications(app: Sphinx, exception: BaseException | None) -> None:
    """Feeds and data, from every collected issue: the same after any build."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    archive = radar_data(app.env).archive()
    site = SiteUrl.from_config(app.config)
    target_uri = app.builder.get_target_uri
    words = vocabulary(app.config)
    identifiers = citation_identifiers(app)
    write_export(ExportContext(archive, words, site, target_uri, identifiers), outdir)
    if not site:
        remove_url_outputs(outdir)
        return
    feed_context = FeedContext(
        archive=archive,
        vocabulary=words,
        site=site,
        target_uri=target_uri,
        site_title=app.config.html_title or app.config.project,
        author=app.config.author,
        limit=app.config.radar_feed_limit,
    )
    write_feeds(feed_context, outdir)
    sitemap.write_sitemap(app, site, outdir)


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("notfound.extension")
    if SiteUrl.from_config(app.config):
        app.setup_extension("sphinxext.opengraph")
    app.connect("config-inited", social.configure_extensions)
    app.connect("builder-inited", say_without_site_url)
    app.connect("html-page-context", social.describe_page, priority=400)
    app.connect("html-page-context", social.add_feed_links)
    app.connect("html-page-context", social.keep_drafts_unindexed)
    app.connect("html-page-context", citation_meta.add_citation_meta)
    app.connect("build-finished", write_publications)
    app.add_directive("radar-stats", listing_directive("stats"))
    add_renderer("stats", stats.stats_page, listing=True)
    app.add_css_file("stats.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
