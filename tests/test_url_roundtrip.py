"""Every address is written raw, everywhere (issue 56, item 1): an address a radar
command writes (``radar refs set``/``accept``/``archive`` and ``radar import`` write
through ``bib.edit``) comes back, as a browser's URL parser reads it (ada, the WHATWG URL
standard), from references.bib, the page's ``href``, ``data-versionurl`` and
``data-originalurl``, RIS (a ``;`` percent-encoded: rispy splits ``UR`` at it), CSL-JSON
and JSON-LD."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
import rispy
from ada_url import URL
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database import parse_string

from juju_radar.bib.archived import archived_copy
from juju_radar.bib.check import check_bib_text
from juju_radar.bib.edit import set_fields
from juju_radar.bib.exchange import csl_json, csl_record, ris_text
from juju_radar.bib.identifiers import source_url
from juju_radar.sphinx_ext.outputs.citation_meta import schema_work, script_json

# What an address holds: RFC 3986's unreserved and sub-delimiters, ":" and "@", and
# "%" (escapes, and a bare one); LaTeX's specials "_ & # $ %" among them. (A brace, which
# would end the BibTeX value, is percent-encoded when written: not generated here.)
PATH_CHARS = string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@%"
segments = st.text(alphabet=PATH_CHARS, max_size=10)
urls = st.builds(
    lambda scheme, host, path, query, fragment: (
        f"{scheme}://{host}/{'/'.join(path)}"
        + ("" if query is None else f"?{query}")
        + ("" if fragment is None else f"#{fragment}")
    ),
    st.sampled_from(("https", "http", "HTTPS")),
    st.sampled_from(("example.org", "docs.example.com:8443", "a_b.example.net")),
    st.lists(segments, max_size=4),
    st.none() | st.text(alphabet=PATH_CHARS + "/?", max_size=16),
    st.none() | st.text(alphabet=PATH_CHARS + "/?#", max_size=10),
)
ENTRY = "@misc{k,\n  title = {T},\n  year  = {2026},\n}\n"
TIMESTAMP = "20261203010203"


def read(address: str) -> str:
    """The address as a browser reads it."""
    return URL(address).href


def archive_of(url: str) -> str:
    return f"https://web.archive.org/web/{TIMESTAMP}/{url}"


def in_ris(url: str) -> str:
    return url.replace(";", "%3B")


@given(url=urls)
def test_an_address_written_comes_back_from_every_reader(url):
    copy = archive_of(url)
    text = set_fields(ENTRY, "k", {"url": url, "archiveurl": copy})
    assert not [p for p in check_bib_text(text, "references.bib") if p.severity != "note"]
    entry = parse_string(text, "bibtex").entries["k"]  # references.bib, as the build reads it
    fields = {name.lower(): value for name, value in entry.fields.items()}
    assert (read(fields["url"]), read(fields["archiveurl"])) == (read(url), read(copy))
    assert read(source_url(fields) or "") == read(url)  # the page's href
    archived = archived_copy(fields)
    assert archived is not None  # data-versionurl, the 存档 link and its data-originalurl
    assert (read(archived.url), read(archived.original)) == (read(copy), read(url))
    record = csl_record("k", entry)
    (csl,) = json.loads(csl_json([record]))
    assert read(csl["URL"]) == read(url)
    (ris,) = rispy.loads(ris_text([record]))
    assert [read(each) for each in ris["urls"]] == [read(in_ris(url))]
    document = json.loads(script_json({"citation": [schema_work(record)]}))
    assert read(document["citation"][0]["url"]) == read(url)


SEED_KEYS = ("taubench2026paper", "rise2026paper", "worldsculpt2026code", "spc2026release")
PAGE = "issues/2026/2026-09-08"


@pytest.mark.site
@settings(max_examples=2, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(addresses=st.lists(urls, min_size=len(SEED_KEYS), max_size=len(SEED_KEYS), unique=True))
def test_the_built_page_and_its_downloads_carry_each_address_as_written(
    tmp_path_factory, addresses
):
    base = tmp_path_factory.mktemp("urls")
    src = copy_site(base / "src")
    bib = src / "references.bib"
    text = bib.read_text(encoding="utf-8")
    for key, url in zip(SEED_KEYS, addresses, strict=True):
        text = set_fields(text, key, {"url": url, "archiveurl": archive_of(url)})
    bib.write_text(text, encoding="utf-8")
    outdir = base / "html"
    sphinx_build(src, outdir)
    expected = {read(url) for url in addresses}
    soup = BeautifulSoup((outdir / f"{PAGE}.html").read_text(encoding="utf-8"), "html.parser")
    links = soup.select("a.radar-source-link")
    assert expected <= {read(link["href"]) for link in links}
    for link in links:
        if read(link["href"]) in expected:
            assert read(link["data-versionurl"]) == read(archive_of(link["href"]))
    copies = soup.select("a.radar-archived")
    assert {read(copy["data-originalurl"]) for copy in copies} == expected
    assert {read(copy["href"]) for copy in copies} == {read(archive_of(u)) for u in addresses}
    assert expected <= {read(r["URL"]) for r in downloaded_csl(outdir) if "URL" in r}
    ris = rispy.loads((outdir / f"{PAGE}.ris").read_text(encoding="utf-8"))
    in_ris_urls = {read(url) for record in ris for url in record.get("urls", [])}
    assert {read(in_ris(url)) for url in addresses} <= in_ris_urls
    (script,) = soup.select('script[type="application/ld+json"]')
    cited = json.loads(script.string)["citation"]
    assert expected <= {read(work["url"]) for work in cited if "url" in work}


def downloaded_csl(outdir: Path) -> list[dict]:
    return json.loads((outdir / f"{PAGE}.csl.json").read_text(encoding="utf-8"))
