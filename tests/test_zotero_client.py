"""An issue page and a story's page as Zotero saves them: Zotero's own translation-server, with the
translators, run here on the built page (``make test-clients``).

``tests/clients/zotero/setup.sh`` assembles translation-server and zotero/translators at
the commits it pins, from clones named by ``ZOTERO_MIRRORS`` (or from GitHub when that is
unset), and installs its npm dependencies; it needs git, node and npm. The site and
translation-server both listen on 127.0.0.1 only, and translation-server is given a proxy
that goes nowhere for any other address, so the test reads nothing from the network.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import site_with_root, sphinx_build
from pybtex.database import parse_string

from juju_radar.bib import cite_this
from juju_radar.bib.exchange import CSL_TYPES, csl_json, csl_record, ris_text
from juju_radar.model.license import License

pytestmark = pytest.mark.clients

SETUP = Path(__file__).resolve().parent / "clients" / "zotero" / "setup.sh"
PAGE = "issues/2026/2026-09-08.html"
TITLE = "让 AI 造一个客服，难在代码之外"
ORGANISATION = "Juju Radar"
# Where a request to any host but 127.0.0.1 would go: a port nothing listens on.
NOWHERE = "http://127.0.0.1:9"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass(frozen=True)
class Site:
    address: str  # ends with "/"
    outdir: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    """The fixture site, built for and served at its own address on 127.0.0.1."""
    base = tmp_path_factory.mktemp("zotero-site")
    outdir = base / "html"
    handler = functools.partial(QuietHandler, directory=str(outdir))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        address = f"http://127.0.0.1:{server.server_address[1]}/"
        srcdir = site_with_root("completed-refs", base / "src")
        sphinx_build(srcdir, outdir, "-D", f"radar_site_url={address}")
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield Site(address, outdir)
        server.shutdown()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def translation_server(tmp_path_factory) -> Iterator[str]:
    """Zotero's translation-server on 127.0.0.1; its address."""
    for tool in ("git", "node", "npm"):
        assert shutil.which(tool), f"{tool} is not installed ({SETUP.name} needs it)"
    setup = subprocess.run(["bash", str(SETUP)], capture_output=True, text=True)
    if setup.returncode != 0:
        pytest.fail(
            f"{SETUP} failed (set ZOTERO_MIRRORS to a folder of clones of the zotero "
            f"repositories it names, or give it GitHub):\n{setup.stderr[-3000:]}"
        )
    folder = setup.stdout.strip().splitlines()[-1]
    port = free_port()
    env = {
        **os.environ,
        "NODE_CONFIG": json.dumps({"host": "127.0.0.1", "port": port}),
        **dict.fromkeys(("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"), NOWHERE),
        "NO_PROXY": "127.0.0.1",
        "no_proxy": "127.0.0.1",
    }
    log = tmp_path_factory.mktemp("translation-server") / "server.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            ["node", "src/server.js"], cwd=folder, env=env, stdout=output, stderr=output
        )
    try:
        wait_for(port, server, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_for(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    """Until translation-server answers on ``port`` (it loads the translators first)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"translation-server stopped:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"translation-server did not listen within 120 s:\n{log.read_text()[-3000:]}")


def translate(translation_server: str, endpoint: str, text: str) -> list[dict[str, Any]]:
    """The items translation-server's ``endpoint`` makes of ``text``."""
    request = urllib.request.Request(
        f"{translation_server}/{endpoint}",
        data=text.encode(),
        headers={"Content-Type": "text/plain"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        items: list[dict[str, Any]] = json.load(response)
    return items


def save(translation_server: str, url: str) -> list[dict[str, Any]]:
    """The items Zotero makes of the page at ``url`` (``POST /web``)."""
    return translate(translation_server, "web", url)


def whole_name(creator: dict[str, str]) -> str | None:
    """A creator's name when Zotero keeps it whole (one field, or a family name with no
    given name); None when it has split it into given and family names."""
    if "name" in creator:
        return creator["name"]
    return None if creator.get("firstName") else creator.get("lastName")


def test_an_issue_is_one_newspaper_article_by_the_organisation(site, translation_server):
    url = f"{site.address}{PAGE}"
    (item,) = save(translation_server, url)
    assert item["itemType"] == "newspaperArticle"
    assert len(item["creators"]) == 1, item["creators"]
    (creator,) = item["creators"]
    assert creator["creatorType"] == "author"
    assert whole_name(creator) == ORGANISATION, creator
    assert item["title"] == TITLE
    assert item["publicationTitle"] == ORGANISATION
    assert item["date"].replace("/", "-") == "2026-09-08"
    assert item["language"] == "zh-CN"
    assert item["url"] == url


STORY_PAGE = "issues/2026/2026-09-08/rise-self-extrapolation.html"
STORY_TITLE = "RISE：沿着刚刚学会的方向，再往前走一点"


def test_a_story_is_saved_from_its_page_with_its_own_title(site, translation_server):
    """The story's page (``sphinx_ext/outputs/story_pages.py``) describes the story, the
    newsletter as its container: Zotero saves the story, not the issue."""
    url = f"{site.address}{STORY_PAGE}"
    (item,) = save(translation_server, url)
    assert item["title"] == STORY_TITLE
    assert item["itemType"] == "newspaperArticle"
    assert [whole_name(creator) for creator in item["creators"]] == [ORGANISATION]
    assert item["publicationTitle"] == ORGANISATION
    assert item["date"].replace("/", "-") == "2026-09-08"
    assert item["url"] == url


def test_without_its_trailing_comma_the_organisation_becomes_a_person(site, translation_server):
    """Why the page's ``citation_author`` is ``Juju Radar,``: the same page without the
    comma comes back as a person, given name "Juju", family name "Radar". If a newer
    translator keeps the name whole, ``ORGANISATION_AS_AUTHOR`` can lose its comma."""
    page = (site.outdir / PAGE).read_text(encoding="utf-8")
    tag = f'<meta name="citation_author" content="{ORGANISATION},"'
    assert page.count(tag) == 1
    without = page.replace(tag, f'<meta name="citation_author" content="{ORGANISATION}"')
    (site.outdir / "without-comma.html").write_text(without, encoding="utf-8")
    (item,) = save(translation_server, f"{site.address}without-comma.html")
    assert item["creators"] == [{"firstName": "Juju", "lastName": "Radar", "creatorType": "author"}]


def import_text(translation_server: str, text: str) -> list[dict[str, Any]]:
    """The items Zotero's import makes of a file's text (``POST /import``: RIS, CSL-JSON
    or BibTeX, each found by its translator's detectImport)."""
    return translate(translation_server, "import", text)


# Every kind of entry that states a DOI and that the downloads once wrote as a type
# Zotero imports without one (RIS ELEC/MANSCPT, CSL webpage/document).
WITH_DOI = """
@misc{webpage, title={A web page}, url={https://example.org/a}, doi={10.5555/misc.url}}
@misc{document, title={A document}, doi={10.5555/misc.only}}
@online{online, title={Online}, url={https://example.org/b}, doi={10.5555/online}}
@misc{preprint, title={A preprint}, eprint={2609.00001}, archiveprefix={arXiv},
  doi={10.48550/arXiv.2609.00001}}
@article{journal, title={A paper}, journal={J}, doi={10.5555/journal}}
"""


@pytest.mark.parametrize("write", [ris_text, csl_json], ids=["ris", "csl-json"])
def test_zotero_keeps_the_doi_of_every_entry_that_states_one(translation_server, write):
    entries = parse_string(WITH_DOI, "bibtex").entries
    records = [csl_record(key, entry) for key, entry in entries.items()]
    items = import_text(translation_server, write(records))
    assert [item["title"] for item in items] == [record["title"] for record in records]
    assert [item.get("DOI") for item in items] == [record["DOI"] for record in records]


# One entry with a DOI of every BibTeX type the downloads give a CSL type of its own
# (exchange.CSL_TYPES), and of none: Zotero gives only some of them a DOI field.
EVERY_TYPE_WITH_DOI = "\n".join(
    f"@{kind}{{{kind}, title={{A {kind}}}, doi={{10.5555/{kind}}}}}"
    for kind in [*CSL_TYPES, "misc", "manual"]
)


def kept_doi(item: dict[str, Any]) -> str | None:
    """The DOI a Zotero item keeps: its DOI field, or a "DOI: …" line of its Extra (where
    Zotero keeps it for an item type without the field, and its citations read it)."""
    extra = re.findall(r"^DOI: (\S+)$", item.get("extra", ""), re.MULTILINE)
    return item.get("DOI") or (extra[0] if extra else None)


@pytest.mark.parametrize("write", [ris_text, csl_json], ids=["ris", "csl-json"])
def test_zotero_keeps_the_doi_of_every_type_of_entry(translation_server, write):
    """A book, chapter, report, thesis or program keeps its type and its DOI (in Extra);
    a program does not make Zotero refuse the whole CSL-JSON file."""
    entries = parse_string(EVERY_TYPE_WITH_DOI, "bibtex").entries
    records = [csl_record(key, entry) for key, entry in entries.items()]
    items = [
        item
        for item in import_text(translation_server, write(records))
        if item["itemType"] != "note"
    ]
    assert [item["title"] for item in items] == [record["title"] for record in records]
    assert [kept_doi(item) for item in items] == [record["DOI"] for record in records]
    kinds = dict(zip(entries, (item["itemType"] for item in items), strict=True))
    assert kinds["book"] == "book" and kinds["techreport"] == "report", kinds
    assert kinds["phdthesis"] == "thesis" and kinds["incollection"] == "bookSection", kinds


@pytest.mark.parametrize("write", [ris_text, csl_json], ids=["ris", "csl-json"])
def test_a_program_stating_its_version_is_one_to_zotero(translation_server, write):
    entry = parse_string(
        "@software{s, title={S}, version={1.2}, doi={10.5555/s}, note={A note.}}", "bibtex"
    ).entries["s"]
    (item,) = [
        item
        for item in import_text(translation_server, write([csl_record("s", entry)]))
        if item["itemType"] != "note"  # RIS's N1 is a child note
    ]
    assert item["itemType"] == "computerProgram"
    assert item["versionNumber"] == "1.2"
    assert kept_doi(item) == "10.5555/s"


def test_zotero_keeps_the_dois_of_an_issues_downloads(site, translation_server):
    records = json.loads((site.outdir / PAGE.replace(".html", ".csl.json")).read_text("utf-8"))
    dois = [record["DOI"] for record in records if "DOI" in record]
    assert dois  # the fixture cites a preprint with a DOI
    for suffix in (".ris", ".csl.json"):
        text = (site.outdir / PAGE.replace(".html", suffix)).read_text(encoding="utf-8")
        items = import_text(translation_server, text)
        assert [item["DOI"] for item in items if "DOI" in item] == dois, suffix


def test_zotero_reads_the_licence_of_the_cite_downloads_as_rights(translation_server):
    """BibTeX ``copyright`` and RIS ``CR`` are Zotero's Rights (docs/reference/site.md)."""
    license = License("CC-BY-4.0", "https://creativecommons.org/licenses/by/4.0/")
    work = cite_this.ArchiveWork(
        "k", "一期", dt.date(2026, 9, 8), "Juju Radar", "https://a.example/"
    )
    rights = f"{license.spdx} {license.url}"
    bibtex = cite_this.bibtex(work, None, license)
    ris = ris_text([cite_this.csl_record(work, license)])
    for text in (bibtex, ris):
        (item,) = import_text(translation_server, text)
        assert item["rights"] == rights, text


ADDRESSES = """
@misc{pdf, title={A preprint cited by its PDF}, url={https://arxiv.org/pdf/2609.01234v2},
  eprint={2609.01234v2}, archiveprefix={arXiv}}
@misc{semicolon, title={A page}, url={https://a.example/x;y?q=1;2}}
"""


@pytest.mark.parametrize(
    ("write", "semicolon"),
    [(ris_text, "https://a.example/x%3By?q=1%3B2"), (csl_json, "https://a.example/x;y?q=1;2")],
    ids=["ris", "csl-json"],
)
def test_zotero_keeps_one_address_and_an_arxiv_entrys_abstract_page(
    translation_server, write, semicolon
):
    """Issue 56's smaller defects as Zotero's import reads them: an arXiv entry cited by
    its PDF is its abstract page; an address with ``;`` is one address (rispy split RIS
    ``UR`` at ``;``, so there it is ``%3B``, which Zotero keeps as written; Zotero itself
    did not split it)."""
    entries = parse_string(ADDRESSES, "bibtex").entries
    items = import_text(translation_server, write([csl_record(k, e) for k, e in entries.items()]))
    assert [item["url"] for item in items] == ["https://arxiv.org/abs/2609.01234v2", semicolon]


def test_zotero_reads_the_language_of_the_cite_ris(site, translation_server):
    text = (site.outdir / PAGE.replace(".html", ".cite.ris")).read_text(encoding="utf-8")
    items = import_text(translation_server, text)
    assert items and {item.get("language") for item in items} == {"zh-CN"}


# The fixture's references given other types, each with a DOI (10.5555: the prefix kept
# for examples), so that the issue's own downloads hold every kind Zotero treats apart.
RETYPED = {
    "taubench2026paper": "techreport",
    "taubench2026code": "software",
    "worldsculpt2026paper": "phdthesis",
    "worldsculpt2026code": "online",
    "rentosertib2026natbiotech": "article",
    "spc2026release": "book",
    "spc2026opinion": "incollection",
}


@pytest.fixture(scope="module")
def retyped_site(tmp_path_factory) -> Path:
    """The fixture site built with :data:`RETYPED`; its output."""
    base = tmp_path_factory.mktemp("zotero-types")
    srcdir = site_with_root("completed-refs", base / "src")
    bib = srcdir / "references.bib"
    text = bib.read_text(encoding="utf-8")
    for key, kind in RETYPED.items():
        start = re.search(rf"@\w+\{{{key},\n", text)
        assert start, key
        opening = f"@{kind}{{{key},\n  doi = {{10.5555/radar-test.{key}}},\n"
        text = text[: start.start()] + opening + text[start.end() :]
    bib.write_text(text, encoding="utf-8")
    sphinx_build(srcdir, base / "html", "-D", "radar_site_url=https://radar.example/")
    return base / "html"


@pytest.mark.parametrize("suffix", [".ris", ".csl.json"])
def test_zotero_keeps_every_doi_of_the_downloads_of_every_type(
    retyped_site, translation_server, suffix
):
    records = json.loads((retyped_site / PAGE.replace(".html", ".csl.json")).read_text("utf-8"))
    assert {record["type"] for record in records} >= {"report", "book", "thesis", "chapter"}
    text = (retyped_site / PAGE.replace(".html", suffix)).read_text(encoding="utf-8")
    items = [item for item in import_text(translation_server, text) if item["itemType"] != "note"]
    assert [item["title"] for item in items] == [record["title"] for record in records]
    assert [kept_doi(item) for item in items] == [record.get("DOI") for record in records]
