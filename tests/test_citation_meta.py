"""What reference managers and researchers get from a built issue page: Highwire tags,
DC.type and JSON-LD in its head, the cite-as boxes, and the .ris and CSL-JSON downloads;
read from the built site, as Zotero and a researcher read it."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
import rispy
from ada_url import URL
from bs4 import BeautifulSoup
from conftest import COMPLETED_SITE_URL, sphinx_build
from pybtex.database import parse_string

from juju_radar.bib.exchange import csl_record, latex_text, ris_record, ris_text
from juju_radar.bib.typesetting import bare_specials
from juju_radar.sphinx_ext.outputs.citation_meta import (
    reference_content,
    schema_work,
    script_json,
)
from juju_radar.sphinx_ext.safety import check_page_html

SITE = COMPLETED_SITE_URL
PAGE = "issues/2026/2026-09-08"
PAGE_URL = f"{SITE}{PAGE}.html"
CSL_SCHEMA = Path(__file__).resolve().parent / "fixtures" / "csl" / "csl-data.json"
DOI = "10.5555/radar-test.0001"
SEED_TITLES = [
    "τ^τ-Bench: 论文与完整实验",
    "τ^τ-Bench: 代码与任务",
    "RISE 论文",
    "WorldSculpt 论文",
    "WorldSculpt 项目代码",
    "rentosertib 二期早期试验的蛋白质衰老时钟分析：原始论文与方法",
    "最高人民法院发布《关于依法审理涉人工智能纠纷案件的意见》的说明",
    "关于依法审理涉人工智能纠纷案件的意见",
]
# Highwire tags that make Zotero's Embedded Metadata translator decide the item type
# itself ("hwType": journalArticle, report, conferencePaper, bookSection, thesis),
# overriding DC.type. An issue page carries none of them.
TYPE_FORCING_TAGS = {
    "citation_journal_title",
    "citation_technical_report_institution",
    "citation_conference_title",
    "citation_conference",
    "citation_book_title",
    "citation_inbook_title",
    "citation_dissertation_institution",
}


def soup_of(outdir: Path) -> BeautifulSoup:
    return BeautifulSoup((outdir / f"{PAGE}.html").read_text(encoding="utf-8"), "html.parser")


def meta(soup: BeautifulSoup) -> list[tuple[str, str]]:
    return [(tag["name"], tag["content"]) for tag in soup.head.find_all("meta") if tag.get("name")]


def values(soup: BeautifulSoup, name: str) -> list[str]:
    return [content for tag, content in meta(soup) if tag == name]


def reference_pairs(content: str) -> list[tuple[str, str]]:
    return [tuple(part.split("=", 1)) for part in content.split("; ")]


def zotero_creator(citation_author: str) -> dict[str, str]:
    """The creator Zotero's Embedded Metadata translator makes of a page's only
    ``citation_author`` (zotero/translators 2814370: processHighwireCreators, then
    ZU.cleanAuthor with useComma when the value holds a comma), transcribed."""
    by_comma = re.split(r"\s*,\s*", citation_author)
    if len(by_comma) > 1 and " " in by_comma[0] and " " in by_comma[1]:
        raise AssertionError("read as several authors")
    name = citation_author.strip(" .,/[]:")
    if "," in citation_author:
        last, _, first = name.partition(",")
        return {"lastName": last.strip(), "firstName": first.strip()}
    first, _, last = name.rpartition(" ")
    return {"lastName": last, "firstName": first}


def test_zotero_files_the_issue_under_the_organisation_not_a_person(built_seed_site):
    (author,) = values(soup_of(built_seed_site), "citation_author")
    assert zotero_creator(author) == {"lastName": "Juju Radar", "firstName": ""}
    assert zotero_creator("Juju Radar") == {"lastName": "Radar", "firstName": "Juju"}


def test_the_seed_page_is_a_zotero_readable_newspaper_article(built_seed_site):
    soup = soup_of(built_seed_site)
    assert values(soup, "citation_title") == ["让 AI 造一个客服，难在代码之外"]
    assert values(soup, "citation_publication_date") == ["2026/09/08"]
    assert values(soup, "citation_online_date") == ["2026/09/08"]
    assert values(soup, "citation_language") == ["zh-CN"]
    assert values(soup, "citation_publisher") == ["Juju Radar"]
    # Without a site URL the page does not know its own address.
    assert values(soup, "citation_fulltext_html_url") == []
    # Zotero takes its own z:itemType first (RDF.js detectType: t.zotero) ...
    assert values(soup, "z.itemType") == ["newspaperArticle"]
    # ... and Dublin Core gets its own vocabulary.
    assert values(soup, "DC.type") == ["Text"]
    assert values(soup, "DC.title") == ["让 AI 造一个客服，难在代码之外"]
    assert values(soup, "DC.creator") == values(soup, "DC.publisher") == ["Juju Radar"]
    assert values(soup, "DC.date") == ["2026-09-08"]
    assert values(soup, "DC.language") == ["zh-CN"]
    assert values(soup, "DC.identifier") == []  # no site URL
    assert values(soup, "prism.publicationName") == ["Juju Radar"]
    # ... unless a Highwire tag forces another type.
    assert not TYPE_FORCING_TAGS & {name for name, _ in meta(soup)}
    references = [dict(reference_pairs(value)) for value in values(soup, "citation_reference")]
    assert [reference["citation_title"] for reference in references] == SEED_TITLES
    assert references[5]["citation_journal_title"] == "Nature Biotechnology"
    assert references[6]["citation_author"] == "最高人民法院"
    assert references[0]["citation_publication_date"] == "2026/09"
    assert not any("citation_doi" in reference for reference in references)  # none stated


def test_the_page_with_a_site_url_names_itself_and_a_completed_reference(completed_site):
    soup = soup_of(completed_site)
    assert values(soup, "citation_fulltext_html_url") == [PAGE_URL]
    assert values(soup, "DC.identifier") == [PAGE_URL]
    rise = reference_pairs(values(soup, "citation_reference")[2])
    assert rise == [
        ("citation_title", "RISE 论文"),
        ("citation_author", "San Zhang"),
        ("citation_author", "Si Li"),
        ("citation_publication_date", "2026"),
        ("citation_doi", DOI),
        ("citation_arxiv_id", "2609.00001"),
        ("citation_public_url", "https://example.org/papers/rise"),
    ]


def json_ld(soup: BeautifulSoup) -> dict:
    (script,) = soup.head.find_all("script", type="application/ld+json")
    return json.loads(script.string)


def test_the_json_ld_is_a_news_article_citing_each_work(completed_site, built_seed_site):
    document = json_ld(soup_of(completed_site))
    assert document["@context"] == "https://schema.org"
    assert document["@type"] == "NewsArticle"
    assert document["headline"] == "让 AI 造一个客服，难在代码之外"
    assert document["datePublished"] == "2026-09-08"
    assert document["isPartOf"] == {"@type": "Periodical", "name": "Juju Radar", "url": SITE}
    assert document["url"] == PAGE_URL
    assert [work["name"] for work in document["citation"]] == SEED_TITLES
    rise = document["citation"][2]
    assert rise["@type"] == "ScholarlyArticle"  # a preprint
    assert rise["sameAs"] == [f"https://doi.org/{DOI}", "https://arxiv.org/abs/2609.00001"]
    assert rise["url"] == "https://example.org/papers/rise"
    seed = json_ld(soup_of(built_seed_site))
    assert "url" not in seed and "url" not in seed["isPartOf"]


def test_json_ld_cannot_leave_its_script_element_and_passes_the_page_check():
    hostile = "</script><script>alert(1)</script><!-- & -->"
    text = script_json({"headline": hostile})
    assert "<" not in text and ">" not in text
    assert json.loads(text) == {"headline": hostile}
    html = f'<head><script type="application/ld+json">{text}</script></head>'
    refused: list[str] = []
    assert check_page_html(html, refused.append) == html
    assert refused == []


def cite_text(box) -> str:
    return box.select_one(".radar-copyable").get_text()


def test_every_item_has_one_closed_cite_control(built_seed_site):
    soup = soup_of(built_seed_site)
    items = soup.select("section.radar-item")
    assert len(items) == 5
    for item in items:
        (details,) = item.select("details.radar-cite-details")
        assert details.summary.get_text() == "引用"
        assert not details.has_attr("open")
        captions = [caption.get_text() for caption in details.select(".radar-cite-caption")]
        assert captions == ["GB/T 7714-2025", "APA（第 7 版）", "BibTeX"]
    first = soup.select_one("section.radar-item details")
    # Without a site URL: no URL is made up, and the reader is told why there is none.
    assert cite_text(first.select_one(".radar-cite-gbt7714")) == (
        "Juju Radar. 客服能跑起来，不代表能处理好客户的问题[EB/OL]. （2026-09-08）[引用日期]."
    )
    assert (
        first.select_one(".radar-cite-no-url").get_text() == "本站网址尚未确定，以上引用不含网址。"
    )
    bibtex = cite_text(first.select_one(".radar-cite-bibtex"))
    assert "date         = {2026-09-08}" in bibtex
    assert "url" not in bibtex


def test_the_issue_cite_section_gives_the_page_url(completed_site):
    section = soup_of(completed_site).select_one("#cite-this")
    assert cite_text(section.select_one(".radar-cite-gbt7714")) == (
        f"Juju Radar. 让 AI 造一个客服，难在代码之外[EB/OL]. （2026-09-08）[引用日期]. {PAGE_URL}."
    )
    assert cite_text(section.select_one(".radar-cite-apa")) == (
        f"Juju Radar. (2026, September 8). 让 AI 造一个客服，难在代码之外. {PAGE_URL}"
    )
    bibtex = cite_text(section.select_one(".radar-cite-bibtex"))
    assert f"url          = {{{PAGE_URL}}}" in bibtex
    # Without scripts no urldate (biber refuses a placeholder) and a note asks for one;
    # radar.js writes the field where the empty span stands and removes the note.
    assert "urldate" not in bibtex and bibtex.endswith(",\n}")
    box = section.select_one(".radar-cite-bibtex")
    assert box.select_one(".radar-access-date-field").get_text() == ""
    assert "urldate = {YYYY-MM-DD}" in box.select_one(".radar-without-script").get_text()
    entry = parse_string(bibtex, "bibtex").entries["jujuradar-2026-09-08"]
    assert "urldate" not in entry.fields and entry.fields["url"] == PAGE_URL
    assert section.select_one(".radar-cite-no-url") is None


def test_the_downloads_are_linked_and_written(built_seed_site):
    links = soup_of(built_seed_site).select(".radar-bib-download a")
    assert [link["href"] for link in links] == [
        "2026-09-08.bib",
        "2026-09-08.ris",
        "2026-09-08.csl.json",
    ]
    for link in links:
        assert (built_seed_site / "issues/2026" / link["href"]).is_file()


@pytest.mark.site
def test_a_deleted_download_is_written_again_by_the_next_build(site_copy, tmp_path):
    """A build that rewrites no page still writes every download that is missing."""
    outdir = tmp_path / "html"
    sphinx_build(site_copy, outdir)
    issue_files = (outdir / "issues/2026").glob("2026-09-08.*")
    downloads = sorted(path for path in issue_files if path.suffix != ".html")
    assert {path.name for path in downloads} >= {"2026-09-08.bib", "2026-09-08.cite.ris"}
    written = {path: path.read_bytes() for path in downloads}
    for path in downloads:
        path.unlink()
    sphinx_build(site_copy, outdir)
    assert {path: path.read_bytes() for path in downloads if path.exists()} == written


def test_the_csl_json_download_is_valid_and_carries_the_identifiers(completed_site):
    records = json.loads((completed_site / f"{PAGE}.csl.json").read_text(encoding="utf-8"))
    schema = json.loads(CSL_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(records, schema, cls=jsonschema.Draft7Validator)
    assert [record["title"] for record in records] == SEED_TITLES
    assert records[2] == {
        "id": "rise2026paper",
        "type": "article",
        "title": "RISE 论文",
        "author": [{"family": "Zhang", "given": "San"}, {"family": "Li", "given": "Si"}],
        "issued": {"date-parts": [[2026]]},
        "accessed": {"date-parts": [[2026, 9, 10]]},
        "DOI": DOI,
        "URL": "https://example.org/papers/rise",
        "archive": "arXiv",
        "number": "arXiv:2609.00001",
        "note": "从模型当前版本与较早版本的训练变化中外推构造老师的训练方法",
    }
    assert records[6]["author"] == [{"literal": "最高人民法院"}]
    assert records[5]["container-title"] == "Nature Biotechnology"
    # The lab that made a preprint is not its publisher (styles print that as the
    # repository): "organization" of a @misc stays in the .bib only.
    assert "publisher" not in records[0]


def test_the_ris_download_reads_back_as_written(completed_site):
    text = (completed_site / f"{PAGE}.ris").read_text(encoding="utf-8")
    assert text.startswith("TY  - GEN\n")  # RIS: every record starts with its type
    read = rispy.loads(text)
    records = json.loads((completed_site / f"{PAGE}.csl.json").read_text(encoding="utf-8"))
    assert read == [ris_record(record) for record in records]
    rise = read[2]
    # A preprint with a DOI: GEN, whose DO Zotero keeps (it drops a manuscript's).
    assert rise["type_of_reference"] == "GEN"
    assert rise["doi"] == DOI
    assert rise["authors"] == ["Zhang, San", "Li, Si"]
    assert rise["urls"] == ["https://example.org/papers/rise"]
    assert rise["access_date"] == "2026/09/10/"
    assert read[5]["secondary_title"] == "Nature Biotechnology"


def test_the_data_exports_carry_the_completed_identifiers(completed_site):
    completed = {
        "doi": DOI,
        "eprint": "2609.00001",
        "archiveprefix": "arXiv",
        "url": "https://example.org/papers/rise",
        "note": "从模型当前版本与较早版本的训练变化中外推构造老师的训练方法",
    }
    data = json.loads((completed_site / "data/items.json").read_text(encoding="utf-8"))
    (rise,) = [item for item in data["items"] if item["item_id"] == "rise-self-extrapolation"]
    assert rise["citations"] == [{"key": "rise2026paper", "identifiers": completed}]
    rows = csv.DictReader(io.StringIO((completed_site / "data/items.csv").read_text("utf-8")))
    (row,) = [row for row in rows if row["item_id"] == "rise-self-extrapolation"]
    assert json.loads(row["citation_identifiers"]) == {"rise2026paper": completed}


def test_an_arxiv_entry_links_its_abstract_page_in_csl_and_ris():
    entry = parse_string(
        "@misc{k, title={T}, eprint={2609.01234}, archiveprefix={arXiv}}", "bibtex"
    ).entries["k"]
    record = csl_record("k", entry)
    assert record["URL"] == "https://arxiv.org/abs/2609.01234"
    assert record["number"] == "arXiv:2609.01234"
    ris = ris_record(record)
    assert ris["urls"] == ["https://arxiv.org/abs/2609.01234"]
    assert ris["type_of_reference"] == "MANSCPT"


def test_an_arxiv_pdf_address_becomes_its_abstract_page_in_csl_and_ris():
    """As documented: an arXiv entry carries its abs address, not the PDF it was cited by
    (``radar import`` keeps the address the editors gave, ``…/pdf/ID`` with its version)."""
    entry = parse_string(
        "@misc{k, title={T}, url={https://arxiv.org/pdf/2609.01234v2},"
        " eprint={2609.01234v2}, archiveprefix={arXiv}}",
        "bibtex",
    ).entries["k"]
    record = csl_record("k", entry)
    assert record["URL"] == "https://arxiv.org/abs/2609.01234v2"
    (ris,) = rispy.loads(ris_text([record]))
    assert ris["urls"] == ["https://arxiv.org/abs/2609.01234v2"]


def test_json_ld_same_as_holds_valid_addresses():
    """A DOI's ``<`` and ``>`` percent-encoded in ``sameAs``: each is the address a
    browser's URL parser (WHATWG) writes back unchanged."""
    doi = "10.1002/(SICI)1097-4636(199706)35:4<461::AID-JBM6>3.0.CO;2-X"
    work = schema_work({"type": "article-journal", "title": "T", "DOI": doi})
    assert work["sameAs"] == [
        "https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C461::AID-JBM6%3E3.0.CO;2-X"
    ]
    assert all(URL(link).href == link for link in work["sameAs"])


