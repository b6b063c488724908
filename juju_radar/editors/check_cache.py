"""What ``radar check`` learned from each file, kept between runs in ``_build/radar-check/``.

Results are stored under a digest of the file's content, its path, the code that checks
it and the settings of ``conf.py`` it depends on, in the build's sealed cache files
(``juju_radar.store.cache``: each carries the SHA-256 of its content and is ignored, then
rewritten, when that does not match). A changed file is a different key, so a stale
result is never used. ``radar check --changed`` also trusts a file whose size and
modification time are those of the last run without reading it again; the archive-wide
rules (dates and ids used twice, citations that resolve) always run over every issue.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from juju_radar.bib import typesetting
from juju_radar.bib.check import CHECKER_MODULES, check_bib_text
from juju_radar.bib.entry_notes import entry_note_digests
from juju_radar.bib.entry_records import EntryRecord
from juju_radar.bib.file_entries import entry_keys
from juju_radar.bib.reader import EXPANSION_ALLOWANCE, read_bib
from juju_radar.bib.segment_check import SEGMENT_CHECKER_MODULES, BibCheck, check_bib_segments
from juju_radar.bib.size_limits import DEFAULT_BIB_LIMITS, BibLimits
from juju_radar.editors import (
    export_blocks,
    export_category,
    export_problems,
    export_reader,
    export_sources,
    page_writer,
    site_files,
)
from juju_radar.editors.site_files import Site, item_ids_in
from juju_radar.model import (
    anchors,
    archive_rules,
    content,
    corrections,
    issue_reader,
    issue_records,
    item_options,
    messages,
    vocabulary,
)
from juju_radar.model import page as page_reading
from juju_radar.model.anchors import citation_anchor
from juju_radar.model.content import MarkdownSyntax, check_content, page_kind
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import Issue
from juju_radar.model.messages import _
from juju_radar.model.page import Page
from juju_radar.model.page_files import decode_utf8
from juju_radar.model.problems import Problem
from juju_radar.store.cache import SETTLED_NS, BuildCache, digest, source_digest

CACHE_FOLDER = Path("_build") / "radar-check"
CONFIG_NAMES = (
    "radar_topics",
    "radar_verdicts",
    "radar_date_span",
    "radar_max_page_chars",
    "radar_max_items",
    "myst_enable_extensions",
    "myst_disable_syntax",
)


@dataclass(frozen=True)
class PageFacts:
    """One page's own problems; for an issue page, the issue and its item ids too."""

    problems: tuple[Problem, ...]
    content_problems: tuple[Problem, ...]
    issue: Issue | None = None
    item_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class BibFacts:
    """A .bib file's problems, and what imports need to add entries to it."""

    problems: tuple[Problem, ...]
    keys: dict[str, int]  # key -> line, as parse_bib_keys
    key_by_note: dict[bytes, str]  # note_digest(an imported entry's note) -> its key
    anchors: frozenset[str]  # the keys' citation anchors
    newlines: int
    has_crossref: bool
    chars: int = 0  # the text's length
    expanded_chars: int = 0  # what its values hold once @string macros are expanded

    @property
    def errors(self) -> list[Problem]:
        return [problem for problem in self.problems if problem.severity == "error"]

    def folded_keys(self) -> set[str]:
        return {key.lower() for key in self.keys}


def bib_facts(
    text: str,
    path: str,
    limits: BibLimits = DEFAULT_BIB_LIMITS,
    problems: Sequence[Problem] | None = None,
) -> BibFacts:
    """What the check keeps of a .bib file, read whole; ``problems`` when already known."""
    problems = tuple(check_bib_text(text, path, limits) if problems is None else problems)
    # What the check read: a file past a limit is read no further, here either.
    reading = read_bib(text, stop_after=limits.max_entries)
    citable = [entry for entry in reading.entries if entry.is_citable]
    notes = [(entry.key, entry_note_digests(entry)) for entry in citable]
    anchors = (citation_anchor(entry.key) for entry in citable if entry.key)
    return facts_of_entries(text, problems, citable, notes, anchors, reading.expanded_chars)


def facts_of_entries(
    text: str,
    problems: Sequence[Problem],
    citable: Sequence[EntryRecord],
    notes: Iterable[tuple[str | None, tuple[bytes, ...]]],
    anchors: Iterable[str],
    expanded_chars: int,
) -> BibFacts:
    """What the check keeps of a .bib file, from what it read of its citable entries
    (whole, or by segment: the same entries), their notes' digests (key, digests) and
    their keys' citation anchors."""
    return BibFacts(
        problems=tuple(problems),
        keys=entry_keys(citable),
        # Earlier versions wrote the note in ``note``; it is in ``radarnote`` now.
        key_by_note={digest: key for key, digests in notes if key for digest in digests},
        anchors=frozenset(anchors),
        newlines=text.count("\n"),
        has_crossref=any(entry.crossref is not None for entry in citable),
        chars=len(text),
        expanded_chars=expanded_chars,
    )


