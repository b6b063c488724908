"""A page per story: where it lies and what it shows (its view model).

A story's page is ``issues/YYYY/YYYY-MM-DD/<anchor>``: the issue's docname, then the
anchor the issue page gives the story (its ``id``). The scheme never changes: links to
a story's page are shared and cited. Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from juju_radar.model.archive import Archive, ItemLine, ItemRef, item_line
from juju_radar.model.issue_records import Item, first_sentence, plain_text
from juju_radar.model.vocabulary import Vocabulary


@dataclass(frozen=True)
class StorySource:
    """A source label of the story, with the address its reference states ("" if none)."""

    label: str
    url: str


@dataclass(frozen=True)
class StoryView:
    """Everything a story's page shows: the page is rendered from this alone, and is
    rewritten exactly when its digest changes."""

    pagename: str
    issue_docname: str
    issue_title: str
    date: str  # YYYY-MM-DD
    item_id: str
    emoji: str
    title: str
    topic: str
    topic_label: str
    topic_label_en: str
    tags: tuple[str, ...]
    score: float
    verdict: str
    verdict_label: str
    description: str  # the first sentence of its text, as plain text
    body_html: str  # the story's text as the issue page renders it, links made relative here
    sources: tuple[StorySource, ...]
    citation_keys: tuple[str, ...]
    previous: ItemLine | None  # the older story of its topic
    next: ItemLine | None  # the newer story of its topic
    # The issue's corrections (date, sentence), which its cite-as boxes and dates show.
    corrections: tuple[tuple[str, str], ...] = ()

    @property
    def modified(self) -> str:
        """The last correction's date (YYYY-MM-DD), or "" where there is none."""
        return self.corrections[-1][0] if self.corrections else ""

    @property
    def heading(self) -> str:
        return f"{self.emoji} {self.title}" if self.emoji else self.title


def story_pagename(issue_docname: str, item_id: str) -> str:
    """The page of the story ``item_id`` of the issue ``issue_docname``."""
    return f"{issue_docname}/{item_id}"


def story_description(item: Item) -> str:
    """The story's first sentence, as plain text ("" when it has no text)."""
    text = " ".join(plain_text(paragraph) for paragraph in item.body)
    return first_sentence(" ".join(text.split()))


Neighbours = tuple[ItemLine | None, ItemLine | None]  # the older and the newer story


def topic_neighbours(archive: Archive) -> dict[int, Neighbours]:
    """Each published story's older and newer story of the same topic, by the story's
    identity (``id(item)``): one pass over each topic's stories."""
    found: dict[int, Neighbours] = {}
    for refs in archive.by_topic.values():  # newest first
        for index, ref in enumerate(refs):
            older = item_line(refs[index + 1]) if index + 1 < len(refs) else None
            newer = item_line(refs[index - 1]) if index > 0 else None
            found[id(ref.item)] = (older, newer)
    return found


def story_view(
    vocabulary: Vocabulary,
    ref: ItemRef,
    body_html: str,
    addresses: Mapping[str, str],
    neighbours: Mapping[int, Neighbours],
) -> StoryView:
    """The view of one published story; ``addresses``: citation key -> the address its
    reference states; ``neighbours``: ``topic_neighbours(archive)``."""
    issue, item = ref.issue, ref.item
    topic = vocabulary.topic_by_key(item.topic)
    verdict = vocabulary.verdict_by_key(item.verdict)
    previous, newer = neighbours.get(id(item), (None, None))
    sources = tuple(
        StorySource(
            source.label, next((addresses[key] for key in source.keys if addresses.get(key)), "")
        )
        for source in item.sources
    )
    return StoryView(
        pagename=story_pagename(issue.docname, item.id),
        issue_docname=issue.docname,
        issue_title=issue.title,
        date=issue.date.isoformat(),
        item_id=item.id,
        emoji=item.emoji,
        title=item.title,
        topic=topic.key,
        topic_label=topic.label,
        topic_label_en=topic.english_beside,
        tags=item.tags,
        score=item.score,
        verdict=verdict.key,
        verdict_label=verdict.label,
        description=story_description(item),
        body_html=body_html,
        sources=sources,
        citation_keys=item.citation_keys,
        previous=previous,
        next=newer,
        corrections=tuple((c.date.isoformat(), c.text) for c in issue.corrections),
    )


def published_stories(archive: Archive) -> list[ItemRef]:
    """Every published story, newest issue first: each gets a page."""
    return list(archive.items())


def single_reviewed_work(keys: tuple[str, ...]) -> str | None:
    """The one work a story reviews: its only cited reference, or None when it cites
    none or several (its score is then not a review of any one of them)."""
    distinct = tuple(dict.fromkeys(keys))
    return distinct[0] if len(distinct) == 1 else None
