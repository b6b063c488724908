"""Placeholder nodes: emitted while reading, replaced late from the collected data."""

from __future__ import annotations

from typing import Any

from docutils import nodes

from juju_radar.model.listing_views import LISTING_ATTRIBUTES, LISTING_VIEWS

# Placeholders of listings of the archive: their pages are rewritten when what one of
# them shows (its view model, ``model.listing_views``) changes.
LISTING_KINDS = frozenset(LISTING_VIEWS)
# Placeholders of pages rewritten when what they show changes (``paging.page_signature``),
# with their attributes: the references' index.
PERIOD_KINDS: dict[str, tuple[str, ...]] = {"references-index": ()}


class radar_placeholder(nodes.General, nodes.Element):  # noqa: N801 (docutils naming)
    """Stands for generated content of ``kind`` (with an optional ``topic``)."""


def placeholder(kind: str, **attributes: object) -> radar_placeholder:
    return radar_placeholder("", kind=kind, **attributes)


def listing_attributes(node: radar_placeholder) -> dict[str, str]:
    """The attributes of a listing's placeholder its view model reads."""
    return {name: str(node[name]) for name in LISTING_ATTRIBUTES.get(node["kind"], ())}


class disclosure(nodes.General, nodes.Element):  # noqa: N801 (docutils naming)
    """A ``<details>`` element: its first child, a ``disclosure_summary``, is the control."""


class disclosure_summary(nodes.TextElement):  # noqa: N801 (docutils naming)
    """The ``<summary>`` of a ``disclosure``."""


def visit_disclosure(translator: Any, node: disclosure) -> None:
    translator.body.append(translator.starttag(node, "details"))


def depart_disclosure(translator: Any, node: disclosure) -> None:
    translator.body.append("</details>\n")


def visit_disclosure_summary(translator: Any, node: disclosure_summary) -> None:
    translator.body.append(translator.starttag(node, "summary", suffix=""))


def depart_disclosure_summary(translator: Any, node: disclosure_summary) -> None:
    translator.body.append("</summary>\n")
