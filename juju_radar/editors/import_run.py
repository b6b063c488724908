"""``radar import``: export files into issue pages and ``references.bib``, as one
transaction.

Each export is read and checked (:mod:`juju_radar.editors.export_reader`); its items are
given ids and its sources citation keys (:mod:`juju_radar.editors.import_ids`), against
sets kept current across the backlog; its page and entries are rendered
(:mod:`juju_radar.editors.page_writer`) and read back. The new entries are then checked
once as a whole, ``references.bib`` is written once and the pages after it; when a write
fails, what was written is put back as it was.
"""

from __future__ import annotations

import bisect
import contextlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TextIO

from tqdm import tqdm

from juju_radar.bib.size_limits import DEFAULT_BIB_LIMITS, BibLimits
from juju_radar.editors.check_cache import (
    BibFacts,
    CheckCache,
    appended_facts,
    bib_facts,
    entries_separator,
)
from juju_radar.editors.exit_status import EXIT_OK, EXIT_PROBLEMS
from juju_radar.editors.export_reader import parse_export
from juju_radar.editors.import_ids import (
    ArchiveIds,
    References,
    assign_citation_keys,
    assign_item_ids,
    chosen_id_problems,
)
from juju_radar.editors.page_writer import render_page, to_issue
from juju_radar.editors.replaced_files import Replacements, edited_message
from juju_radar.editors.site_files import Site, atomic_write
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import Issue, date_outside_span
from juju_radar.model.messages import _
from juju_radar.model.page_files import decode_utf8, read_utf8
from juju_radar.model.problems import Problem

Status = Literal["imported", "skipped", "failed"]


@dataclass
class Outcome:
    status: Status
    problems: list[Problem] = field(default_factory=list)
    written: str = ""


@dataclass(frozen=True)
class ImportOptions:
    force: bool = False  # replace existing issues
    draft: bool = False  # import as status: draft
    strict: bool = False  # fail when a file is skipped (its day exists)
    discard_edits: bool = False  # with force: replace a page edited since radar wrote it


@dataclass
class PendingPage:
    number: int  # the file's position in the backlog
    display: str
    target: Path
    page: str


def import_exports(
    site: Site, files: Sequence[str], options: ImportOptions, out: TextIO, err: TextIO
) -> int:
    """Import ``files``; print each imported file to ``out``, the problems (and a
    progress bar, for a backlog) and the counts to ``err``. The exit status."""
    files = list(files)
    desc, unit = _("importing"), _("file")
    with tqdm(files, desc=desc, unit=unit, disable=len(files) < 2, file=err) as bar:

        def report(problem: Problem) -> None:
            tqdm.write(problem.format(), file=err)

        replacements = Replacements(site)
        outcomes = import_backlog(
            site, bar, options.force, options.draft, report, replacements, options.discard_edits
        )
    if outcomes is None:
        message = _(
            "{bib} has errors: fix them before importing (nothing was imported); "
            "0 imported, 0 skipped, {failed} failed"
        )
        print(message.format(bib=site.bibfiles[0], failed=len(files)), file=err)
        return EXIT_PROBLEMS
    for name, outcome in zip(files, outcomes, strict=True):
        if outcome.status == "imported":
            if options.draft:
                imported = _("{name}: imported as {path} (status: draft)")
            else:
                imported = _("{name}: imported as {path}")
            print(imported.format(name=name, path=outcome.written), file=out)
    replacements.show(out)
    counts = Counter(outcome.status for outcome in outcomes)
    if counts["skipped"]:
        summary = _(
            "{imported} imported, {skipped} skipped (already in the archive: --force "
            "replaces them), {failed} failed"
        )
    else:
        summary = _("{imported} imported, {skipped} skipped, {failed} failed")
    print(
        summary.format(
            imported=counts["imported"], skipped=counts["skipped"], failed=counts["failed"]
        ),
        file=err,
    )
    # A day already in the archive is skipped, as asked: a warning, not a failure.
    failing = counts["failed"] or (options.strict and counts["skipped"])
    return EXIT_PROBLEMS if failing else EXIT_OK


