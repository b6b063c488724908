"""Incremental equals clean on an archive made as editors make it (issue 32): exports
imported with ``radar import`` (every source label its own ``references.bib`` entry),
then one more issue back-filled into an older year than the newest, then a reference
edited; after each step the incremental build is byte-identical to a clean one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import copy_site, page_text, sphinx_build
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.editors import cli

pytestmark = pytest.mark.slow

BACKFILLED = "2024-01-03"


def radar(root: Path, *args: str | Path) -> None:
    assert cli.main(["--root", str(root), "--lang", "en", *map(str, args)]) == 0


def imported_title(export: Path) -> str:
    return export.read_text(encoding="utf-8").splitlines()[0]


def test_a_backfilled_issue_and_an_edited_reference_build_as_a_clean_build(tmp_path):
    src = copy_site(tmp_path / "src")
    radar(src, "synth", "5", "--exports", "--out", tmp_path / "exports")
    exports = sorted((tmp_path / "exports").glob("*.txt"))
    held_back = next(path for path in exports if path.stem == BACKFILLED)
    radar(src, "import", *(path for path in exports if path != held_back))
    incremental = tmp_path / "incremental"
    sphinx_build(src, incremental, env=EPOCH_ENV)
    assert not (incremental / "issues" / "2024" / f"{BACKFILLED}.html").exists()

    # The seed issue (2026) stays the newest: the new one falls into an older year.
    radar(src, "import", held_back)
    sphinx_build(src, incremental, env=EPOCH_ENV)
    assert differences(incremental, clean_build(src, tmp_path / "clean")) == []
    title = imported_title(held_back)
    assert title in page_text(incremental / "issues" / "2024" / f"{BACKFILLED}.html")
    assert title in page_text(incremental / "issues" / "index.html")

    bib = src / "references.bib"
    text = bib.read_text(encoding="utf-8")
    key = re.findall(r"^@\w+\{([^,]+),", text, flags=re.M)[-1]
    edited = re.sub(rf"(@\w+\{{{re.escape(key)},[^@]*?title\s*=\s*\{{)", r"\1修订：", text, count=1)
    assert edited != text
    bib.write_text(edited, encoding="utf-8")
    sphinx_build(src, incremental, env=EPOCH_ENV)
    assert differences(incremental, clean_build(src, tmp_path / "clean")) == []
    assert any(
        "修订：" in path.read_text(encoding="utf-8")
        for path in (incremental / "references").glob("*.html")
    )
