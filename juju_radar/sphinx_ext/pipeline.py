"""The build's pipeline: one table of what the extension does, in order, at each Sphinx
event where the order of handlers matters, and the one place that connects them.

A part of the extension does not call ``app.connect`` for these events: it offers its
handler under a step's name (``Steps.offer``), and ``Steps.connect`` connects every
offered handler in the table's order, once, at the end of the extension's ``setup``.
A step's priority is that of the ``At`` line above it in the table: Sphinx calls the
handlers of one priority in the order they were connected, so within a level the
table's order is the order they run in. ``At`` lines only place the steps among the
handlers of Sphinx, the theme and the other extensions; they are the only priorities
of the package (``tests/test_pipeline.py`` checks both).

To add a step: one ``Step`` line where it belongs (its event, its name, why there), and
``steps.offer("its-name", handler)`` where the feature is set up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sphinx.application import Sphinx


@dataclass(frozen=True)
class Step:
    """One thing the extension does at ``event``, after the lines above it."""

    event: str
    name: str
    why: str


@dataclass(frozen=True)
class At:
    """The steps below this line, up to the next ``At`` of their event, run at
    ``priority``: placed among the other packages' handlers as ``why`` says."""

    event: str
    priority: int
    why: str


# Sphinx's default priority: its own handlers, MyST's, sphinxcontrib-bibtex's, notfound's
# and opengraph's run there, connected before the table is (extensions set up first), and
# the theme's, connected when the builder loads the theme, after the table.
AMONG_DEFAULTS = "Sphinx's default: after the handlers of Sphinx and the other extensions, "
AMONG_DEFAULTS += "before the theme's"

