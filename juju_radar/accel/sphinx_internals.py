"""Every workaround of Sphinx's private or final API, guarded by the version it was
written for.

- Reading with ``-j``: each forked reader sends its environment back to the main
  process, which merges the pages that reader read and nothing else. But a reader is
  forked after the chunks before it were merged, so it also carries and sends back every
  page read before it: 128 MB to unpickle for 1,000 issues, 14 s of main-process time in
  a 24 s read. ``FastHTMLBuilder._read_parallel`` (Sphinx's private method, copied) makes
  a reader drop the other pages' data before sending.
- Writing with ``-j``: Sphinx resolves every page in the main process and forks writers
  only to translate them; at 1,000 issues resolving is most of the work. The overridden
  ``write_documents`` (``@final`` in Sphinx) puts the docnames in one queue, heaviest
  first (``write_plan``); each writer takes pages from it, resolves and writes them, then
  hands back the pages it wrote, the images to copy and the build-cache additions.
- An exception in the build: Sphinx prints a traceback and a crash report naming no
  page. ``report_crashes_as_one_line`` replaces its private ``handle_exception`` with
  ``crash.report``, one error line naming the file.
- "The configuration has changed": Sphinx compares the pickled configuration with a
  fresh one (``BuildEnvironment._config_status``, private) before the theme's
  ``builder-inited`` handlers complete the fresh one (``templates_path``,
  ``html_theme_options``, ``html_permalinks_icon``, ``html_sourcelink_suffix``), so it
  said so on every build. ``defer_config_report`` keeps Sphinx's decision and reports
  what differs once the theme has run: nothing, when nothing changed.
- A preview (``radar serve``) keeps its application between saves, so the environment
  stays in memory: pickling it after every read (Sphinx's ``Builder.build``, ``@final``)
  took seconds of each save at thousands of issues. ``FastHTMLBuilder.build`` is Sphinx's
  without that step in a preview; the preview session saves the environment when it
  stops (``build.preview``). ``start_another_build`` resets the warning count
  (private) that Sphinx's closing line reports.
- Code blocks' language: Sphinx's ``HighlightLanguageTransform`` walks every node of
  every page with a visitor (two debug messages formatted per node), where only code
  blocks and ``highlight`` settings matter: 10 s of CPU of a clean build at 3,650
  issues. ``HighlightLanguageInOnePass`` picks those out in one pass and hands a page
  with any setting to Sphinx's own walk.
- Reading a handful of changed pages in the main process: Sphinx decides to read in
  parallel from ``app.parallel`` after ``env-before-read-docs``, and to write in parallel
  from it after ``env-updated``; ``read_few_pages_serially`` relies on that order.

Every private name is imported when the module loads, and only ``accel.guard``
imports this module, on the Sphinx version it was written for:
on any other none of this is used, and the build runs Sphinx's own builder and reading
(slower, same output) and says so once.
"""

from __future__ import annotations

import math
import pickle
import sys
from collections import deque
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import sphinx._cli.util.errors as errors
from sphinx._cli.util.colour import bold
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment import BuildEnvironment, _differing_config_keys
from sphinx.locale import __
from sphinx.transforms.post_transforms.code import (
    HighlightLanguageTransform,
    HighlightLanguageVisitor,
)
from sphinx.util import logging
from sphinx.util.build_phase import BuildPhase
from sphinx.util.display import display_chunk, progress_message, status_iterator
from sphinx.util.parallel import ParallelTasks, SerialTasks, make_chunks, parallel_available

from juju_radar.accel.write_plan import PageQueue, heaviest_first, write_plan
from juju_radar.build.crash import located, report
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.preview import BUILD_AGAIN, is_preview
from juju_radar.store.cache import Additions, build_cache

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from pygments.formatter import Formatter
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.highlighting import PygmentsBridge

    from juju_radar.sphinx_ext.pipeline import Steps

