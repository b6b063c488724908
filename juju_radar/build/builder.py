"""The html builder of the archive: the fast parallel one, or Sphinx's own when the
installed Sphinx is not the version the fast one was written for."""

from __future__ import annotations

from sphinx.builders.html import StandaloneHTMLBuilder

from juju_radar.build.sphinx_internals import FastHTMLBuilder, supported


class StockHTMLBuilder(StandaloneHTMLBuilder):
    pass


class StagedStockHTMLBuilder(StockHTMLBuilder):
    """For ``make html``, which builds into a spare tree and then publishes it: Sphinx's
    closing "The HTML pages are in ..." would name the spare tree."""

    epilog = ""


class StagedFastHTMLBuilder(FastHTMLBuilder):
    epilog = StagedStockHTMLBuilder.epilog


def html_builder(staged: bool) -> type[StandaloneHTMLBuilder]:
    if supported():
        return StagedFastHTMLBuilder if staged else FastHTMLBuilder
    return StagedStockHTMLBuilder if staged else StockHTMLBuilder
