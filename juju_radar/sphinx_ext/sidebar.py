"""Where an issue page sits in the archive, for the primary sidebar.

The sidebar's toctree lists the archive page, not the issue pages, so on an issue page it
would mark nothing. Each published issue page gets ``radar_period`` in its template
context; ``templates/sbt-sidebar-nav.html`` marks the archive entry as current and shows
the issue's year and month under it, linked to their headings on the archive page
(``render.archive_listing`` writes the ids ``yYYYY`` and ``yYYYY-mMM``).

A listing page (the front page, the issues' archive, the topics, the best items, the
references' index, the statistics, the period pages) has no right-hand table of contents:
a documentation theme's "on this page" column, which on a listing lists one or two
headings. The theme leaves it out of a page whose metadata holds ``NO_PAGE_TOC``
(pydata-sphinx-theme's documented ``html_theme.sidebar_secondary.remove``). The period
pages (``listing_pages``) have none: their body has no section under its title.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ARCHIVE_DOC = "issues/index"
NO_PAGE_TOC = "html_theme.sidebar_secondary.remove"


def issue_period(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    issue = radar_data(app.env).issues.get(pagename)
    if issue is None or not issue.published or ARCHIVE_DOC not in app.env.all_docs:
        return
    context["radar_period"] = period_context(issue.date)


def period_context(date: dt.date) -> dict[str, str]:
    """The archive's year and month of ``date``, as the sidebar marks them."""
    year, month = date.year, date.month
    return {
        "archive": ARCHIVE_DOC,
        "year": f"{year} 年",
        "year_anchor": f"y{year}",
        "month": f"{month} 月",
        "month_anchor": f"y{year}-m{month:02d}",
    }


def no_page_toc(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The listing documents' pages without the right-hand table of contents."""
    data = radar_data(app.env)
    if pagename in data.listing_docs or pagename in data.period_pages:
        context["meta"] = {**(context.get("meta") or {}), NO_PAGE_TOC: "true"}
