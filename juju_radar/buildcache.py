"""Results kept between builds, keyed by a digest of everything they are computed from.

Formatting nine thousand BibTeX entries or re-checking an unchanged .bib file costs
seconds on every build of a large archive, although neither changed. Values are stored
in the doctree directory (a clean build starts without them) under content digests,
so a stale value can never be returned: a changed input is a different key.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from sphinx.application import Sphinx

FILE_NAME = "radar-cache.pickle"
Value = TypeVar("Value")


def digest(*parts: str | bytes) -> str:
    hasher = hashlib.sha1()
    for part in parts:
        hasher.update(part.encode() if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()


def source_digest(*modules: Any) -> str:
    """Changes when the code of any of ``modules`` changes."""
    return digest(*(Path(module.__file__).read_bytes() for module in modules))


class BuildCache:
    """Namespaced ``digest -> value`` maps, loaded lazily and saved when changed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stores: dict[str, dict[str, Any]] | None = None
        self._changed = False

    @property
    def stores(self) -> dict[str, dict[str, Any]]:
        if self._stores is None:
            self._stores = self._load()
        return self._stores

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            with self.path.open("rb") as file:
                stores = pickle.load(file)
        except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError):
            return {}
        return stores if isinstance(stores, dict) else {}

    def get(self, namespace: str, key: str, compute: Callable[[], Value]) -> Value:
        store = self.stores.setdefault(namespace, {})
        if key not in store:
            store[key] = compute()
            self._changed = True
        value: Value = store[key]
        return value

    def keep_only(self, namespace: str, live_keys: Iterable[str]) -> None:
        """Forget values no current input maps to, so the file does not grow forever."""
        store = self.stores.get(namespace, {})
        live = set(live_keys)
        for key in [key for key in store if key not in live]:
            del store[key]
            self._changed = True

    def save(self) -> None:
        if not self._changed or self._stores is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        scratch = self.path.with_suffix(f".{os.getpid()}.tmp")
        with scratch.open("wb") as file:
            pickle.dump(self._stores, file, protocol=pickle.HIGHEST_PROTOCOL)
        scratch.replace(self.path)
        self._changed = False


_OPEN: dict[str, BuildCache] = {}


def build_cache(doctreedir: str | os.PathLike[str]) -> BuildCache:
    """The cache of the build using ``doctreedir`` (one object per build directory)."""
    path = Path(doctreedir) / FILE_NAME
    return _OPEN.setdefault(str(path), BuildCache(path))


def start_build(app: Sphinx) -> None:
    """A new build (possibly after a clean) reads the file again."""
    _OPEN.pop(str(Path(app.doctreedir) / FILE_NAME), None)


def finish_build(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        build_cache(app.doctreedir).save()
