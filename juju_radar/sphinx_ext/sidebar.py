"""Where an issue page sits in the archive, for the primary sidebar.

The sidebar's toctree lists the archive page, not the issue pages, so on an issue page it
would mark nothing. Each published issue page gets ``radar_period`` in its template
context; ``templates/sbt-sidebar-nav.html`` marks the archive entry as current and shows
the issue's year and month under it, linked to their headings on the archive page
(``render.archive_listing`` writes the ids ``yYYYY`` and ``yYYYY-mMM``).
"""

from __future__ import annotations

import datetime as dt
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


# --- the navigation, once per folder -----------------------------------------------------

TOCTREE_FUNCTION = "generate_toctree_html"
CACHE_ATTRIBUTE = "radar_toctree_html"


def reset_shared_toctrees(app: Sphinx, env: Any) -> None:
    """Each build starts with none (the toctree may have changed)."""
    setattr(app.builder, CACHE_ATTRIBUTE, {})


def share_toctree_html(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The theme renders the whole site navigation for every page and parses it again with
    BeautifulSoup (~6 ms a page, more as the period pages add up). A page that no toctree
    lists (every issue page) marks nothing in it, so its navigation differs from another
    such page's only by where relative links start: one rendering serves each folder."""
    generate = context.get(TOCTREE_FUNCTION)
    env = app.env
    # Generated pages (the 404 page's links are rewritten) and pages in a toctree keep
    # their own.
    listed = pagename in env.files_to_rebuild or pagename == app.config.root_doc
    shared_page = pagename in env.found_docs or context.get("radar_story", False)
    if generate is None or not shared_page or listed:
        return
    shared = getattr(app.builder, CACHE_ATTRIBUTE, None)
    if shared is None:
        return
    folder = pagename.rpartition("/")[0]

    def generate_for_folder(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("kind", args[0] if args else None) != "sidebar":
            return generate(*args, **kwargs)  # "raw" is a BeautifulSoup tree, changed by callers
        key = (folder, args, tuple(sorted(kwargs.items())))
        if key not in shared:
            shared[key] = str(generate(*args, **kwargs))
        return shared[key]

    context[TOCTREE_FUNCTION] = generate_for_folder
