"""Bibliographies: each issue's own, and the references page, in the pybtex style "radar".

sphinxcontrib-bibtex parses the .bib files; the entries are rendered here. Its
``{bibliography}`` directive does not scale to a daily archive: the bibtex domain
filters every entry of every bibliography against every citation (cubic in the
archive's size), stores a node per entry per page in the environment, and formats
every entry again on every build (8 s for 9,000 entries). Here an entry is formatted
once per text and kept between builds (``buildcache``). Numbering is per page.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from pybtex.database import BibliographyData, Entry
from pybtex.plugin import find_plugin

from juju_radar.bib import archived as bibarchived
from juju_radar.bib import identifiers as bibidentifiers
from juju_radar.bib import style as bibstyle
from juju_radar.bib.archived import archived_copy
from juju_radar.bib.check import CHECKER_MODULES
from juju_radar.bib.entry_records import IDENTIFIER_FIELDS
from juju_radar.bib.file_entries import bib_entry_identifiers, bib_entry_texts, bib_macro_texts
from juju_radar.bib.identifiers import source_url
from juju_radar.bib.style import register as register_style
from juju_radar.model import urls
from juju_radar.model.anchors import citation_anchor
from juju_radar.store.cache import BuildCache, build_cache, digest, source_digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinxcontrib.bibtex.domain import BibtexDomain


STYLE_DIGEST = digest(
    source_digest(bibstyle, bibidentifiers, bibarchived, urls, sys.modules[__name__]),
    *(version(name) for name in ("pybtex", "pybtex-docutils", "docutils")),
)
SCANNER_DIGEST = source_digest(*CHECKER_MODULES)

# Robust Links (https://robustlinks.mementoweb.org/spec/): the day the page linked the
# source, and the archived copy of it. The translator writes them as data- attributes.
ROBUST_DATE = "versiondate"
ROBUST_COPY = "versionurl"
ROBUST_ORIGINAL = "originalurl"  # on the link to the copy: the address it is a copy of


@dataclass(frozen=True, eq=False)  # hashed by identity: one object per file version
class Bibliography:
    """The entries of the configured .bib files: pybtex data, each entry's text, and the
    digest of what else its formatting depends on (``@string`` macros, ``@preamble``)."""

    data: BibliographyData
    texts: dict[str, str]
    context: str
    identifiers: dict[str, dict[str, str]]
    cache: BuildCache | None = None
    file_digests: tuple[str, ...] = ()
    # Each entry's digest, once (the page signatures ask 113,000 times at 3,650 issues).
    _digests: dict[str, str] = field(default_factory=dict, repr=False)

    def digest(self, key: str) -> str:
        """Changes whenever what the entry shows changes: its text (or it appears or goes),
        or the text of an entry it takes fields from (``crossref``)."""
        if key not in self._digests:
            lineage = (self.texts.get(each, "") for each in self._lineage(key))
            self._digests[key] = digest(self.context, *lineage)
        return self._digests[key]

    def changed_since(self, before: Bibliography) -> set[str]:
        """The keys whose entry shows differently than in ``before`` (or is new or gone)."""
        if before is self:
            return set()
        keys = set(self.data.entries.keys()) | set(before.data.entries.keys())
        if before.context != self.context:
            return keys
        return {
            key
            for key in keys
            if before.texts.get(key) != self.texts.get(key)
            or (len(self._lineage(key)) > 1 and before.digest(key) != self.digest(key))
        }

    def _lineage(self, key: str) -> list[str]:
        """The key, then the entry its ``crossref`` names, and so on."""
        lineage = [key]
        entry = self.data.entries.get(key)
        while entry is not None and "crossref" in entry.fields:
            entry = self.data.entries.get(entry.fields["crossref"])
            if entry is None or entry.key in lineage:
                break
            lineage.append(entry.key)
        return lineage

    def formatted(self, key: str) -> nodes.Element:
        """The entry as a paragraph, formatted once per text and kept between builds."""
        fresh = partial(_format, self.data.entries[key], self.data)
        if not self._cacheable(key):
            return fresh()
        assert self.cache is not None
        data = self.cache.get(FORMATTED, self.formatted_key(key), lambda: node_data(fresh()))
        return fresh() if data is None else cast(nodes.Element, node_from_data(data))

    def _cacheable(self, key: str) -> bool:
        """Only entries whose own text was read (the key's digest must cover what pybtex
        formats) and which do not inherit fields from another entry."""
        entry = self.data.entries.get(key)
        return (
            self.cache is not None
            and entry is not None
            and key in self.texts
            and "crossref" not in entry.fields
        )

    def formatted_key(self, key: str) -> str:
        return digest(STYLE_DIGEST, key, self.digest(key))

    def live_formatted_keys(self) -> list[str]:
        return [self.formatted_key(key) for key in self.data.entries]

    def format_ahead(self, keys: Iterable[str]) -> dict[str, NodeData]:
        """Formatted ``keys`` the build cache lacks, by cache key. Called while reading,
        so that with ``-j`` the formatting is shared by the reading processes instead of
        falling to the main process, which resolves every page alone."""
        found: dict[str, NodeData] = {}
        for key in keys:
            entry = self.data.entries.get(key)
            if entry is None or not self._cacheable(key):
                continue
            assert self.cache is not None
            cache_key = self.formatted_key(key)
            if cache_key not in found and self.cache.peek(FORMATTED, cache_key) is None:
                data = node_data(_format(entry, self.data))
                if data is not None:
                    found[cache_key] = data
        return found


FORMATTED = "bibliography-entries"
FILE_PARTS = "bibliography-files"
PRUNED = "bibliography-pruned"  # the version of the .bib files last pruned for


@dataclass(frozen=True)
class BibFile:
    """What the build needs from one .bib file besides pybtex's parse."""

    texts: dict[str, str]  # key -> the entry as written
    context: str  # digest of its @string and @preamble entries
    identifiers: dict[str, dict[str, str]]  # key -> identifier fields as written


