"""``radar refs``: missing → lookup → accept against fake services on 127.0.0.1, and the
built page linking the completed reference. No test touches the network."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from fake_services import FakeServices, Reply, closed_port, fake_services

from juju_radar.bib.check import scan_entries
from juju_radar.editors import cli
from juju_radar.editors.lookup.client import ARXIV_INTERVAL, Client, ServiceError, Settings

PAGE = "issues/2026/2026-09-08.html"
DOI = "10.5555/worldsculpt.2026"


def radar(root: Path, *args: str) -> int:
    return cli.main(["--root", str(root), *args])


@pytest.fixture
def services(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServices]:
    with fake_services() as fake:
        for name, value in fake.environment().items():
            monkeypatch.setenv(name, value)
        yield fake


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "src")


def entry_text(bib: str, key: str) -> tuple[int, int]:
    entry = next(entry for entry in scan_entries(bib) if entry.key == key)
    return entry.start, entry.end


def assert_only_entry_changed(before: str, after: str, key: str) -> str:
    """Every byte outside entry ``key`` is as it was; returns the entry's new text."""
    start, end = entry_text(before, key)
    assert after[:start] == before[:start]
    assert after.endswith(before[end:])
    return after[start : len(after) - len(before[end:])]


def test_missing_lists_entries_without_identifiers_with_the_items_citing_them(site, capsys):
    assert radar(site, "refs", "missing", "--format", "json") == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 8, "none of the seed's references has a DOI, arXiv id, URL or ISBN"
    row = next(row for row in rows if row["key"] == "worldsculpt2026paper")
    assert row["title"] == "WorldSculpt 论文"
    assert (row["path"], row["line"]) == ("references.bib", 25)
    source = (site / "issues/2026/2026-09-08.md").read_text(encoding="utf-8").splitlines()
    [citing] = row["cited_by"]
    assert citing["path"] == "issues/2026/2026-09-08.md"
    assert citing["item"] == "worldsculpt-object-scenes"
    assert "<worldsculpt2026paper>" in source[citing["line"] - 1], "the item's :sources: line"
    assert radar(site, "refs", "missing") == 0
    text = capsys.readouterr().out
    assert (
        "references.bib:25: worldsculpt2026paper: WorldSculpt 论文\n"
        f"    cited by issues/2026/2026-09-08.md:{citing['line']} (worldsculpt-object-scenes)\n"
    ) in text


