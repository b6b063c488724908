"""``radar``: the editors' command line (import, new, check, links, serve, synth, refs).

Problems print as ``PATH:LINE: error|warning: message [code]``, from the same model
that the Sphinx extension uses, so ``radar check`` and ``make html`` agree.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from tqdm import tqdm

from juju_radar.bib.check import check_bib_text, parse_bib_keys, scan_entries
from juju_radar.bib.identifiers import EDITORS_NOTE_FIELD
from juju_radar.editors.importer import (
    FORMER_NOTE_SUFFIX,
    ExportIssue,
    citation_key_for,
    decode_utf8,
    draft_page,
    item_id_for,
    parse_export,
    render_bib_entry,
    render_page,
    source_note,
    source_title,
    to_issue,
)
from juju_radar.editors.site_files import (
    Site,
    SiteError,
    atomic_write,
    item_ids_in,
    open_site,
    read_text,
)
from juju_radar.model.content import MarkdownSyntax, check_content, page_kind
from juju_radar.model.issues import (
    Issue,
    archive_problems,
    date_outside_span,
    misplaced_issue,
    parse_issue,
)
from juju_radar.model.problems import Problem
from juju_radar.model.site_layout import NOT_SITE, outside_symlinks, site_files

NEWSROOM_TIMEZONE = ZoneInfo("Asia/Shanghai")
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
    check.set_defaults(run=run_check)

    links = commands.add_parser(
        "links", parents=[common], help="check that every link of the built site resolves"
    )
    links.add_argument("outdir", nargs="?", default="_build/html", help="default: _build/html")
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


class ArchiveIds:
    """Item ids of every issue file, kept current while a backlog is imported."""

    def __init__(self, site: Site) -> None:
        self.by_path: dict[str, list[str]] = {}
        for path in site.issue_files():
            try:
                self.by_path[site.relative(path)] = item_ids_in(read_text(path))
            except SiteError:
                continue

    def taken(self, except_path: str) -> set[str]:
        return {
            item_id for path, ids in self.by_path.items() if path != except_path for item_id in ids
        }


def run_import(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    files = list(args.files)
    if bib_errors := broken_bibliography(site):
        for problem in bib_errors:
            print(problem.format(), file=sys.stderr)
        print(
            f"{site.bibfiles[0]} has errors: fix them before importing (nothing was imported); "
            f"0 imported, 0 skipped, {len(files)} failed",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    archive_ids = ArchiveIds(site)
    counts = {"imported": 0, "skipped": 0, "failed": 0}
    with tqdm(files, desc="importing", unit="file", disable=len(files) < 2, file=sys.stderr) as bar:
        for name in bar:
            outcome = import_export(
                site, archive_ids, Path(name), name, args.force, draft=args.draft
            )
            counts[outcome.status] += 1
            for problem in outcome.problems:
                tqdm.write(problem.format(), file=sys.stderr)
            if outcome.written:
                as_draft = " (status: draft)" if args.draft else ""
                tqdm.write(f"{name}: imported as {outcome.written}{as_draft}", file=sys.stdout)
    print(
        f"{counts['imported']} imported, {counts['skipped']} skipped, {counts['failed']} failed",
        file=sys.stderr,
    )
    return EXIT_OK if counts["imported"] == len(files) else EXIT_PROBLEMS


def broken_bibliography(site: Site) -> list[Problem]:
    """The errors of the .bib file imports append to: appending to a broken file would bury
    the error under new entries, and keys could not be reused reliably."""
    if not site.bib_path.exists():
        return []
    text, problems = read_checked(site.bib_path, site.bibfiles[0])
    if text is not None:
        problems += check_bib_text(text, site.bibfiles[0])
    return [problem for problem in problems if problem.severity == "error"]


def import_export(
    site: Site, archive_ids: ArchiveIds, file: Path, display: str, force: bool, draft: bool = False
) -> Outcome:
    """Import one export file; write nothing unless the page and its references are valid."""
    try:
        data = file.read_bytes()
    except OSError as error:
        message = f"cannot read the file: {error.strerror or error}"
        return Outcome("failed", [Problem(display, 1, "error", "unreadable", message)])
    text, problems = decode_utf8(data, display)
    if text is None:
        return Outcome("failed", problems)
    vocabulary = site.vocabulary
    export, problems = parse_export(text, display, vocabulary)
    if export is None:
        return Outcome("failed", problems)
    if outside := date_outside_span(export.date, site.date_span):
        problems.append(Problem(display, export.date_line, "error", "date-out-of-range", outside))
        return Outcome("failed", problems)
    target = site.issue_path(export.date.isoformat())
    relative = site.relative(target)
    if target.exists() and not force:
        message = (
            f"issue {export.date.isoformat()} already exists as {relative}: "
            "pass --force to replace it"
        )
        return Outcome("skipped", [Problem(display, export.date_line, "error", "exists", message)])
    ids = assign_item_ids(export, archive_ids.taken(relative))
    bib_text = read_text(site.bib_path) if site.bib_path.exists() else ""
    keys, new_entries = assign_citation_keys(export, ids, bib_text)
    issue = to_issue(export, ids, keys, relative, status="draft" if draft else "published")
    page = render_page(issue)
    invalid = validation_problems(page, relative, issue, new_entries, site, display)
    if invalid:
        return Outcome("failed", invalid)
    if outside := site.outside_root(target, site.bib_path):
        message = f"{outside} leads outside the repository (a symbolic link): nothing was written"
        return Outcome("failed", [Problem(display, 1, "error", "unwritable", message)])
    failure = write_bib_and_page(site, bib_text, new_entries, target, page)
    if failure:
        return Outcome("failed", [Problem(display, 1, "error", "unwritable", failure)])
    archive_ids.by_path[relative] = list(ids)
    return Outcome("imported", problems, relative)


def write_bib_and_page(
    site: Site, bib_text: str, new_entries: Sequence[str], target: Path, page: str
) -> str:
    """Write the new references, then the page; if the page cannot be written, put the
    .bib file back as it was. Returns why nothing was imported, or ""."""
    written_bib = False
    try:
        if new_entries:
            atomic_write(site.bib_path, append_entries(bib_text, new_entries))
            written_bib = True
        atomic_write(target, page)
    except OSError as error:
        failed = site.relative(target) if written_bib or not new_entries else site.bibfiles[0]
        message = f"cannot write {failed}: {error.strerror or error}"
        if written_bib:
            try:
                atomic_write(site.bib_path, bib_text)
            except OSError as again:
                return f"{message}; and {site.bibfiles[0]} could not be restored: {again}"
            message += f" ({site.bibfiles[0]} was left as it was)"
        return message
    return ""


def assign_item_ids(export: ExportIssue, taken: set[str]) -> list[str]:
    ids: list[str] = []
    for position, item in enumerate(export.items, start=1):
        ids.append(item_id_for(item.title, export.date, position, taken | set(ids)))
    return ids


def assign_citation_keys(
    export: ExportIssue, ids: Sequence[str], bib_text: str
) -> tuple[list[list[str]], list[str]]:
    """One key per source label, reusing the entry an earlier import of the same item made."""
    # Earlier versions wrote the note in ``note``; it is in ``radarnote`` now.
    key_by_note = {
        (entry.field_value(name) or "").removesuffix(FORMER_NOTE_SUFFIX): entry.key
        for entry in scan_entries(bib_text)
        for name in ("note", EDITORS_NOTE_FIELD)
        if entry.is_citable and entry.key and entry.field_value(name)
    }
    taken = {key.lower() for key in parse_bib_keys(bib_text)}
    keys: list[list[str]] = []
    new_entries: list[str] = []
    for item, item_id in zip(export.items, ids, strict=True):
        item_keys = []
        for position, label in enumerate(item.labels, start=1):
            note = source_note(export.date, item_id, item.title, label)
            key = key_by_note.get(render_bib_value_for_lookup(note))
            if key is None:
                key = citation_key_for(item_id, position, taken)
                taken.add(key.lower())
                new_entries.append(render_bib_entry(key, source_title(item.title, label), note))
            item_keys.append(key)
        keys.append(item_keys)
    return keys, new_entries


def render_bib_value_for_lookup(note: str) -> str:
    """The note as the bibliography scanner reads it back from an entry we wrote."""
    entry_text = render_bib_entry("lookup", "t", note)
    entries = scan_entries(entry_text)
    return (entries[0].field_value(EDITORS_NOTE_FIELD) or "") if entries else note


def append_entries(bib_text: str, entries: Sequence[str]) -> str:
    separator = (
        ""
        if not bib_text or bib_text.endswith("\n\n")
        else ("\n" if bib_text.endswith("\n") else "\n\n")
    )
    return bib_text + separator + "\n".join(entries)


def validation_problems(
    page: str, relative: str, issue: Issue, new_entries: Sequence[str], site: Site, display: str
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
    for p in check_bib_text("\n".join(new_entries), site.bibfiles[0]):
        if p.severity == "error":
            problems.append(
                Problem(
                    display,
                    1,
                    "error",
                    "invalid-reference",
                    f"a generated reference would be invalid: {p.message}",
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
    print(f"created {relative} (status: draft)")
    return EXIT_OK


def parse_date_argument(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text.strip().replace(".", "-"))
    except ValueError:
        return None


def today_in_newsroom() -> dt.date:
    return dt.datetime.now(NEWSROOM_TIMEZONE).date()


# --- check ------------------------------------------------------------------------------


def run_check(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    problems = check_site(site)
    if args.format == "json":
        print(json.dumps([problem.as_dict() for problem in problems], ensure_ascii=False, indent=2))
    else:
        for problem in problems:
            print(problem.format())
    errors = sum(problem.severity == "error" for problem in problems)
    warnings = sum(problem.severity == "warning" for problem in problems)
    notes = len(problems) - errors - warnings
    print(
        f"{counted(errors, 'error')}, {counted(warnings, 'warning')}, {counted(notes, 'note')} "
        f"in {counted(len(site.issue_files()), 'issue')}",
        file=sys.stderr,
    )
    failing = errors or (args.strict and warnings)
    return EXIT_PROBLEMS if failing else EXIT_OK


def run_links(args: argparse.Namespace) -> int:
    from juju_radar.editors.site_links import broken_links, html_pages

    outdir = Path(args.root, args.outdir)
    pages = html_pages(outdir)
    if not pages:
        print(f"radar: error: {outdir} holds no built pages: run make html", file=sys.stderr)
        return EXIT_USAGE
    broken = broken_links(outdir)
    for line in broken:
        print(f"{line} [broken-link]")
    print(
        f"{counted(len(broken), 'broken link')} in {counted(len(pages), 'page')}", file=sys.stderr
    )
    return EXIT_PROBLEMS if broken else EXIT_OK


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def check_site(site: Site) -> list[Problem]:
    """Every problem ``make html`` would report, without running Sphinx."""
    vocabulary = site.vocabulary
    problems: list[Problem] = []
    issues: list[Issue] = []
    for path in site.issue_files():
        relative = site.relative(path)
        if (misplaced := misplaced_issue(relative)) is not None:
            problems.append(misplaced)
        text, read_problems = read_checked(path, relative)
        problems += read_problems
        if text is None:
            continue
        issue, found = parse_issue(text, relative, vocabulary, site.date_span)
        problems += found
        if issue is not None:
            issues.append(issue)
    bib_keys: set[str] = set()
    for name in site.bibfiles:
        text, read_problems = read_checked(site.root / name, name)
        problems += read_problems
        if text is not None:
            problems += check_bib_text(text, name)
            bib_keys |= set(parse_bib_keys(text))
    conf_text, _ = read_checked(site.root / "conf.py", "conf.py")

    def page_exists(page: str) -> bool:
        return (site.root / page).is_file()

    problems += archive_problems(issues, bib_keys, vocabulary, conf_text or "", page_exists)
    problems += check_pages_content(site)
    problems += outside_symlinks(site.root)
    return sorted(problems)


def check_pages_content(site: Site) -> list[Problem]:
    """What the pages hold beyond the issue format: directives, roles, links, images."""
    syntax = MarkdownSyntax.from_config(
        site.config.get("myst_enable_extensions", ()),  # type: ignore[arg-type]
        site.config.get("myst_disable_syntax", ()),  # type: ignore[arg-type]
    )
    problems: list[Problem] = []
    issue_files = set(site.issue_files())
    for path in site_files(site.root, ".md"):
        relative = site.relative(path)
        text, read_problems = read_checked(path, relative)
        if text is None:  # an issue's read problems are reported with the issue
            problems += [] if path in issue_files else read_problems
            continue
        problems += check_content(text, relative, page_kind(relative), syntax)
    return problems


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
    from juju_radar.editors.synth import SynthOptions, write_synthetic_archive

    site = open_site(args.root)
    out = Path(args.out)
    if out.exists():
        print(f"radar: error: {out} exists; synth writes only into a new folder", file=sys.stderr)
        return EXIT_USAGE
    if args.issues < 1:
        print("radar: error: N must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    options = SynthOptions(issues=args.issues, seed=args.seed)
    written = write_synthetic_archive(site.root, out, options, site.vocabulary)
    print(f"{len(written)} synthetic issues written to {out}")
    return EXIT_OK
