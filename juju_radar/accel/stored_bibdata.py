"""sphinxcontrib-bibtex's parse of the .bib files, kept beside the environment, and
parsed again only where the files changed.

sphinxcontrib-bibtex keeps the parsed entries in the environment, so every build that
read a page pickled all of them again: 11 of the environment's 41 MB and 0.5 s of adding
an issue at 34,000 references. Here the parse is pickled with the environment as a
reference (``StoredBibData``) to a copy in the build cache, which is written only when
the files were parsed again. When the copy is missing, the reference comes back with no
files, and the files are parsed again.

When a file changed, sphinxcontrib-bibtex parses every file whole (a second at 12,600
references). Here, before it looks, the files are cut into the segments the .bib check
reads (:func:`juju_radar.bib.reader.segment_starts`), each known by its text and the
segment that last defined a ``@string`` before it; the entries of a segment the stored
parse holds are taken from it, and only new or changed segments are parsed, by pybtex's
own ``Parser`` with the macros in effect, in file order. sphinxcontrib-bibtex then finds
its data up to date. Where pybtex reports anything (a syntax error, a repeated key, a
name it cannot split), nothing is replaced and sphinxcontrib-bibtex parses the files as
it does without accelerations. ``tests/test_accel_bib_segments.py`` proves on generated
files and edits that the result equals sphinxcontrib-bibtex's own parse.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import pybtex.io
from pybtex.database import BibliographyData
from sphinxcontrib.bibtex.bibfile import BibData, BibFile, get_mtime, is_bibdata_outdated

from juju_radar.bib.pybtex_parser import pybtex_parse
from juju_radar.bib.reader import month_macros, segment_starts
from juju_radar.bib.segment_cache import MAX_JOINED, segment_key
from juju_radar.store.cache import build_cache, digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from juju_radar.sphinx_ext.pipeline import Steps

PARSED_BIB = "parsed-bib"
PARSERS = ("pybtex", "sphinxcontrib-bibtex")
STORED_FORMAT = "parse and segments"

SegmentEntries = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]
"""What a segment added to the parse: its entries' keys, its ``@preamble`` values and the
``@string`` macros it defined (kept as plain tuples: they unpickle fastest)."""


class StoredParse(NamedTuple):
    """The build cache's copy: the parse, and what each segment of the files added to it."""

    data: BibliographyData
    segments: dict[str, SegmentEntries]


class StoredBibData(BibData):
    """A ``BibData`` whose entries are pickled as ``key``, their place in the build
    cache; unpickled, its ``data`` is None until ``restore`` finds them. Copies keep
    the entries; one made by ``_replace`` has no key and is parsed again when loaded.
    ``segments``: what each segment added (not pickled: it is kept with the entries)."""

    key = ""
    segments: Mapping[str, SegmentEntries] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return stored_bibdata, (self.encoding, self.bibfiles, None, self.key)

    def __copy__(self) -> StoredBibData:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> StoredBibData:
        bibfiles, data = deepcopy(self.bibfiles, memo), deepcopy(self.data, memo)
        return stored_bibdata(self.encoding, bibfiles, data, self.key, self.segments)


def stored_bibdata(
    encoding: str,
    bibfiles: dict[Path, BibFile],
    data: BibliographyData | None,
    key: str,
    segments: Mapping[str, SegmentEntries] | None = None,
) -> StoredBibData:
    stored = StoredBibData(encoding, bibfiles, cast("BibliographyData", data))
    stored.key = key
    stored.segments = segments or {}
    return stored


def parse_key(bibdata: BibData) -> str:
    """Changes whenever sphinxcontrib-bibtex would parse the files again, and with the
    parser: the cached parse is pybtex's objects, pickled."""
    files = (
        f"{path}\0{bibfile.mtime!r}\0{len(bibfile.keys)}"
        for path, bibfile in bibdata.bibfiles.items()
    )
    return digest(STORED_FORMAT, parsers_salt(bibdata.encoding), *files)


def parsers_salt(encoding: str) -> str:
    return digest(encoding, *(f"{name} {version(name)}" for name in PARSERS))


def _domain_data(env: BuildEnvironment) -> dict[str, Any]:
    return cast("dict[str, Any]", env.domaindata["cite"])


def store(app: Sphinx, env: BuildEnvironment) -> None:
    """Before the environment is pickled: the parse, into the build cache if it is new."""
    data = _domain_data(env)
    bibdata = data["bibdata"]
    if bibdata is None or (isinstance(bibdata, StoredBibData) and bibdata.key):
        return
    key = parse_key(bibdata)  # parsed again, here or by sphinxcontrib-bibtex
    segments = dict(bibdata.segments) if isinstance(bibdata, StoredBibData) else {}
    cache = build_cache(app.doctreedir)
    cache.put(PARSED_BIB, key, StoredParse(bibdata.data, segments))
    cache.keep_only(PARSED_BIB, [key])
    data["bibdata"] = stored_bibdata(
        bibdata.encoding, bibdata.bibfiles, bibdata.data, key, segments
    )


def restore(app: Sphinx) -> None:
    """Before sphinxcontrib-bibtex checks the files: the parse the environment refers to,
    or no files at all; then, where a file changed, the parse done again by segment."""
    data = _domain_data(app.env)
    bibdata = data.get("bibdata")
    if isinstance(bibdata, StoredBibData) and bibdata.data is None:
        data["bibdata"] = bibdata = loaded(app, bibdata)
    paths = bib_paths(app)
    encoding = app.config.bibtex_encoding
    if isinstance(bibdata, BibData) and paths and is_bibdata_outdated(bibdata, paths, encoding):
        reparsed = parse_by_segment(paths, encoding, bibdata)
        if reparsed is not None:
            data["bibdata"] = reparsed


