"""Per-issue bibliographies, formatted with the same pybtex style as the references page.

sphinxcontrib-bibtex renders the references page (one bibliography of every entry).
An issue page's own bibliography is rendered here instead: the bibtex domain filters
every entry of every bibliography against every citation (cubic in the archive's
size) and stores a node per entry per page in the environment, which does not scale
to a daily archive. Numbering is per page, in order of first citation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from pybtex.database import BibliographyData
from pybtex.plugin import find_plugin

from .bibcheck import bib_entry_texts
from .bibstyle import register as register_style

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment
    from sphinxcontrib.bibtex.domain import BibtexDomain


@dataclass(frozen=True, eq=False)  # hashed by identity: one object per file version
class Bibliography:
    """The entries of the configured .bib files: pybtex data and each entry's text."""

    data: BibliographyData
    texts: dict[str, str]

    @cached_property
    def key_by_citation_id(self) -> dict[str, str]:
        """Entry anchors on a page (``cite-<key>``) back to their keys."""
        return {citation_id(key): key for key in self.data.entries}

    def digest(self, key: str) -> str:
        """Changes whenever the entry's text changes (or it appears or goes)."""
        return hashlib.sha1(self.texts.get(key, "").encode()).hexdigest()


@lru_cache(maxsize=4)
def _entry_texts(files: tuple[tuple[str, float], ...]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for path, _ in files:
        texts |= bib_entry_texts(Path(path).read_text(encoding="utf-8"))
    return texts


_LOADED: dict[tuple[tuple[str, float], ...], Bibliography] = {}


def load_bibliography(env: BuildEnvironment) -> Bibliography:
    """The entries sphinxcontrib-bibtex has parsed (it caches them in the environment), with
    each entry's text; one object per file version, so caches keyed by it hold."""
    bibdata = cast("BibtexDomain", env.get_domain("cite")).bibdata
    files = tuple(sorted((str(path), bibfile.mtime) for path, bibfile in bibdata.bibfiles.items()))
    if files not in _LOADED:
        _LOADED.clear()
        _LOADED[files] = Bibliography(bibdata.data, _entry_texts(files))
    return _LOADED[files]


def citation_numbers(keys: Iterable[str]) -> dict[str, int]:
    """Number keys in order of first citation on a page."""
    numbers: dict[str, int] = {}
    for key in keys:
        numbers.setdefault(key, len(numbers) + 1)
    return numbers


def citation_id(key: str) -> str:
    return nodes.make_id(f"cite-{key}")


def citation_reference(keys: Sequence[str], numbers: dict[str, int]) -> nodes.inline:
    """``[1, 2]`` with each number linking to its entry on the same page."""
    marker = nodes.inline(classes=["radar-citation"])
    marker += nodes.Text("[")
    for index, key in enumerate(keys):
        if index:
            marker += nodes.Text(", ")
        marker += nodes.reference("", str(numbers.get(key, "?")), refid=citation_id(key))
    marker += nodes.Text("]")
    return marker


@lru_cache(maxsize=1)
def _formatter() -> tuple[Any, Any]:
    """The style and backend; pybtex looks plugins up in package metadata, which is slow."""
    register_style()
    return find_plugin("pybtex.style.formatting", "radar")(), find_plugin(
        "pybtex.backends", "docutils"
    )()


@lru_cache(maxsize=4096)
def _formatted(bibliography: Bibliography, key: str, digest: str) -> Any:
    """An entry formatted once per text, however many issues cite it."""
    style, _ = _formatter()
    return next(iter(style.format_entries([bibliography.data.entries[key]])))


def bibliography_nodes(keys: Sequence[str], bibliography: Bibliography) -> list[nodes.Element]:
    _, backend = _formatter()
    result: list[nodes.Element] = []
    for number, key in enumerate(keys, start=1):
        citation = nodes.citation(ids=[citation_id(key)], classes=["radar-bib-entry"])
        citation += nodes.label("", str(number))
        if key in bibliography.data.entries:
            formatted = _formatted(bibliography, key, bibliography.digest(key))
            citation += backend.paragraph(formatted)
        else:
            citation += nodes.paragraph("", f"{key}（references.bib 中没有这条文献）")
        result.append(citation)
    return result
