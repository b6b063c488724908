"""The signatures of thousands of pages computed in processes forked from the build's
(``collector.SHARE_PAGE_DIGESTS``): 1.5 s at 3,650 issues on one core, in the main
process, where Sphinx asks which pages are outdated."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util.parallel import ParallelTasks

from juju_radar.sphinx_ext.collector import SHARE_PAGE_DIGESTS, Digests, DigestsOf

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.model.archive import Archive
    from juju_radar.sphinx_ext.pipeline import Steps

PARALLEL_SIGNATURES_FROM = 1000  # pages; below, a fork costs more than it saves


def connect(app: Sphinx, steps: Steps) -> None:
    app.connect(SHARE_PAGE_DIGESTS, share_digests)


def share_digests(
    app: Sphinx, digests: DigestsOf, docnames: list[str], archive: Archive, processes: int
) -> Digests | None:
    if processes < 2 or len(docnames) < PARALLEL_SIGNATURES_FROM:
        return None
    archive.build_indexes()  # once, before forking
    found: Digests = {}
    others = ParallelTasks(processes - 1)
    try:
        for share in range(1, processes):
            part = docnames[share::processes]
            others.add_task(digests, part, lambda _, result: found.update(result))
        found.update(digests(docnames[::processes]))
        others.join()
    finally:
        others.terminate()
    return {docname: found[docname] for docname in docnames}
