"""Sphinx's own html builder, as the archive uses it (the accelerated one is
``accel.sphinx_internals.FastHTMLBuilder``)."""

from __future__ import annotations

from sphinx.builders.html import StandaloneHTMLBuilder


class StockHTMLBuilder(StandaloneHTMLBuilder):
    pass


class StagedStockHTMLBuilder(StockHTMLBuilder):
    """For ``make html``, which builds into a spare tree and then publishes it: Sphinx's
    closing "The HTML pages are in ..." would name the spare tree."""

    epilog = ""


def stock_builder(staged: bool) -> type[StandaloneHTMLBuilder]:
    return StagedStockHTMLBuilder if staged else StockHTMLBuilder
