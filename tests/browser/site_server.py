"""A static file server for a built site under a sub-path (``/archive/``), in a thread.

Used by the browser tests and by ``bench/search_bench.py``; the sub-path proves that
the site and its search use relative URLs only.
"""

from __future__ import annotations

import gzip
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SUB_PATH = "/archive/"


class SubPathHandler(SimpleHTTPRequestHandler):
    """Serves ``directory`` at ``SUB_PATH``; everything else is 404."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
    }

    def do_GET(self) -> None:
        if self.path == "/favicon.ico":  # the browser's own probe, outside the site
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def send_head(self) -> Any:
        """Serve files gzipped, as a production server does, to a client that asks."""
        path = self.translate_path(self.path.split("?", 1)[0].split("#", 1)[0])
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or not Path(path).is_file():
            return super().send_head()
        body = gzip.compress(Path(path).read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=31536000")
        self.end_headers()
        return io.BytesIO(body)

    def translate_path(self, path: str) -> str:
        if not path.startswith(SUB_PATH):
            return str(Path(self.directory) / "__outside_sub_path__")
        return super().translate_path("/" + path[len(SUB_PATH) :])

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (base signature)
        pass


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve ``site``; yield the base URL (ending in ``/archive/``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SubPathHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}"
    finally:
        server.shutdown()
        server.server_close()
