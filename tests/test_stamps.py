"""Listing files with their size and time: the order and the folders left out."""

from __future__ import annotations

import os

from juju_radar.store.stamps import stamped_files


def test_files_are_listed_in_the_order_of_their_paths_parts(tmp_path):
    for name in ("b.md", "a/z.md", "a-b.md", "a/b/c.md", "a.md", "a/y.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name, encoding="utf-8")
    listed = stamped_files(tmp_path, ".md")
    expected = sorted(tmp_path.rglob("*.md"))
    assert [file.relative for file in listed] == [
        path.relative_to(tmp_path).as_posix() for path in expected
    ]
    stat = (tmp_path / "a/z.md").stat()
    by_name = {file.relative: file for file in listed}
    assert by_name["a/z.md"].stamp == f"{stat.st_mtime_ns} {stat.st_size}"


def test_folders_left_out_are_not_entered(tmp_path):
    for name in ("page.html", "_static/macro.html", ".doctrees/x.html", "pagefind/p.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name, encoding="utf-8")
    (tmp_path / "deep" / "pagefind").mkdir(parents=True)
    (tmp_path / "deep" / "pagefind" / "kept.html").write_text("", encoding="utf-8")
    listed = stamped_files(tmp_path, ".html", skip_folders="._", leave_out=frozenset(["pagefind"]))
    assert [file.relative for file in listed] == ["deep/pagefind/kept.html", "page.html"]


def test_symlinked_folders_are_entered_only_when_asked(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.md").write_text("", encoding="utf-8")
    os.symlink(tmp_path / "real", tmp_path / "linked")
    assert [file.relative for file in stamped_files(tmp_path, ".md")] == ["real/a.md"]
    followed = stamped_files(tmp_path, ".md", follow_links=True)
    assert [file.relative for file in followed] == ["linked/a.md", "real/a.md"]
