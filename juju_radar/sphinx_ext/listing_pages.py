"""Listing pages rendered from their view models, collected at ``html-collect-pages``.

Sphinx makes its own index and search pages this way: a page that is no document, its
body rendered from data the build has, written through the theme's ``page.html``. The
archive's period pages (``model/period_pages.py``: references by month, a topic's and the
best items' years) are made so, after every issue has been read: their view models come
from the issues the collector gathered. Nothing is written into the source tree.

``collected_page`` is the one piece every such page goes through (a view model, a
template of ``theme/templates/radar/`` and a pagename). A page is written again only
when its digest changes (what it shows, the templates and the settings it is written
with) or its file is gone; a page no longer in the archive has its file removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup
from sphinx.locale import get_translation
from sphinx.util import logging

from juju_radar.model.archive import Archive
from juju_radar.model.issue_records import format_score
from juju_radar.model.period_pages import (
    REFERENCES,
    PeriodPage,
    generated_page_message,
    period_pages,
    year_view,
)
from juju_radar.sphinx_ext import render
from juju_radar.sphinx_ext.bibliography import load_bibliography
from juju_radar.sphinx_ext.collector import radar_data, signature_digest
from juju_radar.sphinx_ext.config import view_settings, vocabulary
from juju_radar.sphinx_ext.item_lines import writer_text
from juju_radar.sphinx_ext.paging import is_archive, page_signature
from juju_radar.sphinx_ext.reference_pages import reference_groups
from juju_radar.sphinx_ext.transforms import page_link
from juju_radar.store.cache import build_cache, digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder

    from juju_radar.sphinx_ext.bibliography import Bibliography

logger = logging.getLogger(__name__)
sphinx_text = get_translation("sphinx")  # Sphinx's own messages, in the site's language

# Templates of page bodies, in the theme's templates (``theme/templates/radar/``).
YEAR_TEMPLATE = "year-page.html"
REFERENCES_TEMPLATE = "references-page.html"
# The build cache's record of the pages written: pagename -> the digest they were written at.
WRITTEN = "listing-pages"
# The page's own table of contents, as Sphinx writes a page with one heading.
TOC = '<ul>\n<li><a class="reference internal" href="#">{title}</a></li>\n</ul>\n'
CollectedPage = tuple[str, dict[str, Any], str]  # as ``html-collect-pages`` yields them


def encode(value: object) -> str:
    """A value as docutils writes text (``HTMLTranslator.encode``); HTML (``Markup``) as is."""
    if isinstance(value, Markup):
        return str(value)
    return writer_text(str(value))


def templates_folder() -> Path:
    from juju_radar.theme import TEMPLATES_DIR

    return TEMPLATES_DIR / "radar"


@lru_cache(maxsize=1)
def body_templates() -> Environment:
    """The templates of page bodies: every ``{{ value }}`` escaped as docutils escapes
    text, so a page's bytes are those Sphinx's writer would write."""
    return Environment(
        loader=FileSystemLoader(templates_folder()),
        autoescape=False,  # ``finalize`` escapes every value (``Markup`` is HTML already)
        finalize=encode,
        keep_trailing_newline=True,
    )


@lru_cache(maxsize=1)
def templates_digest() -> str:
    """Changes when any of the site's templates changes (as Sphinx writes every document
    again when a template is newer than its page): every listing page is then written
    again."""
    from juju_radar.theme import TEMPLATES_DIR

    files = sorted(TEMPLATES_DIR.rglob("*.html"))
    return digest(*(part for path in files for part in (path.name, path.read_bytes())))


def section_id(title: str) -> str:
    """The id docutils gives a page's first section: from its title, else ``id1``."""
    return nodes.make_id(title) or "id1"


def collected_page(
    pagename: str, template: str, view: object, title: str, **values: Any
) -> CollectedPage:
    """A page for ``html-collect-pages``: ``view`` rendered through the body ``template``,
    inside the theme's ``page.html``, with ``title``; ``values`` go to the template too."""
    body = (
        body_templates()
        .get_template(template)
        .render(
            view=view,
            title=title,
            section_id=section_id(title),
            headerlink_title=sphinx_text("Link to this heading"),
            link=linker(pagename),
            format_score=format_score,
            **values,
        )
    )
    context = {
        "title": encode(title),
        "pagetitle": title,  # the book theme's, for print (as ``env.titles`` give it)
        "body": body,
        "toc": TOC.format(title=encode(title)),
        "display_toc": False,
        "parents": [],
        "prev": None,
        "next": None,
        "meta": {},
        "metatags": "",
        "sourcename": "",
        "page_source_suffix": ".md",
    }
    return pagename, context, "page.html"


def linker(pagename: str, suffix: str = ".html") -> Callable[[str, str], str]:
    def link(docname: str, anchor: str) -> str:
        uri = page_link(pagename, docname, suffix)
        return f"{uri}#{anchor}" if anchor else uri

    return link


