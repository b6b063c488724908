"""Build integrity: no script injection, reproducible output, atomic publish, no broken links."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import (
    BROWSER_WAIT_MS,
    ROOTS,
    copy_site,
    page_text,
    site_with_root,
    sphinx_build,
    watch_errors,
)
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.editors.site_links import broken_links

# Whole-site builds compared with each other: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

HOSTILE = ("alert(", "onmouseover", "onerror")


def html_files(outdir: Path) -> list[Path]:
    return sorted(outdir.rglob("*.html"))


def test_hostile_strings_come_out_escaped_everywhere(tmp_path):
    srcdir = site_with_root("hostile", tmp_path / "src")
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert "[radar.unsafe-url]" in result.stderr, "a javascript: url is refused"
    assert (
        "references.bib:61: ERROR: entry 'hostile2026' has a url that is not an http(s)"
        in result.stderr
    )
    for path in html_files(tmp_path / "html"):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for script in soup.find_all("script"):
            if script.get("type") == "application/ld+json":
                # Data, not code: the titles are JSON strings, with no "<" to leave it by.
                assert "<" not in script.get_text() and json.loads(script.get_text()), path
                continue
            assert not any(word in script.get_text() for word in HOSTILE), path
        for element in soup.find_all(True):
            assert not [name for name in element.attrs if name.startswith("on")], (path, element)
            for name in ("href", "src", "action", "formaction"):
                value = str(element.get(name, "")).strip().lower()
                assert not value.startswith(("javascript:", "data:text/html")), (path, element)
    issue = tmp_path / "html/issues/2026/2026-09-09.html"
    text = page_text(issue)
    assert "<script>alert('title')</script>\" onmouseover=\"alert(1)" in text, "title shown as text"
    assert "<script>alert('item')</script>\" onmouseover=\"alert(2)" in text
    assert '" onmouseover="alert(3)' in text
    soup = BeautifulSoup(issue.read_text(encoding="utf-8"), "html.parser")
    print_header = soup.select_one("#jb-print-docs-body h1")
    assert print_header.get_text() == "<script>alert('title')</script>\" onmouseover=\"alert(1)"
    assert soup.title.get_text().startswith("<script>alert('title')</script>")


def test_two_clean_builds_are_byte_identical(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    first = clean_build(srcdir, tmp_path / "first")
    second = clean_build(srcdir, tmp_path / "second")
    assert differences(first, second) == []


def publish(srcdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "juju_radar.build.staged", "-q"],
        cwd=srcdir,
        capture_output=True,
        text=True,
        env=EPOCH_ENV,
    )


def test_failed_build_keeps_the_last_good_site(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    assert publish(srcdir).returncode == 0
    site = srcdir / "_build" / "html"
    good = {path: path.read_bytes() for path in site.rglob("*") if path.is_file()}
    shutil.copytree(ROOTS / "test-bad-item", srcdir, dirs_exist_ok=True)
    failed = publish(srcdir)
    assert failed.returncode != 0
    assert "unknown topic 'agnet'" in failed.stderr
    assert "still holds the last good site" in failed.stderr
    assert {path: path.read_bytes() for path in site.rglob("*") if path.is_file()} == good
    assert not (srcdir / "_build" / "spare").exists(), "the half-built tree is gone"
    (srcdir / "issues/2026/2026-09-09.md").unlink()
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    assert publish(srcdir).returncode == 0
    assert "第二期" in page_text(site / "index.html")
    spare = srcdir / "_build" / "spare" / "html"
    assert {path: path.read_bytes() for path in spare.rglob("*") if path.is_file()}.keys() == {
        spare / path.relative_to(site) for path in good
    }, "the site it replaced becomes the spare tree"


def test_make_html_names_the_published_folder_not_the_spare_one(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    result = subprocess.run(
        [sys.executable, "-m", "juju_radar.build.staged"],
        cwd=srcdir,
        capture_output=True,
        text=True,
        env=EPOCH_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"site built in {srcdir / '_build' / 'html'}"
    assert "The HTML pages are in" not in result.stdout  # it would name the spare tree


def test_an_interrupted_build_is_not_built_upon(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    for _ in range(2):
        assert publish(srcdir).returncode == 0
    spare = srcdir / "_build" / "spare"
    (spare / "html" / "half-written.html").write_text("<p>stale</p>", encoding="utf-8")
    (spare / "complete").unlink()  # as a build killed before it finished leaves it
    assert publish(srcdir).returncode == 0
    assert not (srcdir / "_build" / "html" / "half-written.html").exists()
    assert (spare / "complete").exists()


def kill_publish_after(build: Path, flips: int) -> None:
    """Do the first ``flips`` link flips of publishing the spare tree, as a publish killed
    then leaves (the spare tree is a complete earlier site)."""
    from juju_radar.build.staged import point, spare_tree

    tree = spare_tree(build).name
    steps = [("html", f"trees/{tree}/html"), ("doctrees", f"trees/{tree}/doctrees")]
    for name, target in steps[:flips]:
        point(build, name, target)


@pytest.mark.parametrize("flips", [1, 2], ids=["html-only", "html-and-doctrees"])
def test_a_publish_killed_between_flips_is_repaired(tmp_path, flips):
    srcdir = copy_site(tmp_path / "src")
    for _ in range(2):
        assert publish(srcdir).returncode == 0
    build = srcdir / "_build"
    kill_publish_after(build, flips)
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    result = publish(srcdir)
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in build.iterdir() if not path.name.startswith(".")) == [
        "doctrees",
        "html",
        "spare",
        "trees",
    ]
    assert (
        os.readlink(build / "doctrees").rsplit("/", 2)[-2]
        == os.readlink(build / "html").rsplit("/", 2)[-2]
    ), "html and doctrees are of one tree"
    clean = clean_build(srcdir, tmp_path / "clean")
    assert differences(build / "html", clean) == []
    (srcdir / "issues/2026/2026-09-09.md").unlink()
    assert publish(srcdir).returncode == 0, "the tree left by the repair is built correctly"
    clean = clean_build(srcdir, tmp_path / "clean-again")
    assert differences(build / "html", clean) == []


def test_the_second_publish_starts_from_the_first_and_reads_nothing_unchanged(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    assert publish(srcdir).returncode == 0
    first_tree = (srcdir / "_build" / "html").resolve().parent
    seed = Path("doctrees", "issues", "2026", "2026-09-08.doctree")
    read_at = (first_tree / seed).stat().st_mtime_ns
    result = publish(srcdir)
    assert result.returncode == 0, result.stderr
    second_tree = (srcdir / "_build" / "html").resolve().parent
    assert second_tree != first_tree
    assert (second_tree / seed).stat().st_mtime_ns == read_at, "the seed issue was not read"
    clean = clean_build(srcdir, tmp_path / "clean")
    assert differences(srcdir / "_build" / "html", clean) == []


def test_each_publish_updates_the_spare_tree_incrementally(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    seed_doctree = srcdir / "_build" / "doctrees" / "issues" / "2026" / "2026-09-08.doctree"
    assert publish(srcdir).returncode == 0
    first_read = seed_doctree.stat().st_mtime_ns
    assert publish(srcdir).returncode == 0  # starts the other tree
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    result = publish(srcdir)
    assert result.returncode == 0, result.stderr
    assert seed_doctree.stat().st_mtime_ns == first_read, "the unchanged issue was not read again"
    assert "第二期" in page_text(srcdir / "_build" / "html" / "index.html")
    clean = clean_build(srcdir, tmp_path / "clean")
    assert differences(srcdir / "_build" / "html", clean) == []


def test_no_broken_internal_links_or_anchors(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    assert len(html_files(outdir)) >= 10
    assert broken_links(outdir) == []


def test_link_checker_finds_a_broken_anchor(tmp_path):
    page = tmp_path / "a.html"
    page.write_text('<a href="b.html#missing">x</a><a href="c.html">y</a><p id="here"></p>')
    (tmp_path / "b.html").write_text('<p id="present"></p>')
    assert broken_links(tmp_path) == ["a.html: b.html#missing (no such anchor)", "a.html: c.html"]


def test_publish_sets_source_date_epoch_from_git(tmp_path):
    from juju_radar.build.staged import source_date_epoch

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "f").write_text("x")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "f"], check=True)
    env = dict(os.environ, GIT_COMMITTER_DATE="2026-09-08T10:00:00+08:00")
    subprocess.run([*git, "commit", "-qm", "x"], check=True, env=env)
    saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        assert source_date_epoch(tmp_path) == "1788832800"
    finally:
        if saved is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved


HOSTILE_TITLE = "<script>alert('title')</script>\" onmouseover=\"alert(1)"
HOSTILE_ITEM = "<script>alert('item')</script>\" onmouseover=\"alert(2)"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile issue, with a site URL so feeds and social meta are written too."""
    base = tmp_path_factory.mktemp("hostile")
    srcdir = site_with_root("hostile", base / "src")
    bib = srcdir / "references.bib"
    bib.write_text(
        bib.read_text(encoding="utf-8").replace("  url   = {javascript:alert(6)},\n", "")
    )
    outdir = base / "html"
    sphinx_build(srcdir, outdir, "-D", "radar_site_url=https://example.org/radar/")
    return outdir


