"""The editors' registry of entities (``entities.yaml`` at the site's root): the models,
companies, people, benchmarks, methods, laws and products the archive follows.

An entity exists because an editor registered it: the build links and lists only what
this file names, with the identifiers the editors gave (never looked up by a tool).
Read with PyYAML's composer, so every value keeps its line for the problems reported
at ``entities.yaml:LINE``. Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

import yaml

from juju_radar.model.messages import N_, _
from juju_radar.model.page import invisible_character_problem
from juju_radar.model.problems import Problem

REGISTRY_FILE = "entities.yaml"
ENTITY_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# The identifiers editors may give, each with the one form it is written in.
IDENTIFIERS: dict[str, re.Pattern[str]] = {
    "wikidata": re.compile(r"^Q[1-9][0-9]*$"),
    "homepage": re.compile(r"^https://[^\s/?#]+\.[^\s/?#]+(?:[/?#][^\s]*)?$"),
    "arxiv": re.compile(r"^(?:[0-9]{4}\.[0-9]{4,5}|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7})(?:v[0-9]+)?$"),
}
NAME_FIELDS = ("name_zh", "name_en")
FIELDS = ("id", *NAME_FIELDS, "aliases", "kind", *IDENTIFIERS)
REQUIRED = ("id", "name_zh", "name_en", "kind")
MAX_REGISTRY_CHARS = 2_000_000


@dataclass(frozen=True)
class Kind:
    """A kind of entity: its spelling in ``entities.yaml`` and its labels."""

    key: str
    label: str  # Chinese, as the site shows it
    label_en: str


KINDS: tuple[Kind, ...] = (
    Kind("model", "模型", "Model"),
    Kind("organization", "公司与机构", "Company or lab"),
    Kind("person", "人物", "Person"),
    Kind("benchmark", "基准与数据集", "Benchmark or dataset"),
    Kind("method", "方法", "Method"),
    Kind("law", "法律与法院", "Law or court"),
    Kind("product", "产品", "Product"),
)
KIND_BY_KEY = {kind.key: kind for kind in KINDS}


@dataclass(frozen=True)
class Entity:
    id: str
    name_zh: str
    name_en: str
    aliases: tuple[str, ...]
    kind: str
    identifiers: tuple[tuple[str, str], ...]  # (name, value) in ``IDENTIFIERS`` order
    line: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        """Every name it is mentioned by, once each, the Chinese name first."""
        return tuple(dict.fromkeys((self.name_zh, self.name_en, *self.aliases)))


@dataclass(frozen=True)
class Registry:
    entities: tuple[Entity, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.entities)

    def by_id(self) -> dict[str, Entity]:
        return {entity.id: entity for entity in self.entities}

    def names(self) -> dict[str, str]:
        """Name or alias -> the id of the entity it names."""
        return {name: entity.id for entity in self.entities for name in entity.names}

    def digest(self) -> str:
        return hashlib.sha1(repr(self.entities).encode()).hexdigest()


# --- reading ----------------------------------------------------------------------------


# libyaml's parser where PyYAML was built with it (its wheels are): the same nodes and
# marks as the pure-Python one, read seven times faster (500 entities: 0.29 s of CPU,
# then 0.04 s).
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_registry(text: str, path: str = REGISTRY_FILE) -> tuple[Registry, list[Problem]]:
    """The registry ``text`` holds and the problems found, each at its line. An entity
    with a problem is left out; the others are kept."""
    problems: list[Problem] = []
    if len(text) > MAX_REGISTRY_CHARS:
        return Registry(), [_shape(path, 1, N_("the registry is over 2,000,000 characters"))]
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        return Registry(), [_shape(path, line, N_("the registry is not valid YAML"))]
    if root is None:
        return Registry(), []
    if not isinstance(root, yaml.SequenceNode):
        return Registry(), [
            _shape(path, _line(root), N_("the registry must be a list of entities"))
        ]
    entities: list[Entity] = []
    for node in root.value:
        entity = _read_entity(node, path, problems)
        if entity is not None:
            entities.append(entity)
    kept = _without_duplicates(entities, path, problems)
    return Registry(tuple(kept)), problems


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _shape(path: str, line: int, message: str) -> Problem:
    return Problem(path, line, "error", "bad-entity", _(message))


def _read_entity(node: yaml.Node, path: str, problems: list[Problem]) -> Entity | None:
    if not isinstance(node, yaml.MappingNode):
        problems.append(_shape(path, _line(node), N_("an entity must be a mapping of fields")))
        return None
    fields: dict[str, tuple[object, int]] = {}
    for key_node, value_node in node.value:
        name = key_node.value if isinstance(key_node, yaml.ScalarNode) else ""
        if name not in FIELDS:
            message = _("unknown entity field '{name}'; the fields are: {fields}").format(
                name=name, fields=", ".join(FIELDS)
            )
            problems.append(Problem(path, _line(key_node), "error", "bad-entity", message))
            continue
        fields[name] = (_value(value_node), _line(value_node))
    line = _line(node)
    before = len(problems)
    for name in REQUIRED:
        if name not in fields:
            message = _("the entity has no '{name}'").format(name=name)
            problems.append(Problem(path, line, "error", "bad-entity", message))
    texts = {name: _text(fields, name, path, problems) for name in (*REQUIRED, *IDENTIFIERS)}
    aliases = _aliases(fields.get("aliases"), path, problems)
    entity_id, kind = texts["id"], texts["kind"]
    if entity_id is not None and not ENTITY_ID_RE.match(entity_id):
        message = _("entity id '{value}' must be lowercase ASCII letters, digits and '-'")
        problems.append(
            Problem(path, fields["id"][1], "error", "bad-entity", message.format(value=entity_id))
        )
    if kind is not None and kind not in KIND_BY_KEY:
        message = _("unknown kind '{value}'; the kinds are: {kinds}").format(
            value=kind, kinds=", ".join(KIND_BY_KEY)
        )
        problems.append(Problem(path, fields["kind"][1], "error", "unknown-kind", message))
    identifiers = tuple(_identifiers(texts, fields, path, problems))
    if len(problems) > before:
        return None
    assert entity_id and kind and texts["name_zh"] and texts["name_en"]
    return Entity(entity_id, texts["name_zh"], texts["name_en"], aliases, kind, identifiers, line)


def _value(node: yaml.Node) -> object:
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    if isinstance(node, yaml.SequenceNode):
        return [(_value(child), _line(child)) for child in node.value]
    return node  # a mapping: refused where a text or a list is wanted


def _text(
    fields: dict[str, tuple[object, int]], name: str, path: str, problems: list[Problem]
) -> str | None:
    if name not in fields:
        return None
    value, line = fields[name]
    return _checked_text(value, line, name, path, problems)


def _checked_text(
    value: object, line: int, name: str, path: str, problems: list[Problem]
) -> str | None:
    if not isinstance(value, str) or not value.strip():
        message = _("'{name}' must be a text").format(name=name)
        problems.append(Problem(path, line, "error", "bad-entity", message))
        return None
    if invisible := invisible_character_problem(value, path, line):
        problems.append(invisible)
        return None
    return value.strip()


def _aliases(
    given: tuple[object, int] | None, path: str, problems: list[Problem]
) -> tuple[str, ...]:
    if given is None:
        return ()
    value, line = given
    if not isinstance(value, list):
        message = _("'aliases' must be a list of names")
        problems.append(Problem(path, line, "error", "bad-entity", message))
        return ()
    aliases = (_checked_text(alias, at, "aliases", path, problems) for alias, at in value)
    return tuple(alias for alias in aliases if alias is not None)


def _identifiers(
    texts: dict[str, str | None],
    fields: dict[str, tuple[object, int]],
    path: str,
    problems: list[Problem],
) -> Iterator[tuple[str, str]]:
    for name, form in IDENTIFIERS.items():
        value = texts[name]
        if value is None:
            continue
        if not form.match(value):
            message = _("'{name}' is not written as one: '{value}'").format(name=name, value=value)
            problems.append(Problem(path, fields[name][1], "error", "bad-identifier", message))
            continue
        yield name, value


def _without_duplicates(entities: list[Entity], path: str, problems: list[Problem]) -> list[Entity]:
    """The entities whose id and names no earlier entity has; the others reported."""
    ids: dict[str, Entity] = {}
    names: dict[str, Entity] = {}
    kept = []
    for entity in entities:
        if entity.id in ids:
            message = _("entity id '{id}' is already used at line {line}").format(
                id=entity.id, line=ids[entity.id].line
            )
            problems.append(Problem(path, entity.line, "error", "duplicate-entity", message))
            continue
        taken = [name for name in entity.names if name_key(name) in names]
        if taken:
            other = names[name_key(taken[0])]
            message = _("name '{name}' already names '{other}' (line {line})").format(
                name=taken[0], other=other.id, line=other.line
            )
            problems.append(Problem(path, entity.line, "error", "duplicate-alias", message))
            continue
        ids[entity.id] = entity
        names.update((name_key(name), entity) for name in entity.names)
        kept.append(entity)
    return kept


def name_key(name: str) -> str:
    """Two names are one when they differ only in case (``GRPO``, ``grpo``)."""
    return name.casefold()
