"""A story page's address and view model (``model/story_pages.py``), without Sphinx."""

from __future__ import annotations

import datetime as dt

from publishing_site import vocabulary

from juju_radar.model.archive import Archive
from juju_radar.model.issue_records import Issue, Item, Source
from juju_radar.model.story_pages import (
    single_reviewed_work,
    story_description,
    story_pagename,
    story_view,
    topic_neighbours,
)


def item(item_id: str, topic: str, *keys: str) -> Item:
    return Item(
        emoji="🧠",
        title=f"{item_id} 的标题",
        topic=topic,
        tags=(),
        score=8.5,
        verdict="dig-deeper",
        body=("第一句话。第二句话！", "第二段。"),
        id=item_id,
        sources=tuple(Source(f"来源 {key}", (key,)) for key in keys),
    )


def issue(day: int, *items: Item, status: str = "published") -> Issue:
    date = dt.date(2026, 9, day)
    return Issue(
        date, f"第 {day} 期", status, "", ("导语。",), items, "", (), f"issues/2026/{date}.md"
    )


ARCHIVE = Archive(
    {
        "issues/2026/2026-09-08": issue(8, item("a", "agent", "k1"), item("b", "training")),
        "issues/2026/2026-09-09": issue(9, item("c", "agent", "k1", "k2")),
        "issues/2026/2026-09-10": issue(10, item("d", "agent"), status="draft"),
        "issues/2026/2026-09-11": issue(11, item("e", "agent")),
    }
)


def test_a_storys_page_is_its_issues_path_then_its_anchor():
    assert story_pagename("issues/2026/2026-09-08", "a") == "issues/2026/2026-09-08/a"


def test_a_storys_description_is_its_first_sentence():
    assert story_description(item("a", "agent")) == "第一句话。"


def test_the_previous_and_next_story_of_a_topic_skip_drafts_and_other_topics():
    found = topic_neighbours(ARCHIVE)
    by_id = {ref.item.id: found[id(ref.item)] for ref in ARCHIVE.items()}
    names = {
        key: tuple(line.item_id if line else None for line in pair) for key, pair in by_id.items()
    }
    assert names == {
        "a": (None, "c"),
        "b": (None, None),
        "c": ("a", "e"),
        "e": ("c", None),
    }


def test_a_view_holds_the_sources_addresses_where_known():
    ref = next(ref for ref in ARCHIVE.items() if ref.item.id == "c")
    view = story_view(vocabulary(), ref, "<p>x</p>", {"k1": "https://example.org/1"}, {})
    assert [(source.label, source.url) for source in view.sources] == [
        ("来源 k1", "https://example.org/1"),
        ("来源 k2", ""),
    ]
    assert (view.pagename, view.date, view.issue_title) == (
        "issues/2026/2026-09-09/c",
        "2026-09-09",
        "第 9 期",
    )
    assert view.previous is None and view.next is None  # none given


def test_only_a_story_citing_exactly_one_work_reviews_it():
    assert single_reviewed_work(("k1",)) == "k1"
    assert single_reviewed_work(("k1", "k1")) == "k1"  # one work, cited twice
    assert single_reviewed_work(("k1", "k2")) is None
    assert single_reviewed_work(()) is None
