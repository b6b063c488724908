"""A build that changed nothing leaves the data export alone; a change rewrites it, the
same as a clean build writes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import copy_site, sphinx_build

ITEMS = Path("data") / "items.json"
SEED_ISSUE = Path("issues") / "2026" / "2026-09-08.md"


@pytest.mark.site
def test_the_export_is_rewritten_only_when_what_it_shows_changed(tmp_path: Path) -> None:
    srcdir, outdir = copy_site(tmp_path / "src"), tmp_path / "html"
    sphinx_build(srcdir, outdir)
    first = (outdir / ITEMS).stat().st_mtime_ns

    sphinx_build(srcdir, outdir)
    assert (outdir / ITEMS).stat().st_mtime_ns == first, "nothing changed, yet it was rewritten"

    issue = srcdir / SEED_ISSUE
    issue.write_text(
        issue.read_text(encoding="utf-8").replace(
            "title: 让 AI 造一个客服，难在代码之外", "title: 让 AI 造一个客服，难在代码以外"
        ),
        encoding="utf-8",
    )
    sphinx_build(srcdir, outdir)
    exported = (outdir / ITEMS).read_text(encoding="utf-8")
    assert "难在代码以外" in exported

    clean = tmp_path / "clean" / "html"
    sphinx_build(srcdir, clean)
    assert exported == (clean / ITEMS).read_text(encoding="utf-8")
