"""The statistics page: charts drawn from the published items, with the same numbers
in a table under each, readable on a phone and in dark mode."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from browser.site_server import serve
from bs4 import BeautifulSoup, Tag
from conftest import watch_errors
from publishing_site import (
    DRAFT_DATE,
    published_issues,
    vocabulary,
)

from juju_radar.model.archive import Archive
from juju_radar.model.listing_views import stats
from juju_radar.sphinx_ext.outputs.stats import SVG_NS, Chart, charts

CHARTS = ("per-month", "scores", "verdicts")


@pytest.fixture(scope="module")
def site(published_site: tuple[Path, Path]) -> tuple[Path, Path]:
    return published_site


@pytest.fixture(scope="module")
def stats_page(site) -> BeautifulSoup:
    _, outdir = site
    return BeautifulSoup((outdir / "stats.html").read_text(encoding="utf-8"), "html.parser")


def table(page: BeautifulSoup, chart: str) -> list[list[str]]:
    rows = page.select(f"#{chart}-table tr")
    return [[cell.get_text(strip=True) for cell in row.select("th, td")] for row in rows]


def svg_texts(page: BeautifulSoup, chart: str) -> list[str]:
    return [text.get_text() for text in page.select(f"#{chart} svg text")]


def _group_ids(text: Tag) -> list[str]:
    return [str(group.get("id", "")) for group in text.parents if group.name == "g"]


def axis_labels(page: BeautifulSoup, chart: str, tick: str) -> list[str]:
    """The tick labels of one axis (``xtick`` or ``ytick``), in drawing order."""
    return [
        text.get_text()
        for text in page.select(f"#{chart} svg text")
        if any(f"-{tick}_" in group for group in _group_ids(text))
    ]


def bar_labels(page: BeautifulSoup, chart: str) -> list[str]:
    """The numbers written beside the bars (texts outside both axes), in drawing order."""
    return [
        text.get_text()
        for text in page.select(f"#{chart} svg text")
        if not any("matplotlib.axis" in group for group in _group_ids(text))
    ]


def test_each_chart_is_an_inline_svg_with_its_labels_as_text(stats_page):
    labels = [topic.label for topic in vocabulary().topics]
    for chart in CHARTS:
        assert len(stats_page.select(f"#{chart} svg")) == 1, chart
    assert set(labels) <= set(svg_texts(stats_page, "per-month"))
    assert set(labels) <= set(svg_texts(stats_page, "scores"))
    assert {"建议深挖", "持续观察", "建议阅读原文"} <= set(svg_texts(stats_page, "verdicts"))


def test_the_per_month_table_counts_the_published_items(site, stats_page):
    srcdir, _ = site
    topics = vocabulary().topics
    counts = Counter(
        (f"{issue.date:%Y-%m}", item.topic)
        for issue in published_issues(srcdir)
        for item in issue.items
    )
    header, *rows = table(stats_page, "per-month")
    assert header == ["月份", *(topic.label for topic in topics), "合计"]
    assert rows == [["2026-09", *(str(counts[("2026-09", topic.key)]) for topic in topics), "7"]]


def test_the_score_table_counts_each_score_per_topic(stats_page):
    header, *rows = table(stats_page, "scores")
    assert header == ["主题", "7.5 分", "8.5 分", "9 分", "9.5 分", "合计"]
    assert rows[0] == ["Agent", "1", "0", "1", "0", "2"]
    assert rows[1] == ["模型训练", "0", "1", "0", "1", "2"]


def test_the_verdict_table_and_chart_show_the_same_counts(stats_page):
    header, *rows = table(stats_page, "verdicts")
    assert header == ["判断", "条目数"]
    assert rows == [["建议深挖", "3"], ["持续观察", "3"], ["建议阅读原文", "1"], ["合计", "7"]]
    verdicts = axis_labels(stats_page, "verdicts", "ytick")
    numbers = bar_labels(stats_page, "verdicts")
    assert dict(zip(verdicts, numbers, strict=True)) == {
        "建议深挖": "3",
        "持续观察": "3",
        "建议阅读原文": "1",
    }


def test_drafts_are_not_counted(stats_page):
    assert "统计范围：2 期已发布，共 7 条；草稿不计入。" in stats_page.get_text()
    assert DRAFT_DATE not in str(stats_page)


def test_the_charts_are_reproducible_and_their_ids_unique(site, stats_page):
    srcdir, _ = site
    archive = Archive({issue.docname: issue for issue in published_issues(srcdir)})
    first = [chart.svg for chart in charts(stats(archive), vocabulary())]
    assert first == [chart.svg for chart in charts(stats(archive), vocabulary())]
    ids = [node["id"] for node in stats_page.select("svg [id]")]
    assert len(ids) == len(set(ids))
    for svg in first:
        assert "<metadata>" not in svg and "<?xml" not in svg
        assert re.search(r"<svg [^>]*\bwidth=", svg) is None  # sized by the page's CSS
        assert "currentColor" in svg


def test_the_stats_page_links_the_data_downloads(site, stats_page):
    _, outdir = site
    links = [a["href"] for a in stats_page.select(".radar-data-downloads a")]
    assert links == ["data/items.json", "data/items.csv", "data/items.schema.json"]
    assert all((outdir / link).is_file() for link in links)


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_stats_page_reads_on_a_phone(site, tmp_path, scheme, browser):
    _, outdir = site
    with serve(outdir) as base:
        context = browser.new_context(
            viewport={"width": 375, "height": 812}, locale="zh-CN", color_scheme=scheme
        )
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{base}stats.html")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(tmp_path / f"stats-{scheme}.png"), full_page=True)
        texts = page.locator("#scores svg text").all_text_contents()
        assert "模型训练" in texts and "AI for Science" in texts
        width = page.evaluate("document.documentElement.scrollWidth")
        chart_box = page.locator("#scores svg").bounding_box()
        text_color = page.evaluate(
            "getComputedStyle(document.querySelector('#scores svg text')).fill"
        )
        body_color = page.evaluate("getComputedStyle(document.querySelector('article')).color")
        context.close()
    assert errors == []
    assert width <= 375  # nothing wider than the phone
    assert chart_box is not None and 250 < chart_box["width"] <= 375
    assert text_color == body_color  # chart text follows the page's (light or dark) colour


def per_month_with_a_second_issue(srcdir: Path, date: dt.date) -> tuple[Chart, list[str]]:
    """The per-month chart of the fixture's first issue and a copy of it dated ``date``,
    with the chart's x-axis labels."""
    first, *_ = published_issues(srcdir)
    second = replace(first, date=date, path=f"issues/{date:%Y}/{date}.md")
    archive = Archive({issue.docname: issue for issue in (first, second)})
    per_month = next(
        chart for chart in charts(stats(archive), vocabulary()) if chart.key == "per-month"
    )
    chart = BeautifulSoup(per_month.svg, "html.parser")
    return per_month, [text.get_text() for text in chart.select("g[id*='-xtick_'] text")]


