"""The html builder of the archive: the fast parallel one, or Sphinx's own where the
workarounds of its internals may not run (``internals_guard``)."""

from __future__ import annotations

from sphinx.builders.html import StandaloneHTMLBuilder

from juju_radar.build.internals_guard import internals


class StockHTMLBuilder(StandaloneHTMLBuilder):
    pass


class StagedStockHTMLBuilder(StockHTMLBuilder):
    """For ``make html``, which builds into a spare tree and then publishes it: Sphinx's
    closing "The HTML pages are in ..." would name the spare tree."""

    epilog = ""


def html_builder(staged: bool) -> type[StandaloneHTMLBuilder]:
    fast = internals()
    if fast is None:
        return StagedStockHTMLBuilder if staged else StockHTMLBuilder
    builder: type[StandaloneHTMLBuilder] = (
        fast.StagedFastHTMLBuilder if staged else fast.FastHTMLBuilder
    )
    return builder
