"""Browser fixtures: the seed site served under ``/archive/`` and one headless Chromium.

Chromium is Debian's (``/usr/bin/chromium``); Playwright's own browsers are never used.
A test's ``page`` records every uncaught script error and console error it sees.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .site_server import serve

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
QUERIES_FILE = Path(__file__).resolve().parent.parent / "search_queries.json"


def load_queries() -> dict[str, Any]:
    return json.loads(QUERIES_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def site_url(built_seed_site: Path) -> Iterator[str]:
    """The seed site's base URL, ``http://127.0.0.1:PORT/archive/``."""
    with serve(built_seed_site) as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def browser_context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="zh-CN")
    yield context
    context.close()


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    """A fresh tab; ``page.script_errors`` lists page errors and console errors."""
    tab = browser_context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    tab.on(
        "console",
        lambda message: errors.append(f"console.{message.type}: {message.text}")
        if message.type == "error" else None,
    )
    tab.script_errors = errors
    yield tab
    tab.close()
