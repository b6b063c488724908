"""What `make html` prints: true, quiet, and ending with where the site is and what it
holds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import deprecations_fail
from publishing_site import WITH_SITE_URL, published_sources
from site_builds import EPOCH

NOISE = (
    "_build/spare",
    "_build/trees",
    "/trees/",
    "configuration has changed",
    "MdParserConfig",
    "Writing evaluated template result",
    "build_info mismatch",
)
NO_SITE_URL = (
    "the site's address is not set (RADAR_SITE_URL or radar_site_url): no sitemap, "
    "robots.txt or social meta tags; feeds and the export use relative links"
)


def make_html(srcdir: Path, *options: str, verbose: bool = False) -> list[str]:
    """The staged build, as `make html` runs it; its output lines (stdout and stderr)."""
    env = {**os.environ, "PYTHONWARNINGS": deprecations_fail(), "SOURCE_DATE_EPOCH": EPOCH}
    env["RADAR_VERBOSE"] = "1" if verbose else "0"
    # Coloured, as on CI: Sphinx then wraps messages in escape sequences.
    env["FORCE_COLOR"] = "1"
    env.pop("NO_COLOR", None)
    env.pop("RADAR_SITE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "juju_radar.build.staged", "-j", "auto", *options],
        cwd=srcdir,
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return (result.stdout + result.stderr).splitlines()


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:
    """Three builds of the same sources: fresh, first incremental, second incremental."""
    srcdir = published_sources(tmp_path_factory.mktemp("output") / "src")
    return srcdir, [make_html(srcdir) for _ in range(3)]


@pytest.mark.site
def test_no_build_names_the_build_trees_or_dumps_configuration(builds):
    _, outputs = builds
    for number, lines in enumerate(outputs, 1):
        noisy = [line for line in lines if any(noise in line for noise in NOISE)]
        assert noisy == [], f"build {number}: {noisy}"


def test_the_last_lines_say_where_the_site_is_and_what_it_holds(builds):
    srcdir, outputs = builds
    for lines in outputs:
        assert lines[-1] == f"site built in {srcdir / '_build' / 'html'}"
        # The seed issue has 5 stories, the second 2 (the draft is not built);
        # references.bib has 8 entries.
        assert (
            "The site holds 2 published issues (1 draft left out), 7 items and 8 references."
        ) in lines
    assert (srcdir / "_build" / "html" / "feeds" / "all.atom.xml").is_file()


def test_a_build_says_what_changed_in_at_most_five_lines(builds):
    srcdir, (fresh, second, third) = builds
    assert len(fresh) <= 5 and len(second) <= 5 and len(third) <= 5, fresh
    assert re.fullmatch(r"\d+ pages read: 2 issues added\.", fresh[0])  # not the draft
    assert fresh[2] == (
        "references.bib: 8 entries without a DOI/URL/arXiv id/ISBN yet "
        "(`radar refs missing` lists them)."
    )
    # The first incremental build rebuilds the spare tree, a copy of the first one.
    assert third[0] == "Nothing changed since the last build."


@pytest.mark.site
def test_verbose_gives_sphinx_s_whole_log(builds):
    srcdir, _ = builds
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in make_html(srcdir, "-v")]
    assert any(line.startswith("Running Sphinx") for line in lines)
    assert not any(line.startswith("Nothing changed") for line in lines)
    assert lines.count(NO_SITE_URL) == 1, "said once, in Sphinx's log"


def test_a_build_without_the_site_address_says_so_in_one_line_and_succeeds(builds):
    """A quiet make html (-W: warnings are errors) says what it leaves out, every time."""
    _, outputs = builds
    for lines in outputs:
        assert lines.count(NO_SITE_URL) == 1, lines
        assert lines[-2] == NO_SITE_URL


@pytest.mark.site
def test_a_build_with_the_site_address_says_nothing_of_it(builds):
    srcdir, _ = builds
    lines = make_html(srcdir, *WITH_SITE_URL)
    assert not [line for line in lines if "address" in line], lines
    assert lines[-1] == f"site built in {srcdir / '_build' / 'html'}"


@pytest.mark.site
def test_a_real_configuration_change_is_still_reported(builds):
    srcdir, _ = builds
    lines = make_html(srcdir, "-D", "html_title=另一个标题", verbose=True)
    # html_short_title defaults to html_title: Sphinx counts both.
    expected = "The configuration has changed (2 options: 'html_short_title', 'html_title')"
    assert expected in lines
