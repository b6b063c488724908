"""Writing a benchmark's table into its own section of BENCHMARKS.md."""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def write_section(name: str, heading: str, text: str, path: Path = BENCHMARKS) -> None:
    """Put ``text`` between the ``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` markers,
    or, the first time, at the end under ``## HEADING``."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    content = path.read_text(encoding="utf-8")
    block = f"{start}\n{text}\n{end}"
    if start in content:
        content = re.sub(
            re.escape(start) + ".*?" + re.escape(end),
            lambda _: block,
            content,
            flags=re.DOTALL,
        )
    else:
        content += f"\n## {heading}\n\n{block}\n"
    path.write_text(content, encoding="utf-8")


def machine() -> str:
    return f"Python {platform.python_version()}; {os.cpu_count()} cores"


def measure_table(intro: str, issues: list[int], columns: list[dict[str, str]]) -> str:
    """``intro``, then a table with one row per measure and one column per archive size."""
    lines = [
        intro,
        "",
        "| measure | " + " | ".join(f"{count} issues" for count in issues) + " |",
        "|---|" + "---|" * len(issues),
    ]
    labels = list(dict.fromkeys(label for column in columns for label in column))
    for label in labels:  # a measure one size leaves out shows as "–" there
        cells = " | ".join(column.get(label, "–") for column in columns)
        lines.append(f"| {label} | {cells} |")
    return "\n".join(lines)
