"""A researcher citing an item: opens its "引用" control and copies the GB/T 7714 citation,
which carries the day they read it as the access date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import watch_errors
from pybtex.database import parse_string

from .site_server import serve

pytestmark = pytest.mark.browser

ISSUE_PAGE = "issues/2026/2026-09-08.html"
ITEM = "#tau-bench-customer-service"


@pytest.fixture
def clipboard_page(browser: Any, site_url: str) -> Iterator[Any]:
    """A tab of a context allowed to use the clipboard, as a reader's browser is."""
    context = browser.new_context(locale="zh-CN", timezone_id="Asia/Shanghai")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url[:-1])
    tab = context.new_page()
    tab.script_errors = watch_errors(tab)
    yield tab
    context.close()


def test_opening_the_cite_control_and_copying_a_citation(clipboard_page: Any, site_url: str):
    page = clipboard_page
    page.goto(f"{site_url}{ISSUE_PAGE}")
    details = page.locator(f"{ITEM} details.radar-cite-details")
    gbt = details.locator(".radar-cite-gbt7714")
    assert not gbt.is_visible(), "closed until the reader opens it"
    details.locator("summary").click()
    assert gbt.is_visible()
    button = gbt.locator("button.radar-copy")
    assert button.inner_text() == "复制"
    button.click()
    page.wait_for_function(
        "() => document.querySelector('.radar-cite-gbt7714 button').textContent !== '复制'"
    )
    assert button.inner_text() == "已复制"
    today = page.evaluate(
        "(() => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, d.getDate()]; })()"
    )
    accessed = dt.date(*today).isoformat()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == (
        f"Juju Radar. 客服能跑起来，不代表能处理好客户的问题[EB/OL]. （2026-09-08）[{accessed}]."
    )
    bibtex = details.locator(".radar-cite-bibtex")
    assert "date         = {2026-09-08}" in bibtex.inner_text()
    assert page.script_errors == []


@pytest.fixture(scope="module")
def completed_site_url(completed_site: Path) -> Iterator[str]:
    """The site built for its own address: its cite-as BibTeX has a url, so a urldate."""
    with serve(completed_site) as base:
        yield base


@pytest.mark.parametrize("scripts", [True, False])
def test_the_cite_as_bibtex_gets_the_reader_s_day_or_no_urldate(
    browser: Any, completed_site_url: str, scripts: bool
):
    """biber refused ``urldate = {引用日期}``: read without scripts, the entry has no
    urldate and a note asks for one; with them, radar.js writes the reader's day."""
    context = browser.new_context(java_script_enabled=scripts, timezone_id="Asia/Shanghai")
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{completed_site_url}{ISSUE_PAGE}")
        box = page.locator("#cite-this .radar-cite-bibtex")
        text = box.locator("pre").evaluate("pre => pre.textContent")
        entry = parse_string(text, "bibtex").entries["jujuradar-2026-09-08"]
        if scripts:
            today = page.evaluate(
                "(() => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, "
                "d.getDate()]; })()"
            )
            assert entry.fields["urldate"] == dt.date(*today).isoformat()
            assert box.locator(".radar-without-script").count() == 0
        else:
            assert "urldate" not in entry.fields
            assert "urldate = {YYYY-MM-DD}" in box.locator(".radar-without-script").inner_text()
        assert errors == []
    finally:
        context.close()
