"""A server on 127.0.0.1 that records every request: a build that fetches a URL a page
names (an SSRF) shows in ``Probe.requests``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Probe(BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        Probe.requests.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"a,b\nleaked,1\n")  # a CSV, for {csv-table} :url:

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def probe_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Probe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