def loaded(app: Sphinx, bibdata: StoredBibData) -> BibData:
    """The stored parse ``bibdata`` refers to, or no files at all (to be parsed again)."""
    stored = build_cache(app.doctreedir).peek(PARSED_BIB, bibdata.key)
    if isinstance(stored, StoredParse) and parse_key(bibdata) == bibdata.key:
        return stored_bibdata(
            bibdata.encoding, bibdata.bibfiles, stored.data, bibdata.key, stored.segments
        )
    return BibData(bibdata.encoding, {}, BibliographyData())


def bib_paths(app: Sphinx) -> list[Path] | None:
    """The .bib files as sphinxcontrib-bibtex names them (``builder_inited_cite``)."""
    names = app.config.bibtex_bibfiles
    if names is None:
        return None
    return [(Path(app.confdir) / name).resolve() for name in names]


# ---------------------------------------------------------------------------
# The parse by segment
# ---------------------------------------------------------------------------


class Parsed(NamedTuple):
    """One segment's entries, ``@preamble`` values and ``@string`` macros."""

    entries: list[tuple[str, Any]]
    preamble: tuple[str, ...]
    macros: tuple[tuple[str, str], ...]


def parse_by_segment(paths: list[Path], encoding: str, previous: BibData) -> StoredBibData | None:
    """What sphinxcontrib-bibtex's ``parse_bibdata(paths, encoding)`` gives, the entries
    of the segments ``previous`` parsed taken from it; None where pybtex reports
    anything, or a file cannot be read."""
    kept = previous.segments if isinstance(previous, StoredBibData) else {}
    segments = SegmentParse(parsers_salt(encoding), kept, previous.data)
    data = BibliographyData()
    bibfiles: dict[Path, BibFile] = {}
    for path in paths:
        try:
            parsed = segments.of_text(read_bib_file(path, encoding))
        except (OSError, UnicodeError):
            return None
        if parsed is None:
            return None
        file_keys: list[str] = []
        for segment in parsed:
            for key, entry in segment.entries:
                if key in data.entries:
                    return None  # pybtex reports a repeated entry
                data.add_entry(key, entry)
                file_keys.append(key)
            data.add_to_preamble(*segment.preamble)
        bibfiles[path] = BibFile(mtime=get_mtime(path), keys=dict.fromkeys(file_keys))
    return stored_bibdata(encoding, bibfiles, data, "", segments.added)


def read_bib_file(path: Path, encoding: str) -> str:
    """The text as pybtex's ``Parser.parse_file`` reads it."""
    with pybtex.io.open_unicode(str(path), encoding=encoding) as stream:
        return cast("str", stream.read())


class SegmentParse:
    """One pass over the files' segments, in order, as one pybtex parser reads them all:
    the macros a segment defines are in effect in the segments and files after it."""

    def __init__(
        self, salt: str, kept: Mapping[str, SegmentEntries], kept_data: BibliographyData | None
    ) -> None:
        self.salt = salt
        self.kept = kept
        self.kept_data = kept_data
        self.macros: Mapping[str, str] = {
            name: macro.text or "" for name, macro in month_macros().items()
        }
        self.macros_from = ""  # the key of the last segment that defined a macro
        self.added: dict[str, SegmentEntries] = {}

    def of_text(self, text: str) -> list[Parsed] | None:
        """The segments of one file, taken from the stored parse or parsed; None when
        pybtex reports anything in one (joined with those after it, up to
        :data:`MAX_JOINED`)."""
        found = []
        bounds = [*segment_starts(text), len(text)]
        first = 0
        while first < len(bounds) - 1:
            segment = self.clean_segment(text, bounds[first : first + 1 + MAX_JOINED])
            if segment is None:
                return None
            key, parsed, joined = segment
            first += joined
            self.added[key] = (tuple(k for k, _ in parsed.entries), parsed.preamble, parsed.macros)
            if parsed.macros:
                self.macros = {**self.macros, **dict(parsed.macros)}
                self.macros_from = key
            found.append(parsed)
        return found

    def clean_segment(self, text: str, bounds: list[int]) -> tuple[str, Parsed, int] | None:
        """The segment from ``bounds[0]``, joined with those after it until pybtex reads
        it alone without a complaint: its key, its entries, how many segments it joins."""
        for joined, end in enumerate(bounds[1:], 1):
            segment_text = text[bounds[0] : end]
            key = segment_key(self.salt, self.macros_from, segment_text)
            parsed = kept_segment(self.kept.get(key), self.kept_data)
            if parsed is None:
                parsed = parse_segment(segment_text, self.macros)
            if parsed is not None:
                return key, parsed, joined
        return None


def kept_segment(entries: SegmentEntries | None, data: BibliographyData | None) -> Parsed | None:
    """A segment's entries, from the stored parse."""
    if entries is None or data is None:
        return None
    keys, preamble, macros = entries
    found = [(key, data.entries.get(key)) for key in keys]
    if any(entry is None for _, entry in found):
        return None
    return Parsed(found, preamble, macros)


def parse_segment(text: str, macros: Mapping[str, str]) -> Parsed | None:
    """A segment parsed by pybtex's ``Parser`` with ``macros`` in effect; None when
    pybtex reports anything."""
    parsed = pybtex_parse(text, macros)
    if parsed.data is None or parsed.complaints:
        return None
    defined = tuple(
        (name, value) for name, value in parsed.macros.items() if macros.get(name) != value
    )
    return Parsed(list(parsed.data.entries.items()), tuple(parsed.data.preamble_list), defined)


def connect(app: Sphinx, steps: Steps) -> None:
    steps.offer("restore-bibdata", restore)
    steps.offer("store-bibdata", store)
