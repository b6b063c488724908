"""Every BibTeX the site offers (the per-issue ``.bib`` downloads and the cite-as blocks
of the issue and its items), read by the tools researchers use: bibtexparser and pybtex
here; biber with biblatex and plain BibTeX with plainnat in ``make test-clients``
(``-m clients``: they need Debian's TeX packages, which README lists)."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path

import bibtexparser
import pytest
from bs4 import BeautifulSoup
from conftest import COMPLETED_SITE_URL
from pybtex.database import parse_string

from juju_radar.bib.exchange import latex_text, plain_bibtex_fields
from juju_radar.bib.typesetting import bare_specials
from juju_radar.sphinx_ext.cite_as import ACCESS_DATE_FALLBACK

SITE = COMPLETED_SITE_URL
ISSUE_KEY = "jujuradar-2026-09-08"
TEXT_FIELDS = ("title", "howpublished", "note", "organization", "journal")
WITHOUT_SCRIPT = "-without-script"  # the cite-as text as a page read without scripts shows it
TEX_PACKAGES = "biber texlive-bibtex-extra texlive-xetex texlive-lang-chinese"


@pytest.fixture(scope="module")
def offered(completed_site: Path) -> dict[str, str]:
    """The site's BibTeX texts by where a reader gets them, access dates filled in as
    the page's script fills them."""
    return offered_bibtex(completed_site)


