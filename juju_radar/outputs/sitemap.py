"""The sitemap lists every published page, in a fixed order, after any build.

It is written from the collected pages, not from the pages written in this build (an
incremental build writes a few, in any order under ``-j``), so every build of the same
sources writes the same file. Drafts and the 404 page are left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree import ElementTree

from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

SITEMAP_FILE = "sitemap.xml"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def published_pages(app: Sphinx) -> list[str]:
    """Output paths of every page except drafts and the 404 page: home first."""
    issues = radar_data(app.env).issues
    drafts = {docname for docname, issue in issues.items() if not issue.published}
    hidden = drafts | {app.config.notfound_pagename}
    docnames = sorted(app.env.found_docs - hidden, key=lambda name: (name != "index", name))
    return [app.builder.get_target_uri(docname) for docname in docnames]


def sitemap_xml(site: SiteUrl, pages: list[str]) -> bytes:
    root = ElementTree.Element("urlset", xmlns=SITEMAP_NS)
    for page in pages:
        url = ElementTree.SubElement(root, "url")
        ElementTree.SubElement(url, "loc").text = site.url(page)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)


def write_sitemap(app: Sphinx, site: SiteUrl, outdir: Path) -> None:
    (outdir / SITEMAP_FILE).write_bytes(sitemap_xml(site, published_pages(app)))
