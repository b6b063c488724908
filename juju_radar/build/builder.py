"""The html builder, reading and writing with ``-j`` without the main process in the way.

Reading: each forked reader sends its environment back to the main process, which
merges the pages that reader read and nothing else. But a reader is forked from the
main process after the chunks before it were merged, so it also carries and sends back
every page read before it: 128 MB to unpickle for 1,000 issues, 14 s of main-process
time in a 24 s read. Here a reader drops the other pages' data before sending.

Writing: Sphinx resolves every page in the main process and forks writers only to
translate them. At 1,000 issues resolving is most of the work: loading the doctree,
the post-transforms that render listings and bibliographies, and collecting the resolved
trees once written. The main process was busy for the whole write phase while the
writers waited. Here the main process hands out docnames; each writer resolves and writes
its chunk, then hands back what the main process must keep: the images to copy and the
values it added to the build cache.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING

from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.locale import __
from sphinx.util import logging
from sphinx.util.build_phase import BuildPhase
from sphinx.util.display import status_iterator
from sphinx.util.parallel import ParallelTasks, make_chunks

from juju_radar.build.cache import Additions, build_cache
from juju_radar.build.crash import located
from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

HandedBack = tuple[dict[str, str], Additions]


class RadarHTMLBuilder(StandaloneHTMLBuilder):
    def __init__(self, app: Sphinx, env: BuildEnvironment) -> None:
        super().__init__(app, env)
        self.writers = app.parallel  # ``-j``: the main process no longer needs a core

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

    def write_documents(self, docnames: Set[str]) -> None:
        # Sphinx's search index is filled while pages are resolved, so it needs them
        # resolved here (search.py turns it off in favour of Pagefind).
        if not self.parallel_ok or self.indexer is not None:
            super().write_documents(docnames)
            return
        first, *rest = sorted(docnames)
        self.write_page(first)  # here, so that every writer inherits warm caches
        chunks = make_chunks(rest, self.writers)
        progress = status_iterator(
            chunks, __("writing output... "), "darkgreen", len(chunks), self.config.verbosity
        )

        def keep(chunk: list[str], handed_back: HandedBack) -> None:
            images, additions = handed_back
            self.images.update(images)
            build_cache(self.doctreedir).merge(additions)
            next(progress)

        tasks = ParallelTasks(self.writers)
        for chunk in chunks:
            tasks.add_task(self.write_chunk, chunk, keep)
        tasks.join()
        logger.info("")

    def write_chunk(self, docnames: list[str]) -> HandedBack:
        """In a forked writer."""
        cache = build_cache(self.doctreedir)
        cache.start_journal()
        for docname in docnames:
            with located(docname):
                self.write_page(docname)
        return dict(self.images), cache.end_journal()

    def write_page(self, docname: str) -> None:
        self.phase = BuildPhase.RESOLVING
        doctree = self.env.get_and_resolve_doctree(docname, self, tags=self.tags)
        self.phase = BuildPhase.WRITING
        self.write_doc_serialized(docname, doctree)
        self.write_doc(docname, doctree)


class StagedHTMLBuilder(RadarHTMLBuilder):
    """For ``make html``, which builds into a spare tree and then publishes it: Sphinx's
    closing "The HTML pages are in ..." would name the spare tree."""

    epilog = ""


def shed_other_pages(env: BuildEnvironment, docnames: list[str]) -> None:
    """Drop, from a reader's environment, the biggest data merging will not take:
    Sphinx's ``TocTreeCollector`` and the extension's collector copy only the pages read,
    and sphinxcontrib-bibtex's domain never merges its parsed .bib file."""
    read = set(docnames)
    radar_data(env).keep_only(read)
    env.tocs = {docname: toc for docname, toc in env.tocs.items() if docname in read}
    if "cite" in env.domaindata:
        env.domaindata["cite"]["bibdata"] = None
