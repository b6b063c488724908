"""Which period pages the archive has, and what each shows: pure Python, like the archive.

A topic lists about 1,000 items after three years, the best-of page 1,500, the
references 9,000 entries; each new issue rewrote all of them. Their landing pages show
the newest items and link one page per period, rendered from the archive after every
issue has been read (``sphinx_ext/listing_pages.py``):

- ``references/YYYY-MM`` and ``references/uncited``: each reference once, on the page of
  the month a published issue first cited it (``sphinx_ext/reference_pages.py``);
- ``topics/<topic>/YYYY``: the topic's items of a year;
- ``best/YYYY``: the best items of a year.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from juju_radar.model.archive import Archive, ItemLine, ItemRef, item_line
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem
from juju_radar.model.vocabulary import Vocabulary

UNCITED = "uncited"
REFERENCES = "references"
TOPIC_YEAR = "topic-year"
BEST_YEAR = "best-year"


def month_label(month: str) -> str:
    year, number = month.split("-")
    return f"{year} 年 {int(number)} 月"


def selector_label(selector: str) -> str:
    """A references page's name: its month, or that it lists the uncited entries."""
    return "未被已发布的任何一期引用" if selector == UNCITED else month_label(selector)


@dataclass(frozen=True)
class PeriodPage:
    """A period page: where it is written, what it lists and its title."""

    pagename: str
    kind: str  # REFERENCES, TOPIC_YEAR or BEST_YEAR
    attributes: tuple[tuple[str, str], ...]  # which period: selector, or topic and year
    title: str

    def attribute(self, name: str) -> str:
        return dict(self.attributes)[name]


@dataclass(frozen=True)
class YearView:
    """A topic's or the best items' page of one year: the way back, the year's items."""

    year: str
    landing: str  # the pagename of the topic's or the best items' page
    back_label: str
    lines: tuple[ItemLine, ...]


def period_pages(archive: Archive, vocabulary: Vocabulary) -> tuple[PeriodPage, ...]:
    """Every period page of the published archive: a references page per month with a
    published issue and the uncited one, a best items' page per year with a published
    issue, a topic's page per year with one of its items."""
    months = sorted({f"{issue.date:%Y-%m}" for issue in archive.published})
    years = sorted({issue.date.year for issue in archive.published})
    pages = [
        PeriodPage(
            f"references/{selector}",
            REFERENCES,
            (("selector", selector),),
            f"参考文献 · {selector_label(selector)}",
        )
        for selector in [*months, UNCITED]
    ]
    for year in years:
        pages.append(
            PeriodPage(f"best/{year}", BEST_YEAR, (("year", str(year)),), f"精选 · {year} 年")
        )
        for topic in vocabulary.topics:
            if archive.year_items(topic.key, year):
                pages.append(
                    PeriodPage(
                        f"topics/{topic.key}/{year}",
                        TOPIC_YEAR,
                        (("topic", topic.key), ("year", str(year))),
                        f"{topic.title} · {year} 年",
                    )
                )
    return tuple(pages)


def period_refs(archive: Archive, kind: str, attributes: Mapping[str, str]) -> list[ItemRef]:
    """The items of a topic-year or best-year page, newest first."""
    topic = None if kind == BEST_YEAR else attributes["topic"]
    return archive.year_items(topic, int(attributes["year"]))


def year_view(archive: Archive, vocabulary: Vocabulary, page: PeriodPage) -> YearView:
    year = page.attribute("year")
    lines = tuple(map(item_line, period_refs(archive, page.kind, dict(page.attributes))))
    if page.kind == BEST_YEAR:
        return YearView(year, "best", "← 精选：最新条目与全部年份", lines)
    topic = vocabulary.topic_by_key(page.attribute("topic"))
    back = f"← {topic.label}：最新条目与全部年份"
    return YearView(year, f"topics/{topic.key}", back, lines)


def generated_page_message(pagename: str) -> str:
    return _(
        "{page} is a page the build generates from the issues: the generated page "
        "replaces this file's; delete the file"
    ).format(page=pagename)


def sources_at_period_pages(
    archive: Archive, vocabulary: Vocabulary, source_exists: Callable[[str], bool]
) -> list[Problem]:
    """A source file where the build generates a period page (a stub an older build
    wrote), for ``radar check`` as the build reports it (``generated-page``)."""
    return [
        Problem(
            f"{page.pagename}.md",
            1,
            "error",
            "generated-page",
            generated_page_message(page.pagename),
        )
        for page in period_pages(archive, vocabulary)
        if source_exists(f"{page.pagename}.md")
    ]
