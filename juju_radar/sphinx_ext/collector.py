"""The environment collector: one parsed ``Issue`` per issue docname."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from docutils import nodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util import logging
from sphinx.util.parallel import parallel_available

from juju_radar.model import codes
from juju_radar.model.archive import Archive, page_signature
from juju_radar.model.issue_records import Issue, is_issue_path, misplaced_issue
from juju_radar.model.listing_views import LISTING_VIEWS, ViewSettings
from juju_radar.model.problems import Problem
from juju_radar.sphinx_ext.bibliography import (
    Bibliography,
    NodeData,
    keep_formatted_ahead,
    load_bibliography,
)
from juju_radar.sphinx_ext.config import view_settings
from juju_radar.sphinx_ext.nodes import (
    LISTING_KINDS,
    PERIOD_KINDS,
    listing_attributes,
    radar_placeholder,
)
from juju_radar.sphinx_ext.paging import page_signature as period_signature
from juju_radar.sphinx_ext.preview import defers_other_pages, is_preview
from juju_radar.sphinx_ext.reference_pages import reference_groups, reference_places
from juju_radar.store.cache import build_cache, digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

Placeholder = tuple[str, dict[str, str]]  # a placeholder's kind and attributes


@dataclass
class RadarData:
    """The extension's part of the pickled environment, keyed by docname."""

    issues: dict[str, Issue] = field(default_factory=dict)
    # Pages with listings of the archive: docname -> each listing's (kind, attributes).
    listing_docs: dict[str, tuple[Placeholder, ...]] = field(default_factory=dict)
    # Period pages (``paging``): docname -> its placeholder's (kind, attributes).
    period_pages: dict[str, Placeholder] = field(default_factory=dict)
    # Entries issues cite, formatted while reading (cache key -> node data), moved into
    # the build cache once reading is done.
    formatted: dict[str, dict[str, NodeData]] = field(default_factory=dict)
    # What each issue, period and listing page showed of the archive at the last build,
    # as digests of their signatures (the signatures themselves were 40 % of the
    # environment at 3,650 issues).
    published_state: dict[str, str] | None = None
    # The ``archive_version`` that ``published_state`` was computed for.
    published_version: str | None = None

    # Counts the changes to ``issues`` (``set_issue``, ``remove_issue``).
    _version: int = field(default=0, repr=False, compare=False)
    # Derived from ``issues``; never pickled: (the version of the issues, archive).
    _archive: tuple[tuple[int, int], Archive] | None = field(
        default=None, repr=False, compare=False
    )
    # The bibliography the last build's pages were written from; never pickled.
    _bibliography: Bibliography | None = field(default=None, repr=False, compare=False)

    def set_issue(self, docname: str, issue: Issue) -> None:
        self.issues[docname] = issue
        self._version += 1

    def remove_issue(self, docname: str) -> None:
        if self.issues.pop(docname, None) is not None:
            self._version += 1

    def archive(self) -> Archive:
        """The indexes derived from ``issues``, computed once while they stay the same
        (every page written asks; a tuple of the issues' identities took 4 s a clean
        build at 3,650 issues)."""
        key = (id(self.issues), self._version)
        if self._archive is None or self._archive[0] != key:
            self._archive = (key, Archive(self.issues))
        return self._archive[1]

    def keep_only(self, docnames: AbstractSet[str]) -> None:
        """Only ``docnames``' data, as a reader sends it back (``merge_other`` takes no more)."""
        self.issues = {name: issue for name, issue in self.issues.items() if name in docnames}
        self._version += 1
        self.listing_docs = {
            name: listings for name, listings in self.listing_docs.items() if name in docnames
        }
        self.period_pages = {
            name: page for name, page in self.period_pages.items() if name in docnames
        }
        self.formatted = {name: data for name, data in self.formatted.items() if name in docnames}
        self.published_state = None
        self.published_version = None

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_archive": None, "_bibliography": None}


def radar_data(env: BuildEnvironment) -> RadarData:
    data = getattr(env, "radar", None)
    if data is None:
        data = RadarData()
        env.radar = data  # type: ignore[attr-defined]
    return data


