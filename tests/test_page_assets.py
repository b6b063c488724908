"""Each page loads only the styles and scripts it uses (issue 29, "weight")."""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup
from conftest import ROOT

from juju_radar.sphinx_ext.page_assets import STYLES_BY_CLASS, UNUSED_SCRIPTS, classes_used

OPTIONAL = {*STYLES_BY_CLASS, *UNUSED_SCRIPTS}


def loaded(html_file: Path, outdir: Path) -> set[str]:
    """The site's own files (relative to the output folder) the page's head and body load."""
    soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
    urls = [link["href"] for link in soup.select('link[rel="stylesheet"]')]
    urls += [script["src"] for script in soup.select("script[src]")]
    paths = [str(url).split("?", 1)[0] for url in urls if "://" not in str(url)]
    # 404.html's are rooted at the site's path ("/" here), the others relative.
    return {
        (outdir / path[1:] if path.startswith("/") else html_file.parent / path)
        .resolve()
        .relative_to(outdir.resolve())
        .as_posix()
        for path in paths
    }


def test_a_page_loads_an_optional_file_only_when_it_uses_it(built_seed_site: Path) -> None:
    pages = sorted(page for page in built_seed_site.rglob("*.html") if "_static" not in page.parts)
    assert len(pages) > 10
    for page in pages:
        files = loaded(page, built_seed_site)
        body = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").body
        used = classes_used(str(body))
        assert not files & UNUSED_SCRIPTS, page
        for style, classes in STYLES_BY_CLASS.items():
            assert (style in files) == bool(used & classes), (page, style)
        for name in files:  # every file it loads is there
            assert (built_seed_site / name).is_file(), (page, name)


def test_a_page_using_none_of_them_loads_none(built_seed_site: Path) -> None:
    topic = built_seed_site / "topics" / "agent.html"
    assert not loaded(topic, built_seed_site) & OPTIONAL
    stats = loaded(built_seed_site / "stats.html", built_seed_site)
    assert "_static/stats.css" in stats and "_static/pygments.css" not in stats
    issue = loaded(built_seed_site / "issues" / "2026" / "2026-09-08.html", built_seed_site)
    assert "_static/pygments.css" in issue and "_static/stats.css" not in issue  # its BibTeX


def test_the_classes_that_load_stats_css_are_those_it_styles() -> None:
    css = (ROOT / "juju_radar" / "theme" / "static" / "stats.css").read_text(encoding="utf-8")
    assert set(re.findall(r"\.([a-z][a-z0-9-]*)", css)) == STYLES_BY_CLASS["_static/stats.css"]


def test_classes_are_read_from_class_attributes_only() -> None:
    html = '<div class="a  highlight-none"><p CLASS=\'b\' data-class="d">class="c"</p></div>'
    html += '<span title="x" class=e>&lt;i class="f"&gt;</span>'
    assert classes_used(html) == {"a", "highlight-none", "b", "e"}


def test_the_classes_of_every_page_are_those_an_html_parser_reads(built_seed_site: Path) -> None:
    pages = [page for page in built_seed_site.rglob("*.html") if "_static" not in page.parts]
    for page in pages:
        body = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").body
        assert body is not None, page
        parsed = {name for tag in body.find_all(class_=True) for name in tag["class"]}
        assert classes_used(str(body)) == parsed, page
