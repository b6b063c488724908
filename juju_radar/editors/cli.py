"""``radar``: the editors' command line (import, new, check, links, serve, synth, refs).

Problems print as ``PATH:LINE: error|warning: message [code]``, from the same model
that the Sphinx extension uses, so ``radar check`` and ``make html`` agree.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import datetime as dt
import json
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from tqdm import tqdm

from juju_radar.bib.check import DEFAULT_BIB_LIMITS, BibLimits
from juju_radar.bib.identifiers import EDITORS_NOTE_FIELD
from juju_radar.bib.reader import scan_entries
from juju_radar.editors.check_cache import (
    BibFacts,
    CheckCache,
    appended_facts,
    bib_facts,
    entries_separator,
    note_digest,
)
from juju_radar.editors.importer import (
    ExportIssue,
    citation_key_for,
    decode_utf8,
    draft_page,
    item_id_for,
    parse_export,
    render_bib_entry,
    render_page,
    source_fields,
    source_note,
    source_title,
    to_issue,
)
from juju_radar.editors.site_files import (
    Site,
    SiteError,
    atomic_write,
    open_site,
)
from juju_radar.editors.synth_text import DEFAULT_TEXT, TEXT_MODES
from juju_radar.model.issues import (
    ISO_DATE_RE,
    Issue,
    archive_problems,
    date_outside_span,
    misplaced_issue,
    parse_issue,
)
from juju_radar.model.problems import Problem
from juju_radar.model.site_layout import (
    NOT_SITE,
    outside_symlinks,
    refused_code_files,
    site_files,
)
from juju_radar.model.translations import check_translations

NEWSROOM_TIMEZONE = ZoneInfo("Asia/Shanghai")
DEFAULT_LOCALE_DIRS = ["locales"]  # Sphinx's default locale_dirs
EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.root = getattr(args, "root", ".")
    try:
        return int(args.run(args))
    except SiteError as error:
        print(f"radar: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    # --root is accepted before or after the command name.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root",
        default=argparse.SUPPRESS,
        help="the site root (holding conf.py); default: current directory",
    )
    parser = argparse.ArgumentParser(
        prog="radar", parents=[common], description="Juju Radar archive tools for editors."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    importing = commands.add_parser(
        "import", parents=[common], help="import export-format files into issues/"
    )
    importing.add_argument("files", nargs="+", metavar="FILE")
    importing.add_argument("--force", action="store_true", help="replace existing issues")
    importing.add_argument(
        "--draft", action="store_true", help="import as status: draft, for review before publishing"
    )
    importing.add_argument(
        "--strict", action="store_true", help="fail when a file is skipped (its day exists)"
    )
    importing.set_defaults(run=run_import)

    new = commands.add_parser("new", parents=[common], help="scaffold a draft issue")
    new.add_argument("date", nargs="?", help="YYYY-MM-DD (default: today in Asia/Shanghai)")
    new.add_argument("--force", action="store_true", help="replace an existing issue")
    new.set_defaults(run=run_new)

    check = commands.add_parser(
        "check", parents=[common], help="check every issue and references.bib"
    )
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    check.add_argument("--format", choices=("text", "json"), default="text")
    loudness = check.add_mutually_exclusive_group()
    loudness.add_argument(
        "--quiet",
        "-q",
        dest="verbosity",
        action="store_const",
        const=-1,
        default=0,
        help="print errors only",
    )
    loudness.add_argument(
        "--verbose",
        "-v",
        dest="verbosity",
        action="store_const",
        const=1,
        help="list every note (by default notes are summed up by kind)",
    )
    check.add_argument(
        "--changed",
        action="store_true",
        help="read again only the files changed since the last run (by size and time)",
    )
    check.set_defaults(run=run_check)

    links = commands.add_parser(
        "links", parents=[common], help="check that every link of the built site resolves"
    )
    links.add_argument("outdir", nargs="?", default="_build/html", help="default: _build/html")
    links.add_argument(
        "--external",
        action="store_true",
        help="ask every source address of references.bib whether it still answers "
        "(politely: HEAD then GET, one request a host at a time); nothing is rewritten",
    )
    links.add_argument(
        "--report",
        default="_build/external-links.json",
        help="with --external: where the report goes (default: _build/external-links.json)",
    )
    links.add_argument(
        "--strict", action="store_true", help="with --external: fail on a dead source"
    )
    links.add_argument(
        "--newer-than",
        metavar="FILE",
        help="check only the pages written after FILE was (touched before the build)",
    )
    links.set_defaults(run=run_links)

    serve = commands.add_parser(
        "serve", parents=[common], help="live preview on 127.0.0.1, rebuilt on save"
    )
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=run_serve)

    synth = commands.add_parser(
        "synth",
        parents=[common],
        help="write a synthetic archive (for benchmarks) into a new folder",
    )
    synth.add_argument("issues", type=int, metavar="N", help="number of issues")
    synth.add_argument("--out", required=True, help="a folder that does not exist yet")
    synth.add_argument("--seed", type=int, default=8, help="random seed (same seed, same archive)")
    synth.add_argument(
        "--text",
        choices=TEXT_MODES,
        default=DEFAULT_TEXT,
        help="zipf: words drawn by frequency from a 20,000-word vocabulary, with some of the "
        "seed's sentences (the default, as the benchmarks use it); seed: every paragraph "
        "sampled from the seed issue's sentences",
    )
    synth.add_argument(
        "--exports",
        action="store_true",
        help="write the issues as export files (YYYY-MM-DD.txt, for radar import) instead",
    )
    synth.set_defaults(run=run_synth)

    from juju_radar.editors import refs

    refs.add_parser(commands, common)
    return parser


# --- import -----------------------------------------------------------------------------


Status = Literal["imported", "skipped", "failed"]


@dataclass
class Outcome:
    status: Status
    problems: list[Problem] = field(default_factory=list)
    written: str = ""


class TakenIds:
    """The ids an issue cannot take: every other issue's, and those given already."""

    def __init__(self, counts: Counter[str], own: Sequence[str]) -> None:
        self.counts = counts
        self.own = Counter(own)
        self.given: set[str] = set()

    def __contains__(self, item_id: object) -> bool:
        return item_id in self.given or self.counts[item_id] > self.own[item_id]  # type: ignore[index]