def import_backlog(
    site: Site,
    files: Iterable[str],
    force: bool = False,
    draft: bool = False,
    report: Callable[[Problem], None] = lambda problem: None,
    replacements: Replacements | None = None,
    discard_edits: bool = False,
) -> list[Outcome] | None:
    """Import export files in one go: each is read and checked, its ids and keys given
    against sets kept current, then the new entries are checked once, ``references.bib``
    is written once and the pages after it. None (nothing written) when the .bib file has
    errors; each problem found goes to ``report`` as it is found. A page edited since
    radar wrote it is replaced only with ``discard_edits``; what is replaced is kept and
    noted in ``replacements``."""
    replacements = replacements or Replacements(site)
    edited = replacements.edited if not discard_edits else lambda target: False
    cache = CheckCache(site)
    bib_name = site.bibfiles[0]
    try:
        original = site.bib_path.read_bytes() if site.bib_path.exists() else None
    except OSError as error:
        message = _("cannot read the file: {reason}").format(reason=error)
        report(Problem(bib_name, 1, "error", "unreadable", message))
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
            site, archive_ids, references, pending, Path(name), name, number, force, draft, edited
        )
        outcomes.append(outcome)
        for problem in outcome.problems:
            report(problem)
        if page is not None:
            pending[page.target] = page
    block, added = checked_entries(references, bib_name, outcomes, names, report, site.bib_limits)
    imported = {number for number, outcome in enumerate(outcomes) if outcome.status == "imported"}
    pages = {target: page for target, page in pending.items() if page.number in imported}
    for target, page in pages.items():
        replacements.keep(target, page.page)
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
    else:
        for target, page in pages.items():
            replacements.wrote(target, page.page)
        replacements.save()
        if (
            added is not None
            and (seeded := appended_facts(facts, added, site.bib_limits)) is not None
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
    edited: Callable[[Path], bool] = lambda target: False,
) -> tuple[Outcome, PendingPage | None]:
    """Read and check one export; when it is valid, give it ids and keys (kept in
    ``archive_ids`` and ``references``) and return the page to write. Writes nothing."""
    text, problems = read_utf8(file, display)
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
        message = _("issue {date} already exists as {path}: pass --force to replace it").format(
            date=export.date.isoformat(), path=relative
        )
        problem = Problem(display, export.date_line, "warning", "exists", message)
        return Outcome("skipped", [problem]), None
    if edited(target):
        message = edited_message(relative)
        return Outcome("failed", [Problem(display, 1, "error", "edited", message)]), None
    if outside := site.outside_root(target, site.bib_path):
        message = _(
            "{path} leads outside the repository (a symbolic link): nothing was written"
        ).format(path=outside)
        return Outcome("failed", [Problem(display, 1, "error", "unwritable", message)]), None
    if clashes := chosen_id_problems(export, archive_ids.taken(relative), display):
        return Outcome("failed", problems + clashes), None
    ids = assign_item_ids(export, archive_ids.taken(relative))
    keys, new_entries = assign_citation_keys(export, ids, references)
    issue = to_issue(export, ids, keys, relative, status="draft" if draft else "published")
    page = render_page(issue)
    if invalid := validation_problems(page, relative, issue, site, display, export.length_line):
        return Outcome("failed", invalid), None
    archive_ids.replace(relative, ids)
    for key, entry, note in new_entries:
        references.taken.add(key.lower())
        references.key_by_note[note] = key
        references.new_entries.append(entry)
        references.owners.append(number)
    return Outcome("imported", problems, relative), PendingPage(number, display, target, page)


def validation_problems(
    page: str, relative: str, issue: Issue, site: Site, display: str, length_line: int = 1
) -> list[Problem]:
    """What would be wrong with the written files: a length line far from the text's
    length (the export's fault, at its length line), else normally nothing."""
    parsed, page_problems = parse_issue(page, relative, site.vocabulary, site.date_span)
    invalid = _("the generated page would be invalid at its line {line}: {message}")
    problems = [
        Problem(display, length_line, "error", "length-mismatch", p.message)
        for p in page_problems
        if p.code == "length-mismatch"
    ]
    problems += [
        Problem(
            display,
            1,
            "error",
            "invalid-page",
            invalid.format(line=p.line, message=p.message) + f" [{p.code}]",
        )
        for p in page_problems
        if p.severity == "error" and p.code != "length-mismatch"
    ]
    if parsed is None or len(parsed.items) != len(issue.items):
        problems.append(
            Problem(
                display,
                1,
                "error",
                "invalid-page",
                _("the generated page does not read back as the same issue"),
            )
        )
    return problems


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
        block = separator + "\n".join(entry for _owner, entry in kept)
        added = bib_facts(block, bib_name, limits)
        starts = []  # the line of the block each entry starts on
        line = 1 + separator.count("\n")
        for _owner, entry in kept:
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
                _("a generated reference would be invalid: {message}").format(message=message),
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
        message = _("cannot write {path}: {reason}").format(
            path=site.relative(current), reason=error.strerror or error
        )
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
            return _("{message}; and what was written could not be undone: {error}").format(
                message=message, error=again
            )
        if written_bib:
            message += _(" ({bib} was left as it was)").format(bib=site.bibfiles[0])
        if done:
            message += _("; the {count} page(s) written before were put back as they were").format(
                count=len(done)
            )
        return message
    return ""
