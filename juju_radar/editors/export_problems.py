"""The problems found while reading an export, each at its line; those about an item
at its heading line, naming the line of the part at fault."""

from __future__ import annotations

from dataclasses import dataclass, field

from juju_radar.editors.export_blocks import Block
from juju_radar.model.issue_records import split_emoji
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem


@dataclass
class Report:
    path: str
    problems: list[Problem] = field(default_factory=list)

    def error(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "error", code, message))

    @property
    def failed(self) -> bool:
        return any(problem.severity == "error" for problem in self.problems)


@dataclass
class ItemReport(Report):
    """Errors about one item, reported at its heading line (where an editor looks for
    the item); the message names the line of the part at fault."""

    heading_line: int = 0
    title: str = ""

    def error(self, line: int, code: str, message: str) -> None:
        if line != self.heading_line:
            message = _("item '{title}', line {line}: {message}").format(
                title=shorten(self.title), line=line, message=message
            )
        super().error(self.heading_line, code, message)


def about_item(report: Report, heading: Block) -> ItemReport:
    return ItemReport(report.path, report.problems, heading.line, split_emoji(heading.text)[1])


def shorten(text: str, limit: int = 40) -> str:
    first_line = text.split("\n", 1)[0]
    return first_line if len(first_line) <= limit else first_line[: limit - 1] + "…"
