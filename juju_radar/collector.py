"""The environment collector: one parsed ``Issue`` per issue docname."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import logging

from .archive import Archive
from .config import vocabulary
from .model import is_issue_path, parse_issue
from .nodes import is_listing

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .problems import Problem

logger = logging.getLogger(__name__)


def init_env(app: Sphinx) -> None:
    """Create the extension's env data once; it then lives in the pickled environment."""
    env = app.env
    if not hasattr(env, "radar_issues"):
        env.radar_issues = {}  # docname -> Issue
        env.radar_listing_docs = {}  # docname -> True, pages holding listing placeholders
        env.radar_published_state = None  # what listings showed at the last build


def warn(problem: Problem, location: object) -> None:
    log = logger.error if problem.severity == "error" else logger.warning
    log(problem.message, location=location, type="radar", subtype=problem.code)


class RadarCollector(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        env.radar_issues.pop(docname, None)
        env.radar_listing_docs.pop(docname, None)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
    ) -> None:
        for docname in docnames:
            if docname in other.radar_issues:
                env.radar_issues[docname] = other.radar_issues[docname]
            if docname in other.radar_listing_docs:
                env.radar_listing_docs[docname] = True

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        docname = env.docname
        if any(is_listing(node) for node in doctree.findall()):
            env.radar_listing_docs[docname] = True
        if not is_issue_path(docname):
            return
        # Issue pages are reached through generated listings, not the toctree.
        env.metadata[docname]["orphan"] = True
        source = Path(env.doc2path(docname))
        relative = source.relative_to(env.srcdir).as_posix()
        issue, problems = parse_issue(source.read_text(encoding="utf-8"), relative, vocabulary(app.config))
        for problem in problems:
            warn(problem, (docname, problem.line))
        if issue is not None:
            env.radar_issues[docname] = issue

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        """Listing pages, and issues whose neighbours changed, when the archive changed."""
        archive = Archive(env.radar_issues)
        state = (archive.listing_signature(), _neighbour_titles(archive))
        previous = env.radar_published_state
        env.radar_published_state = state
        if previous == state:
            return []
        old_neighbours = previous[1] if previous else {}
        new_neighbours = state[1]
        moved = {
            docname
            for docname in old_neighbours.keys() | new_neighbours.keys()
            if old_neighbours.get(docname) != new_neighbours.get(docname)
        }
        return sorted((set(env.radar_listing_docs) | moved) & env.found_docs)


def _neighbour_titles(archive: Archive) -> dict[str, tuple[object, ...]]:
    return {
        issue.docname: tuple(
            (other.docname, other.date, other.title) if other else None
            for other in archive.neighbours(issue.docname)
        )
        for issue in archive.published
    }
