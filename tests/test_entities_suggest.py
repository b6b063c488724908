"""``radar entities suggest`` on the tests' seed site: the seed's proper names, titles in
《》 and unknown terms, with counts and stories; registered names are left out."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from conftest import copy_site

from juju_radar.editors import cli

STORY = "issues/2026/2026-09-08#"


def suggested(root: Path, *extra: str) -> dict[str, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli.main(["--root", str(root), "entities", "suggest", "--format", "json", *extra])
    assert status == 0
    return {row["name"]: row for row in json.loads(out.getvalue())}


def test_suggestions_list_the_seed_proper_names(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "src")
    found = suggested(root)
    for name in ("Qwen3-8B", "Claude Opus 5", "Claude Code", "τ^τ-Bench", "Sierra", "Pixal3D"):
        assert found[name]["kind"] == "latin", name
    assert found["GRPO"]["count"] == 2
    assert found["GRPO"]["stories"] == [STORY + "rise-self-extrapolation"]
    assert found["关于依法审理涉人工智能纠纷案件的意见"]["kind"] == "title"
    assert "英矽" not in found  # an unknown term, but once only
    assert suggested(root, "--min-terms", "1")["英矽"]["kind"] == "term"
    assert "Qwen3" not in found and "8B" not in found


def test_registered_names_are_not_suggested(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "src")
    (root / "entities.yaml").write_text(
        "- id: grpo\n  name_zh: GRPO\n  name_en: GRPO\n  kind: method\n"
        "- id: insilico\n  name_zh: 英矽智能\n  name_en: Insilico Medicine\n  kind: organization\n",
        encoding="utf-8",
    )
    found = suggested(root, "--min-terms", "1")
    assert "GRPO" not in found and "英矽" not in found
    assert "Qwen3-8B" in found


def test_suggestions_are_printed_in_chinese(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "src")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli.main(["--root", str(root), "--lang", "zh", "entities", "suggest"])
    assert "拉丁字母专名与模型名" in out.getvalue()
    assert "  Qwen3-8B  ×1  " + STORY + "rise-self-extrapolation" in out.getvalue()