def signature_digest(signature: tuple[object, ...]) -> str:
    """A signature (nested tuples of strings, numbers and dates) as a short digest;
    ``repr`` of such values does not vary between runs."""
    return digest(repr(signature))


def archive_version(env: BuildEnvironment, bibliography: Bibliography) -> str:
    """Changes whenever any page is read again, added or removed (Sphinx notes when it
    read each) or the .bib files change: what every page signature is computed from.
    Computing the signatures of 3,650 issues took 2.8 s of a 7 s no-change build."""
    pages = (f"{docname}\0{env.all_docs[docname]}" for docname in sorted(env.all_docs))
    return digest(*bibliography.file_digests, bibliography.context, *pages)


def init_env(app: Sphinx) -> None:
    radar_data(app.env)


# The issue ContentParser read from the page, with its problems, kept for the collector
# in ``env.current_document`` (Sphinx's storage for the document being read).
ISSUE_READ = "radar_issue_read"
IssueRead = tuple[Issue | None, list[Problem]]


def warn(problem: Problem, location: object) -> None:
    """A problem as the build reports it: with the severity ``radar check`` gives it, the
    registry's (``model/codes.py``)."""
    log = {"error": logger.error, "warning": logger.warning, "note": logger.info}
    log[codes.severity(problem.code, problem.severity)](
        problem.message, location=location, type="radar", subtype=problem.code
    )