def test_missing_lookup_accept_then_the_page_links_the_doi(
    site, services, tmp_path, capsys, monkeypatch
):
    services.routes = {
        "/crossref/works": Reply(fixture="crossref-worldsculpt.json"),
        "/arxiv/api/query": Reply(fixture="arxiv-worldsculpt.atom"),
    }
    bib_path = site / "references.bib"
    before = bib_path.read_text(encoding="utf-8")
    outdir = tmp_path / "html"
    sphinx_build(site, outdir)  # completed below, then built again (incrementally)
    soup = BeautifulSoup((outdir / PAGE).read_text(encoding="utf-8"), "html.parser")
    label = soup.select_one("#worldsculpt-object-scenes .radar-sources").find(
        "a", string="WorldSculpt 论文"
    )
    assert label["href"] == "#cite-worldsculpt2026paper", "no identifier yet: its entry"
    assert "待编辑补全" in soup.find(id="cite-worldsculpt2026paper").get_text()

    assert radar(site, "refs", "lookup", "worldsculpt2026paper", "--format", "json") == 0
    found = json.loads(capsys.readouterr().out)
    assert bib_path.read_text(encoding="utf-8") == before, "a lookup writes nothing"
    assert found["conclusive"] is True
    best = found["candidates"][0]
    assert best["number"] == 1 and best["source"] == "Crossref"
    assert best["title"] == "WorldSculpt: Object-Level Multi-View 3D Scene Generation with Pixal3D"
    assert best["authors"] == ["Zhou, Lin", "Chen, Mei"]
    assert (best["year"], best["container"]) == ("2026", "Journal of Synthetic Test Fixtures")
    assert (best["doi"], best["arxiv"]) == (DOI, "2609.01234"), "arXiv's record of the same work"
    assert "worldsculpt" in best["reason"]
    assert best["score"] > found["candidates"][1]["score"] + 0.3
    assert [c["doi"] for c in found["candidates"]] == [DOI, "10.5555/sculpting.2019"]
    crossref, arxiv = services.requests
    assert crossref.path == "/crossref/works"
    assert crossref.query["query.bibliographic"] == ["WorldSculpt 论文"]
    assert crossref.query["mailto"] == ["editors@example.org"]
    assert "mailto:editors@example.org" in crossref.headers["User-Agent"]
    assert arxiv.query["search_query"] == ["ti:worldsculpt"]

    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    assert radar(site, "refs", "accept", "worldsculpt2026paper", "1") == 0
    after = bib_path.read_text(encoding="utf-8")
    entry = assert_only_entry_changed(before, after, "worldsculpt2026paper")
    assert entry.startswith("@article{worldsculpt2026paper,\n  title = {WorldSculpt 论文},\n")
    for line in (
        f"  doi           = {{{DOI}}},",
        "  eprint        = {2609.01234},",
        "  archiveprefix = {arXiv},",
        "  author        = {Zhou, Lin and Chen, Mei},",
        "  year          = {2026},",
        "  journal       = {Journal of Synthetic Test Fixtures},",
        f"  radarsource   = {{Crossref {services.base}/crossref/works/{DOI} (",
    ):
        assert line in entry
    assert "urldate" in entry
    assert radar(site, "check") == 0

    sphinx_build(site, outdir)
    soup = BeautifulSoup((outdir / PAGE).read_text(encoding="utf-8"), "html.parser")
    item = soup.find(id="worldsculpt-object-scenes")
    sources = item.select_one(".radar-sources")
    label = sources.find("a", string="WorldSculpt 论文")
    assert label["href"] == f"https://doi.org/{DOI}", "the label leads to the paper"
    code = sources.find("a", string="项目代码")
    number = next(a for a in sources.select(".radar-citation a") if a.get_text() == "4")
    assert number["href"] == "#cite-worldsculpt2026paper", "the number leads to the entry"
    assert code["href"] == "#cite-worldsculpt2026code", "no identifier yet: its entry"
    entry_node = soup.find(id="cite-worldsculpt2026paper")
    text = entry_node.get_text("")
    assert f"DOI：{DOI}；arXiv 编号：2609.01234" in text
    assert entry_node.find("a", href=f"https://doi.org/{DOI}").get_text() == DOI
    assert entry_node.find("a", href="https://arxiv.org/abs/2609.01234") is not None
    assert "URL" not in text and "待编辑补全" not in text
    assert "待编辑补全" in soup.find(id="cite-worldsculpt2026code").get_text()
    on_references = entry_node.select_one(".radar-on-references-page a")
    assert on_references["href"] == "../../references/2026-09.html#cite-worldsculpt2026paper"
    assert on_references.get_text() == "在参考文献页查看（被 1 条引用）"
    references = BeautifulSoup(
        (outdir / "references/2026-09.html").read_text(encoding="utf-8"), "html.parser"
    ).find(id="cite-worldsculpt2026paper")
    assert references.find("a", href=f"https://doi.org/{DOI}") is not None
    assert references.select_one(".radar-cited-by-label").get_text() == "被 1 条引用："
    # What reference managers read carries the identifiers too.
    cited = [tag["content"] for tag in soup.find_all("meta", attrs={"name": "citation_reference"})]
    assert any(f"citation_doi={DOI}" in value for value in cited), cited
    page = outdir / PAGE
    ris = page.with_suffix(".ris").read_text(encoding="utf-8")
    assert f"DO  - {DOI}" in ris
    records = json.loads(page.with_suffix(".csl.json").read_text(encoding="utf-8"))
    assert any(record.get("DOI") == DOI for record in records)


def test_an_inconclusive_lookup_and_a_refused_accept_write_nothing(
    site, services, capsys, monkeypatch
):
    services.routes = {
        "/crossref/works": Reply(fixture="crossref-rise.json"),
        "/arxiv/api/query": Reply(fixture="arxiv-empty.atom"),
    }
    bib = (site / "references.bib").read_bytes()
    assert radar(site, "refs", "lookup", "rise2026paper") == 0
    out = capsys.readouterr().out
    assert "inconclusive: candidates 1 and 2 score" in out
    assert "1. [" in out and "2. [" in out and "DOI 10.5555/rise.2026" in out
    assert (site / "references.bib").read_bytes() == bib
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert radar(site, "refs", "accept", "rise2026paper", "1") == 1
    assert (site / "references.bib").read_bytes() == bib
    assert radar(site, "refs", "accept", "rise2026paper", "3") == 2
    assert (site / "references.bib").read_bytes() == bib


@pytest.mark.parametrize(
    ("routes", "message"),
    [
        ({}, "cannot reach Crossref"),
        ({"/crossref/works": Reply(503, body=b"busy")}, "Crossref answered HTTP 503"),
        ({"/crossref/works": Reply(body=b"{not json")}, "Crossref's answer is not valid JSON"),
        ({"/crossref/works": Reply(body=b'{"status": "ok"}')}, "not a works list"),
        (
            {
                "/crossref/works": Reply(fixture="crossref-rise.json"),
                "/arxiv/api/query": Reply(
                    body=b"<feed><entry>", content_type="application/atom+xml"
                ),
            },
            "arXiv's answer cannot be read as Atom",
        ),
    ],
)
def test_a_service_down_or_broken_gives_one_line_and_writes_nothing(
    site, services, capsys, monkeypatch, routes, message
):
    services.routes = routes
    if not routes:
        monkeypatch.setenv("RADAR_CROSSREF_URL", f"http://127.0.0.1:{closed_port()}/crossref")
    bib = (site / "references.bib").read_bytes()
    assert radar(site, "refs", "lookup", "rise2026paper") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert line.startswith("radar refs: error: lookup of 'rise2026paper' failed: ")
    assert message in line and line.endswith("nothing was written")
    assert (site / "references.bib").read_bytes() == bib
    assert radar(site, "refs", "accept", "rise2026paper", "1", "--yes") == 1, "nothing saved"
    assert (site / "references.bib").read_bytes() == bib
    if routes.get("/crossref/works", Reply()).status == 503:
        assert len(services.requests) == 2, "retried once (RADAR_HTTP_RETRIES=1)"