def test_citation_reference_carries_a_doi_with_a_semicolon_unaltered():
    doi = "10.1002/(SICI)1097-4636(199706)35:4<461::AID-JBM6>3.0.CO;2-X"
    url = "https://example.org/a;b?c=1;d=2"
    content = reference_content({"title": "T; U", "DOI": doi, "URL": url})
    pairs = dict(reference_pairs(content))
    assert {name: value.replace("%3B", ";") for name, value in pairs.items()} == {
        "citation_title": "T; U",
        "citation_doi": doi,
        "citation_public_url": url,
    }


def test_the_bib_download_typesets_what_references_bib_wrote_as_text(built_seed_site):
    text = (built_seed_site / f"{PAGE}.bib").read_text(encoding="utf-8")
    entries = parse_string(text, "bibtex").entries
    # Escaped, and protected whole so that BibTeX styles keep its capitals.
    assert entries["taubench2026paper"].fields["title"] == (
        "{τ\\textasciicircum{}τ-Bench: 论文与完整实验}"
    )
    titles = [latex_text(entry.fields["title"]) for entry in entries.values()]
    assert titles == SEED_TITLES  # what a reader of the page sees, LaTeX decoded
    assert not any(bare_specials(entry.fields["title"]) for entry in entries.values())


def test_the_issue_and_its_items_can_be_cited_from_downloads(completed_site):
    section = soup_of(completed_site).select_one("#cite-this")
    links = [link["href"] for link in section.select(".radar-cite-download a")]
    assert links == ["2026-09-08.cite.bib", "2026-09-08.cite.ris", "2026-09-08.cite.csl.json"]
    folder = completed_site / "issues/2026"
    records = json.loads((folder / "2026-09-08.cite.csl.json").read_text(encoding="utf-8"))
    schema = json.loads(CSL_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(records, schema, cls=jsonschema.Draft7Validator)
    issue, *items = records
    assert issue == {
        "id": "jujuradar-2026-09-08",
        "type": "webpage",
        "title": "让 AI 造一个客服，难在代码之外",
        "author": [{"literal": "Juju Radar"}],
        "issued": {"date-parts": [[2026, 9, 8]]},
        "language": "zh-CN",
        "URL": PAGE_URL,
    }
    anchors = [item.get("id") for item in soup_of(completed_site).select("section.radar-item")]
    assert [item["URL"] for item in items] == [f"{PAGE_URL}#{anchor}" for anchor in anchors]
    ris = rispy.loads((folder / "2026-09-08.cite.ris").read_text(encoding="utf-8"))
    assert [record["id"] for record in ris] == [record["id"] for record in records]
    assert ris[0]["authors"] == ["Juju Radar"] and ris[0]["urls"] == [PAGE_URL]
    assert {record["language"] for record in ris} == {"zh-CN"}  # LA, as the CSL-JSON says
    entries = parse_string((folder / "2026-09-08.cite.bib").read_text("utf-8"), "bibtex").entries
    assert list(entries) == [record["id"] for record in records]
    page_bibtex = cite_text(section.select_one(".radar-cite-bibtex"))
    page_entry = parse_string(page_bibtex, "bibtex").entries["jujuradar-2026-09-08"]
    download = entries["jujuradar-2026-09-08"]
    assert dict(download.fields) == {
        name: value for name, value in page_entry.fields.items() if name != "urldate"
    }
