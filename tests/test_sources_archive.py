"""Sources kept against link rot: `radar refs archive` against a fake Save Page Now on
127.0.0.1, and the page's Robust Links attributes and "存档" link."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from fake_services import FAKES_HOST, fake_names, serving
from pybtex.database import parse_string

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.edit import set_fields
from juju_radar.editors import cli

TIMESTAMP = "20261203010203"
ARCHIVE_HOST = "archive.test"
"""The fake archive's name, resolved to 127.0.0.1 by a fake resolver: its snapshots'
addresses go into references.bib, where 127.0.0.1 is refused."""
REFUSED_URL = "https://example.org/refused"


class FakeArchive:
    def __init__(self) -> None:
        self.port = 0
        self.saves: list[tuple[str, float]] = []  # url, when
        self.polls: dict[str, int] = {}
        self.lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://{ARCHIVE_HOST}:{self.port}"


@pytest.fixture
def archive() -> Iterator[FakeArchive]:
    fake = FakeArchive()

    class Handler(BaseHTTPRequestHandler):
        def reply(self, answer: dict) -> None:
            body = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:  # noqa: N802 - the standard library's name
            length = int(self.headers.get("Content-Length", 0))
            url = parse_qs(self.rfile.read(length).decode())["url"][0]
            with fake.lock:
                fake.saves.append((url, time.monotonic()))
                job = f"spn2-{len(fake.saves)}"
            if url == REFUSED_URL:
                self.reply({"message": "This host is excluded from the Wayback Machine."})
            else:
                # Recorded before the answer: the client polls the moment it has it.
                fake.polls[job] = 0
                fake.polls[f"{job}-url"] = url  # type: ignore[assignment]
                self.reply({"url": url, "job_id": job})

        def do_GET(self) -> None:  # noqa: N802
            job = self.path.rsplit("/", 1)[1]
            fake.polls[job] += 1
            if fake.polls[job] < 2:
                self.reply({"status": "pending", "job_id": job})
                return
            original = fake.polls[f"{job}-url"]
            self.reply({"status": "success", "timestamp": TIMESTAMP, "original_url": original})

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as port:
        fake.port = port
        yield fake


def with_urls(src: Path, urls: dict[str, str]) -> None:
    bib = src / "references.bib"
    text = bib.read_text(encoding="utf-8")
    for key, url in urls.items():
        text = set_fields(text, key, {"url": url})
    bib.write_text(text, encoding="utf-8")


def entries(src: Path) -> dict:
    return parse_string((src / "references.bib").read_text(encoding="utf-8"), "bibtex").entries


def archive_env(monkeypatch, fake: FakeArchive) -> None:
    monkeypatch.setenv("RADAR_ARCHIVE_URL", fake.base)
    monkeypatch.setenv("RADAR_ARCHIVE_INTERVAL", "0.2")
    monkeypatch.setenv("RADAR_ARCHIVE_POLL", "0")
    monkeypatch.setenv("RADAR_TRUSTED_HOSTS", ARCHIVE_HOST)
    fake_names(monkeypatch, {ARCHIVE_HOST: FAKES_HOST})


def test_archive_all_records_each_snapshot_paced_and_nothing_else(
    tmp_path, archive, monkeypatch, capsys
):
    src = copy_site(tmp_path / "src")
    with_urls(
        src,
        {
            "rise2026paper": "https://example.org/rise",
            "worldsculpt2026code": "https://example.org/ws",
        },
    )
    archive_env(monkeypatch, archive)
    before = entries(src)
    assert cli.main(["--root", str(src), "refs", "archive", "--all"]) == 0
    after = entries(src)
    for key, url in (
        ("rise2026paper", "https://example.org/rise"),
        ("worldsculpt2026code", "https://example.org/ws"),
    ):
        assert after[key].fields["archiveurl"] == f"{archive.base}/web/{TIMESTAMP}/{url}"
        assert after[key].fields["archivedate"] == "2026-12-03"
    untouched = set(before) - {"rise2026paper", "worldsculpt2026code"}
    assert all("archiveurl" not in after[key].fields for key in untouched)
    (first, when_first), (second, when_second) = archive.saves
    assert {first, second} == {"https://example.org/rise", "https://example.org/ws"}
    assert when_second - when_first >= 0.19  # RADAR_ARCHIVE_INTERVAL apart
    assert "2 archived, 0 failed" in capsys.readouterr().err
    # A second run finds nothing left to archive.
    assert cli.main(["--root", str(src), "refs", "archive", "--all"]) == 0
    assert len(archive.saves) == 2


def test_a_refused_capture_is_reported_at_its_line_and_writes_nothing(
    tmp_path, archive, monkeypatch, capsys
):
    src = copy_site(tmp_path / "src")
    with_urls(src, {"rise2026paper": REFUSED_URL})
    archive_env(monkeypatch, archive)
    before = (src / "references.bib").read_text(encoding="utf-8")
    assert cli.main(["--root", str(src), "refs", "archive", "rise2026paper"]) == 1
    err = capsys.readouterr().err
    line = next(n for n, text in enumerate(before.splitlines(), 1) if REFUSED_URL in text)
    assert f"references.bib:{line}: error: rise2026paper: the archive took no capture" in err
    assert "excluded from the Wayback Machine" in err
    assert (src / "references.bib").read_text(encoding="utf-8") == before


def test_archive_stores_the_snapshot_address_as_written(tmp_path, archive, monkeypatch):
    """An address with ``_ & # %``: stored raw, never LaTeX-escaped (``user\\_guide``),
    and the check finds nothing to say of it."""
    src = copy_site(tmp_path / "src")
    url = "https://example.org/user_guide?lang=zh&v=2&p=50%25#install"
    with_urls(src, {"rise2026paper": url})
    archive_env(monkeypatch, archive)
    assert cli.main(["--root", str(src), "refs", "archive", "rise2026paper"]) == 0
    text = (src / "references.bib").read_text(encoding="utf-8")
    copy = f"{archive.base}/web/{TIMESTAMP}/{url}"
    assert f"{{{copy}}}" in text and "\\" not in text.split("@misc{rise2026paper", 1)[1]
    assert entries(src)["rise2026paper"].fields["archiveurl"] == copy
    problems = check_bib_text(text, "references.bib")
    assert [p for p in problems if p.severity != "note"] == []
    assert "rise2026paper" not in str(problems)


def test_archive_needs_keys_or_all(tmp_path, capsys):
    src = copy_site(tmp_path / "src")
    assert cli.main(["--root", str(src), "refs", "archive"]) == 2
    assert cli.main(["--root", str(src), "refs", "archive", "rise2026paper"]) == 2
    assert "has no http(s) url to archive" in capsys.readouterr().err


@pytest.mark.site
def test_the_page_gives_robust_links_and_the_archived_copy(tmp_path):
    src = copy_site(tmp_path / "src")
    bib = src / "references.bib"
    copy = f"https://web.archive.org/web/{TIMESTAMP}/https://example.org/rise"
    text = set_fields(
        bib.read_text(encoding="utf-8"),
        "rise2026paper",
        {"url": "https://example.org/rise", "archiveurl": copy, "archivedate": "2026-12-03"},
    )
    text = set_fields(text, "worldsculpt2026code", {"url": "https://example.org/ws"})
    bib.write_text(text, encoding="utf-8")
    sphinx_build(src, tmp_path / "html")
    page = (tmp_path / "html/issues/2026/2026-09-08.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(page, "html.parser")
    rise = soup.select_one('a.radar-source-link[href="https://example.org/rise"]')
    assert rise["data-versiondate"] == "2026-09-08"  # the day the issue linked it
    assert rise["data-versionurl"] == copy
    archived = rise.find_next_sibling("a")
    assert "radar-archived" in archived["class"]
    assert (archived.get_text(), archived["href"]) == ("存档", copy)
    assert archived["data-versiondate"] == "2026-12-03"
    assert archived["data-originalurl"] == "https://example.org/rise"  # what it is a copy of
    plain = soup.select_one('a.radar-source-link[href="https://example.org/ws"]')
    assert plain["data-versiondate"] == "2026-09-08"
    assert not plain.has_attr("data-versionurl")
    assert len(soup.select("a.radar-archived")) == 1
