"""A small valid export, and running ``radar import`` on bytes: the cases of the import
tests start from it."""

from __future__ import annotations

from pathlib import Path

from juju_radar.editors import cli

# Line numbers: 1 title, 3 date, 5 length, 7 lead, 9/17 headings, 11/19 categories,
# 13/21 bodies, 15/23 source labels, 25 closing heading, 27 closing paragraph.
GOOD = """\
测试标题

Juju Radar · 2026.09.11

约 40 字 · 阅读约 1 分钟

导语。

🛠️ 第一条

Agent / Coding Agent · 9/10｜建议深挖

正文一。

论文 · 代码

🧠 第二条

模型训练 · 8.5/10｜持续观察

正文二。

RISE 论文

今天的主线

收尾。
"""
ISSUE = "issues/2026/2026-09-11.md"


def site_files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in [root / "references.bib", *sorted((root / "issues").rglob("*"))]
        if path.is_file()
    }


def run_import(root: Path, tmp_path: Path, data: bytes, *options: str) -> int:
    export = tmp_path / "export.txt"
    export.write_bytes(data)
    return cli.main(["--root", str(root), "import", *options, str(export)])
