"""``make html``'s publish: one build at a time, and never a moment without _build/html."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from juju_radar.build import staged


def fake_sphinx(pages: list[str]):
    """A stand-in for sphinx-build that writes a tiny site into the tree it is given."""

    def run(command: list[str], env: dict | None = None, **kwargs: object):
        outdir, doctrees = Path(command[-1]), Path(command[command.index("-d") + 1])
        outdir.mkdir(parents=True, exist_ok=True)
        doctrees.mkdir(parents=True, exist_ok=True)
        pages.append(str(outdir))
        (outdir / "index.html").write_text(f"<p>build {len(pages)}</p>", encoding="utf-8")
        return subprocess.CompletedProcess(command, 0)

    return run


@pytest.mark.site
def test_the_published_site_never_disappears_during_a_slowed_swap(tmp_path, monkeypatch):
    build = tmp_path / "_build"
    pages: list[str] = []
    monkeypatch.setattr(staged.subprocess, "run", fake_sphinx(pages))
    monkeypatch.setattr(staged, "source_date_epoch", lambda srcdir: None)
    assert staged.build_site(tmp_path, build, []) == 0
    real_replace = os.replace

    def slow_replace(source, target):
        time.sleep(0.02)
        real_replace(source, target)
        time.sleep(0.02)

    monkeypatch.setattr(staged.os, "replace", slow_replace)
    misses: list[float] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            if not (build / "html" / "index.html").is_file():
                misses.append(time.monotonic())

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for _ in range(6):
            assert staged.build_site(tmp_path, build, []) == 0
    finally:
        stop.set()
        thread.join()
    assert misses == [], "a reader found no _build/html/index.html"
    assert (build / "html").is_symlink()
    assert (build / "html" / "index.html").read_text(encoding="utf-8") == "<p>build 7</p>"
    assert len({Path(page).parent.name for page in pages}) == 2, "two trees take turns"


def test_a_second_build_says_another_build_is_running(tmp_path):
    build = tmp_path / "_build"
    lock = staged.hold_lock(build)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "juju_radar.build.staged", "-q"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,  # a hang guard: Python starts and finds the lock taken
        )
    finally:
        os.close(lock)
    assert result.returncode == staged.EXIT_BUSY
    assert "another build is running" in result.stderr
    assert not (build / "html").exists() and not (build / "trees").exists()


def test_the_lock_is_released_when_a_build_ends(tmp_path, monkeypatch):
    build = tmp_path / "_build"
    monkeypatch.setattr(staged.subprocess, "run", fake_sphinx([]))
    monkeypatch.setattr(staged, "source_date_epoch", lambda srcdir: None)
    assert staged.build_site(tmp_path, build, []) == 0
    os.close(staged.hold_lock(build))  # free again


def test_a_build_folder_of_the_former_layout_is_adopted(tmp_path, monkeypatch):
    build = tmp_path / "_build"
    (build / "html").mkdir(parents=True)
    (build / "html" / "index.html").write_text("<p>old</p>", encoding="utf-8")
    (build / "doctrees").mkdir()
    (build / "spare" / "html").mkdir(parents=True)
    monkeypatch.setattr(staged.subprocess, "run", fake_sphinx([]))
    monkeypatch.setattr(staged, "source_date_epoch", lambda srcdir: None)
    assert staged.build_site(tmp_path, build, []) == 0
    assert (build / "html").is_symlink() and (build / "spare").is_symlink()
    assert (build / "spare" / "html" / "index.html").read_text(encoding="utf-8") == "<p>old</p>"