def archive_period_pages(app: Sphinx) -> tuple[PeriodPage, ...]:
    """The period pages of the archive as read (none on a site without ``references.md``)."""
    if not is_archive(Path(app.srcdir)):
        return ()
    return period_pages(radar_data(app.env).archive(), vocabulary(app.config))


def listing_titles(app: Sphinx) -> dict[str, str]:
    """Every page this module writes, by pagename, with its title: for the sitemap, the
    search index and the removal of stale outputs."""
    return {page.pagename: page.title for page in archive_period_pages(app)}


def page_digest(app: Sphinx, page: PeriodPage, archive: Archive, bib: Bibliography) -> str:
    groups = reference_groups(archive, bib)
    shown = page_signature(page.kind, dict(page.attributes), archive, bib, groups)
    # The html settings as Sphinx hashes them into .buildinfo (a change there makes it
    # write every document again), and what listings take from conf.py.
    build_info = cast("StandaloneHTMLBuilder", app.builder).build_info
    settings = (build_info.config_hash, build_info.tags_hash, repr(view_settings(app.config)))
    return digest(signature_digest((page, shown)), templates_digest(), repr(settings))


def collect_listing_pages(app: Sphinx) -> Iterator[CollectedPage]:
    """The period pages whose digest changed or whose file is missing; the files of
    pages gone from the archive are removed."""
    if app.builder.format != "html":
        return
    archive = radar_data(app.env).archive()
    bib = load_bibliography(app.env)
    cache = build_cache(app.doctreedir)
    written: dict[str, str] = dict(cache.peek(WRITTEN, "pages") or {})
    pages = archive_period_pages(app)
    current: dict[str, str] = {}
    for page in pages:
        current[page.pagename] = page_digest(app, page, archive, bib)
        target = Path(app.outdir, app.builder.get_target_uri(page.pagename))
        if page.pagename in app.env.found_docs:
            warn_of_source(page.pagename)  # and write the page over the source's
        elif written.get(page.pagename) == current[page.pagename] and target.is_file():
            continue
        yield period_page(app, page, archive, bib)
    for gone in written.keys() - current.keys():
        Path(app.outdir, app.builder.get_target_uri(gone)).unlink(missing_ok=True)
    cache.put(WRITTEN, "pages", current)


# The first line of text of the Markdown stubs that builds before issue 53 wrote into the
# source tree for these pages (rewritten by every build, so never an editor's text).
OLD_STUB_MARK = "% Generated by juju_radar from the issues: edits here are overwritten."
OLD_STUB_FOLDERS = ("references", "best", "topics/*")


def remove_old_stubs(app: Sphinx) -> None:
    """An older build's stubs, in a clone made before the period pages were collected:
    they name directives that are gone, so they would fail the build. Only files holding
    the stubs' mark are removed."""
    for folder in OLD_STUB_FOLDERS:
        for path in sorted(Path(app.srcdir).glob(f"{folder}/*.md")):
            if OLD_STUB_MARK in path.read_text(encoding="utf-8", errors="replace"):
                path.unlink()


def warn_of_source(pagename: str) -> None:
    """A source at a generated page's name (a stub an older build wrote): Sphinx writes its
    page first, the generated one replaces it. Reported at the source's file, as ``radar
    check`` reports it (``period_pages.sources_at_period_pages``)."""
    logger.error(
        generated_page_message(pagename),
        location=(pagename, 1),
        type="radar",
        subtype="generated-page",
    )


def period_page(
    app: Sphinx, page: PeriodPage, archive: Archive, bib: Bibliography
) -> CollectedPage:
    if page.kind == REFERENCES:
        entries = references_html(app, page, archive, bib)
        return collected_page(page.pagename, REFERENCES_TEMPLATE, None, page.title, entries=entries)
    view = year_view(archive, vocabulary(app.config), page)
    values = {"vocabulary": vocabulary(app.config)}
    return collected_page(page.pagename, YEAR_TEMPLATE, view, page.title, **values)


def references_html(app: Sphinx, page: PeriodPage, archive: Archive, bib: Bibliography) -> Markup:
    """The entries of a references page, as the site's HTML translator writes the
    bibliography's nodes (the entries are pybtex's formatting, as nodes); empty without
    entries."""
    context = render.RenderContext(
        archive=archive,
        vocabulary=vocabulary(app.config),
        docname=page.pagename,
        issue=None,
        link=linker(page.pagename),
        site_url=app.config.radar_site_url,
        bibliography=bib,
    )
    shown = render.references(context, page.attribute("selector"))[1:]  # after the way back
    if any(node.get("classes") == ["radar-empty"] for node in shown):
        return Markup("")
    builder = cast("StandaloneHTMLBuilder", app.builder)
    return Markup("".join(builder.render_partial(node)["fragment"] for node in shown))