def segment_bib_facts(text: str, checked: BibCheck) -> BibFacts:
    """What the check keeps of a .bib file checked by segment, from what it read."""
    citable = [entry for entry in checked.entries if entry.is_citable]
    notes = [(entry.key, entry.note_digests) for entry in citable]
    anchors = (entry.anchor for entry in citable)  # kept with each segment
    return facts_of_entries(text, checked.problems, citable, notes, anchors, checked.expanded_chars)


def appended_facts(
    facts: BibFacts, added: BibFacts, limits: BibLimits = DEFAULT_BIB_LIMITS
) -> BibFacts | None:
    """The facts of a file free of errors with a block of new entries appended (``added``:
    the block's facts), from the block's alone; None when only a full check can tell."""
    folded = facts.folded_keys()
    clash = any(
        key.lower() in folded or citation_anchor(key) in facts.anchors for key in added.keys
    )
    chars = facts.chars + added.chars
    expanded = facts.expanded_chars + added.expanded_chars
    too_large = (
        len(facts.keys) + len(added.keys) > limits.max_entries
        or expanded > 2 * chars + EXPANSION_ALLOWANCE
    )
    if facts.errors or facts.has_crossref or added.has_crossref or clash or too_large:
        return None
    shift = facts.newlines
    return BibFacts(
        problems=(
            *facts.problems,
            *(replace(problem, line=problem.line + shift) for problem in added.problems),
        ),
        keys={**facts.keys, **{key: line + shift for key, line in added.keys.items()}},
        key_by_note={**facts.key_by_note, **added.key_by_note},
        anchors=facts.anchors | added.anchors,
        newlines=facts.newlines + added.newlines,
        has_crossref=False,
        chars=chars,
        expanded_chars=expanded,
    )


