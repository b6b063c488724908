"""The theme's sheets cut to what the site uses (juju_radar/outputs/css_subset.py): which
rules stay, in their order, and which custom properties."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pydata_sphinx_theme
import tinycss2
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from juju_radar.outputs.css_subset import (
    custom_properties,
    markup_names,
    script_names,
    selector_names,
    subset_css,
)

SHEET = """
:root{--used:red;--chained:var(--used);--unused:blue;--read-by-script:1px}
*,::before{box-sizing:border-box}
html[data-theme=dark]{color:white}
.kept{color:var(--chained)}
.gone{color:green}
div.kept > p, .gone .kept, #main{margin:0 !important}
.kept:not(.gone):hover{color:black}
section.kept{padding:1px}
@media (min-width: 960px){.gone{color:red}.kept{color:blue}}
@media print{.gone{display:none}}
@font-face{font-family:X;src:url(x.woff2)}
@keyframes spin{from{opacity:0}to{opacity:1}}
.shown.show{display:block}
"""
PAGE = b'<html><body><div id="main" class="kept  shown"><p style="--from-page: 1">x --in-text</p></div></body></html>'


def kept_rules(css: str) -> list[str]:
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    preludes = [tinycss2.serialize(rule.prelude) for rule in rules if rule.type != "at-rule"]
    return [re.sub(r"\s*,\s*", ",", prelude.strip()) for prelude in preludes]


def test_a_page_names_its_elements_classes_ids_and_custom_properties() -> None:
    assert markup_names(PAGE) == {
        "html",
        "head",  # as the parser implies it, and a browser
        "body",
        "div",
        "p",
        "main",
        "kept",
        "shown",
        "--from-page",
    }


def test_rules_whose_selectors_cannot_match_are_left_out_in_order() -> None:
    names = markup_names(PAGE) | script_names("el.classList.add('show')")
    subset = subset_css(SHEET, names)
    assert kept_rules(subset) == [
        ":root",
        "*,::before",
        "html[data-theme=dark]",
        ".kept",
        "div.kept > p,#main",
        ".kept:not(.gone):hover",
        ".shown.show",
    ]
    assert "margin:0!important" in subset.replace(" ", "")
    assert "@media (min-width: 960px){.kept{color:blue}}" in subset
    assert "@media print" not in subset
    assert "@font-face" in subset and "@keyframes spin" in subset


def test_a_class_only_a_script_adds_keeps_its_rule() -> None:
    without_script = subset_css(SHEET, markup_names(PAGE))
    assert ".shown.show" not in without_script
    assert ".shown.show" in subset_css(SHEET, markup_names(PAGE) | {"show"})


def test_custom_properties_nothing_reads_are_left_out() -> None:
    subset = subset_css(SHEET, markup_names(PAGE))
    assert "--used:red" in subset and "--chained:var(--used)" in subset
    assert "--unused" not in subset and "--read-by-script" not in subset
    read_elsewhere = custom_properties("el.style.getPropertyValue('--read-by-script')")
    assert "--read-by-script:1px" in subset_css(SHEET, markup_names(PAGE) | read_elsewhere)


def test_every_name_used_keeps_the_whole_sheet() -> None:
    names = {"html", "div", "p", "section", "main", "kept", "gone", "shown", "show"}
    names |= {"--unused", "--read-by-script"}
    subset = subset_css(SHEET, names)
    assert kept_rules(subset) == kept_rules(SHEET)


NAME_POOL = sorted(
    {"html", "div", "p", "section", "main", "kept", "gone", "shown", "show", "span", "x1"}
    | {"--used", "--chained", "--unused", "--read-by-script", "--elsewhere", "y2033-m12"}
)


@settings(max_examples=examples(150), deadline=None)
@given(st.sets(st.sampled_from(NAME_POOL)))
def test_names_no_rule_asks_about_leave_the_subset_as_it_was(names: set[str]) -> None:
    """What the build keys a sheet's subset by: only the names its rules ask about."""
    asked = selector_names(SHEET)
    assert {"kept", "gone", "main", "div", "--used", "--unused"} <= asked
    assert "y2033-m12" not in asked and "--elsewhere" not in asked
    assert subset_css(SHEET, names) == subset_css(SHEET, names & asked)


def test_the_theme_sheet_asks_about_its_selectors_names_only() -> None:
    sheet = (
        Path(pydata_sphinx_theme.__file__).parent
        / "theme/pydata_sphinx_theme/static/styles/pydata-sphinx-theme.css"
    ).read_text(encoding="utf-8")
    asked = selector_names(sheet)
    names = {"html", "body", "div", "a", "bd-sidebar-primary", "navbar", "show", "active"}
    names |= {"--pst-color-primary", "radar-item-line", "y2026-m09", "issue-2026-09-08-x"}
    subset = subset_css(sheet, names)
    assert subset == subset_css(sheet, names & asked)
    assert "radar-item-line" not in asked and "bd-sidebar-primary" in asked


def test_the_pages_names_are_read_again_only_where_a_page_changed(tmp_path, monkeypatch) -> None:
    """What the subset keeps comes from every page, read once and kept by its size and
    time: a build that changed no page reads none, and a changed page is read again."""
    from juju_radar.sphinx_ext.outputs import theme_css
    from juju_radar.store.cache import SETTLED_NS, BuildCache

    outdir = tmp_path / "html"
    pages = {"index.html": PAGE, "issues/2026/a.html": b'<p class="only-here">a</p>'}
    settled = (time.time_ns() - 2 * SETTLED_NS) // 10**9 * 10**9
    for name, markup in pages.items():
        (outdir / name).parent.mkdir(parents=True, exist_ok=True)
        (outdir / name).write_bytes(markup)
        os.utime(outdir / name, ns=(settled, settled))
    cache = BuildCache(tmp_path / "cache")
    first = theme_css.page_names(outdir, cache)
    assert {"kept", "shown", "main", "only-here"} <= first

    read: list[bytes] = []
    real_markup_names = theme_css.markup_names
    monkeypatch.setattr(
        theme_css, "markup_names", lambda markup: read.append(markup) or real_markup_names(markup)
    )
    assert theme_css.page_names(outdir, cache) == first and read == []

    changed = outdir / "issues/2026/a.html"
    changed.write_bytes(b'<p class="new-here">a, longer</p>')
    os.utime(changed, ns=(settled + 10**9, settled + 10**9))
    again = theme_css.page_names(outdir, cache)
    assert read == [changed.read_bytes()]
    assert "new-here" in again and "only-here" not in again and "kept" in again

    # A page written within the clock tick (as the 404 page is by every build) is read
    # each time: its time cannot tell an edit that kept its size.
    fresh = outdir / "404.html"
    fresh.write_bytes(b'<p class="not-found">404</p>')
    read.clear()
    for _ in range(2):
        assert "not-found" in theme_css.page_names(outdir, cache)
    assert read == [fresh.read_bytes()] * 2
