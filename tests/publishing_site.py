"""The site as published: built with a site URL, the second issue and a draft laid over.

Shared by the publishing tests (feeds, export, stats, social). The site URL's path is
the browser tests' sub-path, so the 404 page's links work under the test server.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ROOTS, SEED_SITE, copy_site, sphinx_build

from juju_radar.editors.site_files import open_site
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import Issue
from juju_radar.model.vocabulary import vocabulary_from_config

SITE_URL = "https://example.org/archive/"
WITH_SITE_URL = ("-D", f"radar_site_url={SITE_URL}")
DRAFT_DATE = "2026-09-10"


def published_sources(dest: Path) -> Path:
    """The seed site with the second issue and a draft laid over it."""
    copy_site(dest)
    for name in ("second-issue", "draft"):
        shutil.copytree(ROOTS / f"test-{name}", dest, dirs_exist_ok=True)
    return dest


def build_published(base: Path, *extra: str) -> tuple[Path, Path]:
    """(sources, output) of the published site built with the site URL."""
    srcdir = published_sources(base / "src")
    outdir = base / "html"
    sphinx_build(srcdir, outdir, *WITH_SITE_URL, *extra)
    return srcdir, outdir


def issues_in(srcdir: Path) -> list[Issue]:
    """Every issue of a site as the model reads it, newest first (drafts included)."""
    site = open_site(srcdir)
    vocabulary = site.vocabulary
    found = []
    for path in site.issue_files():
        issue, _ = parse_issue(path.read_text(encoding="utf-8"), site.relative(path), vocabulary)
        assert issue is not None, path
        found.append(issue)
    return sorted(found, key=lambda issue: issue.date, reverse=True)


def published_issues(srcdir: Path) -> list[Issue]:
    return [issue for issue in issues_in(srcdir) if issue.published]


def item_url(issue: Issue, item_id: str) -> str:
    return f"{SITE_URL}{issue.docname}.html#{item_id}"


def vocabulary():
    site = open_site(SEED_SITE)
    return vocabulary_from_config(site.config["radar_topics"], site.config["radar_verdicts"])
