"""Each page's last change, in its footer: its last correction, else the day of the last
commit that touched its file (``model.history``); outside git, nothing.

The commit days are read once a build, at ``env-get-outdated`` (in the main process,
before any page is read), and kept on the environment: a page whose day changed since the
last build is read and written again, so that an incremental build equals a clean one
when only the history changed (a commit, a checkout). Parallel readers never change it,
so it needs no merge.
"""

from __future__ import annotations

import datetime as dt
import os
from typing import TYPE_CHECKING, Any

from juju_radar.model.history import file_history, last_change, last_commit
from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

COMMIT_DAYS = "radar_commit_days"  # on the environment: docname -> ISO day
LAST_CHANGE = "radar_last_change"  # what the footer template reads


def commit_days(env: BuildEnvironment) -> dict[str, str]:
    days: dict[str, str] = getattr(env, COMMIT_DAYS, {})
    return days


def read_history(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """The pages whose last commit's day changed since the last build, to read again."""
    history = file_history(app.srcdir)
    days = {}
    for docname in env.found_docs:
        path = os.path.relpath(env.doc2path(docname), app.srcdir).replace(os.sep, "/")
        day = last_commit(history, path)
        if day is not None:
            days[docname] = day.isoformat()
    before = commit_days(env)
    setattr(env, COMMIT_DAYS, days)
    return sorted(
        docname
        for docname in env.found_docs
        if days.get(docname) != before.get(docname) and docname not in added | changed
    )


def page_last_change(env: BuildEnvironment, docname: str) -> dt.date | None:
    """The last change of the page read from ``docname``: what its footer says and its
    sitemap ``<lastmod>`` follows."""
    committed = commit_days(env).get(docname)
    issue = radar_data(env).issues.get(docname)
    return last_change(issue, dt.date.fromisoformat(committed) if committed else None)


def show_last_change(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    changed = page_last_change(app.env, pagename)
    if changed is not None:
        context[LAST_CHANGE] = changed.isoformat()
