"""The fixed vocabularies of the archive: its topics and the editors' verdicts, as
configured in ``conf.py``, and how a name typed in a page finds its entry.

Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from juju_radar.model.messages import _

_Named = TypeVar("_Named", "Topic", "Verdict")


@dataclass(frozen=True)
class Term:
    """An entry of a fixed vocabulary: stable key, Chinese and English labels, aliases."""

    key: str
    label: str
    label_en: str
    description: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.key, self.label, self.label_en, *self.aliases)


class Topic(Term):
    """A topic of the archive (``radar_topics``)."""

    @property
    def english_beside(self) -> str:
        """The English label to show beside the Chinese one, or "" when they are the same."""
        return "" if self.label_en == self.label else self.label_en

    @property
    def title(self) -> str:
        """The Chinese label with the English one beside it, when they differ."""
        return f"{self.label} · {self.english_beside}" if self.english_beside else self.label


class Verdict(Term):
    """An editor's verdict on an item (``radar_verdicts``)."""


@dataclass(frozen=True)
class Vocabulary:
    """The fixed topic and verdict vocabularies configured in ``conf.py``."""

    topics: tuple[Topic, ...]
    verdicts: tuple[Verdict, ...]

    def topic(self, name: str) -> Topic | None:
        return lookup_term(self.topics, name)

    def verdict(self, name: str) -> Verdict | None:
        return lookup_term(self.verdicts, name)

    def topic_by_key(self, key: str) -> Topic:
        return next(topic for topic in self.topics if topic.key == key)

    def verdict_by_key(self, key: str) -> Verdict:
        return next(verdict for verdict in self.verdicts if verdict.key == key)


def lookup_term(records: Iterable[_Named], name: str) -> _Named | None:
    wanted = name.strip().casefold()
    for record in records:
        if wanted in (known.casefold() for known in record.names):
            return record
    return None


def did_you_mean(name: str, records: Iterable[Topic | Verdict]) -> str:
    """The closest name in the form the editor typed (建议深究 -> 建议深挖, agnet ->
    agent, 训炼 -> 训练 rather than Training), or else every choice."""
    records = list(records)
    names = [known for record in records for known in record.names]
    typed_chinese = _has_han(name)
    same_form = [known for known in names if _has_han(known) == typed_chinese]
    close = difflib.get_close_matches(name, same_form, n=1, cutoff=0.5) or (
        difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    )
    if close:
        return _(" (did you mean '{name}'?)").format(name=close[0])
    choices = (
        record.key if record.key == record.label else f"{record.key} ({record.label})"
        for record in records
    )
    return _(" (one of: {choices})").format(choices=", ".join(choices))


def _has_han(text: str) -> bool:
    return any(unicodedata.name(character, "").startswith("CJK UNIFIED") for character in text)


def vocabulary_from_config(
    topics: Sequence[Mapping[str, object]], verdicts: Sequence[Mapping[str, object]]
) -> Vocabulary:
    """Build the vocabulary from the plain ``radar_topics``/``radar_verdicts`` lists."""
    return Vocabulary(
        topics=tuple(Topic(**_record_fields(entry)) for entry in topics),
        verdicts=tuple(Verdict(**_record_fields(entry)) for entry in verdicts),
    )


def _record_fields(entry: Mapping[str, object]) -> dict[str, Any]:
    fields: dict[str, Any] = dict(entry)
    fields["aliases"] = tuple(str(alias) for alias in fields.get("aliases", ()))
    return fields
