"""A researcher reading a corrected issue on a site with a licence, in Chromium: the
corrections notice, the footer's last change and licence link, and the access-date
guidance in the item's "引用" control."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_site, sphinx_build

from .site_server import serve

pytestmark = pytest.mark.browser

ISSUE_PAGE = "issues/2026/2026-09-08.html"
ITEM = "#tau-bench-customer-service"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"
SETTING = f"\nradar_license = {{'spdx': 'CC-BY-4.0', 'url': {LICENSE_URL!r}}}\n"
CORRECTION = (
    "status: published\ncorrections:\n"
    "  - date: 2026-09-10\n    text: 第一条的评测任务数原写作 40，实为 45，已更正。\n"
)


@pytest.fixture(scope="module")
def trusted_site_url(tmp_path_factory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("trusted")
    srcdir = copy_site(base / "src")
    conf = srcdir / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + SETTING, encoding="utf-8")
    issue = srcdir / ISSUE_PAGE.replace(".html", ".md")
    text = issue.read_text(encoding="utf-8")
    issue.write_text(text.replace("status: published\n", CORRECTION, 1), encoding="utf-8")
    sphinx_build(srcdir, base / "html")
    with serve(Path(base / "html")) as url:
        yield url


def test_a_reader_sees_the_correction_the_last_change_and_the_licence(
    page: Any, trusted_site_url: str
):
    page.goto(f"{trusted_site_url}{ISSUE_PAGE}")
    notice = page.locator("article .radar-corrections")
    assert notice.is_visible()
    assert "2026-09-10：第一条的评测任务数原写作 40，实为 45，已更正。" in notice.inner_text()
    footer_change = page.locator(".radar-last-change")
    footer_change.scroll_into_view_if_needed()
    assert footer_change.is_visible()
    assert footer_change.inner_text() == "本页最后修改于 2026-09-10。"
    link = page.locator("p.radar-license a")
    assert link.is_visible()
    assert link.get_attribute("href") == LICENSE_URL
    assert "CC-BY-4.0" in link.inner_text()
    details = page.locator(f"{ITEM} details.radar-cite-details")
    guidance = details.locator(".radar-cite-corrected")
    assert not guidance.is_visible(), "closed until the reader opens it"
    details.locator("summary").click()
    assert guidance.is_visible()
    assert guidance.inner_text().startswith("本页于 2026-09-10 更正")
    assert page.script_errors == []