logger = logging.getLogger(__name__)

SERIAL_READ_BELOW = 8
SAVED_PARALLEL = "_radar_parallel"
SAVED_OLD_CONFIG = "_radar_old_config"
SPHINX_CONFIG_STATUS = BuildEnvironment._config_status  # before any build replaced it

HandedBack = tuple[list[str], dict[str, str], Additions]


class FastHTMLBuilder(StandaloneHTMLBuilder):
    def __init__(self, app: Sphinx, env: BuildEnvironment) -> None:
        super().__init__(app, env)
        self.writers = app.parallel  # ``-j``: the main process no longer needs a core

    def init_highlighter(self) -> None:
        super().init_highlighter()
        reuse_formatters(self.highlighter)

    def build(  # type: ignore[misc]
        self,
        docnames: Iterable[str] | None,
        summary: str | None = None,
        method: Literal["all", "specific", "update"] = "update",
    ) -> None:
        """Sphinx 9.0's, except that a preview does not pickle the environment."""
        if not is_preview(self.config):
            super().build(docnames, summary, method)  # type: ignore[misc]
            return
        if summary:
            logger.info(bold(__("building [%s]: ")) + summary, self.name)  # noqa: G003
        with nullcontext() if self._app._exception_on_warning else logging.pending_warnings():
            updated_docnames = set(self.read())
        doccount = len(updated_docnames)
        logger.info(bold(__("looking for now-outdated files... ")), nonl=True)
        updated_docnames.update(self.env.check_dependents(self._app, updated_docnames))
        outdated = len(updated_docnames) - doccount
        if outdated:
            logger.info(__("%d found"), outdated)
        else:
            logger.info(__("none found"))
        if updated_docnames:
            self.phase = BuildPhase.CONSISTENCY_CHECK
            with progress_message(__("checking consistency")):
                self.env.check_consistency()
        elif method == "update" and not docnames:
            logger.info(bold(__("no targets are out of date.")))
        self.phase = BuildPhase.RESOLVING
        if docnames and docnames != ["__all__"]:
            docnames = set(docnames) & self.env.found_docs
        if parallel_available and self._app.parallel > 1 and self.allow_parallel:
            self.parallel_ok = self._app.is_parallel_allowed("write")
        else:
            self.parallel_ok = False
        self.finish_tasks = SerialTasks()
        self.write(docnames, updated_docnames, method)  # type: ignore[arg-type]
        self.finish()
        self.finish_tasks.join()

    def _read_parallel(self, docnames: list[str], nproc: int) -> None:
        """Sphinx 9.0's, except that a reader sends back only the pages it read."""
        chunks = make_chunks(docnames, nproc)
        progress = status_iterator(
            chunks, __("reading sources... "), "purple", len(chunks), self.config.verbosity
        )
        for docname in docnames:
            self.events.emit("env-purge-doc", self.env, docname)
            self.env.clear_doc(docname)

        def read_chunk(chunk: list[str]) -> bytes:
            """In a forked reader."""
            self.env._app = self._app
            for docname in chunk:
                with located(docname):
                    self.read_doc(docname, _cache=False)
            shed_other_pages(self.env, chunk)
            return pickle.dumps(self.env, pickle.HIGHEST_PROTOCOL)

        def merge(chunk: list[str], pickled_env: bytes) -> None:
            self.env.merge_info_from(chunk, pickle.loads(pickled_env), self._app)
            next(progress)

        tasks = ParallelTasks(nproc)
        for chunk in chunks:
            tasks.add_task(read_chunk, chunk, merge)
        tasks.join()
        logger.info("")

    def write_documents(self, docnames: Set[str]) -> None:  # type: ignore[misc]
        # Sphinx's search index is filled while pages are resolved, so it needs them
        # resolved here (the search module turns it off in favour of Pagefind).
        if not self.parallel_ok or self.indexer is not None:
            super().write_documents(docnames)
            return
        first, *rest = sorted(docnames)
        self.write_page(first)  # here, so that every writer inherits warm caches
        if not rest:
            return
        queue = PageQueue(heaviest_first(rest, self.last_written_size))
        plan = write_plan(len(rest), self.writers, len(make_chunks(rest, self.writers)[0]))
        # The progress line names the pages each writer wrote, as it hands them back.
        written: deque[list[str]] = deque()
        progress = status_iterator(
            iter(written.popleft, None),
            __("writing output... "),
            "darkgreen",
            plan.writers,
            self.config.verbosity,
            stringify_func=lambda pages: display_chunk(pages) if pages else "",
        )

        def keep(_: object, handed_back: HandedBack) -> None:
            pages, images, additions = handed_back
            self.images.update(images)
            build_cache(self.doctreedir).merge(additions)
            written.append(pages)
            next(progress)

        tasks = ParallelTasks(self.writers)
        for _ in range(plan.writers):
            tasks.add_task(self.write_from_queue, (queue, plan.pages_each), keep)
        tasks.join()
        logger.info("")

    def last_written_size(self, docname: str) -> float:
        """What the page weighed when last written (a page with listings not written yet
        weighs most): a guess at what it costs to write."""
        try:
            return self.get_outfilename(docname).stat().st_size
        except OSError:
            return math.inf if docname in radar_data(self.env).listing_docs else 0

    def write_from_queue(self, task: tuple[PageQueue, int]) -> HandedBack:
        """In a forked writer: the next page of the queue until it is empty or this
        writer wrote its share."""
        queue, most = task
        cache = build_cache(self.doctreedir)
        cache.start_journal()
        pages: list[str] = []
        while len(pages) < most and (docname := queue.take()) is not None:
            with located(docname):
                self.write_page(docname)
            pages.append(docname)
        return pages, dict(self.images), cache.end_journal()

    def write_page(self, docname: str) -> None:
        self.phase = BuildPhase.RESOLVING
        doctree = self.env.get_and_resolve_doctree(docname, self, tags=self.tags)
        self.phase = BuildPhase.WRITING
        self.write_doc_serialized(docname, doctree)
        self.write_doc(docname, doctree)


