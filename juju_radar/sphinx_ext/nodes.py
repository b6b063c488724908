"""Placeholder nodes: emitted while reading, replaced late from the collected data."""

from __future__ import annotations

from docutils import nodes

# Placeholders whose content depends on other issues: their pages are rewritten
# whenever the published archive changes.
LISTING_KINDS = {"latest", "archive", "topic-list", "topic-index", "best"}
# Placeholders of period pages (``paging``), rewritten when what they show changes,
# with the attributes that say which period.
PERIOD_KINDS = {
    "references": ("selector",),
    "references-index": (),
    "topic-year": ("topic", "year"),
    "best-year": ("year",),
}


class radar_placeholder(nodes.General, nodes.Element):  # noqa: N801 (docutils naming)
    """Stands for generated content of ``kind`` (with an optional ``topic``)."""


def placeholder(kind: str, **attributes: object) -> radar_placeholder:
    return radar_placeholder("", kind=kind, **attributes)