class InEither:
    """Whether a name is in one of two sets, without copying them."""

    def __init__(self, first: set[str], second: set[str]) -> None:
        self.first, self.second = first, second

    def __contains__(self, name: object) -> bool:
        return name in self.first or name in self.second


class ArchiveIds:
    """Item ids of every issue file, kept current while a backlog is imported."""

    def __init__(self, by_path: dict[str, list[str]]) -> None:
        self.by_path = by_path
        self.counts: Counter[str] = Counter(i for ids in by_path.values() for i in ids)

    @classmethod
    def of_site(cls, site: Site, cache: CheckCache) -> ArchiveIds:
        """From the check cache: an issue file changed since the last run is read again."""
        return cls(
            {
                relative: cache.item_ids(path, relative)
                for path in site.issue_files()
                for relative in [site.relative(path)]
            }
        )

    def taken(self, except_path: str) -> TakenIds:
        return TakenIds(self.counts, self.by_path.get(except_path, ()))

    def replace(self, path: str, ids: Sequence[str]) -> None:
        self.counts.subtract(self.by_path.get(path, ()))
        self.by_path[path] = list(ids)
        self.counts.update(ids)


@dataclass
class References:
    """The .bib file's keys and imported notes, kept current while a backlog is imported."""

    text: str
    facts: BibFacts
    taken: set[str] = field(default_factory=set)  # keys, folded
    key_by_note: dict[bytes, str] = field(default_factory=dict)
    new_entries: list[str] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)  # the file each new entry is for

    def __post_init__(self) -> None:
        self.taken = self.facts.folded_keys()
        self.key_by_note = dict(self.facts.key_by_note)


