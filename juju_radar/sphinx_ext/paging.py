"""What the build knows of the issues before reading them, and what a period page shows.

- The drafts, left out of the build before Sphinx reads a page (``drafts``): each issue's
  facts, parsed as the build parses it, kept by the file's digest
  (``note_drafts_ahead``). The period pages no longer need them: they are rendered from
  the issues as read (``listing_pages``).
- ``page_signature``: what a period page (``model/period_pages.py``) or the references'
  index shows; a page is rewritten when it changes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model import archive_rules, corrections, issue_reader, issue_records, item_options
from juju_radar.model import vocabulary as vocabulary_rules
from juju_radar.model.archive import Archive
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import is_issue_path
from juju_radar.model.period_pages import period_refs
from juju_radar.model.vocabulary import Vocabulary
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.drafts import note_drafts
from juju_radar.sphinx_ext.reference_pages import INDEX
from juju_radar.sphinx_ext.reference_pages import page_signature as references_signature
from juju_radar.store.cache import BuildCache, build_cache, digest, source_digest
from juju_radar.store.stamps import stamped_files

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.bibliography import Bibliography


@dataclass(frozen=True)
class IssueFile:
    """An issue's facts, parsed as the build parses it: whether it is published."""

    year: int
    month: str  # YYYY-MM
    topics: frozenset[str]
    published: bool = True


ISSUE_FACTS = "issue-facts"


def _facts(text: str, relative: str, vocab: Vocabulary) -> IssueFile | None:
    issue, _problems = parse_issue(text, relative, vocab)
    if issue is None:
        return None
    topics = frozenset(item.topic for item in issue.items)
    return IssueFile(issue.date.year, f"{issue.date:%Y-%m}", topics, issue.published)


# A file known by (path, path from the source folder, key of its facts, its text if read).
KnownFile = tuple[Path, str, str, str | None]
# Emitted with the source folder by ``note_drafts_ahead``: a handler may answer with the facts
# it parsed ahead (``accel.facts_ahead``), by key, which are then not parsed again.
FACTS_PARSED_AHEAD = "radar-issue-facts-parsed-ahead"


def known_issue_files(srcdir: Path, vocab: Vocabulary) -> list[KnownFile]:
    """The issue files with the key of their facts. A file is known by its size and time
    of change, as Sphinx tells a changed page (reading and hashing every issue took
    0.3 s of each build at 3,650 issues), unless it changed in the last two seconds,
    where an edit keeping its size could share its time: then by its text."""
    reader = (
        archive_rules,
        corrections,
        issue_reader,
        issue_records,
        item_options,
        vocabulary_rules,
    )
    context = digest(source_digest(*reader), repr(vocab))
    now = time.time_ns()
    known: list[KnownFile] = []
    for file in stamped_files(srcdir / "issues", ".md", follow_links=True):
        relative = f"issues/{file.relative}"
        if not is_issue_path(relative):
            continue
        path = srcdir / relative
        text = None
        if file.settled(now):
            key = digest(context, relative, file.stamp)
        else:
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                continue  # the build reports the file itself; nothing is kept for it
            key = digest(context, relative, text)
        known.append((path, relative, key, text))
    return known


def parse_facts(files: list[KnownFile], vocab: Vocabulary) -> dict[str, IssueFile | None]:
    parsed: dict[str, IssueFile | None] = {}
    for path, relative, key, text in files:
        try:
            text = path.read_text(encoding="utf-8-sig") if text is None else text
        except (OSError, UnicodeDecodeError):
            continue
        parsed[key] = _facts(text, relative, vocab)
    return parsed


def issue_files(
    srcdir: Path,
    vocab: Vocabulary,
    cache: BuildCache,
    parsed_ahead: dict[str, IssueFile | None] | None = None,
) -> dict[str, IssueFile]:
    """The facts of every readable issue, by its path from ``srcdir``; each parse kept
    between builds. ``parsed_ahead`` holds parses already made (``FACTS_PARSED_AHEAD``)."""
    known = known_issue_files(srcdir, vocab)
    store = cache.store(ISSUE_FACTS)
    missing = [file for file in known if file[2] not in store]
    ahead = parsed_ahead or {}
    parsed = {key: ahead[key] for _, _, key, _ in missing if key in ahead}
    parsed.update(parse_facts([file for file in missing if file[2] not in parsed], vocab))
    for key, facts in parsed.items():
        cache.put(ISSUE_FACTS, key, facts)
    cache.keep_only(ISSUE_FACTS, [key for _, _, key, _ in known])
    return {
        relative: facts
        for _, relative, key, _ in known
        if (facts := cache.peek(ISSUE_FACTS, key)) is not None
    }


def published_issue_files(
    srcdir: Path,
    vocab: Vocabulary,
    cache: BuildCache,
    parsed_ahead: dict[str, IssueFile | None] | None = None,
) -> list[IssueFile]:
    files = issue_files(srcdir, vocab, cache, parsed_ahead)
    return [facts for facts in files.values() if facts.published]


def is_archive(srcdir: Path) -> bool:
    """The archive's site layout, which has period pages."""
    return (srcdir / "references.md").is_file()


def note_drafts_ahead(app: Sphinx) -> None:
    """The drafts to leave out of the build (``drafts.leave_out_drafts``), from every
    issue's facts."""
    srcdir = Path(app.srcdir)
    vocab = vocabulary(app.config)
    parsed_ahead = app.emit_firstresult(FACTS_PARSED_AHEAD, srcdir)
    files = issue_files(srcdir, vocab, build_cache(app.doctreedir), parsed_ahead)
    note_drafts(app, {relative for relative, facts in files.items() if not facts.published})


def page_signature(
    kind: str,
    attributes: dict[str, str],
    archive: Archive,
    bibliography: Bibliography,
    reference_groups: dict[str, list[str]],
) -> tuple[object, ...]:
    """What a period page shows; it is rewritten when this changes."""
    if kind in ("references", "references-index"):
        selector = attributes.get("selector", INDEX)
        return references_signature(selector, reference_groups, archive, bibliography)
    return tuple(archive.line(ref) for ref in period_refs(archive, kind, attributes))
