"""The licence the editors choose (issue 56, item 5): ``radar_license`` in conf.py, on
every page (``<link rel="license">``, a footer line), in the issue pages' citation
metadata (``DC.rights``, JSON-LD ``license``) and in the cite downloads (BibTeX
``copyright``, RIS ``CR``, CSL-JSON ``custom``); unset, none of it. Read as the clients
read them: the pages by an HTML5 parser (selectolax), the downloads by pybtex, rispy and
the CSL-JSON schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import rispy
from conftest import copy_site, sphinx_build
from head_metadata import head_meta, json_ld, parsed
from pybtex.database import parse_string

from juju_radar.bib.exchange import RIS_MAPPING
from juju_radar.model.license import license_problems, setting_line

SPDX = "CC-BY-4.0"
URL = "https://creativecommons.org/licenses/by/4.0/"
SETTING = f"\nradar_license = {{'spdx': {SPDX!r}, 'url': {URL!r}}}\n"
PAGE = "issues/2026/2026-09-08"
CSL_SCHEMA = Path(__file__).resolve().parent / "fixtures" / "csl" / "csl-data.json"


@pytest.fixture(scope="module")
def licensed_site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("licensed")
    srcdir = copy_site(base / "src")
    conf = srcdir / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + SETTING, encoding="utf-8")
    sphinx_build(srcdir, base / "html")
    return base / "html"


def pages(outdir: Path) -> list[Path]:
    found = sorted(path for path in outdir.rglob("*.html") if "_static" not in path.parts)
    assert len(found) > 5
    return found


def cite_downloads(outdir: Path) -> tuple[str, str, str]:
    return tuple(  # type: ignore[return-value]
        (outdir / f"{PAGE}.cite{suffix}").read_text(encoding="utf-8")
        for suffix in (".bib", ".ris", ".csl.json")
    )


@pytest.mark.site
def test_every_page_links_the_licence_and_says_it_in_the_footer(licensed_site):
    for path in pages(licensed_site):
        page = parsed(path)
        links = [node.attributes.get("href") for node in page.css('head link[rel="license"]')]
        assert links == [URL], path
        (footer,) = page.css("p.radar-license")
        assert SPDX in footer.text() and "Creative Commons Attribution 4.0" in footer.text()
        assert footer.css_first("a").attributes.get("href") == URL


@pytest.mark.site
def test_the_citation_metadata_carry_the_licence(licensed_site):
    page = parsed(licensed_site / f"{PAGE}.html")
    assert head_meta(page, "DC.rights") == [URL]
    assert json_ld(page)["license"] == URL


@pytest.mark.site
def test_every_cite_download_carries_the_licence(licensed_site):
    bib, ris, csl = cite_downloads(licensed_site)
    entries = parse_string(bib, "bibtex").entries
    assert entries and {entry.fields["copyright"] for entry in entries.values()} == {
        f"{SPDX} {URL}"
    }
    read = rispy.loads(ris, mapping=RIS_MAPPING)
    assert read and {record["rights"] for record in read} == {f"{SPDX} {URL}"}
    records = json.loads(csl)
    jsonschema.validate(records, json.loads(CSL_SCHEMA.read_text("utf-8")))
    assert {json.dumps(record["custom"]) for record in records} == {
        json.dumps({"license": URL, "license-spdx": SPDX})
    }


def test_unset_the_site_states_no_licence(built_seed_site):
    for path in pages(built_seed_site):
        page = parsed(path)
        assert not page.css('link[rel="license"], .radar-license'), path
        assert not head_meta(page, "DC.rights"), path
    assert "license" not in json_ld(parsed(built_seed_site / f"{PAGE}.html"))
    bib, ris, csl = cite_downloads(built_seed_site)
    assert all(
        "copyright" not in entry.fields for entry in parse_string(bib, "bibtex").entries.values()
    )
    assert "\nCR  - " not in ris
    assert all("custom" not in record for record in json.loads(csl))


CONF = "project = 'x'\n\nradar_license = {}\n"


@pytest.mark.parametrize(
    "value",
    [
        {"spdx": "CC-BY-4", "url": URL},  # not an SPDX identifier
        {"spdx": SPDX},  # no address
        {"spdx": SPDX, "url": URL, "name": "CC"},  # a key of its own
        {"spdx": SPDX, "url": "creativecommons.org/licenses/by/4.0/"},  # no scheme
        {"spdx": SPDX, "url": "javascript:alert(1)"},
        {"spdx": SPDX, "url": "https://a.example/x y"},
        "CC-BY-4.0",
    ],
)
def test_a_wrong_licence_is_an_error_at_its_line(value):
    (problem,) = license_problems(value, CONF)
    assert (problem.path, problem.line, problem.severity, problem.code) == (
        "conf.py",
        3,
        "error",
        "bad-license",
    )


@pytest.mark.parametrize("value", [None, {}, {"spdx": SPDX, "url": URL}])
def test_an_unset_or_right_licence_is_no_problem(value):
    assert license_problems(value, CONF) == []


def test_the_setting_line_is_the_assignment_not_a_mention():
    conf = "# radar_license = 'x'\nx = 'radar_license'\nradar_license: dict = {}\n"
    assert setting_line(conf) == 3
