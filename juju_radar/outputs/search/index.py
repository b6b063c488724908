"""Bring the search index up to date with the built pages (``parts.py`` tells the layout).

A page is read again only when its file changed (``page_stamp``), a period's pages only
when one of them did, a piece is indexed only when its records changed, and a part is
merged only when one of its pieces did. Each piece and part is written beside the old
one and put in its place when complete; the state of what was built is saved before
any of it is replaced, so an interrupted build redoes it rather than trusting it.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from juju_radar.model.issue_records import Issue
from juju_radar.model.vocabulary import Vocabulary
from juju_radar.outputs.search.bundle import bundle_is_complete
from juju_radar.outputs.search.jobs import (
    Indexer,
    Merger,
    Step,
    index_piece,
    index_whole,
    merge_step,
    pagefind,
    piece_state,
    run_job,
)
from juju_radar.outputs.search.parts import (
    OTHER,
    STORIES,
    part_of_piece,
    parts_of,
    period_name,
    piece_name,
    publish_parts,
    remove_all_but,
)
from juju_radar.outputs.search.records import (
    PageStamp,
    SearchRecord,
    link_period,
    page_records,
    page_stamp,
    pagefind_version,
    read_manifest,
    record_documents,
    record_files,
    records_state,
    update_record_site,
)
from juju_radar.store.cache import digest, source_digest

GROUPS = (STORIES, OTHER)


@dataclass(frozen=True)
class SearchPage:
    docname: str
    filename: str  # the output file, relative to the site root
    title: str
    issue: Issue | None


@dataclass(frozen=True)
class PeriodState:
    stamps: dict[str, str]  # its pages (docname) -> their stamps, as read last
    pieces: dict[str, str]  # its pieces -> the digest of their records


@dataclass
class IndexState:
    """What the bundles were built from, kept between builds. A piece's own bundle says
    which records it holds (``jobs.PIECE_STATE``)."""

    code: str | None = None  # code_version() of the code that wrote it
    pages: str | None = None  # every page's stamp, when all parts were last complete
    periods: dict[str, PeriodState] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)  # part -> what was merged into it


def usable(state: object) -> bool:
    """A state this code wrote (one of an earlier layout starts the index afresh)."""
    return (
        isinstance(state, IndexState)
        and state.code == code_version()
        and all(isinstance(period, PeriodState) for period in state.periods.values())
    )


@dataclass
class IndexReport:
    pages_read: int = 0
    pieces_indexed: list[str] = field(default_factory=list)
    parts_merged: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Folders:
    bundles: Path  # OUTDIR/pagefind: the parts' bundles
    record_sites: Path  # a folder of record files a piece, which Pagefind indexes
    pieces: Path  # a bundle a piece

    def part(self, name: str) -> Path:
        return self.bundles / name

    def piece(self, name: str) -> Path:
        return self.pieces / name


def page_period(page: SearchPage, newest: int | None) -> str:
    if page.issue is not None:
        return period_name(page.issue.date.year, page.issue.date.month, newest)
    return period_name(*link_period(page.filename), newest)


def group_of(record: SearchRecord) -> str:
    return STORIES if record.kind == "story" else OTHER


def piece_states(state: IndexState) -> dict[str, str]:
    return {
        name: records
        for period in state.periods.values()
        for name, records in period.pieces.items()
    }


@functools.cache
def code_version() -> str:
    """Changes with the code that makes pieces and parts, and with Pagefind, whose
    bundles they are: after either changes, every piece and part is made again."""
    from juju_radar.outputs.search import bundle, jobs, parts, records, terms

    code = source_digest(bundle, jobs, parts, records, terms, sys.modules[__name__])
    return digest(code, pagefind_version())


def pages_digest(lang: str, stamps: dict[str, PageStamp | None]) -> str:
    return digest(code_version(), lang, *(f"{name}\0{stamps[name]}" for name in sorted(stamps)))


class IndexUpdate:
    """One update of the index; ``run`` returns what it did."""

    def __init__(
        self,
        outdir: Path,
        folders: Folders,
        vocab: Vocabulary,
        lang: str,
        state: IndexState,
        save_state: Callable[[IndexState], None],
        merger: Merger | None = None,
        index: Indexer = pagefind,
    ) -> None:
        """With a ``merger``, a part is merged from its pieces, else Pagefind indexes its
        records whole; ``index`` runs Pagefind."""
        self.outdir = outdir
        self.merger = merger
        self.index = index
        self.merge = merger is not None
        self.folders = folders
        self.vocab = vocab
        self.lang = lang
        self.old = state
        self.save_state = save_state
        self.report = IndexReport()

    def run(self, pages: list[SearchPage]) -> IndexReport:
        stamps = {
            page.docname: page_stamp(self.outdir / page.filename, page.issue) for page in pages
        }
        pages_state = pages_digest(self.lang, stamps)
        if self.old.pages == pages_state and all(
            bundle_is_complete(self.folders.part(part)) for part in self.old.parts
        ):
            self.report.parts = list(self.old.parts)
            return self.report
        newest = max((page.issue.date.year for page in pages if page.issue), default=None)
        periods: dict[str, list[SearchPage]] = {}
        for page in pages:
            if stamps[page.docname] is not None:
                periods.setdefault(page_period(page, newest), []).append(page)
        new = IndexState(code_version())
        # The periods each part is made from: a part is merged as soon as they are read
        # and its pieces indexed (the older years come first), beside the newer ones.
        waiting: dict[str, set[str]] = {}
        for period in periods:
            for group in GROUPS:
                waiting.setdefault(part_of_piece(piece_name(group, period), newest), set()).add(
                    period
                )
        indexing: dict[str, Future[str | None]] = {}
        merging: dict[str, Future[str | None]] = {}
        # The stories' pieces are indexed first, the other pieces after all of them: the
        # merge of the older stories, the longest job, then runs beside the other pieces
        # instead of alone at the end. Merges have workers of their own, so one waiting
        # for its pieces never holds up the indexing of another piece.
        later: dict[str, Step] = {}
        workers = os.cpu_count() or 1
        with (
            ThreadPoolExecutor(max_workers=workers) as indexers,
            ThreadPoolExecutor(max_workers=workers) as mergers,
        ):
            for period in sorted(periods):
                for name, step in self._index_period(period, periods[period], stamps, new):
                    if name.startswith(f"{STORIES}-"):
                        indexing[name] = indexers.submit(run_job, step)
                    else:
                        later[name] = step
                for part, rest in waiting.items():
                    rest.discard(period)
                    if not rest and part.startswith(f"{STORIES}-") and part not in new.parts:
                        self._merge_part(part, newest, new, indexing, merging, mergers)
            for name, step in later.items():
                indexing[name] = indexers.submit(run_job, step)
            for part in waiting:
                if part not in new.parts:
                    self._merge_part(part, newest, new, indexing, merging, mergers)
            self._wait(indexing)
            self._wait(merging)
        if self.report.failures:
            return self.report
        pieces = set(piece_states(new))
        parts = parts_of(pieces, newest)
        publish_parts(list(parts), self.folders.bundles)
        remove_all_but(self.folders.pieces, pieces)
        remove_all_but(
            self.folders.record_sites,
            {piece_name(group, period) for period in periods for group in GROUPS},
        )
        new.pages = pages_state
        self.save_state(new)
        self.report.parts = list(parts)
        return self.report

    def _index_period(
        self,
        period: str,
        pages: list[SearchPage],
        stamps: dict[str, PageStamp | None],
        new: IndexState,
    ) -> list[tuple[str, Step]]:
        """The steps indexing the pieces of ``period`` whose records changed: Pagefind runs
        while the next period's pages are read."""
        now = {page.docname: f"{stamps[page.docname]}" for page in pages}
        known = self.old.periods.get(period)
        if known is not None and known.stamps == now and self._built(known.pieces):
            new.periods[period] = known
            return []
        pieces = self._update_record_sites(period, pages, now, known)
        new.periods[period] = PeriodState(now, pieces)
        if not self.merge:
            return []  # each part is indexed whole from the record sites: no pieces
        steps: list[tuple[str, Step]] = []
        for name, state in pieces.items():
            if piece_state(self.folders.piece(name)) != state:
                self.report.pieces_indexed.append(name)
                site, bundle = self.folders.record_sites / name, self.folders.piece(name)
                step = functools.partial(index_piece, site, bundle, state, self.index)
                steps.append((name, step))
        return steps

    def _update_record_sites(
        self,
        period: str,
        pages: list[SearchPage],
        now: dict[str, str],
        known: PeriodState | None,
    ) -> dict[str, str]:
        """Read the pages of ``period`` that changed since they were last read, bring its
        record sites up to date, and return its pieces (with records) and their digests."""
        old_stamps = known.stamps if known is not None else {}
        sites = {group: self.folders.record_sites / piece_name(group, period) for group in GROUPS}
        manifests = {group: read_manifest(site) for group, site in sites.items()}
        present = {group: record_files(site) for group, site in sites.items()}

        def unchanged(page: SearchPage) -> bool:
            return old_stamps.get(page.docname) == now[page.docname] and all(
                page.filename in manifests[group]
                and set(manifests[group][page.filename]) <= present[group]
                for group in GROUPS
            )

        kept = [page for page in pages if unchanged(page)]
        read = self._read([page for page in pages if not unchanged(page)])
        pieces = {}
        for group, site in sites.items():
            manifest = update_record_site(
                site,
                {page.filename: manifests[group][page.filename] for page in kept},
                {filename: documents[group] for filename, documents in read.items()},
                present[group],
            )
            if any(manifest.values()):
                pieces[piece_name(group, period)] = digest(code_version(), records_state(manifest))
        return pieces

    def _read(self, pages: list[SearchPage]) -> dict[str, dict[str, dict[str, str]]]:
        """Page file -> group -> its record files -> their HTML."""
        read: dict[str, dict[str, dict[str, str]]] = {}
        for page in pages:
            self.report.pages_read += 1
            path = self.outdir / page.filename
            groups: dict[str, list[SearchRecord]] = {group: [] for group in GROUPS}
            for record in page_records(path, page.filename, page.title, page.issue, self.vocab):
                groups[group_of(record)].append(record)
            read[page.filename] = {
                group: record_documents(records, self.lang) for group, records in groups.items()
            }
        return read

    def _built(self, pieces: dict[str, str]) -> bool:
        """The pieces are indexed, or, when parts are indexed whole, their records kept."""
        if not self.merge:
            return all((self.folders.record_sites / name).is_dir() for name in pieces)
        return all(piece_state(self.folders.piece(name)) == state for name, state in pieces.items())

    def _merge_part(
        self,
        part: str,
        newest: int | None,
        new: IndexState,
        indexing: dict[str, Future[str | None]],
        merging: dict[str, Future[str | None]],
        pool: ThreadPoolExecutor,
    ) -> None:
        """Merge ``part`` once its pieces are indexed, unless it is made of the same."""
        states = piece_states(new)
        pieces = sorted(name for name in states if part_of_piece(name, newest) == part)
        if not pieces:
            return
        how = f"merged {self.merger.version}" if self.merger else "whole"
        new.parts[part] = digest(
            code_version(), how, *(f"{name}\0{states[name]}" for name in pieces)
        )
        bundle = self.folders.part(part)
        if self.old.parts.get(part) == new.parts[part] and bundle_is_complete(bundle):
            return
        # Forget the part about to be replaced: an interrupted merge is redone.
        self.old.parts.pop(part, None)
        self.save_state(IndexState(code_version(), None, new.periods, dict(self.old.parts)))
        self.report.parts_merged.append(part)
        after = [indexing[name] for name in pieces if name in indexing]
        sites = self.folders.record_sites
        step: Step
        if self.merger is None:
            pieces_sites = [sites / name for name in pieces]
            step = functools.partial(index_whole, bundle, pieces_sites, self.index)
        else:
            bundles = [self.folders.piece(name) for name in pieces]
            step = merge_step(self.merger, bundle, bundles, sites)

        def merge() -> str | None:
            # Its pieces' jobs run on the indexers' workers, never waiting for a merge.
            if any(job.result() is not None for job in after):
                return None  # the piece's failure is reported, and nothing is published
            return run_job(step)

        merging[part] = pool.submit(merge)

    def _wait(self, jobs: dict[str, Future[str | None]]) -> None:
        for name, job in jobs.items():
            failure = job.result()
            if failure is not None:
                self.report.failures.append(f"{name}: {failure}")
