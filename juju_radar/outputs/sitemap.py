"""The sitemap lists every published page, in a fixed order, after any build.

sphinx-sitemap collects the pages written *in this build* (an incremental build
writes a few) in the order they were written (parallel writes finish in any order).
Just before it writes ``sitemap.xml``, its queue is refilled here with every page of
the site except drafts and the 404 page, sorted, so each build writes the same file.
"""

from __future__ import annotations

import queue
from typing import TYPE_CHECKING

from sphinx_sitemap import is_excluded

from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

# sphinx-sitemap's create_sitemap is connected at the default priority (500).
BEFORE_SITEMAP = 400


def published_pages(app: Sphinx) -> list[str]:
    """Output paths of every page except drafts and the 404 page: home first."""
    issues = radar_data(app.env).issues
    drafts = {docname for docname, issue in issues.items() if not issue.published}
    hidden = drafts | {app.config.notfound_pagename}
    docnames = sorted(app.env.found_docs - hidden, key=lambda name: (name != "index", name))
    links = [app.builder.get_target_uri(docname) for docname in docnames]
    return [link for link in links if not is_excluded(link, app.config.sitemap_excludes)]


def list_published_pages(app: Sphinx, exception: BaseException | None) -> None:
    links = getattr(app, "sitemap_links", None)
    if exception is not None or links is None:
        return
    while True:
        try:
            links.get_nowait()
        except queue.Empty:
            break
    for link in published_pages(app):
        links.put((link, None))