@dataclass
class PendingPage:
    number: int  # the file's position in the backlog
    display: str
    target: Path
    page: str


def run_import(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    files = list(args.files)
    with tqdm(files, desc="importing", unit="file", disable=len(files) < 2, file=sys.stderr) as bar:

        def report(problem: Problem) -> None:
            tqdm.write(problem.format(), file=sys.stderr)

        outcomes = import_backlog(site, bar, args.force, args.draft, report)
    if outcomes is None:
        print(
            f"{site.bibfiles[0]} has errors: fix them before importing (nothing was imported); "
            f"0 imported, 0 skipped, {len(files)} failed",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    for name, outcome in zip(files, outcomes, strict=True):
        if outcome.status == "imported":
            as_draft = " (status: draft)" if args.draft else ""
            print(f"{name}: imported as {outcome.written}{as_draft}")
    counts = Counter(outcome.status for outcome in outcomes)
    print(
        f"{counts['imported']} imported, {counts['skipped']} skipped, {counts['failed']} failed",
        file=sys.stderr,
    )
    # A day already in the archive is skipped, as asked: a warning, not a failure.
    failing = counts["failed"] or (args.strict and counts["skipped"])
    return EXIT_PROBLEMS if failing else EXIT_OK


def import_backlog(
    site: Site,
    files: Iterable[str],
    force: bool = False,
    draft: bool = False,
    report: Callable[[Problem], None] = lambda problem: None,
) -> list[Outcome] | None:
    """Import export files in one go: each is read and checked, its ids and keys given
    against sets kept current, then the new entries are checked once, ``references.bib``
    is written once and the pages after it. None (nothing written) when the .bib file has
    errors; each problem found goes to ``report`` as it is found."""
    cache = CheckCache(site)
    bib_name = site.bibfiles[0]
    try:
        original = site.bib_path.read_bytes() if site.bib_path.exists() else None
    except OSError as error:
        report(Problem(bib_name, 1, "error", "unreadable", f"cannot read the file: {error}"))
        return None
    bib_text, read_problems = decode_utf8(original, bib_name) if original else ("", [])
    facts = cache.bib(bib_name, bib_text) if bib_text is not None else None
    if bib_text is None or facts is None or facts.errors:
        for problem in read_problems or (facts.errors if facts else []):
            report(problem)
        cache.save(complete=False)
        return None
    archive_ids = ArchiveIds.of_site(site, cache)
    references = References(bib_text, facts)
    names: list[str] = []
    outcomes: list[Outcome] = []
    pending: dict[Path, PendingPage] = {}
    for number, name in enumerate(files):
        names.append(name)
        outcome, page = prepare_import(
            site, archive_ids, references, pending, Path(name), name, number, force, draft
        )
        outcomes.append(outcome)
        for problem in outcome.problems:
            report(problem)
        if page is not None:
            pending[page.target] = page
    block, added = checked_entries(references, bib_name, outcomes, names, report, site.bib_limits)
    imported = {number for number, outcome in enumerate(outcomes) if outcome.status == "imported"}
    pages = {target: page for target, page in pending.items() if page.number in imported}
    failure = write_bib_and_pages(
        site, original, bib_text + block if block else "", {t: p.page for t, p in pages.items()}
    )
    if failure:
        for page in pages.values():
            problem = Problem(page.display, 1, "error", "unwritable", failure)
            report(problem)
            outcomes[page.number] = Outcome("failed", [problem])
        for number in imported - {page.number for page in pages.values()}:
            outcomes[number] = Outcome("failed", outcomes[number].problems)
    elif (
        added is not None and (seeded := appended_facts(facts, added, site.bib_limits)) is not None
    ):
        cache.remember_bib(bib_name, bib_text + block, seeded)
    cache.save(complete=False)
    return outcomes


def prepare_import(
    site: Site,
    archive_ids: ArchiveIds,
    references: References,
    pending: dict[Path, PendingPage],
    file: Path,
    display: str,
    number: int,
    force: bool,
    draft: bool,
) -> tuple[Outcome, PendingPage | None]:
    """Read and check one export; when it is valid, give it ids and keys (kept in
    ``archive_ids`` and ``references``) and return the page to write. Writes nothing."""
    try:
        data = file.read_bytes()
    except OSError as error:
        message = f"cannot read the file: {error.strerror or error}"
        return Outcome("failed", [Problem(display, 1, "error", "unreadable", message)]), None
    text, problems = decode_utf8(data, display)
    if text is None:
        return Outcome("failed", problems), None
    export, problems = parse_export(text, display, site.vocabulary)
    if export is None:
        return Outcome("failed", problems), None
    if outside := date_outside_span(export.date, site.date_span):
        problems.append(Problem(display, export.date_line, "error", "date-out-of-range", outside))
        return Outcome("failed", problems), None
    target = site.issue_path(export.date.isoformat())
    relative = site.relative(target)
    if (target in pending or target.exists()) and not force:
        message = (
            f"issue {export.date.isoformat()} already exists as {relative}: "
            "pass --force to replace it"
        )
        problem = Problem(display, export.date_line, "warning", "exists", message)
        return Outcome("skipped", [problem]), None
    if outside := site.outside_root(target, site.bib_path):
        message = f"{outside} leads outside the repository (a symbolic link): nothing was written"
        return Outcome("failed", [Problem(display, 1, "error", "unwritable", message)]), None
    if clashes := chosen_id_problems(export, archive_ids.taken(relative), display):
        return Outcome("failed", problems + clashes), None
    ids = assign_item_ids(export, archive_ids.taken(relative))
    keys, new_entries = assign_citation_keys(export, ids, references)
    issue = to_issue(export, ids, keys, relative, status="draft" if draft else "published")
    page = render_page(issue)
    if invalid := validation_problems(page, relative, issue, site, display):
        return Outcome("failed", invalid), None
    archive_ids.replace(relative, ids)
    for key, entry, note in new_entries:
        references.taken.add(key.lower())
        references.key_by_note[note] = key
        references.new_entries.append(entry)
        references.owners.append(number)
    return Outcome("imported", problems, relative), PendingPage(number, display, target, page)


def checked_entries(
    references: References,
    bib_name: str,
    outcomes: list[Outcome],
    files: Sequence[str],
    report: Callable[[Problem], None],
    limits: BibLimits = DEFAULT_BIB_LIMITS,
) -> tuple[str, BibFacts | None]:
    """The text to append to the .bib file for the files still to import, checked once
    as a whole, and its facts. An entry with an error (normally none) fails the file it
    was made for, and the rest is checked again."""
    separator = entries_separator(references.text)
    while True:
        kept = [
            (owner, entry)
            for owner, entry in zip(references.owners, references.new_entries, strict=True)
            if outcomes[owner].status == "imported"
        ]
        if not kept:
            return "", None
        block = separator + "\n".join(entry for _, entry in kept)
        added = bib_facts(block, bib_name, limits)
        starts = []  # the line of the block each entry starts on
        line = 1 + separator.count("\n")
        for _, entry in kept:
            starts.append(line)
            line += entry.count("\n") + 1
        at_fault: dict[int, str] = {}
        for problem in added.errors:
            owner = kept[max(bisect.bisect_right(starts, problem.line) - 1, 0)][0]
            at_fault.setdefault(owner, problem.message)
        if not at_fault:
            return block, added
        for owner, message in sorted(at_fault.items()):
            problem = Problem(
                files[owner],
                1,
                "error",
                "invalid-reference",
                f"a generated reference would be invalid: {message}",
            )
            report(problem)
            outcomes[owner] = Outcome("failed", [problem])


def write_bib_and_pages(
    site: Site, original: bytes | None, new_bib: str, pages: dict[Path, str]
) -> str:
    """Write the .bib file's new text (unless it is ""), then the pages; if any cannot be
    written, put the pages written so far and the .bib file (``original``, or none) back
    as they were. Returns why nothing was imported, or ""."""
    written_bib = False
    done: list[tuple[Path, bytes | None]] = []  # each page written, and what it replaced
    new_folders: list[Path] = []
    current = site.bib_path
    try:
        if new_bib:
            atomic_write(site.bib_path, new_bib)
            written_bib = True
        for target, page in pages.items():
            current = target
            previous = target.read_bytes() if target.exists() else None
            if not target.parent.exists():
                new_folders.append(target.parent)
            atomic_write(target, page)
            done.append((target, previous))
    except OSError as error:
        message = f"cannot write {site.relative(current)}: {error.strerror or error}"
        try:
            for target, previous in reversed(done):
                if previous is None:
                    target.unlink()
                else:
                    atomic_write(target, previous)
            for folder in reversed(new_folders):
                with contextlib.suppress(OSError):
                    folder.rmdir()
            if written_bib and original is None:
                site.bib_path.unlink()
            elif written_bib and original is not None:
                atomic_write(site.bib_path, original)
        except OSError as again:
            return f"{message}; and what was written could not be undone: {again}"
        if written_bib:
            message += f" ({site.bibfiles[0]} was left as it was)"
        if done:
            message += f"; the {len(done)} page(s) written before were put back as they were"
        return message
    return ""


def assign_item_ids(export: ExportIssue, taken: TakenIds) -> list[str]:
    """Each item's id: the one its editor chose, else one made from its title."""
    taken.given.update(item.chosen_id for item in export.items if item.chosen_id)
    ids: list[str] = []
    for position, item in enumerate(export.items, start=1):
        ids.append(item.chosen_id or item_id_for(item.title, export.date, position, taken))
        taken.given.add(ids[-1])
    return ids


def chosen_id_problems(export: ExportIssue, taken: TakenIds, display: str) -> list[Problem]:
    """A chosen id another item of the archive (or of this issue) has already."""
    problems = []
    for item in export.items:
        if not item.chosen_id:
            continue
        if item.chosen_id in taken:
            message = f"item id '{item.chosen_id}' is taken by another item: choose another"
            problems.append(Problem(display, item.line, "error", "duplicate-id", message))
        taken.given.add(item.chosen_id)
    return problems


def assign_citation_keys(
    export: ExportIssue, ids: Sequence[str], references: References
) -> tuple[list[list[str]], list[tuple[str, str, bytes]]]:
    """One key per source label, reusing the entry an earlier import of the same item made.
    Returns the keys and the new entries, each as (key, text, digest of its note)."""
    given: set[str] = set()
    keys: list[list[str]] = []
    new_entries: list[tuple[str, str, bytes]] = []
    for item, item_id in zip(export.items, ids, strict=True):
        item_keys = []
        for position, source in enumerate(item.sources, start=1):
            note = source_note(export.date, item_id, item.title, source.label)
            as_read = render_bib_value_for_lookup(note)
            key = references.key_by_note.get(note_digest(as_read))
            if key is None:
                key = citation_key_for(item_id, position, InEither(references.taken, given))
                given.add(key.lower())
                title = source_title(item.title, source.label)
                fields = source_fields(source.address, export.date)
                entry = render_bib_entry(key, title, note, fields)
                new_entries.append((key, entry, note_digest(as_read)))
            item_keys.append(key)
        keys.append(item_keys)
    return keys, new_entries


def render_bib_value_for_lookup(note: str) -> str:
    """The note as the bibliography scanner reads it back from an entry we wrote."""
    entry_text = render_bib_entry("lookup", "t", note)
    entries = scan_entries(entry_text)
    return (entries[0].field_value(EDITORS_NOTE_FIELD) or "") if entries else note


def validation_problems(
    page: str, relative: str, issue: Issue, site: Site, display: str
) -> list[Problem]:
    """What would be wrong with the written files; normally nothing."""
    parsed, page_problems = parse_issue(page, relative, site.vocabulary, site.date_span)
    problems = [
        Problem(
            display,
            1,
            "error",
            "invalid-page",
            f"the generated page would be invalid at its line {p.line}: {p.message} [{p.code}]",
        )
        for p in page_problems
        if p.severity == "error"
    ]
    if parsed is None or len(parsed.items) != len(issue.items):
        problems.append(
            Problem(
                display,
                1,
                "error",
                "invalid-page",
                "the generated page does not read back as the same issue",
            )
        )
    return problems


# --- new --------------------------------------------------------------------------------


def run_new(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    date = parse_date_argument(args.date) if args.date else today_in_newsroom()
    if date is None:
        print(f"radar: error: '{args.date}' is not a date (YYYY-MM-DD)", file=sys.stderr)
        return EXIT_USAGE
    if outside := date_outside_span(date, site.date_span):
        print(f"radar: error: {outside}", file=sys.stderr)
        return EXIT_USAGE
    target = site.issue_path(date.isoformat())
    relative = site.relative(target)
    if outside := site.outside_root(target):
        print(f"radar: error: {outside} leads outside the repository", file=sys.stderr)
        return EXIT_PROBLEMS
    if target.exists() and not args.force:
        print(
            f"radar: error: {relative} already exists: pass --force to replace it", file=sys.stderr
        )
        return EXIT_PROBLEMS
    page = draft_page(date, site.vocabulary)
    _, problems = parse_issue(page, relative, site.vocabulary)
    if any(problem.severity == "error" for problem in problems):  # pragma: no cover - a bug
        for problem in problems:
            print(problem.format(), file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        atomic_write(target, page)
    except OSError as error:
        print(f"radar: error: cannot write {relative}: {error.strerror or error}", file=sys.stderr)
        return EXIT_PROBLEMS
    chosen = "" if args.date else f", today in {NEWSROOM_TIMEZONE.key}"
    print(f"created {relative} (status: draft) for {date.isoformat()}{chosen}")
    return EXIT_OK


def parse_date_argument(text: str) -> dt.date | None:
    """YYYY-MM-DD (or YYYY.MM.DD, as the exports write it); nothing else."""
    written = text.strip().replace(".", "-")
    try:
        return dt.date.fromisoformat(written) if ISO_DATE_RE.match(written) else None
    except ValueError:
        return None


def today_in_newsroom() -> dt.date:
    return dt.datetime.now(NEWSROOM_TIMEZONE).date()


# --- check ------------------------------------------------------------------------------


# What to run to see the notes of a kind, when they are summed up.
NOTE_HINTS = {"missing-identifier": "`radar refs missing` lists them with what to look up"}


def run_check(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    cache = CheckCache(site)
    problems = check_site(site, cache, changed=args.changed)
    if args.format == "json":
        print(json.dumps([problem.as_dict() for problem in problems], ensure_ascii=False, indent=2))
    else:
        for line in check_report(problems, args.verbosity):
            print(line)
    errors = sum(problem.severity == "error" for problem in problems)
    warnings = sum(problem.severity == "warning" for problem in problems)
    if args.verbosity >= 0:
        print(
            check_summary(problems, len(site.issue_files()))
            + (f" ({len(cache.rechecked)} changed file(s) checked)" if args.changed else ""),
            file=sys.stderr,
        )
    failing = errors or (args.strict and warnings)
    return EXIT_PROBLEMS if failing else EXIT_OK


def check_report(problems: list[Problem], verbosity: int) -> list[str]:
    """The lines ``radar check`` prints: errors, warnings unless quiet (``verbosity``
    -1), and notes one line a kind and file unless verbose (1), when each is listed."""
    shown = [
        problem.format()
        for problem in problems
        if problem.severity == "error"
        or (problem.severity == "warning" and verbosity >= 0)
        or (problem.severity == "note" and verbosity >= 1)
    ]
    if verbosity != 0:
        return shown
    kinds = Counter((p.path, p.code) for p in problems if p.severity == "note")
    for (path, code), count in sorted(kinds.items()):
        hint = NOTE_HINTS.get(code, "`radar check --verbose` lists them")
        shown.append(f"{path}: {counted(count, 'note')} [{code}]: {hint}")
    return shown


def check_summary(problems: list[Problem], issues: int) -> str:
    """The counts, and the files the problems are in."""
    by_severity = Counter(problem.severity for problem in problems)
    counts = ", ".join(
        counted(by_severity[severity], severity) for severity in ("error", "warning", "note")
    )
    where = Counter(problem.path for problem in problems)
    places = ", ".join(f"{path} ({count})" for path, count in sorted(where.items())[:5])
    more = f" and {len(where) - 5} more files" if len(where) > 5 else ""
    found = f": in {places}{more}" if where else ""
    return f"{counts}{found}; {counted(issues, 'issue')} checked"


def run_links(args: argparse.Namespace) -> int:
    from juju_radar.editors.site_links import broken_links, html_pages, pages_written_since

    if args.external:
        return run_external_links(args)

    outdir = Path(args.root, args.outdir)
    pages = html_pages(outdir)
    if not pages:
        print(f"radar: error: {outdir} holds no built pages: run make html", file=sys.stderr)
        return EXIT_USAGE
    if args.newer_than:
        pages = pages_written_since(outdir, Path(args.root, args.newer_than))
    broken = broken_links(outdir, pages)
    for line in broken:
        print(f"{line} [broken-link]")
    print(
        f"{counted(len(broken), 'broken link')} in {counted(len(pages), 'page')}", file=sys.stderr
    )
    return EXIT_PROBLEMS if broken else EXIT_OK


def run_external_links(args: argparse.Namespace) -> int:
    """Dead, moved and refused sources, one line each at their line of references.bib,
    and the report file. Exit 1 only with --strict and a dead source."""
    from juju_radar.editors import external_links as external

    site = open_site(args.root)
    settings = external.LinkSettings.from_environment()
    bib_name = site.relative(site.bib_path)
    text = site.bib_path.read_text(encoding="utf-8-sig") if site.bib_path.is_file() else ""
    sources = external.cited_sources(text, settings.doi_url)
    states = external.check_sources(sources, settings)
    for state in states:
        if state.state != "ok":
            line = f"{bib_name}:{state.line}: {state.state}: {state.key} {state.url}"
            print(f"{line} ({state.detail}) [source-{state.state}]")
    report_path = Path(args.root, args.report)
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report = external.report(states, bib_name)
    report_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", "utf-8")
    dead = sum(state.state == "dead" for state in states)
    summary = Counter(state.state for state in states)
    counts = ", ".join(f"{summary[name]} {name}" for name in ("ok", "moved", "refused", "dead"))
    print(
        f"{counted(len(states), 'source')} checked: {counts}; report in {args.report}",
        file=sys.stderr,
    )
    return EXIT_PROBLEMS if dead and args.strict else EXIT_OK


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def check_site(site: Site, cache: CheckCache | None = None, changed: bool = False) -> list[Problem]:
    """Every problem ``make html`` would report, without running Sphinx. What ``cache``
    knows of an unchanged file is used as it is; with ``changed``, a file whose size and
    modification time are those of the last run is not even read again."""
    cache = cache or CheckCache(site)
    problems: list[Problem] = []
    issues: list[Issue] = []
    in_site = set(site_files(site.root, ".md"))
    for path in site.issue_files():
        relative = site.relative(path)
        if (misplaced := misplaced_issue(relative)) is not None:
            problems.append(misplaced)
        facts = cache.page(path, relative, trust_stat=changed)
        problems += facts.problems
        problems += facts.content_problems if path in in_site else ()
        if facts.issue is not None:
            issues.append(facts.issue)
    bib_keys: set[str] = set()
    for name in site.bibfiles:
        text, read_problems = read_checked(site.root / name, name)
        problems += read_problems
        if text is not None:
            bib = cache.bib(name, text)
            problems += bib.problems
            bib_keys |= set(bib.keys)
    conf_text, _ = read_checked(site.root / "conf.py", "conf.py")

    def page_exists(page: str) -> bool:
        return (site.root / page).is_file()

    problems += archive_problems(issues, bib_keys, site.vocabulary, conf_text or "", page_exists)
    issue_files = set(site.issue_files())
    for path in sorted(in_site - issue_files):
        facts = cache.page(path, site.relative(path), trust_stat=changed)
        problems += facts.problems + facts.content_problems
    problems += outside_symlinks(site.root) + refused_code_files(site.root)
    if language := site.config.get("language"):
        locale_dirs = site.config.get("locale_dirs", DEFAULT_LOCALE_DIRS)
        problems += check_translations(site.root, locale_dirs, str(language))  # type: ignore[arg-type]
    cache.save(complete=True)
    return sorted(problems)


def read_checked(path: Path, relative: str) -> tuple[str | None, list[Problem]]:
    try:
        data = path.read_bytes()
    except OSError as error:
        message = f"cannot read the file: {error.strerror or error}"
        return None, [Problem(relative, 1, "error", "unreadable", message)]
    return decode_utf8(data, relative)


# --- serve ------------------------------------------------------------------------------


def run_serve(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    command = serve_command(site.root, args.port)
    print(
        f"serving a live preview on http://127.0.0.1:{args.port}/ (Ctrl-C stops it)",
        file=sys.stderr,
    )
    server = subprocess.Popen(command, cwd=site.root)
    # Stopped by `kill` or a service manager rather than Ctrl-C (which the terminal sends
    # to both), the preview server would go on holding the port.
    signal.signal(signal.SIGTERM, lambda signum, frame: server.terminate())
    try:
        status = server.wait()
    except KeyboardInterrupt:
        server.terminate()
        status = server.wait()
    return status if status > 0 else EXIT_OK


def serve_command(root: Path, port: int) -> list[str]:
    """sphinx-autobuild on 127.0.0.1, rebuilding into _build/preview on every save and
    answering local Host names only (``preview``)."""
    ignored = [argument for name in NOT_SITE for argument in ("--ignore", str(root / name))]
    return [
        sys.executable,
        "-m",
        "juju_radar.editors.preview",
        str(root),
        str(root / "_build" / "preview"),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *ignored,
        "--re-ignore",
        r"/\.[^/]+\.tmp$",
    ]


# --- synth ------------------------------------------------------------------------------


def run_synth(args: argparse.Namespace) -> int:
    from juju_radar.editors.synth import (
        SynthOptions,
        write_synthetic_archive,
        write_synthetic_exports,
    )

    site = open_site(args.root)
    out = Path(args.out)
    if out.exists():
        print(f"radar: error: {out} exists; synth writes only into a new folder", file=sys.stderr)
        return EXIT_USAGE
    if args.issues < 1:
        print("radar: error: N must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    options = SynthOptions(issues=args.issues, seed=args.seed, text=args.text)
    if args.exports:
        written = write_synthetic_exports(site.root, out, options, site.vocabulary)
        print(f"{len(written)} synthetic export files written to {out}")
        return EXIT_OK
    written = write_synthetic_archive(site.root, out, options, site.vocabulary)
    print(f"{len(written)} synthetic issues written to {out}")
    return EXIT_OK
