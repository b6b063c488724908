"""Spare the theme's per-page "is this template empty?" renders of templates that never are.

pydata-sphinx-theme renders every template of every page section once more on every page
to drop the ones that render empty (``update_and_remove_templates``, an
``html-page-context`` handler at priority 500). The sidebar's navigation and the article's
header buttons are never empty here, and rendering them twice was ~5 ms a page (20 s of
CPU for 3,650 issues). They are taken out of their section before the theme's check and
put back in their place after it, so the page is the same (the steps
``take-out-theme-sections`` and ``put-back-theme-sections`` of ``sphinx_ext/pipeline.py``).

An acceleration (``accel/register.py``, ``never-empty-sections``): it knows which context
keys the theme's check reads and when it runs, which the theme does not document.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

NEVER_EMPTY = frozenset({"sbt-sidebar-nav.html", "article-header-buttons.html"})
SECTIONS = ("sidebars", "theme_article_header_end")
STASH = "radar_never_empty_sections"


def template_names(value: Any) -> list[str] | None:
    """A section's templates as the theme reads them, ``.html`` added where missing."""
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",")]
    if not isinstance(value, list):
        return None
    return [name if "." in name.rsplit("/", 1)[-1] else f"{name}.html" for name in value]


def take_out(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    stash = {}
    for section in SECTIONS:
        names = template_names(context.get(section))
        if names and NEVER_EMPTY & set(names):
            stash[section] = names
            context[section] = [name for name in names if name not in NEVER_EMPTY]
    context[STASH] = stash


def put_back(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    for section, names in context.pop(STASH, {}).items():
        kept = set(template_names(context.get(section)) or ())
        context[section] = [name for name in names if name in NEVER_EMPTY or name in kept]


def connect(app: Sphinx, steps: Steps) -> None:
    steps.offer("take-out-theme-sections", take_out)
    steps.offer("put-back-theme-sections", put_back)
