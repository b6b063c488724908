"""Issue 55: subscribing works on a phone, in Debian's Chromium.

The 订阅 page is reached from the header of every page; each feed's address is copied
by its button (no right-click needed); a tapped feed shows a readable page (the feeds'
XSLT stylesheet) with its address, not raw XML.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import sized_tab

pytestmark = pytest.mark.browser

WIDTHS = [390, 1280]


@pytest.fixture(scope="module")
def tabs(module_context: Any) -> Any:
    module_context.grant_permissions(["clipboard-read", "clipboard-write"])
    return module_context


@pytest.mark.parametrize("width", WIDTHS)
def test_the_header_leads_to_the_subscribe_page(tabs: Any, site_url: str, width: int) -> None:
    tab = sized_tab(tabs, width, 844)
    try:
        tab.goto(site_url + "issues/2026/2026-09-08.html", wait_until="load")
        link = tab.locator(".bd-header-article a.radar-header-subscribe")
        assert link.is_visible()
        link.click()
        tab.wait_for_url("**/subscribe.html")
        heading = tab.locator("article h1").inner_text()
    finally:
        tab.close()
    assert heading.startswith("订阅")


@pytest.mark.parametrize("width", WIDTHS)
def test_each_feed_address_is_copied_by_its_button(tabs: Any, site_url: str, width: int) -> None:
    tab = sized_tab(tabs, width, 844)
    try:
        tab.goto(site_url + "subscribe.html", wait_until="load")
        addresses = tab.locator(".radar-feed-address")
        count = addresses.count()
        copied = []
        for index in range(count):
            for button_index in range(2):
                button = addresses.nth(index).locator("button.radar-copy-address").nth(button_index)
                button.click()
                copied.append(tab.evaluate("() => navigator.clipboard.readText()"))
                assert button.inner_text() == "已复制"
        howto = tab.locator(".radar-subscribe-howto").inner_text()
    finally:
        tab.close()
    assert count >= 2
    names = [address.rsplit("/", 1)[-1] for address in copied]
    assert names[:2] == ["all.atom.xml", "all.json"]
    assert all(address.startswith(site_url + "feeds/") for address in copied)
    assert "RSS 阅读器" in howto


@pytest.mark.parametrize("width", WIDTHS)
def test_a_tapped_feed_shows_a_readable_page_with_its_address(
    tabs: Any, site_url: str, width: int
) -> None:
    tab = sized_tab(tabs, width, 844)
    try:
        tab.goto(site_url + "subscribe.html", wait_until="load")
        tab.locator("a.radar-feed-link").first.click()
        tab.wait_for_url("**/feeds/all.atom.xml")
        tab.locator("#radar-feed-address").wait_for()
        title = tab.locator("h1").inner_text()
        address = tab.locator("#radar-feed-address").input_value()
        entries = tab.locator("li a")
        first_entry = entries.first.get_attribute("href")
        entries.first.click()
        tab.wait_for_load_state("load")
        landed = tab.url
    finally:
        tab.close()
    assert title.endswith("每期摘要")
    assert address == site_url + "feeds/all.atom.xml"
    # The seed site has no address: the entry's link is relative to the feed's
    # xml:base, the site's root, and the page's <base> follows it.
    assert first_entry and landed == site_url + first_entry
