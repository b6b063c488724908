"""The sitemap lists every published page, in a fixed order, and ``robots.txt`` names it.

Both need the site's address (a sitemap's URLs are absolute). The sitemap is written
from the collected pages, not from the pages written in this build (an incremental build
writes a few, in any order under ``-j``), so every build of the same sources writes the
same file. Drafts and the 404 page are left out.

``<lastmod>`` is the date the page last changed, as its footer says it
(``page_history.page_last_change``: its last correction, else its file's last commit):
an issue page's, or its own date when neither is known (outside git); a story's page
follows its issue's. Every other page (listings, topics, references, stats) changes
with each issue: the newest published issue's date, or its own file's last change when
that is later.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree import ElementTree

from juju_radar.model.story_pages import published_stories, story_pagename
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.entities import sitemap_pages
from juju_radar.sphinx_ext.listing_pages import listing_titles
from juju_radar.sphinx_ext.page_history import page_last_change

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SITEMAP_FILE = "sitemap.xml"
ROBOTS_FILE = "robots.txt"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def published_pages(app: Sphinx) -> list[tuple[str, dt.date | None]]:
    """(output path, last change) of every page except drafts and the 404 page, and of
    every story's page: home first."""
    issues = radar_data(app.env).issues
    drafts = {docname for docname, issue in issues.items() if not issue.published}
    newest = max((issue.date for issue in issues.values() if issue.published), default=None)
    hidden = drafts | {app.config.notfound_pagename}
    shown = (app.env.found_docs | listing_titles(app).keys()) - hidden
    dates = {docname: latest(newest, page_last_change(app.env, docname)) for docname in shown}
    dates |= {
        docname: page_last_change(app.env, docname) or issue.date
        for docname, issue in issues.items()
        if docname in dates
    }
    dates |= {  # each story's page, dated as its issue
        story_pagename(ref.docname, ref.item.id): dates.get(ref.docname) or ref.issue.date
        for ref in published_stories(radar_data(app.env).archive())
    }
    pagenames = sorted(dates, key=lambda name: (name != "index", name))
    pages = [(app.builder.get_target_uri(name), dates[name]) for name in pagenames]
    return pages + [(page, newest) for page in sitemap_pages(app)]


def latest(*days: dt.date | None) -> dt.date | None:
    return max((day for day in days if day is not None), default=None)


def sitemap_xml(site: SiteUrl, pages: list[tuple[str, dt.date | None]]) -> bytes:
    root = ElementTree.Element("urlset", xmlns=SITEMAP_NS)
    for page, changed in pages:
        url = ElementTree.SubElement(root, "url")
        ElementTree.SubElement(url, "loc").text = site.url(page)
        if changed is not None:
            ElementTree.SubElement(url, "lastmod").text = changed.isoformat()
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)


def robots_txt(site: SiteUrl) -> str:
    """Every page may be crawled (drafts carry their own noindex); the sitemap is named."""
    return f"User-agent: *\nAllow: /\n\nSitemap: {site.url(SITEMAP_FILE)}\n"


def write_sitemap(site: SiteUrl, pages: list[tuple[str, dt.date | None]], outdir: Path) -> None:
    (outdir / SITEMAP_FILE).write_bytes(sitemap_xml(site, pages))
    (outdir / ROBOTS_FILE).write_text(robots_txt(site), encoding="utf-8")