def _scan_file(text: str) -> BibFile:
    return BibFile(
        bib_entry_texts(text), digest(*bib_macro_texts(text)), bib_entry_identifiers(text)
    )


# Formatted entries are kept as plain tuples: unpickling 9,000 docutils node trees
# takes seconds, rebuilding them from tuples a fraction of that.
NodeData = str | tuple[str, dict[str, Any], list["NodeData"]]


def node_data(node: nodes.Node) -> NodeData | None:
    """``node`` as plain data, or None if it holds a node type other than docutils' own."""
    if isinstance(node, nodes.Text):
        return str(node)
    if not isinstance(node, nodes.Element):
        return None
    if getattr(nodes, type(node).__name__, None) is not type(node):
        return None
    children = [node_data(child) for child in node.children]
    if any(child is None for child in children):
        return None
    return type(node).__name__, dict(node.attributes), cast(list[NodeData], children)


def node_from_data(data: NodeData) -> nodes.Node:
    if isinstance(data, str):
        return nodes.Text(data)
    name, attributes, children = data
    element: nodes.Element = getattr(nodes, name)()
    element.extend(node_from_data(child) for child in children)
    for attribute, value in attributes.items():
        element[attribute] = list(value) if isinstance(value, list) else value
    return element


_LOADED: dict[tuple[tuple[tuple[str, float], ...], BuildCache], Bibliography] = {}


def load_bibliography(env: BuildEnvironment) -> Bibliography:
    """The entries sphinxcontrib-bibtex has parsed (it caches them in the environment), with
    each entry's text; one object per file version, so caches keyed by it hold."""
    bibdata = cast("BibtexDomain", env.get_domain("cite")).bibdata
    files = tuple((str(path), bibfile.mtime) for path, bibfile in bibdata.bibfiles.items())
    cache = build_cache(env.doctreedir)
    if (files, cache) not in _LOADED:
        _LOADED.clear()
        _LOADED[files, cache] = _load(bibdata.data, files, cache)
    return _LOADED[files, cache]


def _load(
    data: BibliographyData, files: tuple[tuple[str, float], ...], cache: BuildCache
) -> Bibliography:
    texts: dict[str, str] = {}
    identifiers: dict[str, dict[str, str]] = {}
    contexts, file_digests = [], []
    # A file saved since sphinxcontrib-bibtex parsed it: its text is not what pybtex
    # formats, so nothing of this build may be kept under that text's digest.
    usable = cache if all(Path(path).stat().st_mtime == mtime for path, mtime in files) else None
    for path, _ in files:
        text = Path(path).read_text(encoding="utf-8-sig")
        file_digests.append(digest(SCANNER_DIGEST, text))
        scanned = (
            usable.get(FILE_PARTS, file_digests[-1], partial(_scan_file, text))
            if usable is not None
            else _scan_file(text)
        )
        texts = scanned.texts | texts  # the first file wins, as in pybtex
        identifiers = scanned.identifiers | identifiers
        contexts.append(scanned.context)
    return Bibliography(data, texts, digest(*contexts), identifiers, usable, tuple(file_digests))


