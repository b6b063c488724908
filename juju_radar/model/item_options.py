"""An item's options (id, topic, verdict, score, sources, tags) and the one check of
each, alike for an item of a page, the item directive and a draft read from an export;
with the Reporter that collects a file's problems.

Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from juju_radar.model.anchors import is_reserved_id
from juju_radar.model.issue_records import DEFAULT_DATE_SPAN, Source
from juju_radar.model.messages import N_, _
from juju_radar.model.page import invisible_character_problem
from juju_radar.model.problems import Problem
from juju_radar.model.vocabulary import Topic, Verdict, Vocabulary, did_you_mean, lookup_term

ITEM_ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
CITE_KEY_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_:.-]*$")
SOURCE_RE = re.compile(r"^(?P<label>.+?)\s*<(?P<keys>[^<>]+)>$")
ITEM_OPTIONS = ("id", "topic", "tags", "score", "verdict", "sources", "entities", "not-entities")
REQUIRED_ITEM_OPTIONS = ("id", "topic", "score", "verdict")
# What an unknown topic or verdict is reported as (by the name of the option).
UNKNOWN_NAME = {
    "topic": N_("unknown topic '{value}'{suggestion}"),
    "verdict": N_("unknown verdict '{value}'{suggestion}"),
}

_Named = TypeVar("_Named", "Topic", "Verdict")


@dataclass
class Reporter:
    """Collects the problems found in one file."""

    path: str
    date_span: tuple[int, int] = DEFAULT_DATE_SPAN
    problems: list[Problem] = field(default_factory=list)

    def error(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "error", code, message))

    def warning(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "warning", code, message))


@dataclass(frozen=True)
class ItemOptions:
    """An item block's options as read: None where an option is missing or unusable."""

    id: str | None
    topic: Topic | None
    verdict: Verdict | None
    score: float | None
    sources: tuple[Source, ...] | None
    tags: tuple[str, ...]
    # The ids its ``entities`` and ``not-entities`` options name (checked against the
    # registry by ``model.mentions``), each with its line.
    entities: tuple[tuple[str, int], ...] = ()
    not_entities: tuple[tuple[str, int], ...] = ()


class ErrorReport(Protocol):
    """Where a file's errors go: a :class:`Reporter`, or an export's report."""

    path: str

    def error(self, line: int, code: str, message: str) -> None: ...


def check_visible(text: str, line: int, report: ErrorReport) -> bool:
    """Whether ``text`` (a title, label, tag or topic name) holds no invisible character;
    else its problem is reported."""
    problem = invisible_character_problem(text, report.path, line)
    if problem is not None:
        report.error(problem.line, problem.code, problem.message)
    return problem is None


def read_item_options(
    options: Mapping[str, tuple[str, int]], vocabulary: Vocabulary, report: Reporter
) -> ItemOptions:
    """``name -> (value, line)`` into an item's fields, reporting each unusable one. The
    model and the item directive both read options through here."""
    item_id = _item_id(options.get("id"), report)
    rating = read_rating(
        vocabulary,
        report.path,
        topic=options.get("topic"),
        verdict=options.get("verdict"),
        score=options.get("score"),
    )
    for problem in rating.problems.values():
        report.error(problem.line, problem.code, problem.message)
    return ItemOptions(
        id=item_id,
        topic=rating.topic,
        verdict=rating.verdict,
        score=rating.score,
        sources=_item_sources(options.get("sources"), report),
        tags=_item_tags(options.get("tags"), report),
        entities=entity_ids(options.get("entities")),
        not_entities=entity_ids(options.get("not-entities")),
    )


def entity_ids(option: tuple[str, int] | None) -> tuple[tuple[str, int], ...]:
    """``entities: a, b`` as ``(id, line)`` pairs."""
    if option is None:
        return ()
    value, line = option
    return tuple((name.strip(), line) for name in value.split(",") if name.strip())


@dataclass(frozen=True)
class Rating:
    """An item's topic, verdict and score as read: None where one is not given or not
    usable, and the problem with each unusable one, under its name."""

    topic: Topic | None
    verdict: Verdict | None
    score: float | None
    problems: Mapping[str, Problem]


