"""Placeholder nodes: emitted while reading, replaced late from the collected data."""

from __future__ import annotations

from typing import Any

from docutils import nodes

# Placeholders whose content depends on other issues: their pages are rewritten
# whenever the published archive changes.
LISTING_KINDS = {"latest", "recent", "archive", "topic-list", "topic-index", "best"}
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
