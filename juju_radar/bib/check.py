"""Check a BibTeX file for problems that pybtex would otherwise swallow or crash on.

pybtex keeps going (or silently loses text) on several mistakes editors make:
a bare ``%`` ends a field value as a LaTeX comment, a repeated key stops strict
parsing, an unbalanced brace swallows the entries after it; a ``crossref`` loop, or a
LaTeX command the build cannot turn into text, stops the build with a traceback.
The file is read once, as pybtex reads it (:mod:`juju_radar.bib.reader`), so that each
problem comes with the line where it occurs; the rules read one entry at a time
(:mod:`juju_radar.bib.entry_rules`) or between entries
(:mod:`juju_radar.bib.cross_entry_rules`); pybtex's own parser then reports whatever
else it rejects (:mod:`juju_radar.bib.pybtex_parser`), and each entry that holds LaTeX
is converted as the build converts it (:mod:`juju_radar.bib.latex_conversion`).

The file's size is bounded (:class:`~juju_radar.bib.size_limits.BibLimits`,
``radar_bib_max_entries`` and ``radar_bib_max_field_chars`` in ``conf.py``): past a
limit the check stops reading and refuses the file in seconds, after ``@string``
expansion measured without building it.
Nothing here imports Sphinx or docutils, and no public function raises on any input.
"""

from __future__ import annotations

import sys
from types import ModuleType

from juju_radar.bib import (
    cross_entry_rules,
    entry_records,
    entry_rules,
    file_entries,
    identifiers,
    latex_conversion,
    pybtex_parser,
    reader,
    size_limits,
    typesetting,
)
from juju_radar.bib.cross_entry_rules import (
    anchor_clash_problems,
    bib_syntax_problems,
    crossref_problems,
    duplicate_key_problems,
)
from juju_radar.bib.entry_rules import PER_ENTRY_RULES
from juju_radar.bib.latex_conversion import latex_problems, unconverted_keys
from juju_radar.bib.pybtex_parser import pybtex_reading
from juju_radar.bib.reader import read_bib
from juju_radar.bib.size_limits import (
    DEFAULT_BIB_LIMITS,
    BibLimits,
    long_field_problems,
    reading_limit_problems,
)
from juju_radar.model import public_address, urls
from juju_radar.model.messages import _
from juju_radar.model.page import forbidden_characters, page_lines
from juju_radar.model.problems import Problem

CHECKER_MODULES: tuple[ModuleType, ...] = (
    sys.modules[__name__],
    size_limits,
    pybtex_parser,
    entry_rules,
    cross_entry_rules,
    latex_conversion,
    reader,
    entry_records,
    file_entries,
    public_address,
    identifiers,
    typesetting,
    urls,
)
"""The code of the .bib check and of the reader it reads with: what is kept of a file's
check or reading is kept under a digest of their sources."""


def check_bib_text(text: str, path: str, limits: BibLimits = DEFAULT_BIB_LIMITS) -> list[Problem]:
    """All problems in the BibTeX ``text`` of file ``path``, sorted by line."""
    try:
        reading = read_bib(text, stop_after=limits.max_entries)
        entries = reading.entries
        refused = list(reading_limit_problems(reading, path, limits))
        if refused:  # the file was not read to its end: only its size can be told
            refused += long_field_problems(entries, path, limits.max_field_chars)
            return sorted(refused, key=lambda problem: problem.line)
        citable = [entry for entry in entries if entry.is_citable]
        crossrefs = list(crossref_problems(entries, path))
        problems = [
            *duplicate_key_problems(citable, path),
            *anchor_clash_problems(citable, path),
            *(problem for rule in PER_ENTRY_RULES for problem in rule(entries, path)),
            *crossrefs,
            *long_field_problems(entries, path, limits.max_field_chars),
            # Shown in pages as the editors' own text is: the same characters refused.
            *forbidden_characters(text, page_lines(text), path),
        ]
        data, complaints = pybtex_reading(text)
        problems += bib_syntax_problems(text, entries, complaints, path)
        skipped = unconverted_keys(citable, limits.max_field_chars, bool(crossrefs))
        problems += latex_problems(entries, data, path, skipped)
    except Exception as error:  # a bug in a checker: reported, never swallowed
        return [internal_error(path, error)]
    return sorted(problems, key=lambda problem: problem.line)


def internal_error(path: str, error: Exception) -> Problem:
    return Problem(
        path,
        1,
        "error",
        "internal-error",
        _("the .bib check failed ({kind}: {error}); please report it, it is a bug").format(
            kind=type(error).__name__, error=error
        ),
    )
