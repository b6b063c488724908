"""Archive-wide checks run once all pages are read: ids across issues, citation keys, BibTeX."""

from __future__ import annotations

from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from . import bibcheck, model
from .bibcheck import check_bib_text, parse_bib_keys
from .buildcache import build_cache, digest, source_digest
from .collector import radar_data, warn
from .model import Problem, check_archive

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


logger = logging.getLogger(__name__)

# An entry without identifiers is honest (no source gave one); the page says so and
# `radar check` lists it, but it does not fail the build.
INFORMATIONAL = frozenset({"missing-identifier"})

# A .bib file's keys and problems, kept between builds: checking 9,000 entries takes
# seconds and the file rarely changes.
BIB_CHECKS = "bib-checks"
CHECKER_DIGEST = digest(source_digest(bibcheck, model), version("pybtex"))


def _check_bib(text: str, name: str) -> tuple[dict[str, int], list[Problem]]:
    return parse_bib_keys(text), check_bib_text(text, name)


def check_archive_consistency(app: Sphinx, env: BuildEnvironment) -> None:
    bib_keys: set[str] = set()
    cache = build_cache(env.doctreedir)
    checked: list[str] = []
    for name in app.config.bibtex_bibfiles or ():
        path = Path(env.srcdir, name)
        text = path.read_text(encoding="utf-8-sig")
        key = digest(CHECKER_DIGEST, name, text)
        checked.append(key)
        keys, problems = cache.get(BIB_CHECKS, key, partial(_check_bib, text, name))
        bib_keys |= set(keys)
        for problem in problems:
            if problem.code not in INFORMATIONAL:
                warn(problem, f"{path}:{problem.line}")
        bare = sum(problem.code == "missing-identifier" for problem in problems)
        if bare:
            logger.info(
                f"{name}: {bare} entries have no DOI/URL/arXiv id/ISBN yet "
                "(`radar check` lists them) [radar.missing-identifier]"
            )
    cache.keep_only(BIB_CHECKS, checked)
    issues = radar_data(env).issues
    docname_of = {issue.path: docname for docname, issue in issues.items()}
    for problem in check_archive(issues.values(), bib_keys):
        warn(problem, (docname_of[problem.path], problem.line))
