"""``radar refs``: missing → lookup → accept against fake services on 127.0.0.1, and the
built page linking the completed reference. No test touches the network."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import rispy
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from fake_services import FakeServices, Reply, closed_port, fake_services
from pybtex.database import parse_file, parse_string

from juju_radar.bib.edit import find_entry, set_fields
from juju_radar.bib.file_entries import scan_entries
from juju_radar.editors import cli
from juju_radar.editors.exit_status import EXIT_CLOSED_PIPE
from juju_radar.editors.lookup.client import ARXIV_INTERVAL, Client, ServiceError, Settings
from juju_radar.editors.refs_accept import title_fields

PAGE = "issues/2026/2026-09-08.html"
DOI = "10.5555/worldsculpt.2026"
TITLE = "WorldSculpt: Object-Level Multi-View 3D Scene Generation with Pixal3D"
LABEL = "WorldSculpt 论文"
ENGLISH = "WorldSculpt: Object-Level Multi-View 3D Scene Generation"


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


@pytest.mark.site
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
    assert "原文未附链接" in soup.find(id="cite-worldsculpt2026paper").get_text()

    assert radar(site, "refs", "lookup", "worldsculpt2026paper", "--format", "json") == 0
    found = json.loads(capsys.readouterr().out)
    assert bib_path.read_text(encoding="utf-8") == before, "a lookup writes nothing"
    # The best by far, but on one name ("WorldSculpt") and no identifier: not conclusive.
    assert found["conclusive"] is False
    assert found["why"].startswith("candidate 1 has no identifier of the entry's and shares 1 ")
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
    # The entry's own names are padded to the longest added one ("archiveprefix").
    assert entry.startswith(f"@article{{worldsculpt2026paper,\n  title         = {{{TITLE}}},\n")
    for line in (
        "  radarlabel    = {WorldSculpt 论文},",
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
    label = sources.find("a", string=LABEL)  # the editors' label, from the page, not the .bib
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
    assert "URL" not in text and "原文未附链接" not in text
    assert TITLE in text and LABEL not in text, "the work's own title, not the editors' label"
    assert "原文未附链接" in soup.find(id="cite-worldsculpt2026code").get_text()
    on_references = entry_node.select_one(".radar-on-references-page a")
    assert on_references["href"] == "../../references/2026-09.html#cite-worldsculpt2026paper"
    assert on_references.get_text() == "在参考文献页查看（被 1 条引用）"
    references = BeautifulSoup(
        (outdir / "references/2026-09.html").read_text(encoding="utf-8"), "html.parser"
    ).find(id="cite-worldsculpt2026paper")
    assert references.find("a", href=f"https://doi.org/{DOI}") is not None
    assert TITLE in references.get_text("") and LABEL not in references.get_text("")
    assert references.select_one(".radar-cited-by-label").get_text() == "被 1 条引用："
    # What reference managers read carries the identifiers too.
    cited = [tag["content"] for tag in soup.find_all("meta", attrs={"name": "citation_reference"})]
    [completed] = [value for value in cited if f"citation_doi={DOI}" in value]
    assert completed.startswith(f"citation_title={TITLE}; ")
    assert not any(LABEL in value for value in cited)
    page = outdir / PAGE
    [ris] = [r for r in rispy.loads(page.with_suffix(".ris").read_text("utf-8")) if r.get("doi")]
    assert (ris["doi"], ris["title"]) == (DOI, TITLE)
    records = json.loads(page.with_suffix(".csl.json").read_text(encoding="utf-8"))
    [record] = [record for record in records if record.get("DOI") == DOI]
    assert record["title"] == TITLE
    download = parse_string(page.with_suffix(".bib").read_text("utf-8"), "bibtex")
    fields = download.entries["worldsculpt2026paper"].fields
    assert (fields["title"], fields["doi"]) == (f"{{{TITLE}}}", DOI)  # protected whole
    assert not {"radarlabel", "radarnote", "radarsource"} & {name.lower() for name in fields}


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


def test_a_rewrite_of_references_bib_keeps_the_former_file_and_shows_the_difference(site, capsys):
    """Issue 52: nothing an editor wrote is lost, references.bib included."""
    before = (site / "references.bib").read_text(encoding="utf-8")
    capsys.readouterr()
    assert radar(site, "refs", "set", "worldsculpt2026paper", "--arxiv", "arXiv:2609.01234") == 0
    out = capsys.readouterr().out
    [kept] = (site / "_build" / "replaced").glob("*/references.bib")
    assert kept.read_text(encoding="utf-8") == before
    assert "references.bib: replaced; its former text is kept in _build/replaced/" in out
    assert "+  eprint" in out or "+  archiveprefix" in out.lower(), out


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

        settings = Settings(retries=2, backoff=0.5, timeout=120, network=fake.network_rule())
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
    assert settings.network.trusted == frozenset()
    trusting = Settings.from_environment(
        {"radar_trusted_hosts": ["Mirror.Intranet.", "[::1]"]},
        {"RADAR_TRUSTED_HOSTS": "cr.intranet, 10.0.0.5"},
    )
    assert trusting.network.trusted == {"mirror.intranet", "::1", "cr.intranet", "10.0.0.5"}


# --- refs complete --------------------------------------------------------------------------

EXPORT_0909 = Path(__file__).parent / "fixtures" / "export" / "2026-09-09.txt"
WALK_0909 = ["contamscope-1", "contamscope-2", "contamscope-3", "agent-1"]


@pytest.fixture
def quick_arxiv(monkeypatch: pytest.MonkeyPatch) -> None:
    """No three-second pause between the fake arXiv's answers."""
    monkeypatch.setattr("juju_radar.editors.lookup.client.ARXIV_INTERVAL", 0.0)


