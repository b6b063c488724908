"""What an entity's page, its feed and the entities' index show: one view model each.

Made from the archive, the registry and each published story's entities (``mentions``:
docname -> item id -> entity ids). A page is rewritten when its view model changes, so
adding an issue rewrites only the pages of the entities it mentions (and the index,
whose counts change). Pure Python, like the archive.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from juju_radar.model.archive import Archive, ItemLine, ItemRef, by_year, item_line
from juju_radar.model.entities import KIND_BY_KEY, KINDS, Entity, Kind, Registry

Mentions = Mapping[str, Mapping[str, tuple[str, ...]]]  # docname -> item id -> entity ids
RELATED = 10  # entities a page lists as most often mentioned with it


@dataclass(frozen=True)
class EntityLink:
    id: str
    name: str  # as the site shows it: the Chinese name (the English one beside it if other)


@dataclass(frozen=True)
class ReferenceLine:
    """A reference the entity's stories cite: its key, its title as the .bib gives it,
    and the references page listing it (empty: none)."""

    key: str
    title: str
    page: str


@dataclass(frozen=True)
class EntityPage:
    entity: Entity
    kind_label: str
    kind_label_en: str
    total: int
    years: tuple[tuple[int, tuple[ItemLine, ...]], ...]  # newest first
    references: tuple[ReferenceLine, ...]
    related: tuple[tuple[EntityLink, int], ...]  # (entity, stories together), most first


@dataclass(frozen=True)
class IndexKind:
    key: str
    label: str
    label_en: str
    entities: tuple[tuple[EntityLink, int], ...]  # (entity, stories), by name


def shown_name(entity: Entity) -> str:
    if entity.name_en == entity.name_zh:
        return entity.name_zh
    return f"{entity.name_zh}（{entity.name_en}）"


def link(entity: Entity) -> EntityLink:
    return EntityLink(entity.id, shown_name(entity))


def stories_by_entity(archive: Archive, mentions: Mentions) -> dict[str, list[ItemRef]]:
    """Entity id -> the published stories mentioning it, newest first."""
    stories: dict[str, list[ItemRef]] = defaultdict(list)
    for ref in archive.items():
        for entity in mentions.get(ref.docname, {}).get(ref.item.id, ()):
            stories[entity].append(ref)
    return stories


Describe = Callable[[str], tuple[str, str]]  # citation key -> (title, references page)


def entity_pages(
    registry: Registry,
    archive: Archive,
    mentions: Mentions,
    describe: Describe,
    only: AbstractSet[str] | None = None,
) -> dict[str, EntityPage]:
    """Entity id -> its page's view model, for every registered entity (or those of
    ``only``)."""
    stories = stories_by_entity(archive, mentions)
    entities = registry.by_id()
    pages = {}
    for entity in registry.entities:
        if only is not None and entity.id not in only:
            continue
        refs = stories.get(entity.id, [])
        pages[entity.id] = EntityPage(
            entity=entity,
            kind_label=_kind(entity).label,
            kind_label_en=_kind(entity).label_en,
            total=len(refs),
            years=tuple(
                (year, tuple(item_line(ref) for ref in year_refs))
                for year, year_refs in sorted(by_year(refs).items(), reverse=True)
            ),
            references=_references(refs, describe),
            related=_related(entity.id, refs, mentions, entities),
        )
    return pages


def _kind(entity: Entity) -> Kind:
    return KIND_BY_KEY[entity.kind]


def _references(refs: list[ItemRef], describe: Describe) -> tuple[ReferenceLine, ...]:
    keys = dict.fromkeys(key for ref in refs for key in ref.item.citation_keys)
    return tuple(ReferenceLine(key, *describe(key)) for key in keys)


def _related(
    entity_id: str, refs: list[ItemRef], mentions: Mentions, entities: dict[str, Entity]
) -> tuple[tuple[EntityLink, int], ...]:
    together: Counter[str] = Counter()
    for ref in refs:
        together.update(
            other
            for other in mentions.get(ref.docname, {}).get(ref.item.id, ())
            if other != entity_id and other in entities
        )
    ranked = sorted(together.items(), key=lambda pair: (-pair[1], pair[0]))[:RELATED]
    return tuple((link(entities[other]), count) for other, count in ranked)


def entity_index(counted: Iterable[tuple[Entity, int]]) -> tuple[IndexKind, ...]:
    """The registered entities (each with its number of stories) by kind, in ``KINDS``
    order."""
    kinds = []
    listed = list(counted)
    for kind in KINDS:
        members = sorted(
            (pair for pair in listed if pair[0].kind == kind.key),
            key=lambda pair: (shown_name(pair[0]).casefold(), pair[0].id),
        )
        if members:
            entries = tuple((link(entity), total) for entity, total in members)
            kinds.append(IndexKind(kind.key, kind.label, kind.label_en, entries))
    return tuple(kinds)
