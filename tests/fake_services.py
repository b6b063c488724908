"""Fake Crossref, arXiv API and doi.org on 127.0.0.1, for ``radar refs`` tests.

Each route answers with a fixture from ``tests/fixtures/refs`` (or a status code); every
request is recorded so a test can check what the client asked for.

The editors' tools connect only to public addresses: a test reaches a fake on 127.0.0.1
through the documented setting that admits named hosts (``RADAR_TRUSTED_HOSTS`` in
:meth:`FakeServices.environment`, or ``radar_trusted_hosts`` in the site's conf.py with
:func:`trust_fakes`), never by switching the rule off. :func:`fake_names` answers name
lookups instead of the system's resolver.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).parent / "fixtures" / "refs"
FAKES_HOST = "127.0.0.1"
TRUSTED = {"RADAR_TRUSTED_HOSTS": FAKES_HOST}
"""The setting that admits the fakes' host, as the environment gives it."""
CONTENT_TYPES = {".json": "application/json", ".atom": "application/atom+xml; charset=utf-8"}


@dataclass(frozen=True)
class Reply:
    status: int = 200
    fixture: str = ""
    body: bytes = b""
    content_type: str = "application/json"
    location: str = ""

    def payload(self) -> tuple[bytes, str]:
        if self.fixture:
            path = FIXTURES / self.fixture
            return path.read_bytes(), CONTENT_TYPES[path.suffix]
        return self.body, self.content_type


@dataclass
class Request:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


@dataclass
class FakeServices:
    """Routes by path prefix: ``/crossref``, ``/arxiv``, ``/doi``."""

    port: int = 0
    routes: dict[str, Reply] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def environment(self) -> dict[str, str]:
        return {
            "RADAR_CROSSREF_URL": f"{self.base}/crossref",
            "RADAR_ARXIV_URL": f"{self.base}/arxiv/api",
            "RADAR_DOI_URL": f"{self.base}/doi",
            "RADAR_CONTACT_EMAIL": "editors@example.org",
            "RADAR_HTTP_RETRIES": "1",
            "RADAR_HTTP_BACKOFF": "0.01",
            # A hang guard: the fakes answer at once, however loaded the machine.
            "RADAR_HTTP_TIMEOUT": "120",
            **TRUSTED,
        }

    def network_rule(self) -> Any:
        """The network rule the environment's setting gives: the fakes' host admitted."""
        from juju_radar.editors.public_net import NetworkRule

        return NetworkRule.from_config({}, TRUSTED)

    def reply_for(self, path: str) -> Reply:
        matches = [prefix for prefix in self.routes if path.startswith(prefix)]
        return self.routes[max(matches, key=len)] if matches else Reply(404, body=b"{}")


@contextmanager
def fake_services() -> Iterator[FakeServices]:
    services = FakeServices()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            parts = urlsplit(self.path)
            services.requests.append(
                Request(parts.path, parse_qs(parts.query), dict(self.headers.items()))
            )
            reply = services.reply_for(parts.path)
            body, content_type = reply.payload()
            self.send_response(reply.status)
            self.send_header("Content-Type", content_type)
            if reply.location:
                self.send_header("Location", reply.location)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as port:
        services.port = port
        yield services


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    """``handler`` answering on a free port of 127.0.0.1 (given) until the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def trust_fakes(site: Path, *hosts: str) -> None:
    """``radar_trusted_hosts`` in the site's conf.py: the fakes' host, and ``hosts``."""
    with (site / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"\nradar_trusted_hosts = {[FAKES_HOST, *hosts]!r}\n")


def fake_names(monkeypatch: Any, names: Mapping[str, str | Callable[[], str]]) -> list[str]:
    """Name lookups answered from ``names`` (an address, or a function giving one each
    time it is asked); any other name does not resolve. The names asked, in order."""
    from juju_radar.editors import public_net

    asked: list[str] = []

    def lookup_name(host: str, port: int) -> list[str]:
        asked.append(host)
        answer = names.get(host.lower())
        if answer is None:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [answer() if callable(answer) else answer]

    monkeypatch.setattr(public_net, "lookup_name", lookup_name)
    return asked
