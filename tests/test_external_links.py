"""`radar links --external`: every source address of references.bib asked politely, on
web servers started on 127.0.0.1; dead, moved and refused sources reported at their line
and in the report file, and nothing rewritten."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from conftest import copy_site
from fake_services import closed_port, serving, trust_fakes

from juju_radar.editors import cli

# path -> (HEAD status, GET status, Location)
ROUTES = {
    "/ok": (200, 200, ""),
    "/gone": (404, 404, ""),
    "/old": (301, 301, "/new"),
    "/new": (200, 200, ""),
    "/moved-for-now": (302, 302, "/new"),
    "/no-head": (405, 200, ""),
    "/robots-away": (403, 403, ""),
    "/doi/10.5555/alive": (200, 200, ""),
}


class Server:
    def __init__(self) -> None:
        self.port = 0
        self.requests: list[tuple[str, str, float, float]] = []  # method, path, start, end
        self._lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def record(self, method: str, path: str, start: float) -> None:
        with self._lock:
            self.requests.append((method, path, start, time.monotonic()))


@contextmanager
def source_server() -> Iterator[Server]:
    server_state = Server()

    class Handler(BaseHTTPRequestHandler):
        def answer(self, method: str) -> None:
            start = time.monotonic()
            time.sleep(0.02)  # long enough for two requests at once to overlap
            head, get, location = ROUTES.get(self.path, (404, 404, ""))
            status = head if method == "HEAD" else get
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            server_state.record(method, self.path, start)

        def do_HEAD(self) -> None:  # noqa: N802 - the standard library's name
            self.answer("HEAD")

        def do_GET(self) -> None:  # noqa: N802
            self.answer("GET")

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as port:
        server_state.port = port
        yield server_state


def entry(key: str, **fields: str) -> str:
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields.items())
    return f"\n@misc{{{key},\n  title = {{{key}}},\n{body}}}\n"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, Server]]:
    src = copy_site(tmp_path / "src")
    trust_fakes(src)
    with source_server() as server:
        entries = [
            entry("alive", url=f"{server.base}/ok"),
            entry("gone", url=f"{server.base}/gone"),
            entry("moved", url=f"{server.base}/old"),
            entry("redirected", url=f"{server.base}/moved-for-now"),
            entry("nohead", url=f"{server.base}/no-head"),
            entry("guarded", url=f"{server.base}/robots-away"),
            entry("unreachable", url=f"http://127.0.0.1:{closed_port()}/x"),
            entry("registered", doi="10.5555/alive"),
        ]
        with (src / "references.bib").open("a", encoding="utf-8") as bib:
            bib.write("".join(entries))
        yield src, server


@pytest.mark.site
def test_dead_moved_and_refused_sources_are_reported_at_their_line(site, monkeypatch, capsys):
    src, server = site
    monkeypatch.setenv("RADAR_DOI_URL", f"{server.base}/doi")
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0.05")
    before = (src / "references.bib").read_text(encoding="utf-8")
    assert cli.main(["--root", str(src), "links", "--external"]) == 0
    out, err = capsys.readouterr()
    lines = before.splitlines()
    by_key = {line.split(": ")[2].split(" ")[0]: line for line in out.splitlines()}
    assert set(by_key) == {"gone", "moved", "guarded", "unreachable"}
    for key, line in by_key.items():
        number = int(line.split(":")[1])
        assert f"{server.base}" in lines[number - 1] or "127.0.0.1" in lines[number - 1]
        assert key in "".join(lines[number - 4 : number])
    assert "(HTTP 404) [source-dead]" in by_key["gone"]
    assert f"(HTTP 301 to {server.base}/new) [source-moved]" in by_key["moved"]
    assert "(HTTP 403) [source-refused]" in by_key["guarded"]
    assert by_key["unreachable"].endswith("[source-dead]")
    assert "8 sources checked: 4 ok, 1 moved, 1 refused, 2 dead" in err
    assert (src / "references.bib").read_text(encoding="utf-8") == before  # nothing rewritten
    report = json.loads((src / "_build/external-links.json").read_text(encoding="utf-8"))
    assert report["checked"] == 8
    assert sorted(problem["key"] for problem in report["problems"]) == sorted(by_key)


@pytest.mark.site
def test_the_check_is_polite_head_first_one_request_at_a_time(site, monkeypatch, capsys):
    src, server = site
    monkeypatch.setenv("RADAR_DOI_URL", f"{server.base}/doi")
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0.05")
    cli.main(["--root", str(src), "links", "--external"])
    methods = {path: [m for m, p, *_ in server.requests if p == path] for path in ROUTES}
    assert methods["/ok"] == ["HEAD"]  # a GET only where HEAD is refused
    assert methods["/no-head"] == ["HEAD", "GET"]
    spans = sorted((start, end) for *_, start, end in server.requests)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert start >= end + 0.04, "two requests to one host at once, or too close"


@pytest.mark.site
def test_strict_fails_on_a_dead_source(site, monkeypatch):
    src, server = site
    monkeypatch.setenv("RADAR_DOI_URL", f"{server.base}/doi")
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0")
    assert cli.main(["--root", str(src), "links", "--external", "--strict"]) == 1