def read_rating(
    vocabulary: Vocabulary,
    path: str,
    *,
    topic: tuple[str, int] | None,
    verdict: tuple[str, int] | None,
    score: tuple[str, int] | None,
    fold_width: bool = False,
) -> Rating:
    """The one check of an item's topic and verdict against the vocabulary and of its
    score, for pages and exports alike: each is ``(text, line)``, or None when not given
    (and not checked). With ``fold_width``, a score's full-width characters (８．５) are
    read as ASCII, as exports allow; problems quote the text as written."""
    problems: dict[str, Problem] = {}
    found_topic = _known(topic, vocabulary.topics, "topic", "unknown-topic", path, problems)
    found_verdict = _known(
        verdict, vocabulary.verdicts, "verdict", "unknown-verdict", path, problems
    )
    found_score = None
    if score is not None:
        value, line = score
        found_score = parse_score(unicodedata.normalize("NFKC", value) if fold_width else value)
        if found_score is None:
            message = _("score '{value}' must be a number from 0 to 10 in halves").format(
                value=value
            )
            problems["score"] = Problem(path, line, "error", "bad-score", message)
    return Rating(found_topic, found_verdict, found_score, problems)


def _known(
    given: tuple[str, int] | None,
    records: tuple[_Named, ...],
    name: str,
    code: str,
    path: str,
    problems: dict[str, Problem],
) -> _Named | None:
    """The topic or verdict ``given`` names, or None (and its problem, when given)."""
    if given is None:
        return None
    value, line = given
    if invisible := invisible_character_problem(value, path, line):
        problems[name] = invisible
        return None
    found = lookup_term(records, value)
    if found is None:
        message = _(UNKNOWN_NAME[name]).format(value=value, suggestion=did_you_mean(value, records))
        problems[name] = Problem(path, line, "error", code, message)
    return found


def _item_id(option: tuple[str, int] | None, report: Reporter) -> str | None:
    if option is None:
        return None
    value, line = option
    if problem := item_id_problem(value):
        code, message = problem
        report.error(line, code, message)
        return None
    return value


def item_id_problem(value: str) -> tuple[str, str] | None:
    """Why ``value`` cannot be an item's id (its code and message), or None: the one rule
    for ids written in a page and ids editors choose in an export."""
    if not ITEM_ID_RE.match(value):
        return "bad-id", _(
            "item id '{value}' must be lowercase ASCII letters, digits and '-'"
        ).format(value=value)
    if is_reserved_id(value):
        return "reserved-id", _(
            "item id '{value}' is an id the issue page uses for its own parts: choose another"
        ).format(value=value)
    return None


def parse_score(value: str) -> float | None:
    """A score from 0 to 10 in halves, or None when the text is not one."""
    try:
        score = float(value.strip().removesuffix("/10"))
    except ValueError:
        return None
    if math.isnan(score) or not 0 <= score <= 10 or (score * 2) != int(score * 2):
        return None
    return score


def parse_sources(value: str) -> list[Source] | None:
    """``label <key> · label <key, key>`` into sources, or None when malformed."""
    sources = []
    for part in (part.strip() for part in value.split(" · ")):
        match = SOURCE_RE.match(part)
        if not match:
            return None
        keys = tuple(key.strip() for key in match.group("keys").split(","))
        if not all(CITE_KEY_RE.match(key) for key in keys):
            return None
        sources.append(Source(match.group("label").strip(), keys))
    return sources


def _item_sources(option: tuple[str, int] | None, report: Reporter) -> tuple[Source, ...] | None:
    if option is None or not option[0]:
        return ()
    value, line = option
    sources = parse_sources(value)
    if sources is None:
        report.error(
            line,
            "bad-sources",
            _("sources must read 'label <citation-key> · label <citation-key>'"),
        )
        return None
    if not all([check_visible(source.label, line, report) for source in sources]):
        return None
    return tuple(sources)


def _item_tags(option: tuple[str, int] | None, report: Reporter) -> tuple[str, ...]:
    if option is None:
        return ()
    tags = tuple(tag.strip() for tag in option[0].split(",") if tag.strip())
    return tuple(tag for tag in tags if check_visible(tag, option[1], report))