class StagedFastHTMLBuilder(FastHTMLBuilder):
    """For ``make html``, which builds into a spare tree: no closing line naming it."""

    epilog = ""


def reuse_formatters(highlighter: PygmentsBridge) -> None:
    """One Pygments formatter per set of options: Sphinx makes one for every code block
    (``PygmentsBridge.get_formatter``), which works out its whole style sheet each time:
    4 s of a clean build at 3,650 issues, whose pages show their BibTeX."""
    made: dict[str, Formatter[str]] = {}
    make = highlighter.get_formatter

    def get_formatter(**kwargs: Any) -> Formatter[str]:
        key = repr(sorted(kwargs.items()))
        if key not in made:
            made[key] = make(**kwargs)
        return made[key]

    highlighter.get_formatter = get_formatter  # type: ignore[method-assign]


# What ``HighlightLanguageVisitor`` visits: docutils dispatches by the exact class name.
HIGHLIGHT_VISITED = frozenset({"literal_block", "highlightlang", "start_of_file"})


class HighlightLanguageInOnePass(HighlightLanguageTransform):
    """Sphinx 9.0's transform: a page whose only visited nodes are code blocks gets the
    document's setting on each, as Sphinx's walk gives them; any other page is walked."""

    def apply(self, **kwargs: Any) -> None:
        visited = [
            node for node in self.document.findall() if type(node).__name__ in HIGHLIGHT_VISITED
        ]
        if any(type(node).__name__ != "literal_block" for node in visited):
            super().apply(**kwargs)
            return
        visitor = HighlightLanguageVisitor(self.document, self.config.highlight_language)
        visitor.visit_document(self.document)
        for node in visited:
            visitor.visit_literal_block(node)


