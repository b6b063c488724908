"""Where a text names a registered entity: whole words only.

The rules (docs/reference/entities.md):

- a name or alias matches as written, case and all (``GRPO`` is not ``grpo``; give the
  other spelling as an alias); where names overlap, the longest wins (``Qwen3-8B``
  before ``Qwen3``);
- an edge of a name that is a Latin letter or digit must not touch another one, nor a
  ``-``, ``.`` or ``_`` joining one (``Qwen3`` is not found in ``Qwen3-8B``);
- an edge that is a Chinese character must fall between two words of the site's one
  segmentation (``model.segmentation.words``), which knows every registered name: so
  英矽智能 counts in 英矽智能公司, and 智能 inside 英矽智能 is not another entity.

Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from juju_radar.model.entities import Registry
from juju_radar.model.issue_records import CJK_RE, Issue, Item, plain_text
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem
from juju_radar.model.segmentation import words

LATIN_CHAR_RE = re.compile(r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff]")
JOINERS = "-._"


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    entity: str  # its id


class Matcher:
    """Finds the registry's names in texts (made once per registry)."""

    def __init__(self, registry: Registry) -> None:
        self.names = registry.names()
        # Longest first: at one position, the alternation takes the first that matches.
        ordered = sorted(self.names, key=lambda name: (-len(name), name))
        self.pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None
        self.chinese_words = tuple(sorted(name for name in self.names if CJK_RE.search(name)))

    def find(self, text: str) -> list[Mention]:
        """Every whole-word mention in ``text``, in order."""
        if self.pattern is None:
            return []
        found = []
        boundaries: set[int] | None = None
        for match in self.pattern.finditer(text):
            start, end = match.span()
            if not (_latin_edge_free(text, start, end)):
                continue
            if CJK_RE.match(text[start]) or CJK_RE.match(text[end - 1]):
                if boundaries is None:
                    boundaries = self.word_boundaries(text)
                cjk_start, cjk_end = CJK_RE.match(text[start]), CJK_RE.match(text[end - 1])
                if (cjk_start and start not in boundaries) or (cjk_end and end not in boundaries):
                    continue
            found.append(Mention(start, end, self.names[match.group()]))
        return found

    def word_boundaries(self, text: str) -> set[int]:
        return {0, *accumulate(len(word) for word in words(text, self.chinese_words))}

    def entities_in(self, texts: Iterable[str]) -> tuple[str, ...]:
        """The entities ``texts`` mention, once each, in order of first mention."""
        return tuple(dict.fromkeys(m.entity for text in texts for m in self.find(text)))


def _latin_edge_free(text: str, start: int, end: int) -> bool:
    """Whether a Latin edge of ``text[start:end]`` touches no letter, digit or joiner
    of a longer word."""
    if LATIN_CHAR_RE.match(text[start]) and start > 0:
        before = text[start - 1]
        if LATIN_CHAR_RE.match(before):
            return False
        if before in JOINERS and start > 1 and LATIN_CHAR_RE.match(text[start - 2]):
            return False
    if LATIN_CHAR_RE.match(text[end - 1]) and end < len(text):
        after = text[end]
        if LATIN_CHAR_RE.match(after):
            return False
        if after in JOINERS and end + 1 < len(text) and LATIN_CHAR_RE.match(text[end + 1]):
            return False
    return True


def story_entities(
    found: Iterable[str], named: Iterable[str], stopped: Iterable[str]
) -> tuple[str, ...]:
    """A story's entities: those found in its text and those its ``entities`` option
    names, less those its ``not-entities`` option stops."""
    stop = set(stopped)
    return tuple(entity for entity in dict.fromkeys((*found, *named)) if entity not in stop)


def story_text(item: Item) -> tuple[str, ...]:
    """What of a story is searched for mentions, as readers see it: title and paragraphs."""
    return (item.title, *(plain_text(paragraph) for paragraph in item.body))


def issue_mentions(matcher: Matcher, issue: Issue) -> dict[str, tuple[str, ...]]:
    """Item id -> its entities, from the records (``radar check``, the benchmark; the
    build finds them in the page's document, whose text this is)."""
    known = set(matcher.names.values())
    return {
        item.id: story_entities(
            matcher.entities_in(story_text(item)),
            (name for name, _line in item.entities if name in known),
            (name for name, _line in item.not_entities),
        )
        for item in issue.items
    }


def unknown_entities(registry: Registry, issue: Issue) -> list[Problem]:
    """An ``entities`` or ``not-entities`` option naming an id the registry lacks."""
    known = {entity.id for entity in registry.entities}
    problems = []
    for item in issue.items:
        for name, line in (*item.entities, *item.not_entities):
            if name not in known:
                message = _("no entity '{name}' in entities.yaml").format(name=name)
                problems.append(Problem(issue.path, line, "error", "unknown-entity", message))
    return problems
