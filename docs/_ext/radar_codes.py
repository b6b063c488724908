"""The documentation's tables of codes, generated from the registry at build time.

``{radar-codes} SCOPE`` writes the table of the codes reported in SCOPE
(``juju_radar.model.codes``), so the documentation cannot drift from the registry that
``tests/test_codes.py`` holds to the package's code.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from juju_radar.model import codes


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table_markdown(scope: codes.Scope) -> list[str]:
    """The table of ``scope`` as Markdown lines."""
    in_scope = codes.in_scope(scope)
    with_where = any(code.where for code in in_scope)
    header = "| code | severity | meaning |" + (" where |" if with_where else "")
    lines = [header, "| --- | --- | --- |" + (" --- |" if with_where else "")]
    for names, code in codes.table_rows(in_scope):
        row = f"| {', '.join(f'`{name}`' for name in names)} | {code.severity} | "
        row += _cell(code.meaning) + " |"
        if with_where:
            row += f" {_cell(code.where)} |"
        lines.append(row)
    return lines


class RadarCodes(SphinxDirective):
    """``{radar-codes} SCOPE``: the registry's codes of one scope, as a table."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        scope = self.arguments[0]
        if scope not in codes.SCOPES:
            known = ", ".join(codes.SCOPES)
            raise self.error(f"unknown scope {scope!r}: one of {known}")
        container = nodes.container(classes=["radar-codes"])
        self.state.nested_parse(StringList(table_markdown(scope)), self.content_offset, container)
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("radar-codes", RadarCodes)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