def offered_bibtex(outdir: Path) -> dict[str, str]:
    texts = {
        str(path.relative_to(outdir)): path.read_text(encoding="utf-8")
        for path in sorted((outdir / "issues").rglob("*.bib"))
    }
    today = dt.date.today().isoformat()
    for page in sorted((outdir / "issues").rglob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for number, block in enumerate(soup.select(".radar-cite-bibtex .radar-copyable")):
            where = f"{page.relative_to(outdir)}#cite-{number}"
            texts[f"{where}{WITHOUT_SCRIPT}"] = block.get_text()
            for field in block.select(".radar-access-date-field"):  # as radar.js fills it
                field.string = f"  urldate      = {{{today}}},\n"
            texts[where] = block.get_text().replace(ACCESS_DATE_FALLBACK, today)
    return texts


def issue_cite_as(offered: dict[str, str]) -> str:
    """The page's cite-as block of the issue (its .cite.bib download holds it too)."""
    (text,) = [
        text
        for where, text in offered.items()
        if "#cite-" in where and not where.endswith(WITHOUT_SCRIPT)
        if f"@misc{{{ISSUE_KEY}," in text
    ]
    return text


def test_the_cite_as_bibtex_has_a_valid_urldate_or_none(offered):
    """biber refused the placeholder ``urldate = {引用日期}`` of a page read without
    scripts: that entry now has no urldate, and radar.js gives it the reader's day."""
    today = dt.date.today().isoformat()
    for where, text in offered.items():
        if "#cite-" not in where:
            continue
        entries = parse_string(text, "bibtex").entries
        dates = {entry.fields.get("urldate") for entry in entries.values()}
        assert dates == ({None} if where.endswith(WITHOUT_SCRIPT) else {today}), where


def test_the_site_offers_the_downloads_and_the_cite_as_blocks(offered):
    assert "issues/2026/2026-09-08.bib" in offered
    assert "issues/2026/2026-09-08.cite.bib" in offered
    assert sum("#cite-" in where for where in offered) >= 6  # the issue and its items


def test_bibtexparser_reads_every_entry_with_its_year_and_url(offered):
    for where, text in offered.items():
        library = bibtexparser.parse_string(text)
        assert not library.failed_blocks, where
        assert library.entries, where
    (issue,) = bibtexparser.parse_string(issue_cite_as(offered)).entries
    fields = issue.fields_dict
    assert issue.key == ISSUE_KEY
    assert fields["year"].value == "2026"
    assert fields["url"].value == f"{SITE}issues/2026/2026-09-08.html"


def test_pybtex_reads_every_entry_and_no_text_field_needs_math(offered):
    for where, text in offered.items():
        entries = parse_string(text, "bibtex").entries
        for key, entry in entries.items():
            for name in TEXT_FIELDS:
                value = entry.fields.get(name, "")
                assert not bare_specials(value), (where, key, name, value)
    issue = parse_string(issue_cite_as(offered), "bibtex").entries
    title = issue[ISSUE_KEY].fields["title"]
    assert title.startswith("{") and title.endswith("}")  # protected from lower-casing
    assert latex_text(title) == "让 AI 造一个客服，难在代码之外"


def test_every_downloaded_entry_names_its_author_or_key_and_a_stated_year(offered):
    """plainnat warned "need author or key" for every entry without an author and "empty
    year" where the entry states its date otherwise: the downloads give ``key`` (the
    organisation, else the title) and ``year`` (from ``date`` or the arXiv id), and invent
    neither an author nor a year."""
    for where, text in offered.items():
        if "#cite-" in where or where.endswith(".cite.bib"):
            continue
        for key, entry in parse_string(text, "bibtex").entries.items():
            named = entry.persons.get("author") or entry.persons.get("editor")
            assert named or entry.fields.get("key"), (where, key)
            assert "author" not in entry.fields or entry.persons.get("author")
            if entry.fields.get("date"):
                assert entry.fields["year"] == entry.fields["date"][:4], (where, key)


@pytest.mark.parametrize(
    ("fields", "added"),
    [
        ({"title": "RISE 论文", "url": "https://a.example"}, {"key": "RISE 论文"}),
        ({"title": "T", "organization": "Sierra"}, {"key": "Sierra"}),
        ({"title": "τ^τ", "year": "2026"}, {"key": "τ\\textasciicircum{}τ"}),
        ({"title": "T", "author": "Doe, J.", "date": "2025-03-01"}, {"year": "2025"}),
        (
            {"title": "T", "key": "K", "eprint": "2609.01234v2", "archiveprefix": "arXiv"},
            {"year": "2026"},
        ),
        ({"title": "T", "key": "K", "eprint": "2609.01234"}, {}),  # not said to be arXiv
        ({"title": "T", "author": "Doe, J.", "urldate": "2026-09-08"}, {}),  # no year stated
    ],
)
def test_plain_bibtex_fields_come_from_what_the_entry_states(fields, added):
    assert plain_bibtex_fields(fields) == added


# --- The TeX tools (make test-clients) ---------------------------------------------------

BIBLATEX_DOCUMENT = r"""\documentclass{article}
\usepackage{xeCJK}
\setCJKmainfont{Noto Serif CJK SC}
\usepackage[backend=biber,style=numeric]{biblatex}
\addbibresource{offered.bib}
\begin{document}
\nocite{*}
\printbibliography
\end{document}
"""

PLAINNAT_DOCUMENT = r"""\documentclass{article}
\usepackage{xeCJK}
\setCJKmainfont{Noto Serif CJK SC}
\usepackage{natbib}
\usepackage{url}
\begin{document}
\nocite{*}
\bibliographystyle{plainnat}
\bibliography{offered}
\end{document}
"""


def run_tex(folder: Path, *commands: list[str]) -> str:
    """Run each command in ``folder``; the log of the last xelatex run."""
    for command in commands:
        tool = shutil.which(command[0])
        assert tool, f"{command[0]} is not installed: apt-get install {TEX_PACKAGES}"
        result = subprocess.run(
            [tool, *command[1:]], cwd=folder, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, f"{command}:\n{result.stdout[-3000:]}{result.stderr}"
    return (folder / "offered.log").read_text(encoding="utf-8", errors="replace")


def unique_entries(offered: dict[str, str]) -> str:
    """One text of every entry offered, each key once (the downloads of several issues
    share entries; the cite-as blocks repeat none)."""
    seen: dict[str, str] = {}
    for text in offered.values():
        for block in bibtexparser.parse_string(text).blocks:
            if isinstance(block, bibtexparser.model.Entry):
                seen.setdefault(block.key, block.raw)
    return "\n\n".join(seen.values()) + "\n"


XELATEX = ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "offered.tex"]


@pytest.mark.clients
def test_every_entry_typesets_with_biber_and_biblatex(offered, tmp_path):
    (tmp_path / "offered.bib").write_text(unique_entries(offered), encoding="utf-8")
    (tmp_path / "offered.tex").write_text(BIBLATEX_DOCUMENT, encoding="utf-8")
    log = run_tex(tmp_path, XELATEX, ["biber", "offered"], XELATEX)
    assert "Missing $ inserted" not in log and "! " not in log
    bbl = (tmp_path / "offered.bbl").read_text(encoding="utf-8")
    assert "{2026-09-08}" in bbl or "{2026}" in bbl
    assert f"{SITE}issues/2026/2026-09-08.html" in bbl  # the url as written, no "%5C"


@pytest.mark.clients
def test_plainnat_prints_the_year_and_keeps_the_capitals(offered, tmp_path):
    (tmp_path / "offered.bib").write_text(unique_entries(offered), encoding="utf-8")
    (tmp_path / "offered.tex").write_text(PLAINNAT_DOCUMENT, encoding="utf-8")
    log = run_tex(tmp_path, XELATEX, ["bibtex", "offered"], XELATEX)
    assert "! " not in log
    bbl = (tmp_path / "offered.bbl").read_text(encoding="utf-8")
    issue = bbl[bbl.index(f"{{{ISSUE_KEY}}}") :].split(r"\bibitem")[0]
    assert "2026" in issue
    assert "让 AI 造一个客服" in issue  # not "ai": the title is protected
    assert "RISE 论文" in bbl and "WorldSculpt 论文" in bbl  # the references' titles too


@pytest.mark.clients
@pytest.mark.parametrize("without_script", [True, False])
def test_biber_reads_the_cite_as_bibtex_with_and_without_scripts(offered, tmp_path, without_script):
    """Each key once per reading of the page: its text without scripts (no urldate) and
    with them (the reader's day), each read by biber without a warning."""
    texts = {
        where: text
        for where, text in offered.items()
        if "#cite-" in where and where.endswith(WITHOUT_SCRIPT) == without_script
    }
    (tmp_path / "offered.bib").write_text(unique_entries(texts), encoding="utf-8")
    (tmp_path / "offered.tex").write_text(BIBLATEX_DOCUMENT, encoding="utf-8")
    run_tex(tmp_path, XELATEX, ["biber", "offered"], XELATEX)
    log = (tmp_path / "offered.blg").read_text(encoding="utf-8", errors="replace")
    assert "WARN" not in log and "ERROR" not in log, log


@pytest.mark.clients
def test_plainnat_asks_for_no_key_and_a_year_only_where_no_date_is_stated(offered, tmp_path):
    (tmp_path / "offered.bib").write_text(unique_entries(offered), encoding="utf-8")
    (tmp_path / "offered.tex").write_text(PLAINNAT_DOCUMENT, encoding="utf-8")
    run_tex(tmp_path, XELATEX, ["bibtex", "offered"], XELATEX)
    log = (tmp_path / "offered.blg").read_text(encoding="utf-8", errors="replace")
    assert "need key" not in log and "need author or key" not in log, log
    undated = {
        key
        for key, entry in parse_string(unique_entries(offered), "bibtex").entries.items()
        if not entry.fields.get("year")
    }
    warned = set(re.findall(r"empty year in (\S+)", log))
    assert warned <= undated, log