def test_months_without_issues_are_zeros_in_the_chart_and_the_table(site):
    per_month, ticks = per_month_with_a_second_issue(site[0], dt.date(2026, 12, 1))
    months = [row[0] for row in per_month.table.rows]
    assert months == ["2026-09", "2026-10", "2026-11", "2026-12"]
    assert [row[-1] for row in per_month.table.rows] == ["2", "0", "0", "2"]
    assert ticks == months


def test_over_a_long_span_the_per_month_axis_names_each_year(site):
    per_month, ticks = per_month_with_a_second_issue(site[0], dt.date(2029, 3, 1))
    assert len(per_month.table.rows) == 31  # 2026-09 .. 2029-03, every month in the table
    assert ticks == ["2027", "2028", "2029"]


def test_each_chart_is_well_formed_svg_whose_references_stay_inside_it(site):
    """The chart is rewritten as XML: every id carries the chart's key, every ``url(#…)``
    and ``href="#…"`` names an id of the same chart, and no style survives (the page's
    Content-Security-Policy allows none)."""
    from lxml import etree

    srcdir, _ = site
    archive = Archive({issue.docname: issue for issue in published_issues(srcdir)})
    for chart in charts(stats(archive), vocabulary()):
        svg = etree.fromstring(chart.svg.encode())
        ids = {str(element.get("id")) for element in svg.iter() if element.get("id")}
        assert ids and all(each.startswith(f"{chart.key}-") for each in ids)
        values = [str(value) for element in svg.iter() for value in element.attrib.values()]
        referenced = {
            *(ref for value in values for ref in re.findall(r"url\(#([^)]*)\)", value)),
            *(value[1:] for value in values if value.startswith("#") and "-" in value),
        }
        assert referenced and referenced <= ids, chart.key
        assert not svg.xpath("//*[@style] | //svg:style", namespaces={"svg": SVG_NS})
        assert svg.get("stroke-linejoin") == "round"  # matplotlib's stylesheet, inherited
