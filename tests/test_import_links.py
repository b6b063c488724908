"""The export carries the editors' links: ``论文 <https://…>`` on an item's source line
becomes the reference's url (read on the issue's date), and its DOI or arXiv id."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import SEED_EXPORT, SEED_SITE, copy_site, sphinx_build
from import_cases import GOOD, ISSUE, run_import, site_files
from pybtex.database import parse_string

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.identifiers import url_identifiers
from juju_radar.editors import cli
from juju_radar.editors.export_reader import parse_export
from juju_radar.editors.export_sources import ExportSource
from juju_radar.model.vocabulary import vocabulary_from_config

PAPER = "https://arxiv.org/abs/2609.01234v2"
CODE = "https://github.com/example/tau-bench/tree/main/%E4%BB%BB%E5%8A%A1?tab=readme#tasks"
ARTICLE = "https://doi.org/10.1038/s41587-026-0001-x"
LINKED = GOOD.replace("论文 · 代码\n", f"论文 <{PAPER}> · 代码 <{CODE}>\n").replace(
    "RISE 论文\n", f"RISE 论文 <{ARTICLE}>\n"
)


def bib_entries(root: Path) -> dict[str, dict[str, str]]:
    text = (root / "references.bib").read_text(encoding="utf-8")
    data = parse_string(text, "bibtex")
    return {key: {n.lower(): v for n, v in e.fields.items()} for key, e in data.entries.items()}


def imported_entries(root: Path, tmp_path: Path, text: str) -> dict[str, dict[str, str]]:
    before = set(bib_entries(root))
    assert run_import(root, tmp_path, text.encode("utf-8")) == 0
    return {key: fields for key, fields in bib_entries(root).items() if key not in before}


# --- reading the address ------------------------------------------------------------------


def test_a_label_may_be_followed_by_its_address():
    conf = runpy.run_path(str(SEED_SITE / "conf.py"))
    vocab = vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])
    issue, problems = parse_export(LINKED, "export.txt", vocab)
    assert issue is not None, [problem.format() for problem in problems]
    assert issue.items[0].sources == (ExportSource("论文", PAPER), ExportSource("代码", CODE))
    assert issue.items[1].sources == (ExportSource("RISE 论文", ARTICLE),)
    plain, _ = parse_export(GOOD, "export.txt", vocab)
    assert plain is not None and plain.items[0].sources == (
        ExportSource("论文"),
        ExportSource("代码"),
    )


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://doi.org/10.1038/s41587-026-0001-x", {"doi": "10.1038/s41587-026-0001-x"}),
        ("http://dx.doi.org/10.1000/a%3Cb%3E", {"doi": "10.1000/a<b>"}),
        ("https://arxiv.org/abs/2609.01234", {"eprint": "2609.01234"}),
        ("https://arxiv.org/abs/2609.01234v2", {"eprint": "2609.01234v2"}),
        ("https://arxiv.org/pdf/2609.01234v3", {"eprint": "2609.01234v3"}),
        ("https://arxiv.org/pdf/2609.01234.pdf", {"eprint": "2609.01234"}),
        ("https://arxiv.org/abs/hep-th/9901001", {"eprint": "hep-th/9901001"}),
        ("https://github.com/example/tau-bench", {}),
        ("https://arxiv.org/list/cs.AI/recent", {}),
        ("https://example.org/arxiv.org/abs/2609.01234", {}),
        ("https://doi.org/", {}),
        ("https://doi.org/10.1234/%7Bx%7D", {}),
    ],
)
def test_an_address_names_a_doi_or_an_arxiv_id(url, expected):
    if "eprint" in expected:
        expected = {**expected, "archiveprefix": "arXiv"}
    assert url_identifiers(url) == expected


# --- writing the references ---------------------------------------------------------------


def test_import_writes_the_editors_address_with_the_issue_date(site_copy, tmp_path):
    entries = imported_entries(site_copy, tmp_path, LINKED)
    by_url = {fields.get("url"): fields for fields in entries.values()}
    assert set(by_url) == {PAPER, CODE, ARTICLE}
    assert {fields["urldate"] for fields in entries.values()} == {"2026-09-11"}
    assert by_url[PAPER]["eprint"] == "2609.01234v2"
    assert by_url[PAPER]["archiveprefix"] == "arXiv"
    assert by_url[ARTICLE]["doi"] == "10.1038/s41587-026-0001-x"
    assert not {"doi", "eprint"} & set(by_url[CODE])
    assert "eprint" not in by_url[ARTICLE]
    problems = check_bib_text((site_copy / "references.bib").read_text("utf-8"), "references.bib")
    assert [p for p in problems if p.code == "missing-identifier" and "20260911" in p.message] == []
    assert cli.main(["--root", str(site_copy), "check", "--quiet"]) == 0


def test_a_label_without_an_address_gets_none(site_copy, tmp_path):
    text = GOOD.replace("论文 · 代码\n", f"论文 <{PAPER}> · 代码\n")
    entries = imported_entries(site_copy, tmp_path, text)
    assert sorted("url" in fields for fields in entries.values()) == [False, False, True]
    assert sorted("urldate" in fields for fields in entries.values()) == [False, False, True]


def test_addresses_change_only_the_references_not_the_page(site_copy, tmp_path):
    assert run_import(site_copy, tmp_path, GOOD.encode("utf-8")) == 0
    without = (site_copy / ISSUE).read_bytes()
    (site_copy / ISSUE).unlink()
    assert run_import(site_copy, tmp_path, LINKED.encode("utf-8"), "--force") == 0
    assert (site_copy / ISSUE).read_bytes() == without


ENTRY_WITHOUT_ADDRESS = re.compile(
    r"@misc\{[a-z0-9-]+,\n  title     = \{[^\n]*\},\n  radarnote = \{[^\n]*\},\n\}\n"
)


def test_the_seed_export_writes_title_and_note_only(site_copy, tmp_path):
    (site_copy / "issues/2026/2026-09-08.md").unlink()
    header = "% The documents the archive's items cite.\n"
    (site_copy / "references.bib").write_text(header, encoding="utf-8")
    assert cli.main(["--root", str(site_copy), "import", str(SEED_EXPORT)]) == 0
    bib = (site_copy / "references.bib").read_text(encoding="utf-8")
    entries = ENTRY_WITHOUT_ADDRESS.findall(bib)
    assert len(entries) == 7
    assert bib == header + "\n" + "\n".join(entries)


# --- refusing an address ------------------------------------------------------------------

BAD_ADDRESSES = [
    ("javascript:alert(1)", "is not a full http(s) address"),
    ("ftp://example.org/paper.pdf", "is not a full http(s) address"),
    ("/papers/tau-bench.pdf", "is not a full http(s) address"),
    ("www.example.org/paper", "is not a full http(s) address"),
    ("https:///paper", "is not a full http(s) address"),
    ("", "is not a full http(s) address"),
    ("https://example.org/a b", "holds ' '"),
    ("https://example.org/a\u3000b", "holds '\\u3000'"),
    ("https://example.org/{paper}", "holds '{'"),
    ('https://example.org/"paper"', "holds '\"'"),
    ("https://example.org/a\\b", "holds '\\\\'"),
    ("https://example.org/" + "a" * 2000, "has 2020 characters, at most 2000"),
    ("https://user:secret@example.org/", "names a user or password"),
    ("http://[::1/paper", "cannot be read as an address"),
]


@pytest.mark.parametrize("address, reason", BAD_ADDRESSES, ids=[a[:30] for a, _ in BAD_ADDRESSES])
def test_a_bad_address_is_refused_at_its_line_and_nothing_is_written(
    site_copy, tmp_path, capsys, address, reason
):
    before = site_files(site_copy)
    text = LINKED.replace(f"<{CODE}>", f"<{address}>")
    assert run_import(site_copy, tmp_path, text.encode("utf-8")) == 1
    err = capsys.readouterr().err
    prefix = f"{tmp_path / 'export.txt'}:9: error: item '第一条', line 15: the address of '代码' "
    [line] = [line for line in err.splitlines() if line.startswith(prefix)]
    assert reason in line and line.endswith("[bad-address]")
    assert err.rstrip().endswith("0 imported, 0 skipped, 1 failed")
    assert "Traceback" not in err
    assert site_files(site_copy) == before


@pytest.mark.parametrize(
    "line", [f"论文 · <{CODE}>", f"论文 · 代码<{CODE}>", f"论文 · {PAPER}", f"论文 {PAPER} · 代码"]
)
def test_an_address_without_its_label_is_refused(site_copy, tmp_path, capsys, line):
    before = site_files(site_copy)
    text = GOOD.replace("论文 · 代码\n", line + "\n")
    assert run_import(site_copy, tmp_path, text.encode("utf-8")) == 1
    err = capsys.readouterr().err
    assert "holds an address: write it after a label, 'LABEL <https://…>' [bad-label]" in err
    assert site_files(site_copy) == before


def test_a_bad_address_leaves_the_other_files_of_a_backlog_imported(site_copy, tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text(LINKED.replace(PAPER, "javascript:alert(1)"), encoding="utf-8")
    good = tmp_path / "good.txt"
    good.write_text(LINKED.replace("2026.09.11", "2026.09.12"), encoding="utf-8")
    assert cli.main(["--root", str(site_copy), "import", str(bad), str(good)]) == 1
    assert capsys.readouterr().err.rstrip().endswith("1 imported, 0 skipped, 1 failed")
    assert not (site_copy / ISSUE).exists()
    urls = {fields.get("url") for fields in bib_entries(site_copy).values()}
    assert {PAPER, CODE, ARTICLE} <= urls and "javascript:alert(1)" not in urls


# --- the built page -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def linked_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("linked")
    src = copy_site(base / "src")
    export = base / "export.txt"
    export.write_text(LINKED, encoding="utf-8")
    assert cli.main(["--root", str(src), "import", str(export)]) == 0
    sphinx_build(src, base / "html")
    return base / "html"


def test_the_built_page_links_each_source_to_its_address(linked_site):
    html = (linked_site / "issues/2026/2026-09-11.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    links = {a.get_text(): a.get("href") for a in soup.select("a.radar-source-link")}
    assert links == {
        "论文": "https://arxiv.org/abs/2609.01234v2",
        "代码": CODE,
        "RISE 论文": ARTICLE,
    }
