"""What a reader sees on an issue page: the theme's icons drawn from the site's small
icon subset (not the 1.5 MB Font Awesome bundle), and item text styled as text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from conftest import ROOT

ICON_SUBSET = ROOT / "juju_radar" / "theme" / "static" / "scripts" / "fontawesome.js"
ISSUE_PAGE = "issues/2026/2026-09-08.html"


def subset_icons() -> set[str]:
    match = re.search(r"const ICONS = (\{.*?\});\n", ICON_SUBSET.read_text(encoding="utf-8"))
    assert match, "the icon subset has no ICONS table"
    return set(json.loads(match.group(1)))


def test_every_icon_the_pages_use_is_in_the_subset(built_seed_site: Path) -> None:
    used: set[str] = set()
    for page in built_seed_site.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for icon in soup.select("i[class*='fa-']"):
            used |= {cls[3:] for cls in icon["class"] if cls.startswith("fa-")}
    used -= {"solid", "regular", "brands", "lg", "fw", "custom"}
    assert used, "the theme draws no icon at all?"
    assert used <= subset_icons(), sorted(used - subset_icons())


def test_the_site_serves_the_subset_not_the_whole_bundle(built_seed_site: Path) -> None:
    served = built_seed_site / "_static" / "scripts" / "fontawesome.js"
    assert served.read_bytes() == ICON_SUBSET.read_bytes()
    assert served.stat().st_size < 64 * 1024


@pytest.mark.browser
def test_icons_are_drawn_and_item_text_is_plain(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}{ISSUE_PAGE}")
    page.wait_for_load_state("networkidle")
    assert page.eval_on_selector_all("i[class*='fa-']", "icons => icons.length") == 0
    drawn = page.eval_on_selector_all("svg.svg-inline--fa", "s => s.map(svg => svg.dataset.icon)")
    assert "magnifying-glass" in drawn and "sun" in drawn
    search_button_icon = page.eval_on_selector(
        "button.search-button__button svg, .search-button svg",
        "svg => svg.getBoundingClientRect().width",
    )
    assert search_button_icon > 0
    body = page.eval_on_selector(
        "#tau-bench-customer-service > p:not(.radar-item-meta)",
        "p => [getComputedStyle(p).fontWeight, getComputedStyle(p).color]",
    )
    verdict = page.eval_on_selector(
        "#tau-bench-customer-service .radar-item-meta .radar-verdict",
        "v => [getComputedStyle(v).fontWeight, getComputedStyle(v).color]",
    )
    assert body[0] == "400", "item text is not bold"
    assert body[1] != verdict[1], "item text does not take the verdict's colour"
    assert page.script_errors == []


@pytest.mark.browser
def test_a_tag_never_breaks_across_lines(page: Any, site_url: str) -> None:
    """At any width a tag pill stays whole (a bordered pill split over two lines is two
    half pills); checked at widths from a phone to a desktop."""
    broken: list[tuple[str, int]] = []
    for path in ("topics/3d.html", ISSUE_PAGE):  # a listing page and an issue page
        page.goto(f"{site_url}{path}")
        page.wait_for_load_state("networkidle")
        assert page.locator(".radar-tag").count() > 0, path
        for width in range(320, 1441, 16):
            page.set_viewport_size({"width": width, "height": 900})
            lines = page.eval_on_selector_all(
                ".radar-tag", "tags => tags.map(tag => tag.getClientRects().length)"
            )
            broken += [(path, width)] * sum(count > 1 for count in lines)
    assert broken == []


@pytest.mark.browser
def test_a_reference_reads_as_one_block_with_its_notice_and_citers(
    page: Any, site_url: str
) -> None:
    page.goto(f"{site_url}references/2026-09.html")
    page.wait_for_load_state("networkidle")
    boxes = page.eval_on_selector_all(
        ".radar-bib-entry",
        """entries => entries.slice(0, 2).map(entry => Array.from(
            entry.querySelectorAll(':scope > p'),
            p => ({kind: p.className || 'text', left: p.getBoundingClientRect().left,
                   top: p.getBoundingClientRect().top, bottom: p.getBoundingClientRect().bottom})
        ))""",
    )
    first, second = boxes
    assert [box["kind"] for box in first] == ["text", "radar-missing-identifier", "radar-cited-by"]
    assert {round(box["left"]) for box in first} == {round(first[0]["left"])}, "aligned"
    inner_gaps = [low["top"] - high["bottom"] for high, low in zip(first, first[1:], strict=False)]
    between_entries = second[0]["top"] - first[-1]["bottom"]
    assert max(inner_gaps) < between_entries / 2, (inner_gaps, between_entries)