def test_hostile_strings_stay_text_in_feeds_exports_and_social_meta(hostile_site):
    import feedparser

    feed = feedparser.parse((hostile_site / "feeds/all.atom.xml").read_bytes())
    titles = [entry.title for entry in feed.entries]
    assert HOSTILE_TITLE in titles
    topic_feed = feedparser.parse((hostile_site / "feeds/agent.atom.xml").read_bytes())
    assert any(HOSTILE_ITEM in entry.title for entry in topic_feed.entries)
    raw_feed = (hostile_site / "feeds/all.atom.xml").read_text(encoding="utf-8")
    assert "<script>" not in raw_feed
    items = json.loads((hostile_site / "data/items.json").read_text(encoding="utf-8"))["items"]
    assert HOSTILE_ITEM in [item["title"] for item in items]
    soup = BeautifulSoup(
        (hostile_site / "issues/2026/2026-09-09.html").read_text(encoding="utf-8"), "html.parser"
    )
    og_title = soup.find("meta", property="og:title")
    assert og_title is not None and og_title["content"].startswith(HOSTILE_TITLE)


@pytest.mark.browser
def test_hostile_strings_stay_text_in_search_results(hostile_site, browser):
    from browser.site_server import serve

    dialogs: list[str] = []
    with serve(hostile_site) as base:
        page = browser.new_page()
        errors = watch_errors(page)
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(f"{base}search.html?q=正文一段")
        page.wait_for_selector(".radar-search-page .radar-search-result", timeout=BROWSER_WAIT_MS)
        titles = page.eval_on_selector_all(
            ".radar-search-page a.radar-search-result-title",
            "links => links.map(a => a.textContent)",
        )
        page.goto(f"{base}issues/2026/2026-09-09.html")
        page.hover("article h1")
        page.hover("article section.radar-item h2")
        page.close()
    assert any(HOSTILE_ITEM in title for title in titles), titles
    assert dialogs == [] and errors == []


