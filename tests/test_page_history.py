"""A page's last change from the repository's history (issue 56, item 6): the rule for a
change after publishing with no correction (``radar check``'s ``uncorrected-change``),
and the footer's 本页最后修改于, reproducible from the commits and said only inside git."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import os
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import copy_site, sphinx_build
from head_metadata import parsed
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.editors import cli
from juju_radar.model.corrections import Correction
from juju_radar.model.history import changed_after_publishing, parse_log
from juju_radar.model.issue_records import Issue

SEED = "issues/2026/2026-09-08"
DAY = dt.date
SITE_URL = "https://radar.example/"
ADDRESS = ("-D", f"radar_site_url={SITE_URL}")  # a site with an address has a sitemap
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def issue(*corrections: Correction) -> Issue:
    return Issue(DAY(2026, 9, 8), "t", "published", "", (), (), "", (), corrections=corrections)


def test_the_log_gives_each_file_its_commit_days_newest_first():
    log = "\x002026-09-12\n\nissues/a.md\nconf.py\n\x002026-09-08\n\nissues/a.md\n"
    assert parse_log(log) == {
        "issues/a.md": (DAY(2026, 9, 12), DAY(2026, 9, 8)),
        "conf.py": (DAY(2026, 9, 12),),
    }


@pytest.mark.parametrize(
    ("days", "corrections", "changed"),
    [
        ((DAY(2026, 9, 8),), (), None),  # only the commit that added it
        ((DAY(2027, 1, 5),), (), None),  # added later (a backfilled issue), never changed
        ((DAY(2026, 9, 8), DAY(2026, 9, 8)), (), None),  # changed on its own day
        ((DAY(2026, 9, 12), DAY(2026, 9, 8)), (), DAY(2026, 9, 12)),
        ((DAY(2026, 9, 12), DAY(2026, 9, 8)), (DAY(2026, 9, 12),), None),
        (
            (DAY(2026, 9, 14), DAY(2026, 9, 12), DAY(2026, 9, 8)),
            (DAY(2026, 9, 12),),
            DAY(2026, 9, 14),
        ),
    ],
)
def test_a_change_after_publishing_needs_a_correction(days, corrections, changed):
    recorded = issue(*(Correction(day, "改。") for day in corrections))
    assert changed_after_publishing(recorded, days) == changed


def git(root: Path, *args: str, day: str = "") -> None:
    env = dict(os.environ)
    if day:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{day}T12:00:00+08:00"
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )


def commit(root: Path, day: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", f"on {day}", day=day)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def check_codes(root: Path) -> list[tuple[str, int, str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["--root", str(root), "check", "--format", "json"])
    return [(p["path"], p["line"], p["code"]) for p in json.loads(out.getvalue())]


@pytest.fixture
def repository(tmp_path) -> Path:
    root = copy_site(tmp_path / "src")
    git(root, "init", "-q")
    commit(root, "2026-09-08")
    return root


def test_radar_check_notes_a_change_after_publishing_until_a_correction(repository):
    page = repository / f"{SEED}.md"
    assert not [c for c in check_codes(repository) if c[2] == "uncorrected-change"]
    edit(page, "两回事", "两件事")
    commit(repository, "2026-09-12")
    assert (f"{SEED}.md", 2, "uncorrected-change") in check_codes(repository)
    edit(
        page,
        "status: published\n",
        "status: published\ncorrections:\n  - date: 2026-09-12\n    text: 导语措辞已更正。\n",
    )
    commit(repository, "2026-09-12")
    assert not [c for c in check_codes(repository) if c[2] == "uncorrected-change"]


def footer_change(outdir: Path, page: str) -> list[str]:
    return [node.text().strip() for node in parsed(outdir / page).css(".radar-last-change")]


@pytest.mark.site
def test_the_footer_says_the_last_commit_and_follows_a_new_one(repository, tmp_path):
    """Built, then the page is edited and built before it is committed (its last commit
    is the old one), then committed without another edit: the incremental build must say
    the new day, as a clean build does."""
    out = tmp_path / "html"
    clean_build(repository, out, *ADDRESS)
    assert footer_change(out, f"{SEED}.html") == ["本页最后修改于 2026-09-08。"]
    assert footer_change(out, "index.html") == ["本页最后修改于 2026-09-08。"]
    edit(repository / f"{SEED}.md", "两回事", "两件事")

    sphinx_build(repository, out, *ADDRESS, env=EPOCH_ENV)
    commit(repository, "2026-09-13")
    sphinx_build(repository, out, *ADDRESS, env=EPOCH_ENV)
    assert footer_change(out, f"{SEED}.html") == ["本页最后修改于 2026-09-13。"]
    assert footer_change(out, "index.html") == ["本页最后修改于 2026-09-08。"]
    assert sitemap_dates(out)[f"{SEED}.html"] == "2026-09-13"  # the sitemap follows too
    assert differences(out, clean_build(repository, tmp_path / "clean", *ADDRESS)) == []


def test_outside_git_no_page_says_when_it_changed(built_seed_site):
    for page in (f"{SEED}.html", "index.html"):
        assert footer_change(built_seed_site, page) == []


@pytest.mark.site
def test_a_parallel_build_says_what_a_serial_one_says(repository, tmp_path):
    edit(
        repository / f"{SEED}.md",
        "status: published\n",
        "status: published\ncorrections:\n  - date: 2026-09-12\n    text: 导语措辞已更正。\n",
    )
    commit(repository, "2026-09-12")
    serial = clean_build(repository, tmp_path / "serial", *ADDRESS)
    parallel = clean_build(repository, tmp_path / "parallel", "-j", "2", *ADDRESS)
    assert sitemap_dates(parallel)[f"{SEED}.html"] == "2026-09-12"
    assert footer_change(parallel, f"{SEED}.html") == ["本页最后修改于 2026-09-12。"]
    assert footer_change(parallel, "index.html") == ["本页最后修改于 2026-09-08。"]
    assert differences(serial, parallel) == []


def sitemap_dates(outdir: Path) -> dict[str, str | None]:
    """The sitemap's pages (relative to the site) and their ``<lastmod>``, as an XML
    parser reads them."""
    root = ElementTree.parse(outdir / "sitemap.xml").getroot()
    urls = root.findall("s:url", SITEMAP_NS)
    return {
        (url.findtext("s:loc", namespaces=SITEMAP_NS) or "").removeprefix(SITE_URL): url.findtext(
            "s:lastmod", namespaces=SITEMAP_NS
        )
        for url in urls
    }


@pytest.mark.site
def test_the_sitemap_dates_each_page_by_the_change_its_footer_shows(repository, tmp_path):
    """A commit after publishing, then a correction dated later than its commit: the issue
    page's ``<lastmod>`` and its stories' follow the footer each time; the home page,
    whose file did not change, keeps the newest issue's date."""
    edit(repository / f"{SEED}.md", "两回事", "两件事")
    commit(repository, "2026-09-13")
    out = clean_build(repository, tmp_path / "committed", *ADDRESS)
    dates = sitemap_dates(out)
    stories = [page for page in dates if page.startswith(f"{SEED}/")]
    assert stories  # the seed's items have story pages
    assert footer_change(out, f"{SEED}.html") == ["本页最后修改于 2026-09-13。"]
    assert [dates[page] for page in (f"{SEED}.html", *stories)] == ["2026-09-13"] * (
        1 + len(stories)
    )
    assert dates["index.html"] == "2026-09-08"

    edit(
        repository / f"{SEED}.md",
        "status: published\n",
        "status: published\ncorrections:\n  - date: 2026-09-15\n    text: 导语措辞已更正。\n",
    )
    commit(repository, "2026-09-14")
    out = clean_build(repository, tmp_path / "corrected", *ADDRESS)
    dates = sitemap_dates(out)
    assert footer_change(out, f"{SEED}.html") == ["本页最后修改于 2026-09-15。"]
    assert [dates[page] for page in (f"{SEED}.html", *stories)] == ["2026-09-15"] * (
        1 + len(stories)
    )
    assert dates["index.html"] == "2026-09-08"
