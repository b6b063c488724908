"""Rules only visible across the archive: a date or an item id used twice, citation
keys missing from the .bib file, topics without their page. ``radar check`` and the
build both run them.

Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import ast
import datetime as dt
import difflib
from collections.abc import Callable, Iterable

from juju_radar.model.issue_records import Issue
from juju_radar.model.license import license_problems
from juju_radar.model.messages import _
from juju_radar.model.page import invisible_character_problem
from juju_radar.model.problems import Problem
from juju_radar.model.vocabulary import Topic, Vocabulary

CONF_FILE = "conf.py"


def topic_page(topic: Topic) -> str:
    return f"topics/{topic.key}.md"


def check_topic_pages(
    vocabulary: Vocabulary, conf_text: str, page_exists: Callable[[str], bool]
) -> list[Problem]:
    """Each topic in conf.py needs its page: the listings and the topic index link to it."""
    conf_lines = conf_text.splitlines()
    problems = []
    for topic in vocabulary.topics:
        if page_exists(topic_page(topic)):
            continue
        line = next(
            (
                number
                for number, text in enumerate(conf_lines, 1)
                if repr(topic.key) in text or f'"{topic.key}"' in text
            ),
            1,
        )
        problems.append(
            Problem(
                CONF_FILE,
                line,
                "error",
                "missing-topic-page",
                _(
                    "topic '{key}' has no page: create {page} holding a {{radar-topic}} {key} "
                    "block and list it in topics/index.md's toctree"
                ).format(key=topic.key, page=topic_page(topic)),
            )
        )
    return problems


def check_vocabulary_names(vocabulary: Vocabulary, conf_text: str) -> list[Problem]:
    """The topics' and verdicts' keys, labels and aliases in conf.py hold no invisible
    character (the rule of every title, key, label and name, ``invisible_character_problem``),
    each refused at the conf.py line that writes it."""
    lines = string_lines(conf_text)
    problems = []
    for term in (*vocabulary.topics, *vocabulary.verdicts):
        for name in dict.fromkeys(term.names):
            line = lines.get(name) or lines.get(term.key, 1)
            if problem := invisible_character_problem(name, CONF_FILE, line):
                problems.append(problem)
    return problems


def string_lines(python_text: str) -> dict[str, int]:
    """The line of each string a Python file writes (its first), as Python reads it:
    escapes (``"\\u200b"``) and implicit joins included. Empty if it does not parse."""
    try:
        tree = ast.parse(python_text)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found[node.value] = min(found.get(node.value, node.lineno), node.lineno)
    return found


def archive_problems(
    issues: Iterable[Issue],
    bib_keys: set[str] | None,
    vocabulary: Vocabulary,
    conf_text: str,
    page_exists: Callable[[str], bool],
    license_setting: object = None,
) -> list[Problem]:
    """Every problem visible only across the archive, for ``radar check`` and the build
    alike: dates and ids used twice, unknown citation keys, topics without their page,
    invisible characters in the vocabularies' names, a wrong ``radar_license``."""
    return [
        *check_archive(issues, bib_keys),
        *check_topic_pages(vocabulary, conf_text, page_exists),
        *check_vocabulary_names(vocabulary, conf_text),
        *license_problems(license_setting, conf_text),
    ]


def check_archive(issues: Iterable[Issue], bib_keys: set[str] | None) -> list[Problem]:
    """Problems only visible across issues: a date or an item id used twice, unknown keys."""
    problems: list[Problem] = []
    first_use: dict[str, Issue] = {}
    first_of_date: dict[dt.date, Issue] = {}
    for issue in sorted(issues, key=lambda issue: (issue.date, issue.path)):
        if (same_day := first_of_date.setdefault(issue.date, issue)) is not issue:
            problems.append(
                Problem(
                    issue.path,
                    issue.date_line,
                    "error",
                    "duplicate-date",
                    _("{path} is already the issue of {date}").format(
                        path=same_day.path, date=issue.date.isoformat()
                    ),
                )
            )
        for item in issue.items:
            owner = first_use.setdefault(item.id, issue)
            if owner is not issue:
                problems.append(
                    Problem(
                        issue.path,
                        item.id_line or item.line,
                        "error",
                        "duplicate-id",
                        _("item id '{id}' is already used in {path}").format(
                            id=item.id, path=owner.path
                        ),
                    )
                )
            for key in item.citation_keys if bib_keys is not None else ():
                if key not in bib_keys:  # type: ignore[operator]
                    problems.append(
                        Problem(
                            issue.path,
                            item.sources_line or item.line,
                            "error",
                            "missing-citation",
                            _("citation key '{key}' is not in references.bib").format(key=key)
                            + nearest_keys(key, bib_keys),  # type: ignore[arg-type]
                        )
                    )
    return problems


def nearest_keys(key: str, bib_keys: Iterable[str]) -> str:
    """The keys of the .bib file nearest ``key`` (``taubench2026papr`` ->
    ``taubench2026paper``), as the end of the message; "" when none is near."""
    close = difflib.get_close_matches(key, list(bib_keys), n=3, cutoff=0.8)
    if not close:
        return ""
    if len(close) == 1:
        return _(" (did you mean '{name}'?)").format(name=close[0])
    keys = ", ".join(f"'{name}'" for name in close)
    return _(" (did you mean one of {keys}?)").format(keys=keys)