def test_a_build_after_half_the_output_was_deleted_is_complete(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    shutil.copytree(ROOTS / "test-second-issue", srcdir, dirs_exist_ok=True)
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir)
    files = sorted(path for path in outdir.rglob("*") if path.is_file())
    downloads = [path for path in files if path.suffix == ".bib"]
    assert downloads, "the issues' .bib downloads are written"
    for path in downloads:  # the pages that link them stay
        path.unlink()
    sphinx_build(srcdir, outdir)
    assert all(path.is_file() for path in downloads), "every .bib download is back"
    assert broken_links(outdir) == []
    for path in files[::2]:
        path.unlink(missing_ok=True)
    sphinx_build(srcdir, outdir)
    assert all(path.is_file() for path in downloads)
    assert broken_links(outdir) == []


def test_links_newer_than_checks_only_the_pages_a_build_wrote(tmp_path, capsys):
    from juju_radar.editors import cli

    outdir = tmp_path / "_build" / "html"
    outdir.mkdir(parents=True)
    (outdir / "old.html").write_text('<a href="gone-before.html">x</a>')
    os.utime(outdir / "old.html", (1_000_000, 1_000_000))
    stamp = tmp_path / "_build" / "stamp"
    stamp.touch()
    os.utime(stamp, (2_000_000, 2_000_000))
    (outdir / "new.html").write_text('<a href="gone-now.html">y</a>')
    root = ["--root", str(tmp_path), "links", "_build/html"]
    assert cli.main([*root, "--newer-than", "_build/stamp"]) == 1
    out, err = capsys.readouterr()
    assert out == "new.html: gone-now.html [broken-link]\n"
    assert err == "1 broken link in 1 page\n"
    assert cli.main(root) == 1  # all pages
    assert "old.html: gone-before.html" in capsys.readouterr().out
