"""Indexes derived from the collected issues: listings, neighbours, cited-by.

Pure Python. Everything here is recomputed from ``docname -> Issue`` after reading;
nothing is stored twice.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import groupby

from juju_radar.model.issue_records import Issue, Item


@dataclass(frozen=True)
class ItemLine:
    """Everything a line about an item shows on another page (a listing, "also covered
    in", "cited by"): what renders the line reads only this, and the signatures of the
    pages showing it hold this, so a page shows nothing its signature misses."""

    docname: str
    item_id: str
    date: str
    heading: str
    topic: str
    score: float
    verdict: str
    tags: tuple[str, ...]


@dataclass(frozen=True)
class IssueLink:
    """What a page shows of another issue it links to (an issue's neighbours)."""

    docname: str
    date: dt.date
    title: str


@dataclass(frozen=True)
class ItemRef:
    """An item together with the issue that carries it."""

    issue: Issue
    item: Item

    @property
    def docname(self) -> str:
        return self.issue.docname

    @property
    def date(self) -> str:
        return self.issue.date.isoformat()


class Archive:
    """The published archive, newest first; drafts are left out of every index."""

    def __init__(self, issues: Mapping[str, Issue]) -> None:
        self.all_issues = dict(issues)
        self.published: list[Issue] = sorted(
            (issue for issue in issues.values() if issue.published),
            key=lambda issue: (issue.date, issue.docname),
            reverse=True,
        )

    @property
    def latest(self) -> Issue | None:
        return self.published[0] if self.published else None

    def items(self) -> Iterator[ItemRef]:
        """Every published item, newest issue first, in issue order within an issue."""
        for issue in self.published:
            for item in issue.items:
                yield ItemRef(issue, item)

    @cached_property
    def by_topic(self) -> dict[str, list[ItemRef]]:
        topics: dict[str, list[ItemRef]] = defaultdict(list)
        for ref in self.items():
            topics[ref.item.topic].append(ref)
        return topics

    def topic_items(self, topic: str) -> list[ItemRef]:
        return self.by_topic.get(topic, [])

    @cached_property
    def best(self) -> list[ItemRef]:
        """The best items (``is_best``), newest first."""
        return [ref for ref in self.items() if is_best(ref.item)]

    @cached_property
    def _by_year(self) -> dict[str | None, dict[int, list[ItemRef]]]:
        """Each topic's items by year, and the best items' under None."""
        years: dict[str | None, dict[int, list[ItemRef]]] = {None: by_year(self.best)}
        years.update((topic, by_year(refs)) for topic, refs in self.by_topic.items())
        return years

    def build_indexes(self) -> None:
        """Every index now: before forking processes that would each build them."""
        _ = (self.by_topic, self._topic_dates, self.cited_by, self._positions)
        _ = (self._lines, self._by_year)

    @cached_property
    def _lines(self) -> dict[int, str]:
        """``item_line`` of each published item, as text (by the item's identity: the
        Archive holds every item it indexes)."""
        return {id(ref.item): repr(item_line(ref)) for ref in self.items()}

    def line(self, ref: ItemRef) -> str:
        """``item_line`` of a published item as text, for page signatures: they ask
        110,000 times at 3,650 issues, for 18,000 items."""
        return self._lines[id(ref.item)]

    def year_items(self, topic: str | None, year: int) -> list[ItemRef]:
        """A topic's items of ``year`` (with None: the best items'), newest first."""
        return self._by_year.get(topic, {}).get(year, [])

    @cached_property
    def _topic_dates(self) -> dict[str, list[dt.date]]:
        """Per topic, the issue date of each item, oldest first (for bisection)."""
        return {
            topic: [ref.issue.date for ref in reversed(refs)]
            for topic, refs in self.by_topic.items()
        }

    def first_before(self, topic: str, date: dt.date) -> int:
        """Index in ``topic_items(topic)`` (newest first) of the first item older than ``date``."""
        dates = self._topic_dates.get(topic, [])
        return len(dates) - bisect_left(dates, date)

    def by_year_month(self) -> list[tuple[int, list[tuple[int, list[Issue]]]]]:
        """Published issues grouped by year, then month, newest first."""
        years = []
        for year, year_issues in groupby(self.published, key=lambda issue: issue.date.year):
            months = [
                (month, list(month_issues))
                for month, month_issues in groupby(year_issues, key=lambda issue: issue.date.month)
            ]
            years.append((year, months))
        return years

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {issue.docname: index for index, issue in enumerate(self.published)}

    def neighbours(self, docname: str) -> tuple[Issue | None, Issue | None]:
        """The previous (older) and next (newer) published issue of a published issue."""
        index = self._positions.get(docname)
        if index is None:
            return None, None
        older = self.published[index + 1] if index + 1 < len(self.published) else None
        newer = self.published[index - 1] if index > 0 else None
        return older, newer

    def neighbour_map(self) -> dict[str, tuple[str | None, str | None]]:
        return {
            issue.docname: tuple(  # type: ignore[misc]
                other.docname if other else None for other in self.neighbours(issue.docname)
            )
            for issue in self.published
        }

    @cached_property
    def cited_by(self) -> dict[str, list[ItemRef]]:
        """Citation key -> the published items citing it, oldest first."""
        citing: dict[str, list[ItemRef]] = defaultdict(list)
        for ref in reversed(list(self.items())):
            for key in dict.fromkeys(ref.item.citation_keys):
                citing[key].append(ref)
        return citing


def by_year(refs: Iterable[ItemRef]) -> dict[int, list[ItemRef]]:
    years: dict[int, list[ItemRef]] = {}
    for ref in refs:
        years.setdefault(ref.issue.date.year, []).append(ref)
    return years


RELATED_BEFORE = 3
BEST_SCORE = 9


@dataclass(frozen=True)
class Related:
    """What an item's page shows beside it: earlier items of its topic, shared sources."""

    earlier_same_topic: tuple[ItemRef, ...]
    sharing_sources: tuple[ItemRef, ...]


def related(archive: Archive, issue: Issue, item: Item) -> Related:
    """Earlier items of the same topic (so a new issue changes no older page's list) and
    every other published item citing one of the same references."""
    topic_items = archive.topic_items(item.topic)
    first = archive.first_before(item.topic, issue.date)
    earlier = tuple(topic_items[first : first + RELATED_BEFORE])
    sharing: dict[str, ItemRef] = {}
    for key in item.citation_keys:
        for ref in archive.cited_by.get(key, []):
            if ref.item.id != item.id:
                sharing.setdefault(ref.item.id, ref)
    return Related(earlier, tuple(sharing.values()))


def is_best(item: Item) -> bool:
    return item.score >= BEST_SCORE or item.verdict == "dig-deeper"


def item_line(ref: ItemRef) -> ItemLine:
    item = ref.item
    return ItemLine(
        ref.docname,
        item.id,
        ref.date,
        item.heading,
        item.topic,
        item.score,
        item.verdict,
        item.tags,
    )


def link_to(issue: Issue) -> IssueLink:
    return IssueLink(issue.docname, issue.date, issue.title)


def issue_link(issue: Issue | None) -> IssueLink | None:
    return link_to(issue) if issue else None


def page_signature(
    archive: Archive, issue: Issue, reference_digest: Callable[[str], object]
) -> tuple[object, ...]:
    """What an issue page shows from outside its file: neighbours, related items and
    the references it cites (``reference_digest(key)``: all the page shows of one)."""
    neighbours = tuple(issue_link(other) for other in archive.neighbours(issue.docname))
    related_items = tuple(
        (
            tuple(archive.line(ref) for ref in found.earlier_same_topic),
            tuple(archive.line(ref) for ref in found.sharing_sources),
        )
        for found in (related(archive, issue, item) for item in issue.items)
    )
    references = tuple(reference_digest(key) for item in issue.items for key in item.citation_keys)
    return neighbours, related_items, references
