"""The pipeline's table (juju_radar/sphinx_ext/pipeline.py) is the one place that orders
the extension's handlers: no priority elsewhere, every step offered, and what Sphinx runs
is the table's order."""

from __future__ import annotations

import ast
import shutil
from operator import attrgetter
from pathlib import Path

import pytest
from conftest import SEED_SITE

from juju_radar.sphinx_ext import pipeline
from juju_radar.sphinx_ext.pipeline import PIPELINE, STEPS, At, Step, Steps, steps_in_order

PACKAGE = Path(__file__).resolve().parent.parent / "juju_radar"
TABLE = PACKAGE / "sphinx_ext" / "pipeline.py"
ORDERED_EVENTS = {line.event for line in PIPELINE}


def calls_in(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def method_name(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def first_string(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def package_calls() -> list[tuple[str, ast.Call]]:
    return [
        (f"{path.relative_to(PACKAGE)}:{call.lineno}", call)
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != TABLE
        for call in calls_in(path)
    ]


def test_no_priority_outside_the_table():
    with_priority = [
        where
        for where, call in package_calls()
        if any(keyword.arg == "priority" for keyword in call.keywords)
    ]
    assert with_priority == []


def test_no_handler_of_an_ordered_event_is_connected_outside_the_table():
    connected = [
        f"{where}: {first_string(call)}"
        for where, call in package_calls()
        if method_name(call) == "connect" and first_string(call) in ORDERED_EVENTS
    ]
    assert connected == []


def test_every_step_is_offered_once_in_the_package():
    offered = [
        first_string(call) for _where, call in package_calls() if method_name(call) == "offer"
    ]
    assert sorted(offered) == sorted(STEPS)


def test_the_table_is_well_formed():
    names = [line.name for line in PIPELINE if isinstance(line, Step)]
    assert len(names) == len(set(names))
    for event in ORDERED_EVENTS:
        levels = [
            line.priority for line in PIPELINE if isinstance(line, At) and line.event == event
        ]
        assert levels == sorted(set(levels)), event
        first = next(line for line in PIPELINE if line.event == event)
        assert isinstance(first, At), f"{event}: a step before any level"
    assert all(line.why.strip() for line in PIPELINE)


def test_a_step_runs_at_the_level_above_it():
    assert STEPS["start-build-cache"][1] < STEPS["init-env"][1] < STEPS["load-entities"][1]
    assert STEPS["escape-theme-text"][1] == STEPS["add-policy"][1]


def test_an_unknown_or_repeated_step_is_refused():
    steps = Steps()
    with pytest.raises(KeyError):
        steps.offer("no-such-step", print)
    steps.offer("add-policy", print)
    with pytest.raises(ValueError):
        steps.offer("add-policy", print)


def test_what_sphinx_runs_is_the_tables_order(tmp_path, monkeypatch):
    """The extension set up on a small site: at each event, the offered handlers are
    called (as Sphinx sorts its listeners) in the table's order."""
    from sphinx.application import Sphinx

    offered: dict[str, object] = {}
    connect = Steps.connect

    def recording_connect(self: Steps, app: Sphinx) -> None:
        offered.update(self.offered)
        connect(self, app)

    monkeypatch.setattr(pipeline.Steps, "connect", recording_connect)
    srcdir = tmp_path / "src"
    shutil.copytree(SEED_SITE, srcdir)
    app = Sphinx(srcdir, srcdir, tmp_path / "out", tmp_path / "doctrees", "html", status=None)
    step_of = {id(handler): name for name, handler in offered.items()}
    for event in ORDERED_EVENTS:
        runs = sorted(app.events.listeners[event], key=attrgetter("priority"))
        ran = [
            step_of[id(listener.handler)] for listener in runs if id(listener.handler) in step_of
        ]
        table = [step.name for step, _ in steps_in_order() if step.event == event]
        assert ran == [name for name in table if name in offered], event
        for listener in runs:
            if id(listener.handler) in step_of:
                assert listener.priority == STEPS[step_of[id(listener.handler)]][1]
    assert len(offered) > len(STEPS) // 2  # the accelerations may be off, not the core
