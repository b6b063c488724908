"""Citing the archive: GB/T 7714-2025 and APA 7 strings worked out by hand from the
standards, the same through citeproc-py and the official CSL styles, and BibTeX that
LaTeX reads back as the title the editors wrote."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import SEED_SITE
from hypothesis import given
from hypothesis import strategies as st
from publishing_site import issues_in
from pybtex.database import parse_string

from juju_radar.bib import cite_this as cite
from juju_radar.bib.exchange import latex_text

CSL_DIR = Path(__file__).resolve().parent / "fixtures" / "csl"
SITE = "https://example.org/radar/"
ISSUE_URL = f"{SITE}issues/2026/2026-09-08.html"
ITEM_URL = f"{ISSUE_URL}#tau-bench-customer-service"
ACCESSED = "2026-12-01"  # the day a reader opened the page


@pytest.fixture(scope="module")
def seed_issue():
    (issue,) = issues_in(SEED_SITE)
    return issue


# GB/T 7714-2025, 8.11 (websites and web pages) gives the order
#   主要责任者. 题名[文献类型标识/文献载体标识]. （发布日期）[引用日期]. 获取和访问路径.
# - "Juju Radar": the responsible body (7.1; an organisation is given as it names itself);
# - "[EB/OL]": EB, the type code of a web page / electronic bulletin, and OL, the carrier
#   code of an online resource (the standard's table of type and carrier codes);
# - "（2026-09-08）": the publication date of an online resource, in full-width
#   parentheses and written YYYY-MM-DD (7.6);
# - "[2026-12-01]": the access (citation) date, in square brackets, YYYY-MM-DD (7.6);
# - the URL is the access path (7.8); every element ends with ". ", the entry with ".".
GBT_ISSUE = (
    "Juju Radar. 让 AI 造一个客服，难在代码之外[EB/OL]. （2026-09-08）[2026-12-01]. "
    "https://example.org/radar/issues/2026/2026-09-08.html."
)
GBT_ITEM = (
    "Juju Radar. 客服能跑起来，不代表能处理好客户的问题[EB/OL]. （2026-09-08）[2026-12-01]. "
    "https://example.org/radar/issues/2026/2026-09-08.html#tau-bench-customer-service."
)
# APA 7, 10.16 (webpage on a news website): Author. (Date). Title. URL
# - "Juju Radar.": a group author, spelled out (9.11);
# - "(2026, September 8).": year, month and day for works published on a day (9.14);
# - the title as written (the original language, 9.38; italics are lost in plain text),
#   ending with a period (9.19);
# - no site name: when the author and the site name are the same, it is left out (10.16);
# - no retrieval date: the page is dated and its content does not change (9.16);
# - the URL last, with no period after it (9.35).
APA_ISSUE = (
    "Juju Radar. (2026, September 8). 让 AI 造一个客服，难在代码之外. "
    "https://example.org/radar/issues/2026/2026-09-08.html"
)
APA_ITEM = (
    "Juju Radar. (2026, September 8). 客服能跑起来，不代表能处理好客户的问题. "
    "https://example.org/radar/issues/2026/2026-09-08.html#tau-bench-customer-service"
)


def works(issue):
    item = issue.items[0]
    return cite.issue_work(issue, ISSUE_URL), cite.item_work(issue, item, ITEM_URL)


def test_the_seed_issue_and_item_in_gbt_7714_2025(seed_issue):
    issue_work, item_work = works(seed_issue)
    assert cite.gbt7714(issue_work, ACCESSED) == GBT_ISSUE
    assert cite.gbt7714(item_work, ACCESSED) == GBT_ITEM


def test_the_seed_issue_and_item_in_apa_7(seed_issue):
    issue_work, item_work = works(seed_issue)
    assert cite.apa(issue_work) == APA_ISSUE
    assert cite.apa(item_work) == APA_ITEM


def test_without_a_site_url_no_url_is_given(seed_issue):
    work = cite.issue_work(seed_issue, "")
    assert cite.gbt7714(work, ACCESSED) == (
        "Juju Radar. 让 AI 造一个客服，难在代码之外[EB/OL]. （2026-09-08）[2026-12-01]."
    )
    assert cite.apa(work) == "Juju Radar. (2026, September 8). 让 AI 造一个客服，难在代码之外."
    assert "url" not in cite.bibtex(work, ACCESSED)


def test_a_title_ending_a_question_takes_no_extra_period():
    work = cite.ArchiveWork("k", "谁来验收 Agent？", dt.date(2026, 1, 2), "Juju Radar")
    # APA 7 9.19: a question mark ending the title replaces the period.
    assert cite.apa(work) == "Juju Radar. (2026, January 2). 谁来验收 Agent？"


def csl_render(style: str, item: dict) -> str:
    """What the official CSL style gives for a CSL-JSON item, through citeproc-py."""
    from citeproc import (
        Citation,
        CitationItem,
        CitationStylesBibliography,
        CitationStylesStyle,
        formatter,
    )
    from citeproc.source.json import CiteProcJSON

    style_file = CitationStylesStyle(str(CSL_DIR / style), validate=False)
    bibliography = CitationStylesBibliography(style_file, CiteProcJSON([item]), formatter.plain)
    bibliography.register(Citation([CitationItem(item["id"])]))
    (entry,) = bibliography.bibliography()
    return str(entry)


def csl_item(work: cite.ArchiveWork, accessed: dt.date) -> dict:
    """The work as the .cite.csl.json download gives it, read on ``accessed``."""
    return {
        **cite.csl_record(work),
        "accessed": {"date-parts": [[accessed.year, accessed.month, accessed.day]]},
    }


def test_the_formatter_agrees_with_the_official_csl_styles(seed_issue):
    accessed = dt.date.fromisoformat(ACCESSED)
    for work in works(seed_issue):
        item = csl_item(work, accessed)
        gbt = csl_render("china-national-standard-gb-t-7714-2025-numeric.csl", item)
        assert gbt == f"[1]{cite.gbt7714(work, ACCESSED)}"  # the numeric style's label
        assert csl_render("apa.csl", item) == cite.apa(work)


def test_the_bibtex_uses_date_and_year_url_and_urldate(seed_issue):
    issue_work, _ = works(seed_issue)
    entry = parse_string(cite.bibtex(issue_work, ACCESSED), "bibtex").entries[
        "jujuradar-2026-09-08"
    ]
    assert entry.fields["date"] == "2026-09-08"
    assert entry.fields["url"] == ISSUE_URL
    assert entry.fields["urldate"] == ACCESSED
    assert entry.fields["year"] == "2026"  # plain BibTeX and natbib styles read no date
    # Protected whole: BibTeX styles lower-case titles ("ai"), not a braced group.
    assert entry.fields["title"] == "{让 AI 造一个客服，难在代码之外}"
    (author,) = entry.persons["author"]  # an institution, never split into names
    assert author.last_names == ["{Juju Radar}"] and not author.first_names


def test_a_percent_in_the_site_address_stays_as_written_in_the_url():
    url = "https://example.org/%E6%9C%9F/2026-09-08.html"
    work = cite.ArchiveWork("k", "T", dt.date(2026, 9, 8), "Juju Radar", url)
    entry = parse_string(cite.bibtex(work, ACCESSED), "bibtex").entries["k"]
    assert entry.fields["url"] == url


HOSTILE_TITLES = [
    "R&D 投入 100% 增长：$5 亿、#1 与 C:\\temp\\new_model",
    "τ^τ-Bench ~ {braces} } unbalanced {",
    "a\\b\\\\c\\{d\\}e\\%f",
    "end with a backslash \\",
    "\\textbf{not a command} \\url{javascript:alert(1)}",
    "_ ^ ~ # $ % & { } \\",
]


def round_trip(title: str) -> str:
    work = cite.ArchiveWork("k", title, dt.date(2026, 9, 8), f"Juju Radar · {title}", ISSUE_URL)
    entry = parse_string(cite.bibtex(work, ACCESSED), "bibtex").entries["k"]
    assert latex_text(entry.fields["howpublished"]) == f"Juju Radar · {title}"
    return latex_text(entry.fields["title"])


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_hostile_titles_round_trip_through_pybtex_and_latex(title):
    assert round_trip(title) == title


# LaTeX's ligatures (--, ``, '') and whitespace runs are out of scope: the specials are not.
@given(st.text(alphabet="ab 中文\\{}%&_#$^~", min_size=1, max_size=40))
def test_any_mix_of_latex_specials_round_trips(title):
    title = " ".join(title.split()) or "a"
    assert round_trip(title) == title


@given(st.text(alphabet='ab 中文-!?<>.,:;()[]*+=|/@"\n\t1', max_size=40))
def test_text_without_latex_specials_reads_as_pylatexenc_reads_it(value):
    from juju_radar.bib.exchange import _decoder

    assert latex_text(value) == " ".join(_decoder().latex_to_text(value).split())
