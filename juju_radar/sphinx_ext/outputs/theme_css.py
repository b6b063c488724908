"""The theme's style sheets, cut to the rules the built site can use.

Every build copies the theme's full sheets into ``_static`` (Sphinx's static files are
copied again at each build's end); at ``build-finished`` each is replaced by its subset
(``outputs/css_subset.py``) for the names of every page in the output, so an incremental
build, whose unchanged pages are not rewritten, writes what a clean one does. A page's
names are kept in the build cache under its size and time of change, and the names of
all of them under the list of their sizes and times. The preview keeps
the full sheets: the same rules apply, and it spares the preview the work.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.outputs import css_subset
from juju_radar.outputs.css_subset import (
    custom_properties,
    markup_names,
    script_names,
    selector_names,
    subset_css,
)
from juju_radar.outputs.search.parts import BUNDLE_DIR
from juju_radar.store.cache import BuildCache, build_cache, digest, source_digest
from juju_radar.store.stamps import StampedFile, stamped_files

if TYPE_CHECKING:
    from sphinx.application import Sphinx

# The third-party sheets every page loads, most of whose rules the archive never uses.
SUBSET_SHEETS = (
    "_static/styles/pydata-sphinx-theme.css",
    "_static/styles/sphinx-book-theme.css",
    "_static/basic.css",
)
PAGE_NAMES = "page-names"
SUBSETS = "theme-css"
SHEET_NAMES = "theme-css-names"
SITE_NAMES = "theme-css-site-names"


def subset_theme_sheets(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    sheets = [outdir / name for name in SUBSET_SHEETS if (outdir / name).is_file()]
    if not sheets:
        return
    cache = build_cache(app.doctreedir)
    names = site_names(outdir, cache)
    # Every sheet is read, and what the others refer to, before the first is replaced.
    full_texts = {sheet: sheet.read_text(encoding="utf-8") for sheet in sheets}
    properties = properties_by_sheet(outdir)
    keys = [
        write_subset(sheet, full, names | read_by_others(properties, sheet), cache)
        for sheet, full in full_texts.items()
    ]
    cache.keep_only(SUBSETS, [subset for subset, _ in keys])
    cache.keep_only(SHEET_NAMES, [sheet for _, sheet in keys])


def write_subset(
    sheet: Path, full: str, names: frozenset[str], cache: BuildCache
) -> tuple[str, str]:
    """Replace ``sheet`` (whose text is ``full``) by its subset; returns the cache keys of
    the subset and of the names its rules can ask about (a new issue's ids are not)."""
    sheet_key = digest(source_digest(css_subset), full)
    asked = names & cache.get(SHEET_NAMES, sheet_key, lambda: selector_names(full))
    key = digest(sheet_key, "\n".join(sorted(asked)))
    subset = cache.get(SUBSETS, key, lambda: subset_css(full, asked))
    sheet.write_text(subset, encoding="utf-8")
    return key, sheet_key


def site_names(outdir: Path, cache: BuildCache) -> frozenset[str]:
    """The names of every page in ``outdir`` and every word of its scripts."""
    names = set(page_names(outdir, cache))
    for script in sorted((outdir / "_static").rglob("*.js")):
        names |= script_names(script.read_text(encoding="utf-8", errors="replace"))
    return frozenset(names)


def page_names(outdir: Path, cache: BuildCache) -> frozenset[str]:
    """The names of every page. Those of pages older than a clock tick are kept by each
    page's size and time and, together, by the list of them all: a build that changed no
    page reads one entry, not one a page. A page just written (the 404 page, every build)
    is read."""
    now = time.time_ns()
    settled: list[tuple[str, str]] = []  # (page from outdir, key of its names)
    fresh: list[Path] = []
    for page in published_pages(outdir):
        if page.settled(now):
            settled.append((page.relative, digest(page.relative, page.stamp)))
        else:
            fresh.append(outdir / page.relative)
    listing = digest(*(key for _, key in settled))
    known: frozenset[str] | None = cache.peek(SITE_NAMES, listing)
    if known is None:
        known = names_by_page(outdir, settled, cache)
        cache.put(SITE_NAMES, listing, known)
        cache.keep_only(SITE_NAMES, [listing])
    return known.union(*map(markup_names_of, fresh))


def names_by_page(outdir: Path, pages: list[tuple[str, str]], cache: BuildCache) -> frozenset[str]:
    names: set[str] = set()
    for page, key in pages:
        names |= cache.get(PAGE_NAMES, key, partial(markup_names_of, outdir / page))
    cache.keep_only(PAGE_NAMES, [key for _, key in pages])
    return frozenset(names)


def markup_names_of(page: Path) -> frozenset[str]:
    return markup_names(page.read_bytes())


def published_pages(outdir: Path) -> list[StampedFile]:
    """The HTML pages of the site: not the theme's macros in ``_static``, nor what a
    folder starting with ``.`` or ``_`` holds (a ``.doctrees`` kept in the output), nor
    the search index's folder: it holds no page (the index removes whatever it did not
    write there), but most of the site's files."""
    return stamped_files(outdir, ".html", skip_folders="._", leave_out=frozenset([BUNDLE_DIR]))


def properties_by_sheet(outdir: Path) -> dict[Path, frozenset[str]]:
    """The custom properties each style sheet of the site sets or reads."""
    return {
        sheet: custom_properties(sheet.read_text(encoding="utf-8", errors="replace"))
        for sheet in sorted((outdir / "_static").rglob("*.css"))
    }


def read_by_others(properties: dict[Path, frozenset[str]], sheet: Path) -> frozenset[str]:
    """Custom properties the site's other style sheets set or read."""
    return frozenset().union(*(names for other, names in properties.items() if other != sheet))
