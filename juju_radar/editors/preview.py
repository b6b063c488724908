"""``python -m juju_radar.editors.preview SRCDIR OUTDIR``: the live preview of ``radar serve``.

A save shows in the browser within seconds, whatever the size of the archive: the
pages are built by one Sphinx application kept alive between saves, in preview mode
(``build.preview``, ``sphinx_ext.preview``), instead of a new ``sphinx-build`` each time.
The server is sphinx-autobuild's (2025.8): its file watcher, which tells open pages to
reload after a build, around Starlette's static files; only
its build step, a ``sphinx-build`` process per save, is replaced, and its script
injector by ``ReloadScriptInjector``.

A page on any web site can point a name it controls at 127.0.0.1 (DNS rebinding) and
read the preview, drafts included, if the server answers any ``Host``. This one answers
``127.0.0.1``, ``localhost`` and ``[::1]`` (with any port) and refuses the rest with 403.
A page of another site can also open a WebSocket to 127.0.0.1 itself: one whose
``Origin`` is not one of those hosts is closed at once.

The pages' Content-Security-Policy runs no inline script it does not know
(``sphinx_ext.csp``): the reload script sphinx-autobuild writes into each page inline
is served as a file of the preview instead, ``RELOAD_SCRIPT``, which ``'self'`` allows.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

from juju_radar.model.messages import LANGUAGES, _, use_language

RELOAD_SCRIPT = "/_radar/reload.js"
RELOAD_JS = (
    "new WebSocket(`ws://${location.host}/websocket-reload`).onmessage = "
    "() => window.location.reload();\n"
)
LOCAL_HOST_RE = re.compile(r"^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$", re.IGNORECASE)


def host_is_local(host: str) -> bool:
    return LOCAL_HOST_RE.match(host) is not None


class LocalHostOnly:
    """ASGI middleware: a request or websocket whose Host is not local is refused."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and not is_local_request(scope):
            await refuse(scope, send)
            return
        await self.app(scope, receive, send)


def is_local_request(scope: dict) -> bool:
    if not host_is_local(request_header(scope, b"host")):
        return False
    origin = request_header(scope, b"origin")
    return scope["type"] != "websocket" or not origin or origin_is_local(origin)


def origin_is_local(origin: str) -> bool:
    scheme, _separator, host = origin.partition("://")
    return scheme.lower() in ("http", "https") and host_is_local(host)


def request_header(scope: dict, wanted: bytes) -> str:
    for name, value in scope.get("headers", ()):
        if name == wanted:
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


class ReloadScriptInjector:
    """ASGI middleware: every HTML page served gets ``<script src=RELOAD_SCRIPT>`` at its
    end (as sphinx-autobuild's ``JavascriptInjectorMiddleware`` adds its inline one)."""

    TAG = f'<script src="{RELOAD_SCRIPT}"></script>\n'.encode()

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_html = False

        async def add_tag(message: dict) -> None:
            nonlocal is_html
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", ()))
                is_html = headers.get(b"content-type", b"").startswith(b"text/html")
                if is_html and b"content-length" in headers:
                    length = int(headers[b"content-length"]) + len(self.TAG)
                    message["headers"] = [
                        (name, str(length).encode() if name == b"content-length" else value)
                        for name, value in message["headers"]
                    ]
            elif (
                message["type"] == "http.response.body"
                and is_html
                and not message.get("more_body", False)
            ):
                message["body"] += self.TAG
            await send(message)

        await self.app(scope, receive, add_tag)


async def reload_script(request: Any) -> Any:
    from starlette.responses import Response

    return Response(RELOAD_JS, media_type="text/javascript")


# What sphinx-autobuild never watches, besides the output folder and --ignore.
NEVER_WATCHED = (
    *(".git", ".hg", ".svn", ".venv", "venv", "node_modules", ".mypy_cache"),
    *(".pytest_cache", ".ruff_cache", ".tox", ".nox", ".idea", ".vscode"),
)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m juju_radar.editors.preview")
    parser.add_argument("srcdir", type=Path)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--ignore", action="append", default=[], help="a path not watched")
    parser.add_argument("--re-ignore", action="append", default=[], help="a regex of paths")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--lang", choices=LANGUAGES, help="the language of the messages")
    return parser.parse_args(argv)


def speak(language: str | None) -> None:
    """Speak ``language`` (``radar``'s, passed on by ``radar serve``): this process's
    messages, and the build's, which reads the locale first (``LANGUAGE``)."""
    if language:
        os.environ["LANGUAGE"] = language
        use_language(language)


def main(argv: list[str]) -> None:
    args = parse_arguments(argv)
    speak(args.lang)
    try:
        import uvicorn
        import watchfiles
        from sphinx_autobuild.filter import IgnoreFilter
        from sphinx_autobuild.server import RebuildServer
        from starlette.applications import Starlette
        from starlette.middleware import Middleware
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles
    except ImportError:
        sys.exit(
            _("radar serve needs sphinx-autobuild (not installed by `make html`): run `make serve`")
        )
    from juju_radar.build.preview import PreviewSession

    srcdir, outdir = args.srcdir.resolve(strict=True), args.outdir.resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    session = PreviewSession(srcdir, outdir, jobs=args.jobs)

    def rebuild(changed_paths: list[Path]) -> None:
        names = ", ".join(sorted(path.name for path in changed_paths)[:5])
        print(_("radar serve: {names} changed, rebuilding").format(names=names), flush=True)
        started = time.perf_counter()
        session.build(changed_paths)
        seconds = time.perf_counter() - started
        print(_("radar serve: rebuilt in {seconds:.2f} s").format(seconds=seconds), flush=True)

    class InProcessRebuild(RebuildServer):  # type: ignore[misc]
        """sphinx-autobuild's watcher, building in a thread of this process (its own
        runs each build in a new worker process, which could not keep the application)."""

        async def watch(self) -> None:
            async for changes in watchfiles.awatch(
                *self.paths, watch_filter=lambda _, path: not self.ignore(path)
            ):
                await asyncio.to_thread(rebuild, [Path(path).resolve() for _, path in changes])
                self.flag.set()

    ignored = IgnoreFilter([*never_watched(srcdir), *args.ignore, outdir], args.re_ignore)
    watcher = InProcessRebuild([srcdir], ignored, change_callback=rebuild)
    url_host = f"{args.host}:{args.port}"
    app = Starlette(
        routes=[
            WebSocketRoute("/websocket-reload", watcher, name="reload"),
            Route(RELOAD_SCRIPT, reload_script),
            Mount("/", app=StaticFiles(directory=outdir, html=True), name="static"),
        ],
        middleware=[Middleware(ReloadScriptInjector)],
        lifespan=watcher.lifespan,
    )
    session.build()
    url = f"http://{url_host}/"
    print(_("radar serve: serving on {url}").format(url=url), flush=True)
    # uvicorn stops on SIGTERM and SIGINT, then raises the signal again: then save.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        uvicorn.run(LocalHostOnly(app), host=args.host, port=args.port, log_level="warning")
    except KeyboardInterrupt:
        pass
    finally:
        print(_("radar serve: saving the preview's state for the next start"), flush=True)
        session.save()


def never_watched(srcdir: Path) -> list[Path]:
    return [srcdir / name for name in NEVER_WATCHED]


if __name__ == "__main__":
    main(sys.argv[1:])
