"""Crossref's titles are JATS fragments: the candidate's title is the text a browser
shows of them, read by an HTML5 parser, never a regular expression's guess."""

from __future__ import annotations

import pytest

from juju_radar.editors.lookup.services import from_csl

CROSSREF_TITLES = [
    # (title as Crossref's works API returns it, the title the editor sees)
    (
        "Imaging <jats:italic>in vivo</jats:italic> with deep learning",
        "Imaging in vivo with deep learning",
    ),
    ("Gene regulation &amp; protein folding", "Gene regulation & protein folding"),
    ("When a < b: ordering in attention", "When a < b: ordering in attention"),
    ("Bounds for n &lt; 10 and m &gt; 3", "Bounds for n < 10 and m > 3"),
    (
        "CO<jats:sub>2</jats:sub> capture by <jats:sc>MOF</jats:sc>-5",
        "CO2 capture by MOF-5",
    ),
    ("<jats:title>Protein\n   design</jats:title>", "Protein design"),
    ("A &#8220;quoted&#8221; title &#x2014; 2024", "A \u201cquoted\u201d title \u2014 2024"),
]


@pytest.mark.parametrize(("given", "shown"), CROSSREF_TITLES)
def test_a_crossref_title_reads_as_the_text_its_markup_shows(given: str, shown: str) -> None:
    candidate = from_csl({"title": [given]}, "crossref", "https://api.crossref.org/works/1")
    assert candidate is not None and candidate.title == shown


def test_names_and_container_read_the_same_way_and_identifiers_stay_as_given() -> None:
    url = "https://example.org/paper?id=1&copy=2"  # "&copy" would be © as HTML text
    candidate = from_csl(
        {
            "title": "T",
            "container-title": ["Journal of A &amp; B"],
            "author": [{"family": "M&amp;M", "given": "<jats:italic>A.</jats:italic>"}],
            "URL": url,
        },
        "crossref",
        "https://api.crossref.org/works/1",
    )
    assert candidate is not None
    assert candidate.container == "Journal of A & B"
    assert candidate.authors == ("M&M, A.",)
    assert candidate.url == url


def test_a_title_of_markup_alone_is_no_title() -> None:
    assert from_csl({"title": "<jats:italic> </jats:italic>"}, "crossref", "r") is None