def test_an_entry_with_a_doi_is_fetched_from_doi_org_as_csl_json(site, services, capsys):
    services.routes = {f"/doi/{DOI}": Reply(fixture="csl-worldsculpt.json")}
    assert (
        radar(site, "refs", "set", "worldsculpt2026paper", "--doi", f"https://doi.org/{DOI}") == 0
    )
    assert f"  doi     = {{{DOI}}}," in (site / "references.bib").read_text(encoding="utf-8")
    capsys.readouterr()
    assert radar(site, "refs", "lookup", "worldsculpt2026paper", "--format", "json") == 0
    found = json.loads(capsys.readouterr().out)
    [request] = services.requests
    assert request.headers["Accept"] == "application/vnd.citationstyles.csl+json"
    [candidate] = found["candidates"]
    assert candidate["source"] == "doi.org" and candidate["score"] == 1.0
    assert candidate["reason"] == "the record of the entry's own DOI"
    assert candidate["type"] == "article-journal" and candidate["url"] is None


def test_an_arxiv_id_is_looked_up_in_the_arxiv_api(site, services, capsys):
    services.routes = {"/arxiv/api/query": Reply(fixture="arxiv-worldsculpt.atom")}
    assert radar(site, "refs", "set", "worldsculpt2026paper", "--arxiv", "arXiv:2609.01234") == 0
    capsys.readouterr()
    assert radar(site, "refs", "lookup", "worldsculpt2026paper", "--format", "json") == 0
    found = json.loads(capsys.readouterr().out)
    [request] = services.requests
    assert request.query["id_list"] == ["2609.01234"]
    [candidate] = found["candidates"]
    assert (candidate["source"], candidate["arxiv"], candidate["score"]) == (
        "arXiv",
        "2609.01234",
        1.0,
    )
    assert candidate["authors"] == ["Lin Zhou", "Mei Chen"], "names as arXiv gives them"


def test_set_refuses_what_is_not_an_identifier(site, capsys):
    bib = (site / "references.bib").read_bytes()
    assert radar(site, "refs", "set", "rise2026paper", "--doi", "not-a-doi") == 2
    assert radar(site, "refs", "set", "rise2026paper", "--url", "javascript:alert(1)") == 2
    assert radar(site, "refs", "set", "nosuchkey", "--url", "https://example.org/") == 1
    assert (site / "references.bib").read_bytes() == bib


def test_editing_keeps_line_endings_and_the_byte_order_mark(site, capsys):
    path = site / "references.bib"
    before = b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes(before)
    assert radar(site, "refs", "set", "rise2026paper", "--url", "https://example.org/rise") == 0
    after = path.read_bytes()
    start = before.index(b"@misc{rise2026paper")
    end = before.index(b"@misc{worldsculpt2026paper")
    assert after[:start] == before[:start] and after.endswith(before[end:])
    assert b"  url     = {https://example.org/rise},\r\n" in after


def test_retries_back_off_and_arxiv_gets_one_request_every_three_seconds():
    with fake_services() as fake:
        fake.routes = {"/busy": Reply(503), "/arxiv": Reply(fixture="arxiv-empty.atom")}
        now = [100.0]
        slept: list[float] = []

        def sleep(seconds: float) -> None:
            slept.append(seconds)
            now[0] += seconds

        settings = Settings(retries=2, backoff=0.5, timeout=5)
        with Client(settings, sleep=sleep, clock=lambda: now[0]) as client:
            with pytest.raises(ServiceError, match=r"^Crossref answered HTTP 503 \("):
                client.get("Crossref", f"{fake.base}/busy")
            assert slept == [0.5, 1.0] and len(fake.requests) == 3
            slept.clear()
            client.get("arXiv", f"{fake.base}/arxiv")
            now[0] += 1.0
            client.get("arXiv", f"{fake.base}/arxiv")
            assert slept == [pytest.approx(ARXIV_INTERVAL - 1.0)]


def test_settings_come_from_the_environment_and_conf_py():
    settings = Settings.from_environment({"radar_contact_email": "conf@example.org"}, {})
    assert settings.crossref_url == "https://api.crossref.org"
    assert settings.arxiv_url == "https://export.arxiv.org/api"
    assert settings.doi_url == "https://doi.org"
    assert settings.contact_email == "conf@example.org"
    mirrored = Settings.from_environment(
        {"radar_contact_email": "conf@example.org"},
        {"RADAR_CROSSREF_URL": "http://mirror/cr", "RADAR_CONTACT_EMAIL": "env@example.org"},
    )
    assert (mirrored.crossref_url, mirrored.contact_email) == (
        "http://mirror/cr",
        "env@example.org",
    )
