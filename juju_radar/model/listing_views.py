"""What each listing shows of the archive: one view model per kind of listing.

A listing page (the front page, the issues archive, a topic, the best items, the topics'
index, the statistics) is rendered from the view models of its listings, and its
signature is their digest: it is rewritten exactly when one of them changes, and a
field it shows cannot be missing from its signature. Pure Python, like the archive.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from juju_radar.model.archive import (
    Archive,
    IssueLink,
    ItemLine,
    ItemRef,
    by_year,
    item_line,
    link_to,
)
from juju_radar.model.issue_records import Issue, first_sentence, plain_text

Counted = TypeVar("Counted", str, tuple[str, str], tuple[str, float])
RECENT = 30  # items a landing page (a topic's, the best items') shows before its years


@dataclass(frozen=True)
class Landing:
    """A topic's or the best items' page: how many, the newest, each year's count."""

    total: int
    newest: tuple[ItemLine, ...]
    years: tuple[tuple[int, int], ...]  # (year, items), newest first


@dataclass(frozen=True)
class IssueSummary:
    """The newest issue on the front page: its link, its lead as shown, its stories' lines."""

    link: IssueLink
    lead: tuple[str, ...]
    items: tuple[ItemLine, ...]


@dataclass(frozen=True)
class IssueCard:
    """An earlier issue on the front page: its link, its lead's first sentence, how many
    stories it has."""

    link: IssueLink
    lead: str
    stories: int


@dataclass(frozen=True)
class FrontPage:
    """The front page: the newest issue whole, the issues before it as cards, and the
    topics with their counts."""

    latest: IssueSummary | None
    recent: tuple[IssueCard, ...]
    topics: tuple[tuple[str, int], ...]  # (topic key, items), in the vocabulary's order


@dataclass(frozen=True)
class ArchiveEntry:
    """An issue in the issues archive."""

    link: IssueLink
    items: int


ArchiveView = tuple[tuple[int, tuple[tuple[int, tuple[ArchiveEntry, ...]], ...]], ...]
"""Years, newest first, each with its months, newest first, each with its issues."""


@dataclass(frozen=True)
class StatsView:
    """The statistics page: what is counted, and every count a chart or table shows."""

    issues: int
    items: int
    months: tuple[str, ...]  # YYYY-MM, from the first issue's month to the last's
    per_topic_month: tuple[tuple[tuple[str, str], int], ...]  # ((month, topic), items)
    per_topic_score: tuple[tuple[tuple[str, float], int], ...]  # ((topic, score), items)
    per_verdict: tuple[tuple[str, int], ...]  # (verdict, items)


def lines(refs: Iterable[ItemRef]) -> tuple[ItemLine, ...]:
    return tuple(item_line(ref) for ref in refs)


def landing(refs: list[ItemRef]) -> Landing:
    years = sorted(by_year(refs).items(), reverse=True)
    return Landing(len(refs), lines(refs[:RECENT]), tuple((y, len(r)) for y, r in years))


def summary(issue: Issue, lead: tuple[str, ...]) -> IssueSummary:
    return IssueSummary(link_to(issue), lead, lines(ItemRef(issue, item) for item in issue.items))


def latest(archive: Archive) -> IssueSummary | None:
    """The newest issue, with its lead's first paragraph (the whole lead is on its page)."""
    issue = archive.latest
    if issue is None:
        return None
    return summary(issue, tuple(plain_text(paragraph) for paragraph in issue.lead[:1]))


def recent(archive: Archive, front_page_issues: int) -> tuple[IssueCard, ...]:
    """The issues before the newest, each with its lead's first sentence."""
    return tuple(
        IssueCard(link_to(issue), lead_line(issue), len(issue.items))
        for issue in archive.published[1 : 1 + front_page_issues]
    )


def lead_line(issue: Issue) -> str:
    """The first sentence of the issue's lead, as plain text ("" without a lead)."""
    return first_sentence(plain_text(issue.lead[0])) if issue.lead else ""


def front_page(archive: Archive, settings: ViewSettings) -> FrontPage:
    return FrontPage(
        latest(archive),
        recent(archive, settings.front_page_issues),
        topic_counts(archive, settings.topics),
    )


def issues_archive(archive: Archive) -> ArchiveView:
    return tuple(
        (year, tuple((month, tuple(map(archive_entry, issues))) for month, issues in months))
        for year, months in archive.by_year_month()
    )


def archive_entry(issue: Issue) -> ArchiveEntry:
    return ArchiveEntry(link_to(issue), len(issue.items))


def topic_counts(archive: Archive, topics: Iterable[str]) -> tuple[tuple[str, int], ...]:
    return tuple((topic, len(archive.topic_items(topic))) for topic in topics)


def stats(archive: Archive) -> StatsView:
    refs = list(archive.items())
    return StatsView(
        issues=len(archive.published),
        items=len(refs),
        months=all_months(archive),
        per_topic_month=counted((f"{ref.issue.date:%Y-%m}", ref.item.topic) for ref in refs),
        per_topic_score=counted((ref.item.topic, ref.item.score) for ref in refs),
        per_verdict=counted(ref.item.verdict for ref in refs),
    )


def counted(values: Iterable[Counted]) -> tuple[tuple[Counted, int], ...]:
    return tuple(sorted(Counter(values).items()))


def all_months(archive: Archive) -> tuple[str, ...]:
    """Every month from the first published issue's to the last's, oldest first, as
    ``YYYY-MM``: a month without issues shows as zero, not as a gap closed up."""
    dates = [issue.date for issue in archive.published]
    if not dates:
        return ()
    first, last = (date.year * 12 + date.month - 1 for date in (min(dates), max(dates)))
    return tuple(f"{index // 12:04d}-{index % 12 + 1:02d}" for index in range(first, last + 1))


@dataclass(frozen=True)
class ViewSettings:
    """What listings take from ``conf.py``."""

    front_page_issues: int
    topics: tuple[str, ...]  # the vocabulary's topic keys, in order


ListingView = Callable[[Archive, Mapping[str, str], ViewSettings], object]

LISTING_VIEWS: dict[str, ListingView] = {
    "front": lambda archive, _, settings: front_page(archive, settings),
    "archive": lambda archive, _, __: issues_archive(archive),
    "topic-list": lambda archive, node, _: landing(archive.topic_items(node["topic"])),
    "topic-index": lambda archive, _, settings: topic_counts(archive, settings.topics),
    "best": lambda archive, _, __: landing(archive.best),
    "stats": lambda archive, _, __: stats(archive),
}
"""Each listing kind's view model, from the archive, its placeholder's attributes and
the settings."""

LISTING_ATTRIBUTES: dict[str, tuple[str, ...]] = {"topic-list": ("topic",)}
"""The attributes a listing's placeholder carries (the others carry none)."""