class CheckCache:
    """Facts of the site's pages and .bib files, by content digest, between runs."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.store = BuildCache(site.root / CACHE_FOLDER)
        settings = repr([(name, site.config.get(name)) for name in CONFIG_NAMES])
        code = source_digest(
            archive_rules,
            corrections,
            issue_reader,
            issue_records,
            item_options,
            vocabulary,
            content,
            anchors,
            page_reading,
            *CHECKER_MODULES,
            *SEGMENT_CHECKER_MODULES,
            typesetting,
            export_reader,
            export_blocks,
            export_category,
            export_problems,
            export_sources,
            page_writer,
            site_files,
            messages,
            sys.modules[__name__],
        )
        # Problems are cached as worded: in the language of this run, by this catalogue.
        wording = (messages.current_language(), messages.CATALOGUE.read_bytes())
        self.version = digest(code, settings, *wording)
        self.syntax = MarkdownSyntax.from_config(
            site.config.get("myst_enable_extensions", ()),  # type: ignore[arg-type]
            site.config.get("myst_disable_syntax", ()),  # type: ignore[arg-type]
        )
        self.rechecked: list[str] = []
        self._seen_pages: set[str] = set()
        self._seen_stats: set[str] = set()
        self._seen_bibs: set[str] = set()

    # --- pages -------------------------------------------------------------------------

    def page(self, path: Path, relative: str, trust_stat: bool = False) -> PageFacts:
        """The facts of the page at ``path``, computed only when it changed."""
        found = self._key(path, relative, trust_stat)
        if isinstance(found, OSError):
            return PageFacts((self._unreadable(relative, found),), ())
        key, data = found
        facts = self.store.peek("pages", key)
        if facts is None:
            try:
                facts = self._page_facts(data or path.read_bytes(), relative)
            except OSError as error:
                return PageFacts((self._unreadable(relative, error),), ())
            self.store.put("pages", key, facts)
            self.store.put("ids", key, facts.item_ids)
            self.rechecked.append(relative)
        return facts  # type: ignore[no-any-return]

    def item_ids(self, path: Path, relative: str) -> list[str]:
        """The item ids written in an issue file (``:id:`` lines), read again only when
        its size or modification time changed."""
        found = self._key(path, relative, trust_stat=True)
        if isinstance(found, OSError):
            return []
        key, data = found
        ids = self.store.peek("ids", key)
        if ids is None:
            text = _decoded(data or path.read_bytes())
            ids = tuple(item_ids_in(text)) if text is not None else ()
            self.store.put("ids", key, ids)
        return list(ids)

    def _key(
        self, path: Path, relative: str, trust_stat: bool
    ) -> tuple[str, bytes | None] | OSError:
        """The cache key of the file's content and, when it had to be read, its bytes
        (the error when it cannot be read); with ``trust_stat``, a file of the size and
        modification time of the last run is not read again."""
        self._seen_stats.add(relative)
        stat = _stat(path)
        known = self.store.peek("stats", relative)
        if trust_stat and stat is not None and known is not None and known[0] == stat:
            self._seen_pages.add(known[1])
            return known[1], None
        try:
            data = path.read_bytes()
        except OSError as error:
            return error
        key = digest(self.version, relative, data)
        self._seen_pages.add(key)
        # A file changed within a clock tick of its last change could keep its size and
        # time (git's "racily clean" files): only a time safely in the past is trusted.
        settled = stat is not None and time.time_ns() - stat[1] > SETTLED_NS
        if settled and known != (stat, key):
            self.store.put("stats", relative, (stat, key))
        elif not settled and known is not None:
            self.store.put("stats", relative, ((-1, -1), key))
        return key, data

    @staticmethod
    def _unreadable(relative: str, error: OSError) -> Problem:
        reason = error.strerror or error
        message = _("cannot read the file: {reason}").format(reason=reason)
        return Problem(relative, 1, "error", "unreadable", message)

    def _page_facts(self, data: bytes, relative: str) -> PageFacts:
        text, problems = decode_utf8(data, relative)
        if text is None:
            return PageFacts(tuple(problems), ())
        kind = page_kind(relative)
        page = Page.read(text, relative, self.site.page_limits)
        content_problems = tuple(check_content(page, relative, kind, self.syntax))
        if kind != "issue":
            return PageFacts((), content_problems)
        issue, found = parse_issue(page, relative, self.site.vocabulary, self.site.date_span)
        return PageFacts(tuple(found), content_problems, issue, tuple(item_ids_in(text)))

    # --- .bib files --------------------------------------------------------------------

    def bib(self, name: str, text: str) -> BibFacts:
        key = digest(self.version, name, text)
        self._seen_bibs.add(key)
        facts = self.store.peek("bib", key)
        if facts is None:
            facts = self._bib_facts(name, text)
            self.store.put("bib", key, facts)
            self.rechecked.append(name)
        return facts  # type: ignore[no-any-return]

    def _bib_facts(self, name: str, text: str) -> BibFacts:
        """The file's facts: read whole when nothing is kept of any .bib file; else by
        segment, checking again only the segments not seen before (one namespace of
        segments per file, as the build keeps them)."""
        segments = f"bib-segments-{digest(self.version, name)}"
        limits = self.site.bib_limits
        if not self.store.store(segments) and not self.store.store("bib"):
            # Nothing kept (a cold check): one whole reading costs less than reading
            # segment by segment (BENCHMARKS.md, "Side by side"); the first check of a
            # changed file reads it by segment and keeps them.
            return bib_facts(text, name, limits)
        checked = check_bib_segments(text, name, self.store.namespace(segments), limits)
        if checked.segment_keys is None:
            return bib_facts(text, name, limits, checked.problems)
        self.store.keep_only(segments, checked.segment_keys)
        return segment_bib_facts(text, checked)

    def remember_bib(self, name: str, text: str, facts: BibFacts) -> None:
        """Keep ``facts`` as those of ``name`` now holding ``text``, the file's only
        version worth keeping."""
        key = digest(self.version, name, text)
        self._seen_bibs = {key}
        self.store.keep_only("bib", [])
        self.store.put("bib", key, facts)

    # --- saving ------------------------------------------------------------------------

    def save(self, complete: bool) -> None:
        """Write what changed; after a run that saw every file (``complete``), forget the
        facts of files that are gone or changed, so the cache does not grow forever."""
        if complete:
            self.store.keep_only("pages", self._seen_pages)
            self.store.keep_only("ids", self._seen_pages)
            self.store.keep_only("stats", self._seen_stats)
            self.store.keep_only("bib", self._seen_bibs)
        with contextlib.suppress(OSError):  # read-only: the next run computes again
            self.store.save()


def _decoded(data: bytes) -> str | None:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        result = path.stat()
    except OSError:
        return None
    return (result.st_size, result.st_mtime_ns)


def entries_separator(bib_text: str) -> str:
    """What goes between a .bib file's text and entries appended to it: a blank line."""
    if not bib_text or bib_text.endswith("\n\n"):
        return ""
    return "\n" if bib_text.endswith("\n") else "\n\n"
