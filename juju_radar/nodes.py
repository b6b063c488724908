"""Placeholder nodes: emitted while reading, replaced late from the collected data."""

from __future__ import annotations

from docutils import nodes

# Placeholders whose content depends on other issues: their pages are rewritten
# whenever the published archive changes.
LISTING_KINDS = {"latest", "archive", "topic-list", "topic-index", "references", "best"}


class radar_placeholder(nodes.General, nodes.Element):  # noqa: N801 (docutils naming)
    """Stands for generated content of ``kind`` (with an optional ``topic``)."""


def placeholder(kind: str, **attributes: object) -> radar_placeholder:
    return radar_placeholder("", kind=kind, **attributes)


def is_listing(node: nodes.Node) -> bool:
    return isinstance(node, radar_placeholder) and node["kind"] in LISTING_KINDS
