"""Candidate entities for the editors to confirm into ``entities.yaml``
(``radar entities suggest``): names the archive's stories use that the registry lacks,
with how often and where. A suggestion is only printed: nothing reaches the site until
an editor registers it.

Three kinds:

- ``latin``: Latin proper names and model names with versions: a capitalised word or
  one holding a digit (``Sierra``, ``Qwen3-8B``, ``τ^τ-Bench``), with the capitalised
  words and numbers that follow it (``Claude Opus 5``);
- ``title``: titles in 《》 (laws, journals, books);
- ``term``: Chinese words of two characters or more that the search dictionary does not
  know (the segmentation made them up from single characters, ``英矽``).

Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from juju_radar.model.entities import Registry, name_key
from juju_radar.model.issue_records import CJK_RE, Issue
from juju_radar.model.mentions import story_text
from juju_radar.model.segmentation import segmenter, words

WORD = r"(?:[A-Z\u0370-\u03ff][\w^]*|[A-Za-z]+[0-9][\w^]*)(?:[-.][\w^]+)*"
LATIN_NAME_RE = re.compile(
    rf"(?<![\w^.-])(?:{WORD})(?: (?:{WORD}|[0-9]+(?:\.[0-9]+)*\b(?![.%])))*(?![\w^])"
)
TITLE_RE = re.compile(r"《([^《》\n]{1,60})》")
CHINESE_WORD_RE = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff]{2,}$")
# Capitalised words that start sentences or name no one thing.
COMMON = frozenset({"AI", "The", "This", "We", "In", "It", "A", "An", "I"})
KINDS = ("latin", "title", "term")


@dataclass(frozen=True)
class Candidate:
    name: str
    kind: str  # one of ``KINDS``
    count: int  # occurrences in the published stories
    stories: tuple[str, ...]  # ``docname#item-id``, newest first


def latin_names(text: str) -> list[str]:
    return [m.group() for m in LATIN_NAME_RE.finditer(text) if m.group() not in COMMON]


def titles(text: str) -> list[str]:
    return TITLE_RE.findall(text)


def unknown_terms(text: str) -> list[str]:
    """The words of ``text`` the dictionary does not hold (made up by the segmentation)."""
    known = segmenter(())
    return [
        word for word in words(text) if CHINESE_WORD_RE.match(word) and not known.has_word(word)
    ]


FINDERS = {"latin": latin_names, "title": titles, "term": unknown_terms}


def suggestions(issues: Iterable[Issue], registry: Registry, min_terms: int = 2) -> list[Candidate]:
    """Every candidate the registry lacks, by kind, then most frequent first; unknown
    terms only when they occur ``min_terms`` times or more."""
    registered = {name_key(name) for name in registry.names()}
    # Name -> whether it is registered or part of a registered name, found once a name.
    known: dict[str, bool] = {}
    inside = _registered_text(registered)
    counts: Counter[tuple[str, str]] = Counter()
    where: dict[tuple[str, str], list[str]] = defaultdict(list)
    ordered = sorted(issues, key=lambda issue: (issue.date, issue.docname), reverse=True)
    for issue in ordered:
        if not issue.published:
            continue
        for item in issue.items:
            text = "\n".join(story_text(item))
            for kind, find in FINDERS.items():
                for name in find(text):
                    if name not in known:
                        known[name] = name_key(name) in registered or _inside_registered(
                            name, inside
                        )
                    if known[name]:
                        continue
                    key = (kind, name)
                    counts[key] += 1
                    story = f"{issue.docname}#{item.id}"
                    if story not in where[key]:
                        where[key].append(story)
    found = [
        Candidate(name, kind, count, tuple(where[(kind, name)]))
        for (kind, name), count in counts.items()
        if kind != "term" or count >= min_terms
    ]
    return sorted(found, key=lambda c: (KINDS.index(c.kind), -c.count, c.name))


def _registered_text(registered: set[str]) -> str:
    """The registered names, one a line: a name none of the finders' names spans (none
    holds a line break)."""
    return "\n".join(sorted(registered))


def _inside_registered(name: str, registered_text: str) -> bool:
    """A Chinese term that is part of a registered name (英矽 of 英矽智能)."""
    return bool(CJK_RE.search(name)) and name in registered_text