def answer(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def bib_fields(site: Path) -> dict[str, dict[str, str]]:
    entries = parse_file(site / "references.bib", "bibtex").entries
    return {key: {**entry.fields, "type": entry.type} for key, entry in entries.items()}


def walked(out: str) -> list[str]:
    """The keys of the entries shown, in order (``references.bib:LINE: KEY: TITLE``)."""
    return re.findall(r"^references\.bib:\d+: ([^:]+): ", out, re.MULTILINE)


@pytest.mark.site
def test_complete_walks_the_newest_issue_first_and_writes_each_answer(
    site, services, quick_arxiv, capsys, monkeypatch
):
    services.routes = {
        "/crossref/works": Reply(fixture="crossref-worldsculpt.json"),
        "/arxiv/api/query": Reply(fixture="arxiv-empty.atom"),
    }
    assert radar(site, "import", str(EXPORT_0909)) == 0  # a newer issue than the seed's
    before = bib_fields(site)
    capsys.readouterr()
    answer(monkeypatch, "hello", "7", "s", "2", "arXiv:2609.04321", "q")
    assert radar(site, "refs", "complete") == 0
    out, err = capsys.readouterr()
    assert walked(out) == WALK_0909, "the 2026-09-09 issue's entries, in file order, first"
    assert "cited by issues/2026/2026-09-09.md:18 (contamscope)" in out
    assert "not an answer: 'hello'" in out and "not an answer: '7'" in out
    assert out.count("1-2 accept, s skip, q quit, or a DOI, arXiv id or URL: ") == 6
    assert err.strip().endswith(
        "radar refs complete: 1 accepted, 1 set by hand, 1 skipped, 0 failed, 11 left"
    )
    after = bib_fields(site)
    assert "doi" not in after["contamscope-1"], "skipped"
    accepted = after["contamscope-2"]
    assert (accepted["doi"], accepted["type"]) == ("10.5555/sculpting.2019", "misc")
    assert accepted["title"] == "Sculpting Worlds: Procedural Terrain for Games"
    assert accepted["radarlabel"] == before["contamscope-2"]["title"]
    assert after["contamscope-3"]["eprint"] == "2609.04321"
    assert after["contamscope-3"]["title"] == before["contamscope-3"]["title"], "set: no title"
    unchanged = set(before) - {"contamscope-2", "contamscope-3"}
    assert {key: after[key] for key in unchanged} == {key: before[key] for key in unchanged}
    assert radar(site, "check") == 0
    capsys.readouterr()

    answer(monkeypatch, "q")
    assert radar(site, "refs", "complete") == 0
    out, err = capsys.readouterr()
    assert walked(out) == ["agent-1"], "resumes: completed and skipped entries left out"
    assert "1 skipped before, left out (`--revisit` walks them too" in err
    answer(monkeypatch, "q")
    assert radar(site, "refs", "complete", "--revisit", "--since", "2026-09-09") == 0
    out, err = capsys.readouterr()
    assert walked(out) == ["contamscope-1"]
    assert err.strip().endswith("0 failed, 4 left"), "only the entries cited since 2026-09-09"


def test_complete_accepts_a_conclusive_match_without_asking(
    site, services, quick_arxiv, capsys, monkeypatch
):
    services.routes = {
        "/crossref/works": Reply(fixture="crossref-worldsculpt.json"),
        "/arxiv/api/query": Reply(fixture="arxiv-worldsculpt.atom"),
    }
    # A title of enough words to match on (the editors' "WorldSculpt 论文" is one name).
    bib = site / "references.bib"
    bib.write_text(
        set_fields(bib.read_text(encoding="utf-8"), "worldsculpt2026paper", {"title": ENGLISH}),
        encoding="utf-8",
    )
    before = bib.read_text(encoding="utf-8")
    answer(monkeypatch)  # nothing to read: the end of the input stops the walk
    keys = ("worldsculpt2026paper", "rise2026paper", "spc2026release")
    assert radar(site, "refs", "complete", *keys, "--yes-conclusive") == 0
    out, err = capsys.readouterr()
    assert walked(out) == ["worldsculpt2026paper", "rise2026paper"]
    assert "best match: candidate 1 scores" in out
    assert "conclusive: accepting candidate 1" in out
    assert "inconclusive: " in out and out.count("s skip, q quit") == 1, "rise: asked"
    assert err.strip().endswith(
        "radar refs complete: 1 accepted, 0 set by hand, 0 skipped, 0 failed, 2 left"
    )
    after = (site / "references.bib").read_text(encoding="utf-8")
    assert_only_entry_changed(before, after, "worldsculpt2026paper")
    entry = bib_fields(site)["worldsculpt2026paper"]
    assert (entry["title"], entry["radarlabel"]) == (TITLE, ENGLISH)
    assert (entry["doi"], entry["eprint"], entry["type"]) == (DOI, "2609.01234", "article")


def test_complete_stops_at_a_failing_service_and_refuses_unknown_keys(
    site, services, capsys, monkeypatch
):
    monkeypatch.setenv("RADAR_CROSSREF_URL", f"http://127.0.0.1:{closed_port()}/crossref")
    bib = (site / "references.bib").read_bytes()
    answer(monkeypatch, "1")
    assert radar(site, "refs", "complete", "spc2026release", "spc2026opinion") == 1
    out, err = capsys.readouterr()
    assert walked(out) == ["spc2026release"]
    assert "radar refs: error: lookup of 'spc2026release' failed: cannot reach Crossref" in err
    assert err.strip().endswith("0 skipped, 1 failed, 1 left")
    assert radar(site, "refs", "complete", "spc2026release", "nosuchkey") == 1
    assert "error: references.bib: no entry 'nosuchkey' in the bibliography" in (
        capsys.readouterr().err
    )
    assert radar(site, "refs", "set", "rise2026paper", "--url", "https://example.org/rise") == 0
    bib = (site / "references.bib").read_bytes()
    capsys.readouterr()
    assert radar(site, "refs", "complete", "rise2026paper") == 0
    out, err = capsys.readouterr()
    assert walked(out) == [] and "references.bib:20: 'rise2026paper' has a DOI" in err
    assert (site / "references.bib").read_bytes() == bib


def test_accept_keeps_the_editors_first_label_and_adds_none_for_the_same_title():
    imported = find_entry("@misc{k,\n  title = {技术报告（小模型的数据配比）},\n}\n", "k")
    assert title_fields(imported, "Data Mixing for Small Models") == {
        "title": "Data Mixing for Small Models",
        "radarlabel": "技术报告（小模型的数据配比）",
    }
    accepted = find_entry(
        "@misc{k,\n  title = {Data Mixing},\n  radarlabel = {技术报告（小模型的数据配比）},\n}\n",
        "k",
    )
    assert title_fields(accepted, "Data Mixing for Small Models, v2") == {
        "title": "Data Mixing for Small Models, v2"
    }
    assert title_fields(accepted, "Data Mixing") == {}


def test_a_closed_pipe_stops_radar_quietly(site: Path) -> None:
    """``radar refs missing | head -1``: the reader has gone before radar writes (its end
    of a real pipe is closed first), and radar stops with 141 and no traceback."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "juju_radar", "--root", str(site), "refs", "missing"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (EXIT_CLOSED_PIPE, "")
