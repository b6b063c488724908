"""The register of accelerations: one row each, and how the extension connects them.

``docs/maintainers/accelerations.md`` shows this table (generated from it). A row whose
module is outside ``juju_radar/accel/`` is a mechanism not yet moved here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util import logging

from juju_radar.accel.guard import Acceleration, Reach, load, unchecked, why_off
from juju_radar.sphinx_ext.config import (
    ACCEL_ENV,
    accelerations_enabled,
)

if TYPE_CHECKING:
    from pathlib import Path

    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder

    from juju_radar.sphinx_ext.pipeline import Steps

logger = logging.getLogger(__name__)

SPHINX = ("sphinx", "9.0.4")
PYDATA_THEME = ("pydata-sphinx-theme", "0.20.0")
BOOK_THEME = ("sphinx-book-theme", "1.4.0")
PYBTEX = ("pybtex", "0.26.1")
BIBTEX_EXTENSION = ("sphinxcontrib-bibtex", "2.7.0")
LXML = ("lxml", "6.2.1")
NOT_MEASURED = "not measured yet"
SPHINX_INTERNALS = "juju_radar.accel.sphinx_internals"


def in_sphinx_internals(
    name: str, replaces: str, upstream: str, delete_when: str, gain: str
) -> Acceleration:
    """An acceleration of ``sphinx_internals``, written for the pinned Sphinx."""
    return Acceleration(name, SPHINX_INTERNALS, (SPHINX,), replaces, upstream, delete_when, gain)


PARALLEL_BUILDER = in_sphinx_internals(
    name="parallel-builder",
    replaces="Sphinx's parallel read (each reader sends back only its pages) and write "
    "(writers resolve pages themselves, heaviest first); no pickling of the environment "
    "after each preview build; one Pygments formatter per set of options",
    upstream="Sphinx resolves every page in the main process and sends each reader's "
    "whole environment back (private _read_parallel, final write_documents and build)",
    delete_when="Sphinx writes in parallel including resolving, and merges readers' "
    "environments by page",
    gain=NOT_MEASURED,
)
CRASH_ONE_LINE = in_sphinx_internals(
    name="crash-one-line",
    replaces="Sphinx's crash report (private sphinx._cli.util.errors.handle_exception) "
    "with one error line naming the file",
    upstream="Sphinx's report names no page",
    delete_when="Sphinx names the document being processed in its crash report",
    gain="none (a message, not speed)",
)
FROZEN_OBJECTS = Acceleration(
    name="frozen-objects",
    module="juju_radar.accel.frozen_objects",
    written_for=(),
    replaces="Python's cyclic collection of the environment's objects during the "
    "build, and their page sharing with forked writers (gc.freeze)",
    upstream="the collector walks and touches every object, so forked writers copy "
    "the pages the environment shares with them",
    delete_when="never needed for correctness; drop if the gain falls under 3 %",
    gain=NOT_MEASURED,
)
EXIT_WITHOUT_COLLECTION = Acceleration(
    name="exit-without-collection",
    module="juju_radar.accel.sphinxbuild",
    written_for=(),
    replaces="the interpreter's freeing of every object the build made, one by one, "
    "when sphinx-build exits (gc.freeze before exit)",
    upstream="CPython frees every object at exit; sphinx-build keeps the whole "
    "environment alive until then",
    delete_when="drop if the gain falls under 3 %",
    gain=NOT_MEASURED,
)
REGISTER: tuple[tuple[Acceleration, str | None], ...] = (
    (PARALLEL_BUILDER, None),  # chosen as the builder: ``fast_builder``
    (CRASH_ONE_LINE, None),  # set up by the build process: ``report_crashes_as_one_line``
    (FROZEN_OBJECTS, "connect"),
    (EXIT_WITHOUT_COLLECTION, None),  # in the build process, ``sphinxbuild``
    (
        in_sphinx_internals(
            name="small-reads-serial",
            replaces="a parallel read of fewer than 8 pages, read in the main process",
            upstream="each forked reader pickles its whole environment back; Sphinx decides "
            "to read in parallel after env-before-read-docs",
            delete_when="Sphinx reads few pages serially itself",
            gain=NOT_MEASURED,
        ),
        "connect_small_reads",
    ),
    (
        in_sphinx_internals(
            name="highlight-one-pass",
            replaces="Sphinx's HighlightLanguageTransform walk of every node "
            "(private HighlightLanguageVisitor)",
            upstream="the transform visits every node of every page with debug messages",
            delete_when="Sphinx visits code blocks only",
            gain=NOT_MEASURED,
        ),
        "highlight_in_one_pass",
    ),
    (
        in_sphinx_internals(
            name="quiet-config-report",
            replaces="Sphinx's 'The configuration has changed' report, made after the theme "
            "completed the configuration (private BuildEnvironment._config_status)",
            upstream="Sphinx compares the configuration before the theme's builder-inited "
            "handlers fill it, so it reports a change on every build",
            delete_when="Sphinx compares after builder-inited, or the theme fills the "
            "configuration at config-inited",
            gain="none (a message, not speed)",
        ),
        "connect_config_report",
    ),
    (
        in_sphinx_internals(
            name="preview-warning-count",
            replaces="resets the warning count (private Sphinx._warncount) between the "
            "builds of one preview application",
            upstream="Sphinx counts warnings per application",
            delete_when="Sphinx counts warnings per build",
            gain="none (a message, not speed)",
        ),
        "connect_preview_builds",
    ),
    (
        Acceleration(
            name="stored-bib-parse",
            module="juju_radar.accel.stored_bibdata",
            written_for=(("sphinxcontrib-bibtex", "2.7.0"), ("pybtex", "0.26.1")),
            replaces="sphinxcontrib-bibtex's parsed .bib in the environment, pickled by "
            "reference to a copy in the build cache; and its parse of a changed .bib file "
            "(parse_bibdata), done by segment: the stored parse's entries of unchanged "
            "segments kept, new or changed segments parsed by pybtex's Parser with the "
            "@string macros in effect",
            upstream="sphinxcontrib-bibtex keeps the parse in the environment, pickled again "
            "by every build that reads a page, and parses every file whole when one changed",
            delete_when="sphinxcontrib-bibtex keeps its parse out of the environment and "
            "parses only what changed in a file",
            gain="adding an issue at 1,000 issues (12,600 references): the parse of the "
            ".bib 0.7-1.0 s -> 0.13-0.18 s; the pickling of the environment not measured yet",
        ),
        "connect",
    ),
    (
        Acceleration(
            name="brief-page-description",
            module="juju_radar.accel.page_description",
            written_for=(SPHINX, ("sphinx-book-theme", "1.4.0")),
            replaces="sphinx-book-theme's add_metadata_to_page handler (its listener "
            "replaced in app.events.listeners), reading sections only until 160 characters",
            upstream="the theme reads every section's text, nested ones again",
            delete_when="the theme stops reading once it has its 160 characters",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="templates-compiled-once",
            module="juju_radar.accel.compiled_templates",
            written_for=(SPHINX, ("jinja2", "3.1.6")),
            replaces="Jinja compiling the theme's templates again for every builder of a "
            "process: a bytecode cache (Jinja's public interface) holding the code objects "
            "in memory, by template, source checksum and how the environment compiles",
            upstream="Sphinx makes a new Jinja environment, without a bytecode cache, for "
            "every builder (BuiltinTemplateLoader.init)",
            delete_when="Sphinx keeps compiled templates across builders",
            gain="a seed-site build after the first in one process: 0.85 s -> 0.73 s "
            "(means of three alternated pairs)",
        ),
        "connect",
    ),
    (
        Acceleration(
            name="search-merge",
            module="juju_radar.accel.search_merge",
            written_for=(),  # checks each bundle's format version itself
            replaces="Pagefind indexing every part of the search index whole: each month's "
            "records indexed once as a piece, and a part's bundle merged from its pieces' "
            "bundles (Pagefind's CBOR format, written here; a bundle of another format "
            "version is indexed whole)",
            upstream="Pagefind indexes a site whole; it has no incremental or merge "
            "interface (its bundle format is not documented)",
            delete_when="Pagefind indexes incrementally or merges indexes itself",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="pagefind-service",
            module="juju_radar.accel.pagefind_service",
            written_for=(("pagefind-bin-extended", "1.5.2"),),
            replaces="Pagefind's command line started for each piece of the search index: "
            "one pagefind --service process a thread for the pieces of a build, spoken to "
            "in its protocol (base64 JSON, as its official clients send); the bundle comes "
            "back in the answer (GetFiles): 1.5.2's WriteFiles answers before its writes land "
            "(Pagefind/pagefind#1271, fixed by #1272 after 1.5.2)",
            upstream="the command line loads its Chinese segmenter in every run (0.18 s of "
            "one, for a handful of pages); the official Python client pagefind 1.5.2 waits "
            "0.1 s before each of the service's answers",
            delete_when="Pagefind's command line indexes several sites in one run, or its "
            "Python client answers without the wait",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="facts-parsed-ahead",
            module="juju_radar.accel.facts_ahead",
            written_for=(),
            replaces="the parse of every issue for its facts (which are drafts, left out "
            "before reading; the period pages no longer need them), made in a forked "
            "process while the main one checks the .bib files (from 500 issues not yet "
            "parsed)",
            upstream="builder-inited runs before Sphinx reads in parallel",
            delete_when="drop if the gain falls under 3 %",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="parallel-signatures",
            module="juju_radar.accel.parallel_signatures",
            written_for=(),
            replaces="the signatures of every issue and period page computed in one process "
            "(from 1,000 pages, shared among forked processes)",
            upstream="env-get-outdated runs in the main process only",
            delete_when="drop if the gain falls under 3 %",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="never-empty-sections",
            module="juju_radar.accel.theme_sections",
            written_for=(PYDATA_THEME, BOOK_THEME),
            replaces="pydata-sphinx-theme's render of the sidebar navigation and the article "
            "header buttons in its per-page emptiness check (update_and_remove_templates): "
            "taken out of their section before the check and put back after it",
            upstream="the theme renders every template of a section once more on every "
            "page to drop the empty ones (~5 ms a page)",
            delete_when="the theme lets a template say it is never empty, or caches the check",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="toctree-once-per-folder",
            module="juju_radar.accel.shared_toctree",
            written_for=(PYDATA_THEME, BOOK_THEME),
            replaces="pydata-sphinx-theme's generate_toctree_html, called by the sidebar "
            "of every page: rendered once per folder for the pages no toctree lists",
            upstream="the theme renders the whole navigation for every page and parses it "
            "again with BeautifulSoup (~6 ms a page)",
            delete_when="the theme caches the navigation of pages that mark nothing in it",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
    (
        Acceleration(
            name="html-item-lists",
            module="juju_radar.accel.html_item_lists",
            written_for=(SPHINX, ("docutils", "0.22.4")),
            replaces="the item lines of the listings that are still documents (front "
            "page, topics, best items, related items of an issue) as docutils nodes, "
            "walked by every transform and translated by Sphinx's HTML writer: written as "
            "the HTML that writer makes of them (its escaping of text and attributes); "
            "the period pages render theirs from templates (sphinx_ext/listing_pages.py)",
            upstream="docutils' nodes and writer cost about 25 s of CPU for the 81,000 "
            "item lines of a clean build at 3,650 issues",
            delete_when="the gain falls under 3 %, or the writer's output for these "
            "nodes changes (tests/test_accel.py compares the two)",
            gain=NOT_MEASURED,
        ),
        "connect",
    ),
)


# The reaches past a dependency's documented API that are not accelerations (the build
# needs them; there is no stock path to fall back on), each where it is.
REACHES: tuple[Reach, ...] = (
    Reach(
        name="interface-catalogues-forgotten",
        modules=("juju_radar.build.preview",),
        names=("sphinx.locale.translators",),
        written_for=(SPHINX,),
        upstream="Sphinx keeps the interface translations the first application of a "
        "process loaded, and adds a later one's as fallbacks; it has no public way to "
        "forget them (sphinx.testing's cleanup clears the same dict)",
        delete_when="Sphinx loads the interface translations per application",
    ),
    Reach(
        name="pybtex-token-patterns",
        modules=("juju_radar.bib.reader",),
        names=("pybtex.database.input.bibtex.LowLevelParser",),
        written_for=(PYBTEX,),
        upstream="the .bib check reads as pybtex reads, with its own token patterns "
        "(LowLevelParser.NAME, KEY_BRACE...) and month macros; pybtex documents none",
        delete_when="pybtex reports where each entry, key and field is (then read its tokens)",
    ),
    Reach(
        name="pybtex-collecting-parser",
        modules=("juju_radar.bib.pybtex_parser",),
        names=(
            "pybtex.database.input.bibtex.Parser",
            "pybtex.database.input.bibtex.Parser.handle_error",
            "pybtex.database.input.bibtex.Parser.process_entry",
        ),
        written_for=(PYBTEX,),
        upstream="pybtex stops at its first error (or prints it, per its strict mode); "
        "overriding handle_error and process_entry collects every error with the entry it "
        "was reading, which pybtex's documented parse_string cannot",
        delete_when="pybtex returns the errors of a parse with their entries",
    ),
    Reach(
        name="bibtex-read-again",
        modules=("juju_radar.build.preview",),
        names=("sphinxcontrib.bibtex.builder_inited_cite",),
        written_for=(BIBTEX_EXTENSION,),
        upstream="sphinxcontrib-bibtex reads the .bib files at builder-inited only; the "
        "preview builds again in the same application and calls its handler itself",
        delete_when="sphinxcontrib-bibtex reads changed .bib files at env-get-outdated",
    ),
    Reach(
        name="checked-templates",
        modules=("juju_radar.sphinx_ext.safety",),
        names=("sphinx.builders.html.StandaloneHTMLBuilder.templates",),
        written_for=(SPHINX,),
        upstream="Sphinx has no event between rendering a page's template and writing "
        "it (html-page-context comes before the render): the page check wraps the "
        "builder's template bridge to read every page as it is written",
        delete_when="Sphinx emits an event with each rendered page before writing it",
    ),
    Reach(
        name="sphinx-application-in-process",
        modules=("juju_radar.build.preview",),
        names=(
            "sphinx.util.docutils.docutils_namespace",
            "sphinx.util.docutils.patch_docutils",
            "sphinx.application.ENV_PICKLE_FILENAME",
        ),
        written_for=(SPHINX,),
        upstream="the preview keeps one Sphinx application alive between builds, set up "
        "as sphinx-build's own main sets one up; Sphinx documents only its command line "
        "and the Sphinx class",
        delete_when="Sphinx documents how to run an application within a process",
    ),
    Reach(
        name="markup-dispatcher",
        modules=("juju_radar.sphinx_ext.content",),
        names=("sphinx.util.docutils.CustomReSTDispatcher",),
        written_for=(SPHINX,),
        upstream="refusing a directive or role a page may not hold while it is parsed needs "
        "docutils' lookup of directives and roles, which Sphinx wraps only here",
        delete_when="Sphinx or MyST-Parser lets an extension restrict a page's directives",
    ),
    Reach(
        name="sphinx-util-helpers",
        modules=(
            "juju_radar.build.quiet",
            "juju_radar.sphinx_ext.collector",
            "juju_radar.sphinx_ext.outputs.hooks",
            "juju_radar.sphinx_ext.transforms",
        ),
        names=(
            "sphinx.util.console.strip_colors",
            "sphinx.util.parallel.ParallelTasks",
            "sphinx.util.parallel.SerialTasks",
            "sphinx.util.parallel.parallel_available",
            "sphinx.util.osutil.relative_uri",
        ),
        written_for=(SPHINX,),
        upstream="helpers Sphinx's own builders use (colours, forked tasks, relative "
        "links), not in its documented API; written again here they would drift from "
        "what Sphinx does",
        delete_when="Sphinx documents them, or they change (then copy what is needed)",
    ),
    Reach(
        name="myst-option-reader",
        modules=("juju_radar.model.issue_reader", "juju_radar.editors.page_writer"),
        names=(
            "myst_parser.parsers.options.options_to_items",
            "myst_parser.parsers.options.TokenizeError",
        ),
        written_for=(("myst-parser", "5.2.0"),),
        upstream="an item's options are read as MyST-Parser reads a directive's options "
        "(one reader per format); MyST-Parser documents the syntax, not this function",
        delete_when="MyST-Parser documents its option reader",
    ),
)


def say_unchecked_reaches() -> None:
    """One line for each reach written for versions other than the installed ones."""
    for reach in REACHES:
        if (why := unchecked(reach)) is not None:
            logger.info(f"juju_radar: the reach {reach.name} is unchecked: {why}")


def connect(app: Sphinx, steps: Steps) -> None:
    """Connect every acceleration that may run; say once why any other is off, and which
    registered reach was written for other versions than those installed."""
    say_unchecked_reaches()
    if not accelerations_enabled():
        logger.info(f"juju_radar: {ACCEL_ENV}=0: every acceleration is off (slower, same output)")
        return
    for acceleration, hook in REGISTER:
        module = load(acceleration)
        if module is None:
            reason = why_off(acceleration)
            logger.info(f"juju_radar: acceleration {acceleration.name} is off: {reason}")
        elif hook is not None:
            getattr(module, hook)(app, steps)


def fast_builder(staged: bool) -> type[StandaloneHTMLBuilder] | None:
    module = load(PARALLEL_BUILDER)
    if module is None:
        return None
    builder: type[StandaloneHTMLBuilder] = (
        module.StagedFastHTMLBuilder if staged else module.FastHTMLBuilder
    )
    return builder


def report_crashes_as_one_line(srcdir: Path) -> None:
    module = load(CRASH_ONE_LINE)
    if module is not None:
        module.report_crashes_as_one_line(srcdir)
