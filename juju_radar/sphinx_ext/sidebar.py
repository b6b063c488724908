"""Where an issue page sits in the archive, for the primary sidebar.

The sidebar's toctree lists the archive page, not the issue pages, so on an issue page it
would mark nothing. Each published issue page gets ``radar_period`` in its template
context; ``templates/sbt-sidebar-nav.html`` marks the archive entry as current and shows
the issue's year and month under it, linked to their headings on the archive page
(``render.archive_listing`` writes the ids ``yYYYY`` and ``yYYYY-mMM``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

ARCHIVE_DOC = "issues/index"


def issue_period(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    issue = radar_data(app.env).issues.get(pagename)
    if issue is None or not issue.published or ARCHIVE_DOC not in app.env.all_docs:
        return
    year, month = issue.date.year, issue.date.month
    context["radar_period"] = {
        "archive": ARCHIVE_DOC,
        "year": f"{year} 年",
        "year_anchor": f"y{year}",
        "month": f"{month} 月",
        "month_anchor": f"y{year}-m{month:02d}",
    }
