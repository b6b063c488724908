"""The statistics page: charts drawn with matplotlib at build time, a table under each.

``{radar-stats}`` stands for a listing placeholder: the stats page is rewritten whenever
what it counts changes (its view model, ``model.listing_views.StatsView``). Charts are
inline SVG with text left as ``<text>`` (so Chinese labels are rendered by the browser's
fonts), drawn in ``currentColor`` on a transparent background (light and dark mode
alike), and byte-for-byte reproducible.
"""

from __future__ import annotations

import functools
import html
import io
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes

from juju_radar.model.issue_records import format_score
from juju_radar.model.listing_views import StatsView
from juju_radar.model.vocabulary import Vocabulary
from juju_radar.sphinx_ext.preview import CHARTS_LEFT_OUT

if TYPE_CHECKING:
    from lxml import etree
    from lxml.etree import _Element as SvgElement  # lxml's element class, by its name
    from matplotlib.axes import Axes

    from juju_radar.sphinx_ext.render import RenderContext

# Drawn in this colour, then written as currentColor: the page's text colour.
INK = "#010203"
# Okabe–Ito: distinguishable with colour-blindness, readable on light and dark.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
FIGURE_SIZE = (4.6, 3.2)
RC_PARAMS: dict[str, Any] = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["Noto Sans CJK SC", "Source Han Sans SC", "DejaVu Sans"],
    "font.size": 13,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.transparent": True,
    "text.color": INK,
    "axes.labelcolor": INK,
    "axes.edgecolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
SVG_METADATA = {"Date": None, "Creator": None}
# A page's Content-Security-Policy allows no inline style (``sphinx_ext.csp``): matplotlib's
# ``style="…"`` declarations are written as the SVG presentation attributes they stand
# for, and its one stylesheet (``*{stroke-linejoin: round; stroke-linecap: butt}``) as
# attributes of the <svg> every element inherits. matplotlib sets these two on no group,
# so inheriting them draws what the stylesheet drew.
PRESENTATION_ATTRIBUTES = frozenset(
    {"fill", "fill-opacity", "fill-rule", "opacity", "clip-path", "clip-rule"}
    | {"stroke", "stroke-width", "stroke-opacity", "stroke-linejoin", "stroke-linecap"}
    | {"stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit"}
    | {"font-family", "font-size", "font-style", "font-weight", "font-stretch", "font-variant"}
    | {"text-anchor", "stop-color", "stop-opacity"}
)
# matplotlib's SVG is read and rewritten as XML by lxml (libxml2), never as text; it
# reads no DTD and resolves no entity.
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
TOTAL = "合计"


def SVG_PARSER() -> etree.XMLParser:  # noqa: N802 (reads as the constant it stands for)
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    svg: str
    table: Table


# --- drawing ----------------------------------------------------------------------------


def _svg_text(figure: Any, key: str) -> str:
    """The figure as an SVG element for inline use: no XML prolog, ids unique to
    ``key``, ink as currentColor, size from the page's CSS."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata=SVG_METADATA, bbox_inches="tight")
    from lxml import etree

    svg = etree.fromstring(buffer.getvalue(), SVG_PARSER())
    _drop_children(svg, "metadata")
    for attribute in ("width", "height"):
        svg.attrib.pop(attribute, None)
    _without_inline_style(svg)
    for element in svg.iter():
        _prefix_ids(element, f"{key}-")
    return str(etree.tostring(svg, encoding="unicode")).strip()


def _svg_tag(name: str) -> str:
    return f"{{{SVG_NS}}}{name}"


def _drop_children(parent: SvgElement, name: str) -> None:
    """Remove ``parent``'s children called ``name``, each with the blank that follows it
    (the blank before it stays, so the rest keeps its indentation)."""
    for child in parent.findall(_svg_tag(name)):
        parent.remove(child)


def _prefix_ids(element: SvgElement, prefix: str) -> None:
    """``element``'s id and its references to ids (``url(#…)``, ``href="#…"``) made
    unique to one chart, its ink made the page's text colour."""
    for name, value in element.attrib.items():
        if name == "id":
            value = prefix + value
        elif name in (XLINK_HREF, "href") and value.startswith("#"):
            value = f"#{prefix}{value[1:]}"
        value = value.replace("url(#", f"url(#{prefix}")
        element.set(name, value.replace(INK, "currentColor"))


