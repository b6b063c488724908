"""The references, one page per month of first citation (see ``paging``).

Each reference is listed once, on the page of the month in which a published issue
first cited it (``references/YYYY-MM``), or on ``references/uncited``; ``references.md``
links the months. Adding an issue rewrites the page of its month and those of older
references it cites again, nothing else.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import TYPE_CHECKING

from juju_radar.model.archive import Archive

if TYPE_CHECKING:
    from juju_radar.sphinx_ext.bibliography import Bibliography

UNCITED = "uncited"
INDEX = "index"


def month_label(month: str) -> str:
    year, number = month.split("-")
    return f"{year} 年 {int(number)} 月"


@lru_cache(maxsize=2)  # one archive and bibliography per build: hashed by identity
def reference_groups(archive: Archive, bibliography: Bibliography) -> dict[str, list[str]]:
    """Selector (month or ``uncited``) -> its keys, in .bib order. Not to be changed by
    callers (each references page asks for it: 0.1 s a time at 3,650 issues)."""
    groups: dict[str, list[str]] = defaultdict(list)
    cited_by = archive.cited_by
    for key in bibliography.data.entries:
        refs = cited_by.get(key)
        groups[f"{refs[0].issue.date:%Y-%m}" if refs else UNCITED].append(key)
    return dict(groups)


@lru_cache(maxsize=2)  # one archive and bibliography per build: hashed by identity
def reference_places(archive: Archive, bibliography: Bibliography) -> dict[str, tuple[str, int]]:
    """Key -> the references page listing it and how many published items cite it."""
    cited_by = archive.cited_by
    return {
        key: (selector, len(cited_by.get(key, [])))
        for selector, keys in reference_groups(archive, bibliography).items()
        for key in keys
    }


def page_signature(
    selector: str, groups: dict[str, list[str]], archive: Archive, bibliography: Bibliography
) -> tuple[object, ...]:
    """What a references page shows: its entries' texts and the items citing each, or
    (for the index) each month with its count."""
    if selector == INDEX:
        return tuple(sorted((name, len(keys)) for name, keys in groups.items()))
    cited_by = archive.cited_by
    return tuple(
        (
            key,
            bibliography.digest(key),
            tuple(archive.line(ref) for ref in cited_by.get(key, [])),
        )
        for key in groups.get(selector, [])
    )
