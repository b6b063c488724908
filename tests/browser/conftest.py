"""Browser fixtures: the seed site served under ``/archive/`` and one headless Chromium.

Chromium is Debian's (``/usr/bin/chromium``); Playwright's own browsers are never used.
A test's ``page`` records every uncaught script error and console error it sees.

The pages run under their Content-Security-Policy (no ``'unsafe-eval'``, no inline script
but their own): give ``wait_for_function`` a function (``"() => …"``), not an expression,
which Playwright evaluates in the page with ``eval`` while it polls; run a script's text
with ``evaluate``, not ``add_script_tag``, which adds an inline ``<script>``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from conftest import build_root_site, built_once, watch_errors

from .site_server import serve

QUERIES_FILE = Path(__file__).resolve().parent.parent / "search_queries.json"


def load_queries() -> dict[str, Any]:
    return json.loads(QUERIES_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def site_url(built_seed_site: Path) -> Iterator[str]:
    """The seed site's base URL, ``http://127.0.0.1:PORT/archive/``."""
    with serve(built_seed_site) as base:
        yield base


@pytest.fixture(scope="session")
def two_issue_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output of the seed site with the second issue (two on the front page), built
    once per test run."""
    return built_once(tmp_path_factory, "two-issue-site", partial(build_root_site, "second-issue"))


@pytest.fixture(scope="session")
def two_issue_site_url(two_issue_site: Path) -> Iterator[str]:
    """Its base URL."""
    with serve(two_issue_site) as url:
        yield url


@contextmanager
def kept_context(browser: Any) -> Iterator[Any]:
    """A context for tabs opened one after another, holding a blank tab while it lives.

    Each tab stays fresh; what the tabs share is the context's cache and storage. A
    context left with no tab starts its renderer again for the next one: loading the
    seed issue page in a new tab cost Chromium about 0.45 CPU-seconds with a tab kept
    open, 0.85 without it, and 1.2 in a context of its own (20 loads each, this 2-core
    machine)."""
    context = browser.new_context(locale="zh-CN")
    context.new_page().goto("about:blank")
    try:
        yield context
    finally:
        context.close()


def sized_tab(context: Any, width: int, height: int = 900, **media: str) -> Any:
    """A new tab of ``context``, ``width`` by ``height`` pixels, with ``media`` emulated
    (``color_scheme``, ``reduced_motion``): what a context of its own would be given."""
    tab = context.new_page()
    tab.set_viewport_size({"width": width, "height": height})
    if media:
        tab.emulate_media(**media)
    return tab


@contextmanager
def opened(context: Any, url: str, size: tuple[int, int], scheme: str = "light") -> Iterator[Any]:
    """``url`` loaded in a tab of ``context`` at ``size`` in colour ``scheme``, closed after."""
    tab = sized_tab(context, *size, color_scheme=scheme)
    try:
        tab.goto(url, wait_until="load")
        yield tab
    finally:
        tab.close()


@pytest.fixture(scope="session")
def browser_context(browser: Any) -> Iterator[Any]:
    with kept_context(browser) as context:
        yield context


@pytest.fixture(scope="module")
def module_context(browser: Any) -> Iterator[Any]:
    """A kept context of the test module's own: no other module's tabs share its cache."""
    with kept_context(browser) as context:
        yield context


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    """A fresh tab; ``page.script_errors`` lists page errors and console errors."""
    tab = browser_context.new_page()
    tab.script_errors = watch_errors(tab)
    yield tab
    tab.close()