def _without_inline_style(svg: SvgElement) -> None:
    """Turn ``svg``'s stylesheet and style attributes into presentation attributes."""
    inherited: dict[str, str] = {}
    for defs in svg.findall(_svg_tag("defs")):
        sheets = defs.findall(_svg_tag("style"))
        if len(sheets) != 1 or len(defs) != 1:
            continue
        selector, _, rest = (sheets[0].text or "").partition("{")
        if selector.strip() != "*" or not rest.rstrip().endswith("}"):
            continue
        inherited |= _presentation(rest.rstrip().removesuffix("}"))
        svg.remove(defs)
    _set_attributes(svg, inherited | dict(svg.attrib))
    for element in svg.iter():
        if "style" in element.attrib:
            attributes: dict[str, str] = {}
            for name, value in element.attrib.items():
                attributes |= _presentation(value) if name == "style" else {name: value}
            _set_attributes(element, attributes)
    if any(element.tag == _svg_tag("style") or "style" in element.attrib for element in svg.iter()):
        raise ValueError("matplotlib wrote a style this page cannot hold")


def _set_attributes(element: SvgElement, attributes: dict[str, str]) -> None:
    element.attrib.clear()
    element.attrib.update(attributes)


def _presentation(declarations: str) -> dict[str, str]:
    attributes = {}
    for declaration in declarations.split(";"):
        name, _, value = (part.strip() for part in declaration.partition(":"))
        if not name:
            continue
        if name not in PRESENTATION_ATTRIBUTES:
            raise ValueError(f"matplotlib wrote {declaration!r}: not an SVG attribute")
        attributes[name] = value
    return attributes


def _draw(key: str, draw: Any) -> str:
    import matplotlib
    from matplotlib.figure import Figure

    params = cast(Any, RC_PARAMS | {"svg.hashsalt": f"juju-radar-{key}"})
    with matplotlib.rc_context(params):
        figure = Figure(figsize=FIGURE_SIZE, layout="constrained")
        draw(figure.subplots())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # glyphs missing without CJK fonts
            return _svg_text(figure, key)


def _integer_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _no_data(axes: Axes) -> None:
    axes.text(0.5, 0.5, "暂无数据", ha="center", va="center", transform=axes.transAxes)
    axes.set_axis_off()


MONTH_TICKS_UP_TO = 24  # months; over a longer span the axis names the years


def month_ticks(columns: Sequence[str]) -> tuple[list[float], list[str]]:
    """Tick positions (the middle of each month's column) and labels: every month over a
    short span, else each January, by its year (120 month labels do not fit a phone)."""
    if len(columns) <= MONTH_TICKS_UP_TO:
        return [index + 0.5 for index in range(len(columns))], list(columns)
    januaries = [index for index, month in enumerate(columns) if month.endswith("-01")]
    return [index + 0.5 for index in januaries], [columns[index][:4] for index in januaries]


def topic_month_chart(view: StatsView, vocabulary: Vocabulary) -> Chart:
    counts = Counter(dict(view.per_topic_month))
    columns = view.months

    def draw(axes: Axes) -> None:
        # One stepped area a topic, stacked, rather than a bar a topic and month: the
        # same picture in five paths instead of 600 bars at ten years.
        if not columns:
            return _no_data(axes)
        edges = range(len(columns) + 1)
        bottoms = [0] * len(columns)
        for index, topic in enumerate(vocabulary.topics):
            heights = [counts[(month, topic.key)] for month in columns]
            tops = [low + high for low, high in zip(bottoms, heights, strict=True)]
            color = PALETTE[index % len(PALETTE)]
            axes.stairs(tops, edges, baseline=bottoms, fill=True, label=topic.label, color=color)
            bottoms = tops
        axes.set_xticks(*month_ticks(columns))
        axes.set_xlim(0, len(columns))
        axes.set_ylabel("条目数")
        axes.yaxis.set_major_locator(_integer_ticks())
        figure = axes.get_figure()
        assert figure is not None
        figure.legend(loc="outside lower center", ncols=3, fontsize=11)

    rows = tuple(
        (
            month,
            *(str(counts[(month, topic.key)]) for topic in vocabulary.topics),
            str(sum(counts[(month, topic.key)] for topic in vocabulary.topics)),
        )
        for month in columns
    )
    header = ("月份", *(topic.label for topic in vocabulary.topics), TOTAL)
    return Chart("per-month", "每月各主题条目数", _draw("per-month", draw), Table(header, rows))