class RadarCollector(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        data = radar_data(env)
        data.remove_issue(docname)
        data.listing_docs.pop(docname, None)
        data.period_pages.pop(docname, None)
        data.formatted.pop(docname, None)

    def merge_other(
        self,
        app: Sphinx,
        env: BuildEnvironment,
        docnames: AbstractSet[str],
        other: BuildEnvironment,
    ) -> None:
        data, theirs = radar_data(env), radar_data(other)
        for docname in docnames:
            if docname in theirs.issues:
                data.set_issue(docname, theirs.issues[docname])
            if docname in theirs.listing_docs:
                data.listing_docs[docname] = theirs.listing_docs[docname]
            if docname in theirs.period_pages:
                data.period_pages[docname] = theirs.period_pages[docname]
            if docname in theirs.formatted:
                data.formatted[docname] = theirs.formatted[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        docname = env.docname
        data = radar_data(env)
        for node in doctree.findall(radar_placeholder):
            if node["kind"] in LISTING_KINDS:
                listing = (node["kind"], listing_attributes(node))
                data.listing_docs[docname] = (*data.listing_docs.get(docname, ()), listing)
            elif node["kind"] in PERIOD_KINDS:
                attributes = {name: str(node[name]) for name in PERIOD_KINDS[node["kind"]]}
                data.period_pages[docname] = (node["kind"], attributes)
        if (
            misplaced := misplaced_issue(Path(env.doc2path(docname, False)).as_posix())
        ) is not None:
            warn(misplaced, (docname, misplaced.line))
        if not is_issue_path(docname):
            return
        # Issue pages are reached through generated listings, not the toctree.
        env.metadata[docname]["orphan"] = True
        issue, problems = cast(IssueRead, env.current_document.pop(ISSUE_READ))
        for problem in problems:
            warn(problem, (docname, problem.line))
        if issue is not None:
            data.set_issue(docname, issue)
            data.formatted[docname] = load_bibliography(env).format_ahead(issue.citation_keys)

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        """Also: hand the entries formatted while reading to the build cache."""
        data = radar_data(env)
        cache = build_cache(env.doctreedir)
        for formatted in data.formatted.values():
            keep_formatted_ahead(cache, formatted)
        data.formatted.clear()
        forking = parallel_available and not is_preview(app.config)
        processes = app.parallel if forking else 1

        def share(digests: DigestsOf, docnames: list[str], archive: Archive) -> Digests | None:
            return app.emit_firstresult(SHARE_PAGE_DIGESTS, digests, docnames, archive, processes)

        return self.pages_to_rewrite(env, defer=defers_other_pages(app), share=share)

    def pages_to_rewrite(
        self, env: BuildEnvironment, defer: bool = False, share: Sharer | None = None
    ) -> list[str]:
        """Pages to rewrite although unchanged: those whose signature changed (what a
        listing shows, an issue's neighbours, related items and cited references, a
        period's items). Nothing else, so adding an issue or editing a reference
        rewrites O(1) issue pages.

        With ``defer`` (a preview after its first build): only the issues citing an entry
        that changed (``deferred_pages_to_rewrite``)."""
        data = radar_data(env)
        bibliography = load_bibliography(env)
        before, data._bibliography = data._bibliography, bibliography
        if defer and data.published_state is not None and before is not None:
            return self.deferred_pages_to_rewrite(env, bibliography.changed_since(before))
        version = archive_version(env, bibliography)
        if data.published_state is not None and data.published_version == version:
            return []  # no page read or removed, the same .bib: no signature can differ
        data.published_version = version
        archive = data.archive()
        pages = page_digests(data, archive, bibliography, view_settings(env.config), share)
        previous_pages = data.published_state or {}
        data.published_state = pages
        changed = {docname for docname in pages if previous_pages.get(docname) != pages[docname]}
        return sorted(changed & env.found_docs)

    def deferred_pages_to_rewrite(self, env: BuildEnvironment, entries: set[str]) -> list[str]:
        """The issues citing one of ``entries``, with their signatures brought up to date;
        every other page keeps the signature it was written with, so the next build
        without ``defer`` rewrites it if it differs."""
        data = radar_data(env)
        citing = {
            docname
            for docname, issue in data.issues.items()
            if not entries.isdisjoint(issue.citation_keys)
        }
        if not citing:
            return []
        assert data.published_state is not None
        archive = data.archive()
        shown = reference_display(archive, load_bibliography(env))
        data.published_state = data.published_state | {
            docname: signature_digest(page_signature(archive, data.issues[docname], shown))
            for docname in citing
        }
        return sorted(citing & env.found_docs)


Digests = dict[str, str]  # docname -> the digest of its page's signature
DigestsOf = Callable[[list[str]], Digests]
Sharer = Callable[[DigestsOf, list[str], Archive], "Digests | None"]
# Emitted with (digests_of, docnames, archive, processes) to compute the digests of many
# pages: a handler may answer with them all (``accel.parallel_signatures``).
SHARE_PAGE_DIGESTS = "radar-share-page-digests"


def page_digests(
    data: RadarData,
    archive: Archive,
    bibliography: Bibliography,
    settings: ViewSettings,
    share: Sharer | None = None,
) -> Digests:
    """Docname -> the digest of the signature of each issue, period and listing page;
    ``share`` may compute them instead, in other processes."""
    shown = reference_display(archive, bibliography)
    groups = reference_groups(archive, bibliography)
    views: dict[str, object] = {}

    def view(kind: str, attributes: dict[str, str]) -> object:
        key = repr((kind, sorted(attributes.items())))
        if key not in views:
            views[key] = LISTING_VIEWS[kind](archive, attributes, settings)
        return views[key]

    def signature(docname: str) -> tuple[object, ...]:
        if docname in data.listing_docs:
            return tuple((kind, view(kind, attrs)) for kind, attrs in data.listing_docs[docname])
        if docname in data.period_pages:
            kind, attributes = data.period_pages[docname]
            return period_signature(kind, attributes, archive, bibliography, groups)
        return page_signature(archive, data.issues[docname], shown)

    def digests(docnames: list[str]) -> Digests:
        return {docname: signature_digest(signature(docname)) for docname in docnames}

    docnames = list(dict.fromkeys([*data.issues, *data.period_pages, *data.listing_docs]))
    shared = share(digests, docnames, archive) if share is not None else None
    return shared if shared is not None else digests(docnames)


def reference_display(archive: Archive, bibliography: Bibliography) -> Callable[[str], object]:
    """What a page shows of a reference: the entry, its references page and citing count."""
    places = reference_places(archive, bibliography)

    def shown(key: str) -> object:
        return bibliography.digest(key), places.get(key)

    return shown