PIPELINE: tuple[Step | At, ...] = (
    # builder-inited: the build is set up, before Sphinx looks for pages.
    At("builder-inited", 100, "before Sphinx's and the other extensions' set-up (500)"),
    Step("builder-inited", "start-build-cache", "a new build reads the build cache again, before any step uses it"),
    Step("builder-inited", "remove-old-stubs", "an old clone's listing stubs go before Sphinx finds them as pages"),
    Step("builder-inited", "refuse-outside-symlinks", "stop before any page is read"),
    Step("builder-inited", "parse-facts-ahead", "accel: every issue's facts in parallel, before the drafts are noted (below)"),
    Step("builder-inited", "refuse-unreadable-bib", "before sphinxcontrib-bibtex parses the .bib files (500)"),
    Step("builder-inited", "restore-bibdata", "accel: after the .bib check, before sphinxcontrib-bibtex looks at its data (500)"),
    At("builder-inited", 500, AMONG_DEFAULTS),
    Step("builder-inited", "init-env", "the archive's data in the environment, for every later step"),
    Step("builder-inited", "note-drafts-ahead", "the drafts, for leave-out-drafts (env-get-outdated)"),
    Step("builder-inited", "replace-theme-description", "accel: the theme's handlers are connected by now"),
    Step("builder-inited", "compile-templates-once", "accel: templates are set up by now"),
    Step("builder-inited", "lock-down-parsing", "before any page is parsed"),
    Step("builder-inited", "check-built-pages", "before any page is written"),
    Step("builder-inited", "disable-sphinx-search", "before Sphinx's search index is started"),
    Step("builder-inited", "say-without-site-url", "a message: no order needed"),
    At("builder-inited", 600, "after the theme has completed the configuration (500)"),
    Step("builder-inited", "load-entities", "the entity registry, after the archive's data (init-env)"),
    Step("builder-inited", "report-config-changes", "accel: last, when every handler has changed the configuration"),
    # env-get-outdated: which pages to read.
    At("env-get-outdated", 300, "before Sphinx's collectors (500) see the pages"),
    Step("env-get-outdated", "leave-out-unreadable", "what cannot be read is left out before anything else counts it"),
    Step("env-get-outdated", "leave-out-drafts", "drafts leave found_docs before the collectors and the summary see them"),
    At("env-get-outdated", 500, AMONG_DEFAULTS + " (the collectors')"),
    Step("env-get-outdated", "note-removed-docs", "the removed pages, whose outputs go at build-finished"),
    Step("env-get-outdated", "read-entity-issues-again", "issues whose entity mentions changed"),
    At("env-get-outdated", 550, "after the collectors (500)"),
    Step("env-get-outdated", "read-saved-again", "pages saved while the last build read them"),
    Step("env-get-outdated", "read-history", "pages whose last commit's day changed"),
    Step("env-get-outdated", "note-changes", "last: the build's summary counts what every step above decided"),
    # env-get-updated: which pages to write again once reading is done.
    At("env-get-updated", 600, "after the collectors (500), the radar collector's signatures among them"),
    Step("env-get-updated", "note-changed-entity-pages", "entity pages whose view models changed"),
    # env-before-read-docs: just before reading.
    At("env-before-read-docs", 500, AMONG_DEFAULTS),
    Step("env-before-read-docs", "load-bibliography-before-reading", "the .bib data, before any page cites it"),
    At("env-before-read-docs", 900, "after every other handler has chosen the pages"),
    Step("env-before-read-docs", "read-few-pages-serially", "accel: from the final list of pages to read"),
    Step("env-before-read-docs", "freeze-survivors", "accel: after every other step, just before reading"),
    Step("env-before-read-docs", "note-read-start", "last: the moment reading starts, for read-saved-again"),
    # env-updated: reading is done, before the environment is stored.
    At("env-updated", 500, AMONG_DEFAULTS + " (after sphinxcontrib-bibtex's)"),
    Step("env-updated", "restore-parallel", "accel: the parallel setting back, before Sphinx writes"),
    Step("env-updated", "reset-shared-toctrees", "accel: the tables of contents changed"),
    Step("env-updated", "forget-unsaved", "before Sphinx stores the environment"),
    At("env-updated", 900, "after sphinxcontrib-bibtex updated its data (500)"),
    Step("env-updated", "store-bibdata", "accel: the bibliography data as sphinxcontrib-bibtex left it"),
    Step("env-updated", "freeze-before-writers", "accel: last, before the writers fork"),
    # html-collect-pages: the pages that are no documents.
    At("html-collect-pages", 500, AMONG_DEFAULTS + " (notfound's 404 page)"),
    Step("html-collect-pages", "collect-listing-pages", "the period pages"),
    Step("html-collect-pages", "collect-story-pages", "the story pages"),
    Step("html-collect-pages", "collect-entity-pages", "the entity pages"),
    # html-page-context: what happens to a page after it is rendered, before its template.
    At("html-page-context", 300, "before notfound's (400) and the theme's (500) read the context"),
    Step("html-page-context", "story-page-context", "a story page's context, before anything reads it"),
    At("html-page-context", 400, "after notfound's media (400)"),
    Step("html-page-context", "describe-page", "the description, before opengraph (500) falls back to the page text"),
    Step("html-page-context", "take-out-theme-sections", "accel: before the theme's handlers (500) see the sections"),
    At("html-page-context", 500, AMONG_DEFAULTS),
    Step("html-page-context", "show-last-change", "the page's context: no order among these"),
    Step("html-page-context", "write-issue-bib", "the issue's .bib download"),
    Step("html-page-context", "issue-period", "the sidebar's period"),
    Step("html-page-context", "no-page-toc", "listing pages drop the right-hand contents: before the theme reads the metadata"),
    Step("html-page-context", "preview-banner", "the preview's banner"),
    Step("html-page-context", "default-color-mode", "the colour mode"),
    Step("html-page-context", "add-feed-links", "the feeds' links"),
    Step("html-page-context", "keep-drafts-unindexed", "drafts' robots meta"),
    Step("html-page-context", "add-citation-meta", "the citation meta tags"),
    Step("html-page-context", "add-license", "the license notice"),
    Step("html-page-context", "add-story-meta", "a story page's meta tags"),
    Step("html-page-context", "entity-template-helpers", "the entity templates' helpers"),
    At("html-page-context", 550, "after the theme's (500, 501)"),
    Step("html-page-context", "put-back-theme-sections", "accel: the sections take-out-theme-sections stashed"),
    Step("html-page-context", "share-toctree-html", "accel: after the theme set its navigation functions"),
    At("html-page-context", 900, "after every handler of Sphinx, the theme and the extensions"),
    Step("html-page-context", "escape-theme-text", "the context's plain text, as every handler left it"),
    Step("html-page-context", "keep-used-assets", "after the handlers that add files to a page, before the policy"),
    Step("html-page-context", "add-policy", "last: the policy allows the inline code the steps above leave"),
    # build-finished: the end of the build.
    At("build-finished", 200, "before the search index and the stale outputs (500)"),
    Step("build-finished", "start-publications", "feeds, exports and sitemap start, alongside the search index"),
    Step("build-finished", "write-missing-issue-bibs", "every issue's .bib download, written or not this build"),
    Step("build-finished", "forget-removed-entries", "the bibliography's cache keeps only the current files"),
    At("build-finished", 500, AMONG_DEFAULTS),
    Step("build-finished", "remove-stale-outputs", "outputs of removed pages go"),
    Step("build-finished", "build-pagefind-index", "the search index, while the publications run"),
    Step("build-finished", "say-holdings", "a message: no order needed"),
    At("build-finished", 600, "after the theme's (500)"),
    Step("build-finished", "write-entity-feeds", "the entities' feeds"),
    Step("build-finished", "finish-publications", "wait for the publications started above"),
    Step("build-finished", "subset-theme-sheets", "after the stale pages are removed, before the build cache is saved"),
    Step("build-finished", "finish-build-cache", "the build cache, after every step that writes to it"),
    Step("build-finished", "thaw", "accel: last, what freeze-survivors froze"),
)  # fmt: skip


def steps_in_order() -> Iterator[tuple[Step, int]]:
    """Every step of the table, in order, with the priority it runs at."""
    level: dict[str, int] = {}
    for line in PIPELINE:
        if isinstance(line, At):
            level[line.event] = line.priority
        else:
            yield line, level[line.event]


STEPS = {step.name: (step, priority) for step, priority in steps_in_order()}


class Steps:
    """The handlers offered for the table's steps, until ``connect`` connects them."""

    def __init__(self) -> None:
        self.offered: dict[str, Callable[..., Any]] = {}

    def offer(self, name: str, handler: Callable[..., Any]) -> None:
        if name not in STEPS:
            raise KeyError(f"no step {name!r} in juju_radar/sphinx_ext/pipeline.py")
        if name in self.offered:
            raise ValueError(f"step {name!r} offered twice")
        self.offered[name] = handler

    def connect(self, app: Sphinx) -> None:
        """Connect every offered handler in the table's order."""
        for step, priority in steps_in_order():
            handler = self.offered.get(step.name)
            if handler is not None:
                app.connect(step.event, handler, priority=priority)