def score_chart(view: StatsView, vocabulary: Vocabulary) -> Chart:
    counts = Counter(dict(view.per_topic_score))
    scores = sorted({score for _, score in counts})
    topics = list(reversed(vocabulary.topics))  # first topic on top

    def draw(axes: Axes) -> None:
        if not scores:
            return _no_data(axes)
        for row, topic in enumerate(topics):
            points = [(score, counts[(topic.key, score)]) for score in scores]
            points = [(score, count) for score, count in points if count]
            axes.scatter(
                [score for score, _ in points],
                [row] * len(points),
                s=[70 * count for _, count in points],
                color=PALETTE[(len(topics) - 1 - row) % len(PALETTE)],
            )
        axes.set_yticks(range(len(topics)), [topic.label for topic in topics])
        axes.set_xlim(min(scores) - 0.75, 10.25)
        axes.set_xlabel("评分（点越大，条目越多）")
        axes.grid(axis="x", color=INK, alpha=0.15)

    rows = tuple(
        (
            topic.label,
            *(str(counts[(topic.key, score)]) for score in scores),
            str(sum(counts[(topic.key, score)] for score in scores)),
        )
        for topic in vocabulary.topics
    )
    header = ("主题", *(f"{format_score(score)} 分" for score in scores), TOTAL)
    return Chart("scores", "各主题评分分布", _draw("scores", draw), Table(header, rows))


def verdict_chart(view: StatsView, vocabulary: Vocabulary) -> Chart:
    counts = Counter(dict(view.per_verdict))
    verdicts = list(reversed(vocabulary.verdicts))

    def draw(axes: Axes) -> None:
        if not counts:
            return _no_data(axes)
        values = [counts[verdict.key] for verdict in verdicts]
        bars = axes.barh([verdict.label for verdict in verdicts], values, color=PALETTE[0])
        axes.bar_label(bars, padding=3)
        axes.set_xlabel("条目数")
        axes.xaxis.set_major_locator(_integer_ticks())

    rows = tuple((verdict.label, str(counts[verdict.key])) for verdict in vocabulary.verdicts)
    rows += ((TOTAL, str(sum(counts.values()))),)
    table = Table(("判断", "条目数"), rows)
    return Chart("verdicts", "各判断的条目数", _draw("verdicts", draw), table)


# The same counts draw the same charts: a process that builds again (the preview, the
# tests) draws them once. Both arguments are frozen, so equal ones hash alike.
@functools.lru_cache(maxsize=4)
def charts(view: StatsView, vocabulary: Vocabulary) -> tuple[Chart, ...]:
    return (
        topic_month_chart(view, vocabulary),
        score_chart(view, vocabulary),
        verdict_chart(view, vocabulary),
    )


# --- doctree ----------------------------------------------------------------------------


def table_node(table: Table, caption: str, node_id: str) -> nodes.table:
    widths = [1] * len(table.header)
    group = nodes.tgroup(cols=len(widths))
    group += [nodes.colspec(colwidth=width) for width in widths]
    group += nodes.thead("", _row(table.header))
    group += nodes.tbody("", *(_row(row) for row in table.rows))
    return nodes.table(
        "", nodes.title("", caption), group, classes=["radar-stats-table"], ids=[node_id]
    )


def _row(cells: Sequence[str]) -> nodes.row:
    return nodes.row("", *(nodes.entry("", nodes.paragraph("", cell)) for cell in cells))


def chart_node(chart: Chart) -> nodes.container:
    box = nodes.container(classes=["radar-chart", f"radar-chart-{chart.key}"], ids=[chart.key])
    box += nodes.rubric("", chart.title, classes=["radar-chart-title"])
    label = html.escape(chart.title, quote=True)
    figure = f'<figure class="radar-chart-figure" role="img" aria-label="{label}">'
    box += nodes.raw("", f"{figure}{chart.svg}</figure>", format="html")
    box += table_node(chart.table, f"{chart.title}（数据表）", f"{chart.key}-table")
    return box


def summary_node(view: StatsView) -> nodes.paragraph:
    return nodes.paragraph(
        "",
        f"统计范围：{view.issues} 期已发布，共 {view.items} 条；草稿不计入。",
        classes=["radar-count"],
    )


DOWNLOADS = (
    ("data/items.json", "items.json"),
    ("data/items.csv", "items.csv"),
    ("data/items.schema.json", "JSON Schema"),
)


def downloads_node(context: RenderContext) -> nodes.paragraph:
    """Links to the data export, relative to this page (the site may live in a sub-path)."""
    root = context.link("index", "").removesuffix("index.html")
    line = nodes.paragraph("", "下载全部条目数据：", classes=["radar-data-downloads"])
    for index, (path, label) in enumerate(DOWNLOADS):
        if index:
            line += nodes.Text(" · ")
        line += nodes.reference("", label, refuri=f"{root}{path}")
    return line


def stats_page(context: RenderContext, view: StatsView) -> list[nodes.Node]:
    found: list[nodes.Node] = [summary_node(view), downloads_node(context)]
    if context.preview:
        found.append(nodes.paragraph("", CHARTS_LEFT_OUT, classes=["radar-preview-note"]))
    else:
        found += [chart_node(chart) for chart in charts(view, context.vocabulary)]
    return found
