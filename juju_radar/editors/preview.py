"""``python -m juju_radar.editors.preview``: sphinx-autobuild answering local hosts only.

A page on any web site can point a name it controls at 127.0.0.1 (DNS rebinding) and
read the preview, drafts included, if the server answers any ``Host``. This one answers
``127.0.0.1``, ``localhost`` and ``[::1]`` (with any port) and refuses the rest with 403.
sphinx-autobuild 2025.8 builds its Starlette app in ``_create_app``; it is wrapped here.
"""

from __future__ import annotations

import re
import sys
from typing import Any

LOCAL_HOST_RE = re.compile(r"^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$", re.IGNORECASE)


def host_is_local(host: str) -> bool:
    return LOCAL_HOST_RE.match(host) is not None


class LocalHostOnly:
    """ASGI middleware: a request or websocket whose Host is not local is refused."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and not host_is_local(request_host(scope)):
            await refuse(scope, send)
            return
        await self.app(scope, receive, send)


def request_host(scope: dict) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"host":
            return str(value.decode("latin-1"))
    return ""


async def refuse(scope: dict, send: Any) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = b"this preview answers only http://127.0.0.1, localhost or [::1]\n"
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", b"%d" % len(body)),
    ]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def main(argv: list[str]) -> None:
    try:
        import sphinx_autobuild.__main__ as autobuild
    except ImportError:
        sys.exit(
            "radar serve needs sphinx-autobuild (not installed by `make html`): run `make serve`"
        )

    create_app = autobuild._create_app

    def local_app(*args: Any, **kwargs: Any) -> Any:
        return LocalHostOnly(create_app(*args, **kwargs))

    autobuild._create_app = local_app
    autobuild.main(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
