"""Archive-wide checks run once all pages are read: ids across issues, citation keys, BibTeX."""

from __future__ import annotations

from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from juju_radar.bib import typesetting
from juju_radar.bib.segment_check import SEGMENT_CHECKER_MODULES, check_bib_segments
from juju_radar.bib.size_limits import BibLimits
from juju_radar.model import archive_rules, issue_reader, issue_records, item_options
from juju_radar.model import page as page_reading
from juju_radar.model import vocabulary as vocabulary_rules
from juju_radar.model.archive_rules import archive_problems
from juju_radar.model.messages import _, current_language
from juju_radar.model.problems import Problem
from juju_radar.outputs.summary import note_bare_entries
from juju_radar.sphinx_ext.collector import radar_data, warn
from juju_radar.sphinx_ext.config import bib_limits, vocabulary
from juju_radar.store.cache import BuildCache, build_cache, digest, source_digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


logger = logging.getLogger(__name__)

# A .bib file's keys and problems, kept between builds: checking 9,000 entries takes
# seconds and the file rarely changes. When it changes, what each of its segments gave
# is kept too (BIB_SEGMENTS, one namespace per file): only new segments are checked.
BIB_CHECKS = "bib-checks"
BIB_SEGMENTS = "bib-segments"
CHECKER_DIGEST = digest(
    source_digest(
        *SEGMENT_CHECKER_MODULES,
        typesetting,
        archive_rules,
        issue_reader,
        issue_records,
        item_options,
        vocabulary_rules,
        page_reading,
    ),
    *(version(name) for name in ("pybtex", "pylatexenc")),
)


# What stops pybtex, and with it sphinxcontrib-bibtex and the pages and downloads made
# from its entries, from reading the file at all or showing an entry: a traceback that
# names no line, or a build that runs for minutes.
UNREADABLE = frozenset(
    {
        "unbalanced-braces",
        "bib-syntax",
        "crossref-loop",
        "crossref-depth",
        "crossref-missing",
        "bad-latex",
        "field-too-long",
        "too-many-entries",
        "expansion-too-large",
    }
)
EXIT_UNREADABLE_BIB = 2  # sphinx-build's status for a build that stopped on an error


def _check_bib(
    text: str, name: str, limits: BibLimits, cache: BuildCache
) -> tuple[dict[str, int], list[Problem]]:
    segments = f"{BIB_SEGMENTS}-{digest(name)[:12]}"
    checked = check_bib_segments(text, name, cache.namespace(segments), limits)
    if checked.segment_keys is not None:
        cache.keep_only(segments, checked.segment_keys)
    refused = any(problem.code in UNREADABLE for problem in checked.problems)
    return ({} if refused else checked.keys), checked.problems


def _checked_bib(app: Sphinx, name: str) -> tuple[Path, str, dict[str, int], list[Problem]]:
    """The file, the key of its check in the build cache, its keys and its problems."""
    path = Path(app.srcdir, name)
    text = path.read_text(encoding="utf-8-sig")
    limits = bib_limits(app.config)
    # The problems' messages are kept in the build's language.
    key = digest(CHECKER_DIGEST, current_language(), name, repr(limits), text)
    cache = build_cache(app.doctreedir)
    keys, problems = cache.get(BIB_CHECKS, key, partial(_check_bib, text, name, limits, cache))
    return path, key, keys, problems


def refuse_unreadable_bib(app: Sphinx) -> None:
    """Before sphinxcontrib-bibtex parses the .bib files: one it cannot read stops the
    build with a traceback and Sphinx's crash report, which names no line. Stop here
    instead, after the file and line of each error. SystemExit, because Sphinx turns
    any exception, its own errors included, into that crash report."""
    for name in app.config.bibtex_bibfiles or ():
        path, _key, _keys, problems = _checked_bib(app, name)
        unreadable = [problem for problem in problems if problem.code in UNREADABLE]
        for problem in unreadable:
            warn(problem, f"{path}:{problem.line}")
        if unreadable:
            logger.error(
                _("BibTeX cannot read this file: nothing was built"),
                location=f"{path}:{unreadable[0].line}",
                type="radar",
                subtype="bib-unreadable",
            )
            raise SystemExit(EXIT_UNREADABLE_BIB)


def check_archive_consistency(app: Sphinx, env: BuildEnvironment) -> None:
    bib_keys: set[str] = set()
    checked: list[str] = []
    for name in app.config.bibtex_bibfiles or ():
        path, key, keys, problems = _checked_bib(app, name)
        checked.append(key)
        bib_keys |= set(keys)
        for problem in problems:
            if problem.severity != "note":  # notes are summed up below, not listed
                warn(problem, f"{path}:{problem.line}")
        bare = sum(problem.code == "missing-identifier" for problem in problems)
        note_bare_entries(app, name, bare)
        if bare:
            said = _(
                "{name}: {count} entries have no DOI/URL/arXiv id/ISBN yet "
                "(`radar check` lists them)"
            ).format(name=name, count=bare)
            logger.info(f"{said} [radar.missing-identifier]")
    build_cache(env.doctreedir).keep_only(BIB_CHECKS, checked)
    issues = radar_data(env).issues
    docname_of = {issue.path: docname for docname, issue in issues.items()}
    conf = Path(app.confdir, "conf.py")
    conf_text = conf.read_text(encoding="utf-8-sig") if conf.is_file() else ""
    for problem in archive_problems(
        issues.values(),
        bib_keys,
        vocabulary(app.config),
        conf_text,
        lambda page: Path(app.srcdir, page).is_file(),
        app.config.radar_license,
    ):
        docname = docname_of.get(problem.path)
        location = Path(app.confdir, problem.path)
        warn(problem, (docname, problem.line) if docname else f"{location}:{problem.line}")
