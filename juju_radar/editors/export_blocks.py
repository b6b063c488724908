"""An export's text as blocks: runs of consecutive non-blank lines, each with the number
of its first line, the unit :mod:`juju_radar.editors.export_reader` reads."""

from __future__ import annotations

from dataclasses import dataclass

from juju_radar.model.issue_records import CJK_RE


@dataclass(frozen=True)
class Block:
    """Consecutive non-blank lines, stripped, with the number of the first one."""

    line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def paragraph(self) -> str:
        """The lines as paragraph text. A break between two Chinese characters is where
        the export wrapped a line, and a browser would show it as a space: it goes."""
        text = self.lines[0]
        for line in self.lines[1:]:
            text += ("" if CJK_RE.match(text[-1]) and CJK_RE.match(line[0]) else "\n") + line
        return text

    @property
    def is_single_line(self) -> bool:
        return len(self.lines) == 1


def split_blocks(text: str) -> list[Block]:
    blocks: list[Block] = []
    current: list[str] = []
    first_line = 0
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            if current:
                blocks.append(Block(first_line, tuple(current)))
                current = []
            continue
        if not current:
            first_line = number
        current.append(stripped)
    if current:
        blocks.append(Block(first_line, tuple(current)))
    return blocks
