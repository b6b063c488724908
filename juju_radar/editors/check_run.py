"""``radar check``: every problem ``make html`` would report, found without Sphinx, and
the lines that report them (errors, warnings, notes summed up by kind, the counts)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Literal, TextIO

from juju_radar.editors.check_cache import CheckCache
from juju_radar.editors.exit_status import EXIT_OK, EXIT_PROBLEMS
from juju_radar.editors.site_files import Site
from juju_radar.model import codes
from juju_radar.model.archive import Archive
from juju_radar.model.archive_rules import archive_problems
from juju_radar.model.entities import REGISTRY_FILE, Registry, read_registry
from juju_radar.model.history import file_history, uncorrected_changes
from juju_radar.model.issue_records import Issue, misplaced_issue
from juju_radar.model.mentions import unknown_entities
from juju_radar.model.messages import N_, _, ngettext
from juju_radar.model.page_files import read_utf8
from juju_radar.model.period_pages import sources_at_period_pages
from juju_radar.model.problems import Problem
from juju_radar.model.site_layout import outside_symlinks, refused_code_files, site_files
from juju_radar.model.translations import check_translations

DEFAULT_LOCALE_DIRS = ["locales"]  # Sphinx's default locale_dirs

# What to run to see the notes of a kind, when they are summed up.
NOTE_HINTS = {"missing-identifier": N_("`radar refs missing` lists them with what to look up")}
DEFAULT_NOTE_HINT = N_("`radar check --verbose` lists them")
UNREAD = frozenset({"encoding", "unreadable"})  # a file's problems before any reading


@dataclass(frozen=True)
class CheckOptions:
    strict: bool = False  # kept for scripts: warnings fail anyway, as in make html
    format: Literal["text", "json"] = "text"
    verbosity: int = 0  # -1 errors only, 0 notes summed up by kind, 1 every note
    changed: bool = False  # read again only the files changed since the last run


def check_archive(site: Site, options: CheckOptions, out: TextIO, err: TextIO) -> int:
    """Check the site, print what was found to ``out`` and the counts to ``err``; the
    exit status."""
    cache = CheckCache(site)
    problems = check_site(site, cache, changed=options.changed)
    if options.format == "json":
        as_dicts = [problem.as_dict() for problem in problems]
        print(json.dumps(as_dicts, ensure_ascii=False, indent=2), file=out)
    else:
        for line in check_report(problems, options.verbosity):
            print(line, file=out)
    if options.verbosity >= 0:
        summary = check_summary(problems, len(site.issue_files()))
        if options.changed:
            rechecked = _(" ({count} changed file(s) checked)")
            summary += rechecked.format(count=len(cache.rechecked))
        print(summary, file=err)
    # What fails make html fails the check: the registry's severities, as the build's.
    failing = any(codes.fails(problem.code, problem.severity) for problem in problems)
    return EXIT_PROBLEMS if failing else EXIT_OK


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
        facts = cache.page(path, relative, trust_stat=changed)
        problems += facts.content_problems if path in in_site else ()
        if (misplaced := misplaced_issue(relative)) is not None:
            # As the build: a page not named by its date is no issue; its path is its
            # problem (once renamed, it is read as one).
            problems.append(misplaced)
            problems += [p for p in facts.problems if p.code in UNREAD]
            continue
        problems += facts.problems
        if facts.issue is not None:
            issues.append(facts.issue)
    bib_keys: set[str] = set()
    for name in site.bibfiles:
        text, read_problems = read_utf8(site.root / name, name)
        problems += read_problems
        if text is not None:
            bib = cache.bib(name, text)
            problems += bib.problems
            bib_keys |= set(bib.keys)
    conf_text, _unread = read_utf8(site.root / "conf.py", "conf.py")

    def page_exists(page: str) -> bool:
        return (site.root / page).is_file()

    problems += archive_problems(
        issues,
        bib_keys,
        site.vocabulary,
        conf_text or "",
        page_exists,
        site.config.get("radar_license"),
    )
    problems += registry_problems(site, issues)
    if page_exists("references.md"):  # the archive's layout, which has period pages
        archive = Archive({issue.docname: issue for issue in issues})
        problems += sources_at_period_pages(archive, site.vocabulary, page_exists)
    problems += uncorrected_changes(issues, file_history(site.root))
    issue_files = set(site.issue_files())
    for path in sorted(in_site - issue_files):
        facts = cache.page(path, site.relative(path), trust_stat=changed)
        problems += facts.problems + facts.content_problems
    problems += outside_symlinks(site.root) + refused_code_files(site.root)
    locale_dirs = site.config.get("locale_dirs", DEFAULT_LOCALE_DIRS)
    problems += check_translations(site.root, list(locale_dirs))  # type: ignore[call-overload]
    cache.save(complete=True)
    return sorted(codes.graded(problem) for problem in problems)


def registry_problems(site: Site, issues: list[Issue]) -> list[Problem]:
    """``entities.yaml``'s problems, and the items' entity options naming no entity."""
    path = site.root / REGISTRY_FILE
    if not path.is_file():
        registry, problems = Registry(), list[Problem]()
    else:
        text, problems = read_utf8(path, REGISTRY_FILE)
        if text is not None:
            registry, found = read_registry(text, REGISTRY_FILE)
            problems += found
        else:
            registry = Registry()
    for issue in issues:
        problems += unknown_entities(registry, issue)
    return problems


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
        # As a problem's line: ``PATH: N notes [code]: what to run to see them``.
        hint = _(NOTE_HINTS[code]) if code in NOTE_HINTS else _(DEFAULT_NOTE_HINT)
        shown.append(f"{path}: {counted(count, 'note')} [{code}]: {hint}")
    return shown


def check_summary(problems: list[Problem], issues: int) -> str:
    """The counts, and the files the problems are in: the errors first, and the files
    they are in, when there are any (the rest is then counted only)."""
    by_severity = Counter(problem.severity for problem in problems)
    errors = [problem for problem in problems if problem.severity == "error"]
    if errors:
        return _("{errors}{found}; {warnings}, {notes}; {issues} checked").format(
            errors=counted(by_severity["error"], "error"),
            found=_places(errors),
            warnings=counted(by_severity["warning"], "warning"),
            notes=counted(by_severity["note"], "note"),
            issues=counted(issues, "issue"),
        )
    return _("{errors}, {warnings}, {notes}{found}; {issues} checked").format(
        errors=counted(0, "error"),
        warnings=counted(by_severity["warning"], "warning"),
        notes=counted(by_severity["note"], "note"),
        found=_places(problems),
        issues=counted(issues, "issue"),
    )


def _places(problems: list[Problem]) -> str:
    """``: in a.md (2), b.bib (1)``, five files at most and how many more."""
    where = sorted(Counter(problem.path for problem in problems).items())
    places = "".join(
        (_("{path} ({count})") if number == 0 else _(", {path} ({count})")).format(
            path=path, count=count
        )
        for number, (path, count) in enumerate(where[:5])
    )
    if len(where) > 5:
        return _(": in {places} and {count} more files").format(places=places, count=len(where) - 5)
    return _(": in {places}").format(places=places) if where else ""


def counted(number: int, noun: Literal["error", "warning", "note", "issue"]) -> str:
    """``1 error``, ``2 notes``: ``number`` of the severity or of issues, as said."""
    if noun == "error":
        text = ngettext("{count} error", "{count} errors", number)
    elif noun == "warning":
        text = ngettext("{count} warning", "{count} warnings", number)
    elif noun == "note":
        text = ngettext("{count} note", "{count} notes", number)
    else:
        text = ngettext("{count} issue", "{count} issues", number)
    return text.format(count=number)