def load_before_reading(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Load the bibliography and formatted entries once, in the main process: with ``-j``
    every reading process is forked from it and would otherwise load them again."""
    if docnames:
        load_bibliography(env)
        build_cache(env.doctreedir).store(FORMATTED)


def keep_formatted_ahead(cache: BuildCache, formatted: dict[str, NodeData]) -> None:
    for cache_key, data in formatted.items():
        if cache.peek(FORMATTED, cache_key) is None:
            cache.put(FORMATTED, cache_key, data)


def forget_removed_entries(app: Sphinx, exception: BaseException | None) -> None:
    """Keep only formatted entries and file scans of the current .bib files: once per
    version of the files (each entry's key took 0.7 s of a no-change build at 34,000
    entries). Only a preview formats entries without pruning after, so a .bib edited in
    a preview and changed back leaves entries behind until the files next change:
    space, never a wrong entry, since each is kept under a digest of its text."""
    cache = build_cache(app.doctreedir)
    for (_, loaded_cache), bibliography in _LOADED.items():
        version = digest(STYLE_DIGEST, *bibliography.file_digests)
        if loaded_cache is not cache or cache.peek(PRUNED, PRUNED) == version:
            continue
        cache.keep_only(FORMATTED, bibliography.live_formatted_keys())
        cache.keep_only(FILE_PARTS, bibliography.file_digests)
        cache.put(PRUNED, PRUNED, version)


def citation_numbers(keys: Iterable[str]) -> dict[str, int]:
    """Number keys in order of first citation on a page."""
    numbers: dict[str, int] = {}
    for key in keys:
        numbers.setdefault(key, len(numbers) + 1)
    return numbers


def citation_id(key: str) -> str:
    return citation_anchor(key)


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


def source_link(
    label: str, keys: Sequence[str], bibliography: Bibliography, version_date: str
) -> list[nodes.Node]:
    """An item's source label: a link straight to the first of its references that has a
    DOI, arXiv id or URL, else to the first one's entry in the page's bibliography. The
    link carries Robust Links attributes (``version_date``: the issue's day) and, when
    the entry records an archived copy, "存档" beside it links that copy."""
    for key in keys:
        entry = bibliography.data.entries.get(key)
        fields = {n.lower(): v for n, v in entry.fields.items()} if entry else {}
        url = source_url(fields) if entry else None
        if url is not None:
            link = nodes.reference("", label, refuri=url, classes=["radar-source-link"])
            link[ROBUST_DATE] = version_date
            copy = archived_copy(fields)
            if copy is None:
                return [link]
            link[ROBUST_COPY] = copy.url
            archived = nodes.reference("", "存档", refuri=copy.url, classes=["radar-archived"])
            archived[ROBUST_DATE] = copy.date or version_date
            if copy.original:
                archived[ROBUST_ORIGINAL] = copy.original
            return [link, nodes.Text(" "), archived]
    return [nodes.reference("", label, refid=citation_id(keys[0]), classes=["radar-source-entry"])]


@lru_cache(maxsize=1)
def _formatter() -> tuple[Any, Any]:
    """The style and backend; pybtex looks plugins up in package metadata, which is slow."""
    register_style()
    return find_plugin("pybtex.style.formatting", "radar")(), find_plugin(
        "pybtex.backends", "docutils"
    )()


def _format(entry: Entry, data: BibliographyData) -> nodes.paragraph:
    """``data`` holds the entries a ``crossref`` takes fields from."""
    style, backend = _formatter()
    formatted = next(iter(style.format_entries([entry], bib_data=data)))
    paragraph: nodes.paragraph = backend.paragraph(formatted)
    return paragraph


Annotator = Callable[[str], list[nodes.Node]]


def bibliography_nodes(
    keys: Sequence[str], bibliography: Bibliography, annotate: Annotator | None = None
) -> list[nodes.Element]:
    """Numbered entries; ``annotate(key)`` adds lines under an entry's text."""
    result: list[nodes.Element] = []
    for number, key in enumerate(keys, start=1):
        citation = nodes.citation(ids=[citation_id(key)], classes=["radar-bib-entry"])
        citation += nodes.label("", str(number))
        entry = bibliography.data.entries.get(key)
        if entry is None:
            citation += nodes.paragraph("", f"{key}（references.bib 中没有这条文献）")
        else:
            citation += bibliography.formatted(key)
        if lacks_identifier(bibliography, key):
            citation += missing_identifier_note()  # right under the entry it is about
        if annotate is not None:
            citation += annotate(key)
        result.append(citation)
    return result


# One short mark per entry without an identifier; the explanation is said once, under the
# list. Neither is indexed for search (``translator.IGNORED_CLASSES``): it is not the work.
MISSING_IDENTIFIER_MARK = "（原文未附链接）"
MISSING_IDENTIFIER_EXPLANATION = (
    f"标有“{MISSING_IDENTIFIER_MARK.strip('（）')}”的条目：来源未给出 DOI、arXiv 编号或网址，"
    "待编辑补全。"
)


def lacks_identifier(bibliography: Bibliography, key: str) -> bool:
    entry = bibliography.data.entries.get(key)
    return entry is not None and not any(name in entry.fields for name in IDENTIFIER_FIELDS)


def missing_identifier_note() -> nodes.paragraph:
    return nodes.paragraph("", MISSING_IDENTIFIER_MARK, classes=["radar-missing-identifier"])


def missing_identifier_explanation(
    keys: Sequence[str], bibliography: Bibliography
) -> list[nodes.Node]:
    """The explanation of the mark, once under a list that has at least one marked entry."""
    if not any(lacks_identifier(bibliography, key) for key in keys):
        return []
    return [
        nodes.paragraph(
            "", MISSING_IDENTIFIER_EXPLANATION, classes=["radar-missing-identifier-explained"]
        )
    ]
