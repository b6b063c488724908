"""sphinxcontrib-bibtex's parse of the .bib files, kept beside the environment.

sphinxcontrib-bibtex keeps the parsed entries in the environment, so every build that
read a page pickled all of them again: 11 of the environment's 41 MB and 0.5 s of adding
an issue at 34,000 references. Here the parse is pickled with the environment as a
reference (``StoredBibData``) to a copy in the build cache, which is written only when
sphinxcontrib-bibtex parsed the files again. When the copy is missing, the reference
comes back with no files, and sphinxcontrib-bibtex parses them again.
"""

from __future__ import annotations

from copy import deepcopy
from importlib.metadata import version
from typing import TYPE_CHECKING, Any, cast

from pybtex.database import BibliographyData
from sphinxcontrib.bibtex.bibfile import BibData, BibFile

from juju_radar.store.cache import build_cache, digest

if TYPE_CHECKING:
    from pathlib import Path

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

PARSED_BIB = "parsed-bib"
PARSERS = ("pybtex", "sphinxcontrib-bibtex")


class StoredBibData(BibData):
    """A ``BibData`` whose entries are pickled as ``key``, their place in the build
    cache; unpickled, its ``data`` is None until ``restore`` finds them. Copies keep
    the entries; one made by ``_replace`` has no key and is parsed again when loaded."""

    key = ""

    def __reduce__(self) -> tuple[Any, ...]:
        return stored_bibdata, (self.encoding, self.bibfiles, None, self.key)

    def __copy__(self) -> StoredBibData:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> StoredBibData:
        bibfiles, data = deepcopy(self.bibfiles, memo), deepcopy(self.data, memo)
        return stored_bibdata(self.encoding, bibfiles, data, self.key)


def stored_bibdata(
    encoding: str, bibfiles: dict[Path, BibFile], data: BibliographyData | None, key: str
) -> StoredBibData:
    stored = StoredBibData(encoding, bibfiles, cast("BibliographyData", data))
    stored.key = key
    return stored


def parse_key(bibdata: BibData) -> str:
    """Changes whenever sphinxcontrib-bibtex would parse the files again, and with the
    parser: the cached parse is pybtex's objects, pickled."""
    files = (
        f"{path}\0{bibfile.mtime!r}\0{len(bibfile.keys)}"
        for path, bibfile in bibdata.bibfiles.items()
    )
    parsers = (f"{name} {version(name)}" for name in PARSERS)
    return digest(bibdata.encoding, *parsers, *files)


def _domain_data(env: BuildEnvironment) -> dict[str, Any]:
    return cast("dict[str, Any]", env.domaindata["cite"])


def store(app: Sphinx, env: BuildEnvironment) -> None:
    """Before the environment is pickled: the parse, into the build cache if it is new."""
    data = _domain_data(env)
    bibdata = data["bibdata"]
    if isinstance(bibdata, StoredBibData) or bibdata is None:
        return
    key = parse_key(bibdata)  # a plain BibData: sphinxcontrib-bibtex has just parsed
    cache = build_cache(app.doctreedir)
    cache.put(PARSED_BIB, key, bibdata.data)
    cache.keep_only(PARSED_BIB, [key])
    data["bibdata"] = stored_bibdata(bibdata.encoding, bibdata.bibfiles, bibdata.data, key)


def restore(app: Sphinx) -> None:
    """Before sphinxcontrib-bibtex checks the files: the parse the environment refers to,
    or no files at all, so that it parses them again."""
    data = _domain_data(app.env)
    bibdata = data.get("bibdata")
    if not isinstance(bibdata, StoredBibData) or bibdata.data is not None:
        return
    parsed = build_cache(app.doctreedir).peek(PARSED_BIB, bibdata.key)
    if isinstance(parsed, BibliographyData):
        data["bibdata"] = stored_bibdata(bibdata.encoding, bibdata.bibfiles, parsed, bibdata.key)
    else:
        data["bibdata"] = BibData(bibdata.encoding, {}, BibliographyData())


def connect(app: Sphinx) -> None:
    app.connect("builder-inited", restore, priority=400)  # sphinxcontrib-bibtex's: 500
    app.connect("env-updated", store, priority=900)