def highlight_in_one_pass(app: Sphinx, steps: Steps) -> None:
    transforms = app.registry.post_transforms
    transforms[:] = [
        HighlightLanguageInOnePass if transform is HighlightLanguageTransform else transform
        for transform in transforms
    ]


def start_another_build(app: Sphinx) -> None:
    """Before a build by an application that built before (the preview's): Sphinx
    counts warnings per application and reports the count in its closing line."""
    app._warncount = 0


def shed_other_pages(env: BuildEnvironment, docnames: list[str]) -> None:
    """Drop, from a reader's environment, the biggest data merging will not take:
    Sphinx's ``TocTreeCollector`` and the extension's collector copy only the pages read,
    and sphinxcontrib-bibtex's domain never merges its parsed .bib file."""
    read = set(docnames)
    radar_data(env).keep_only(read)
    env.tocs = {docname: toc for docname, toc in env.tocs.items() if docname in read}
    if "cite" in env.domaindata:
        env.domaindata["cite"]["bibdata"] = None


def read_few_pages_serially(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Each forked reader sends its whole environment back (20 MB at 1,000 issues):
    below ``SERIAL_READ_BELOW`` changed pages the read is serial; writing stays parallel
    (Sphinx decides that after reading, from the restored setting)."""
    if app.parallel > 1 and len(docnames) < SERIAL_READ_BELOW:
        setattr(app, SAVED_PARALLEL, app.parallel)
        app.parallel = 1


def restore_parallel(app: Sphinx, env: BuildEnvironment) -> None:
    if hasattr(app, SAVED_PARALLEL):
        app.parallel = getattr(app, SAVED_PARALLEL)
        delattr(app, SAVED_PARALLEL)


def report_crashes_as_one_line(srcdir: Path) -> None:
    """Replace Sphinx's crash report with ``crash.report``."""

    def handle_exception(
        exception: BaseException, /, *, stderr: Any = sys.stderr, **_: Any
    ) -> None:
        report(exception, srcdir, stderr)

    errors.handle_exception = handle_exception  # type: ignore[assignment]


def defer_config_report(app: Sphinx) -> None:
    """Sphinx's comparison of the configurations, without its report (see above)."""

    def quiet_compare(*, old_config: Config | None, new_config: Config, verbosity: int):
        setattr(app, SAVED_OLD_CONFIG, old_config)
        with logging.suppress_logging():
            return SPHINX_CONFIG_STATUS(
                old_config=old_config, new_config=new_config, verbosity=verbosity
            )

    BuildEnvironment._config_status = staticmethod(quiet_compare)  # type: ignore[method-assign]


def report_config_changes(app: Sphinx) -> None:
    """After the theme completed the configuration: what really differs from the last
    build's, in Sphinx's words."""
    old = getattr(app, SAVED_OLD_CONFIG, None)
    if hasattr(app, SAVED_OLD_CONFIG):
        delattr(app, SAVED_OLD_CONFIG)
    if old is None or old.extensions != app.config.extensions:
        return  # a new environment, or Sphinx's own "[extensions changed]"
    changed = sorted(_differing_config_keys(old, app.config))
    if len(changed) == 1:
        logger.info(__("The configuration has changed (1 option: %r)"), changed[0])
    elif changed:
        logger.info(
            __("The configuration has changed (%d options: %s)"),
            len(changed),
            ", ".join(map(repr, changed)),
        )


def connect_config_report(app: Sphinx, steps: Steps) -> None:
    defer_config_report(app)
    steps.offer("report-config-changes", report_config_changes)


def connect_small_reads(app: Sphinx, steps: Steps) -> None:
    steps.offer("read-few-pages-serially", read_few_pages_serially)
    steps.offer("restore-parallel", restore_parallel)


def connect_preview_builds(app: Sphinx, steps: Steps) -> None:
    app.connect(BUILD_AGAIN, start_another_build)
