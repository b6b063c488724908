"""The register of accelerations, generated from ``juju_radar.accel.register`` at build
time: ``{radar-accelerations}`` writes one row per acceleration, with its gain as
``bench/accel_gains.py`` measured it (``bench/accel_gains.json``, written from the record
``bench/accel_gains.jsonl``). Data, not the bench's code: ``make docs`` installs only the
build's packages, and the bench imports the tests' helpers (pytest)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from juju_radar.accel.register import REACHES, REGISTER

COLUMNS = (
    "acceleration",
    "where",
    "replaces",
    "why upstream",
    "delete when",
    "written for",
    "gain at 3,650 issues",
)


GAINS = Path(__file__).resolve().parents[2] / "bench" / "accel_gains.json"


def measured_gains() -> dict[str, str]:
    """Each acceleration's gain by register name, as the bench last wrote it."""
    gains: dict[str, str] = json.loads(GAINS.read_text(encoding="utf-8"))
    return gains


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table_markdown() -> list[str]:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    gains = measured_gains()
    for acceleration, _ in REGISTER:
        written_for = ", ".join(f"{name} {version}" for name, version in acceleration.written_for)
        cells = (
            f"`{acceleration.name}`",
            f"`{acceleration.module}`",
            acceleration.replaces,
            acceleration.upstream,
            acceleration.delete_when,
            written_for or "(Python only)",
            gains.get(acceleration.name, acceleration.gain),
        )
        lines.append("| " + " | ".join(map(_cell, cells)) + " |")
    return lines


REACH_COLUMNS = ("reach", "where", "what it reaches", "why upstream", "delete when", "written for")


def reaches_markdown() -> list[str]:
    """The registered reaches past a dependency's documented API, one row each."""
    lines = ["| " + " | ".join(REACH_COLUMNS) + " |", "|" + " --- |" * len(REACH_COLUMNS)]
    for reach in REACHES:
        cells = (
            f"`{reach.name}`",
            ", ".join(f"`{module}`" for module in reach.modules),
            ", ".join(f"`{name}`" for name in reach.names),
            reach.upstream,
            reach.delete_when,
            ", ".join(f"{name} {version}" for name, version in reach.written_for),
        )
        lines.append("| " + " | ".join(map(_cell, cells)) + " |")
    return lines


class RadarAccelerations(SphinxDirective):
    has_content = False
    table = staticmethod(table_markdown)

    def run(self) -> list[nodes.Node]:
        container = nodes.container(classes=["radar-accelerations"])
        self.state.nested_parse(StringList(self.table()), self.content_offset, container)
        return [container]


class RadarReaches(RadarAccelerations):
    table = staticmethod(reaches_markdown)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("radar-accelerations", RadarAccelerations)
    app.add_directive("radar-reaches", RadarReaches)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
