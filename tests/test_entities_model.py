"""The entities' registry and mentions, without Sphinx (juju_radar/model/entities.py,
mentions.py, entity_views.py)."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml

from juju_radar.model import entities
from juju_radar.model.archive import Archive
from juju_radar.model.entities import read_registry
from juju_radar.model.entity_views import entity_index, entity_pages
from juju_radar.model.issue_records import Issue, Item, Source
from juju_radar.model.mentions import Matcher, issue_mentions, unknown_entities

REGISTRY = """\
- id: insilico
  name_zh: 英矽智能
  name_en: Insilico Medicine
  kind: organization
- id: zhineng
  name_zh: 智能
  name_en: Intelligence
  kind: method
- id: qwen3
  name_zh: Qwen3
  name_en: Qwen3
  kind: model
- id: qwen3-8b
  name_zh: Qwen3-8B
  name_en: Qwen3-8B
  kind: model
- id: court
  name_zh: 最高人民法院
  name_en: Supreme People's Court
  aliases: [最高法]
  kind: law
  homepage: https://court.example.org/
"""


def registry():
    found, problems = read_registry(REGISTRY)
    assert problems == []
    return found


def codes_at(text: str) -> list[tuple[int, str]]:
    return [(problem.line, problem.code) for problem in read_registry(text)[1]]


def test_registry_reads_every_field_and_kind() -> None:
    court = registry().by_id()["court"]
    assert court.names == ("最高人民法院", "Supreme People's Court", "最高法")
    assert court.identifiers == (("homepage", "https://court.example.org/"),)
    assert court.line == 17


def test_registry_problems_are_at_their_lines() -> None:
    text = REGISTRY + (
        "- id: court\n  name_zh: 法院\n  name_en: Court\n  kind: law\n"  # 23
        "- id: other\n  name_zh: 最高法\n  name_en: Other\n  kind: law\n"  # 27
        "- id: robot\n  name_zh: 机器\n  name_en: Robot\n  kind: robot\n"  # 31
        "- id: paper\n  name_zh: 论文\n  name_en: Paper\n  kind: method\n  arxiv: 25.1\n"  # 35
        "- id: hidden\n  name_zh: 隐\u200b藏\n  name_en: Hidden\n  kind: method\n"  # 40
        "- id: colour\n  name_zh: 颜色\n  name_en: Colour\n  kind: method\n  colour: red\n"
    )
    assert codes_at(text) == [
        (34, "unknown-kind"),
        (39, "bad-identifier"),
        (41, "invisible-character"),
        (48, "bad-entity"),
        (23, "duplicate-entity"),
        (27, "duplicate-alias"),
    ]


def test_unreadable_registry_is_one_problem() -> None:
    assert codes_at("- id: [unclosed\n") == [(2, "bad-entity")]
    assert codes_at("id: x\n") == [(1, "bad-entity")]


@pytest.mark.parametrize(
    "text",
    [
        REGISTRY,
        REGISTRY + "- id: robot\n  name_zh: 机器\n  name_en: Robot\n  kind: robot\n",
        REGISTRY + "- id: [unclosed\n",
        REGISTRY + "- id: a\n  name_zh: 甲\n\tname_en: A\n",
        "id: x\n",
        "",
    ],
    ids=["valid", "problem", "unclosed", "tab", "mapping", "empty"],
)
def test_libyaml_reads_the_registry_as_pure_python_pyyaml_does(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert entities.LOADER is yaml.CSafeLoader, "PyYAML's wheel has libyaml"
    fast = read_registry(text)
    monkeypatch.setattr(entities, "LOADER", yaml.SafeLoader)
    assert read_registry(text) == fast


def test_chinese_names_match_as_words_of_the_segmentation() -> None:
    matcher = Matcher(registry())
    found = matcher.find("英矽智能公司发布，最高法则不同；最高法表示")
    assert [(m.entity, m.start) for m in found] == [("insilico", 0), ("court", 16)]
    # 智能 is a word of its own here, and an entity.
    assert [m.entity for m in matcher.find("人工的智能。")] == ["zhineng"]


def test_latin_names_are_whole_words_longest_first_case_as_written() -> None:
    matcher = Matcher(registry())
    text = "Qwen3-8B 与 Qwen3、Qwen3-8B-Instruct、qwen3 和 MyQwen3"
    assert [(m.entity, m.start) for m in matcher.find(text)] == [("qwen3-8b", 0), ("qwen3", 11)]


def issue_with(body: str, **options: tuple[tuple[str, int], ...]) -> Issue:
    item = Item(
        emoji="",
        title="标题",
        topic="agent",
        tags=(),
        score=8,
        verdict="dig-deeper",
        body=(body,),
        id="story",
        sources=(Source("论文", ("key2026",)),),
        **options,
    )
    return Issue(
        dt.date(2026, 9, 8),
        "一期",
        "published",
        "",
        (),
        (item,),
        "",
        (),
        path="issues/2026/2026-09-08.md",
    )


def test_a_story_names_and_stops_entities_in_its_options() -> None:
    matcher = Matcher(registry())
    issue = issue_with(
        "英矽智能与 Qwen3。", entities=(("court", 9),), not_entities=(("qwen3", 10),)
    )
    assert issue_mentions(matcher, issue) == {"story": ("insilico", "court")}
    wrong = issue_with("正文", entities=(("nobody", 9),))
    assert [(p.line, p.code) for p in unknown_entities(registry(), wrong)] == [
        (9, "unknown-entity")
    ]


def test_entity_pages_list_stories_references_and_companions() -> None:
    issue = issue_with("英矽智能与 Qwen3。")
    mentions = {issue.docname: issue_mentions(Matcher(registry()), issue)}
    pages = entity_pages(
        registry(), Archive({issue.docname: issue}), mentions, lambda key: (f"T {key}", "2026-09")
    )
    page = pages["insilico"]
    assert page.total == 1 and page.years[0][0] == 2026
    assert page.years[0][1][0].item_id == "story"
    assert [r.key for r in page.references] == ["key2026"]
    assert [(link.id, count) for link, count in page.related] == [("qwen3", 1)]
    assert pages["court"].total == 0
    index = {
        kind.key: kind.entities
        for kind in entity_index((page.entity, page.total) for page in pages.values())
    }
    assert [(link.id, count) for link, count in index["model"]] == [("qwen3", 1), ("qwen3-8b", 0)]
