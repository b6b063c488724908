"""The pages' Content-Security-Policy in Debian's Chromium (issue 26): every page of the
seed site loads without a single violation, and still works under it (the theme's colour
mode, search in the dialog and on the search page, the copy button); an inline script
planted in a built page after the build does not run."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BROWSER_WAIT_MS, copy_site, watch_errors
from live_preview import radar_serve, replace_once

from .site_server import serve

pytestmark = pytest.mark.browser

ISSUE_PAGE = "issues/2026/2026-09-08.html"
TIMEOUT_MS = BROWSER_WAIT_MS  # a hang guard (tests/conftest.py)
# Served at the site's root, its files named from there ("/_static/…"): under this
# server's sub-path they are not found, so only its policy is checked.
NOT_FOUND = "404.html"
# Registered before any script of the page (Playwright's init scripts are not the
# page's, so the policy does not apply to them).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""
PLANTED = '<script>document.documentElement.dataset.planted = "ran";</script>'


def site_pages(outdir: Path) -> list[str]:
    """Every page of a built site: its HTML files outside the static and search folders."""
    return sorted(
        path.relative_to(outdir).as_posix()
        for path in outdir.rglob("*.html")
        if path.relative_to(outdir).parts[0] not in ("_static", "pagefind")
    )


def recording_context(browser: Any) -> Any:
    context = browser.new_context(locale="zh-CN")
    context.add_init_script(RECORD_VIOLATIONS)
    return context


def recording_tab(context: Any) -> Any:
    """A tab that records the policy's violations and every script or console error."""
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.script_errors = watch_errors(page)
    page.policy_messages = []
    page.on(
        "console",
        lambda message: (
            page.policy_messages.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    return page


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    context = recording_context(browser)
    yield recording_tab(context)
    context.close()


def violations(page: Any) -> list[str]:
    return [*page.evaluate("window.__violations"), *page.policy_messages]


def visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")


# Pages loaded side by side: each waits for half a second of network silence, and
# those waits overlap.
PAGES_AT_ONCE = 8


def test_every_page_loads_without_a_violation(browser: Any, built_seed_site: Path, site_url: str):
    pages = site_pages(built_seed_site)
    assert "index.html" in pages and ISSUE_PAGE in pages and "stats.html" in pages
    context = recording_context(browser)
    try:
        for start in range(0, len(pages), PAGES_AT_ONCE):
            tabs = {path: recording_tab(context) for path in pages[start : start + PAGES_AT_ONCE]}
            for path, page in tabs.items():
                page.goto(site_url + path, wait_until="commit")
            for path, page in tabs.items():
                page.wait_for_load_state("networkidle")
                assert violations(page) == [], path
                if path != NOT_FOUND:
                    assert page.script_errors == [], path
                policy = page.eval_on_selector(
                    "meta[http-equiv='Content-Security-Policy']", "meta => meta.content"
                )
                assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, path
                page.close()
    finally:
        context.close()


def test_the_pages_work_under_their_policy(tab: Any, site_url: str):
    visit(tab, site_url + ISSUE_PAGE)
    # The inline colour-mode script ran, and the theme's button switches the mode.
    assert tab.evaluate("document.documentElement.dataset.mode") == "auto"
    switch = tab.locator(".theme-switch-button:visible").first
    switch.click()
    switch.locator("xpath=..").locator(".theme-change-button[data-mode='dark']").click()
    assert tab.evaluate("document.documentElement.dataset.theme") == "dark"
    # Font Awesome's constructed stylesheet applies (icons drawn at their width).
    # Without its rules an <svg> is drawn 300 px wide.
    icon = tab.locator("button.search-button__button svg.svg-inline--fa").first.bounding_box()
    assert icon is not None and 0 < icon["width"] < 40
    # Search in the dialog (Pagefind's WebAssembly engine) finds the seed issue's story.
    tab.keyboard.press("Control+k")
    tab.keyboard.type("Agent")
    tab.wait_for_selector("#pst-search-dialog a[href*='2026-09-08']")
    # ... and on the search page.
    visit(tab, site_url + "search.html?q=Agent")
    tab.wait_for_selector(".radar-search-page a[href*='2026-09-08']")
    # The copy button of a citation.
    visit(tab, site_url + ISSUE_PAGE)
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url[:-1])
    details = tab.locator("details.radar-cite-details").first
    details.locator("summary").click()
    button = details.locator(".radar-cite-gbt7714 button.radar-copy")
    button.click()
    tab.wait_for_function(
        "() => document.querySelector('.radar-cite-gbt7714 button').textContent === '已复制'"
    )
    assert violations(tab) == []
    assert tab.script_errors == []


def test_search_works_in_the_page_without_a_worker(browser: Any, site_url: str):
    """Pagefind compiles its WebAssembly in a worker, and in the page where workers are
    not available: that is what the policy's 'wasm-unsafe-eval' is for."""
    context = browser.new_context(locale="zh-CN")
    context.add_init_script(f"delete window.Worker; {RECORD_VIOLATIONS}")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = watch_errors(page)
    visit(page, site_url + "search.html?q=Agent")
    page.wait_for_selector(".radar-search-page a[href*='2026-09-08']")
    assert page.evaluate("window.__violations") == []
    assert errors == []
    context.close()


@pytest.fixture
def planted_site(built_seed_site: Path, tmp_path: Path) -> Iterator[str]:
    """A copy of the built seed site whose issue page holds an inline script written into
    it after the build, before it is served, and a copy of an allowed one with an extra
    statement."""
    outdir = tmp_path / "html"
    shutil.copytree(built_seed_site, outdir)
    page = outdir / ISSUE_PAGE
    text = page.read_text(encoding="utf-8")
    allowed = "DOCUMENTATION_OPTIONS.search_as_you_type = false;"
    assert allowed in text
    text = text.replace(
        f"<script>{allowed}</script>",
        f'<script>{allowed} document.documentElement.dataset.altered = "ran";</script>',
    )
    text = text.replace("</head>", f"{PLANTED}</head>").replace("</body>", f"{PLANTED}</body>")
    page.write_text(text, encoding="utf-8")
    with serve(outdir) as url:
        yield url


def test_an_inline_script_planted_after_the_build_does_not_run(tab: Any, planted_site: str):
    tab.goto(planted_site + ISSUE_PAGE)
    tab.wait_for_load_state("networkidle")
    data = tab.evaluate("({...document.documentElement.dataset})")
    assert "planted" not in data and "altered" not in data
    assert data["mode"] == "auto", "the page's own inline script still ran"
    refused = tab.evaluate("window.__violations")
    assert len([entry for entry in refused if entry.startswith("script-src")]) == 3, refused


def test_the_preview_reloads_a_saved_page_under_the_policy(tab: Any, tmp_path: Path):
    """``radar serve`` tells open pages to reload after a build, by a script the policy
    allows (a file of the preview, not sphinx-autobuild's inline one)."""
    src = copy_site(tmp_path / "src")
    tab.add_init_script(NOTE_SOCKET_OPEN)
    with radar_serve(src) as preview:
        visit(tab, preview.url(ISSUE_PAGE))
        assert tab.locator('script[src="/_radar/reload.js"]').count() == 1
        tab.wait_for_function("() => window.__radarSocketOpen === true")  # before the save
        with tab.expect_navigation():
            replace_once(
                src / "issues/2026/2026-09-08.md",
                "部署还有预算限制。",
                "部署还有预算限制。重新载入。",
            )
        tab.wait_for_selector("text=重新载入")
        assert violations(tab) == []


# The page's WebSockets note when they open (an init script, which the policy does not
# govern): the reload script's must be open before the save it is to hear of.
NOTE_SOCKET_OPEN = """
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("open", () => { window.__radarSocketOpen = true; });
  }
};
"""
