"""Results kept between builds, keyed by a digest of everything they are computed from.

Formatting nine thousand BibTeX entries or re-checking an unchanged .bib file costs
seconds on every build of a large archive, although neither changed. Values are stored
in the doctree directory (a clean build starts without them) under content digests,
so a stale value can never be returned: a changed input is a different key. Each file
starts with the SHA-256 of the pickle that follows it, checked before unpickling: a file
altered or cut short is not loaded, and its values are computed again.
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

FOLDER_NAME = "radar-cache"
Value = TypeVar("Value")
Additions = dict[str, dict[str, Any]]  # namespace -> key -> value


# A file whose time of change is further back than this is known by its size and time:
# an edit within the filesystem's clock tick that kept its size could share both.
SETTLED_NS = 2_000_000_000


def digest(*parts: str | bytes) -> str:
    hasher = hashlib.sha1()
    for part in parts:
        hasher.update(part.encode() if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()


def source_digest(*modules: Any) -> str:
    """Changes when the code of any of ``modules`` changes."""
    return digest(*(Path(module.__file__).read_bytes() for module in modules))


SEAL = b"radar-cache sha256 "
SEAL_LENGTH = len(SEAL) + 64 + 1  # the prefix, the hex digest and a newline


def sealed(payload: bytes) -> bytes:
    return SEAL + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def unsealed(data: bytes) -> bytes | None:
    """The payload of ``sealed`` data, or None when it does not match its digest."""
    header, payload = data[:SEAL_LENGTH], data[SEAL_LENGTH:]
    expected = SEAL + hashlib.sha256(payload).hexdigest().encode() + b"\n"
    return payload if header == expected else None


class BuildCache:
    """Namespaced ``digest -> value`` maps, one file each, loaded when first used."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._stores: dict[str, dict[str, Any]] = {}
        self._changed: set[str] = set()
        self._journal: Additions | None = None

    def store(self, namespace: str) -> dict[str, Any]:
        if namespace not in self._stores:
            self._stores[namespace] = self._load(self.folder / f"{namespace}.pickle")
        return self._stores[namespace]

    @staticmethod
    def _load(path: Path) -> dict[str, Any]:
        try:
            payload = unsealed(path.read_bytes())
            store = pickle.loads(payload) if payload is not None else None
        except Exception:  # unreadable, or written by other code: start afresh
            return {}
        return store if isinstance(store, dict) else {}

    def get(self, namespace: str, key: str, compute: Callable[[], Value]) -> Value:
        store = self.store(namespace)
        if key not in store:
            self.put(namespace, key, compute())
        value: Value = store[key]
        return value

    def peek(self, namespace: str, key: str) -> Any:
        return self.store(namespace).get(key)

    def put(self, namespace: str, key: str, value: Any) -> None:
        self.store(namespace)[key] = value
        self._changed.add(namespace)
        if self._journal is not None:
            self._journal.setdefault(namespace, {})[key] = value

    def start_journal(self) -> None:
        """Note what is added from now on: a forked writer hands it back when it ends."""
        self._journal = {}

    def end_journal(self) -> Additions:
        journal, self._journal = self._journal or {}, None
        return journal

    def merge(self, additions: Additions) -> None:
        for namespace, values in additions.items():
            for key, value in values.items():
                self.put(namespace, key, value)

    def namespace(self, namespace: str) -> CacheNamespace:
        return CacheNamespace(self, namespace)

    def keep_only(self, namespace: str, live_keys: Iterable[str]) -> None:
        """Forget values no current input maps to, so the files do not grow forever."""
        store = self.store(namespace)
        live = set(live_keys)
        for key in [key for key in store if key not in live]:
            del store[key]
            self._changed.add(namespace)

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for namespace in sorted(self._changed):
            path = self.folder / f"{namespace}.pickle"
            scratch = path.with_suffix(f".{os.getpid()}.tmp")
            payload = pickle.dumps(self._stores[namespace], protocol=pickle.HIGHEST_PROTOCOL)
            scratch.write_bytes(sealed(payload))
            scratch.replace(path)
        self._changed.clear()


class CacheNamespace:
    """One namespace of a build cache, read and written as a mapping (``get``, ``[key] =``)."""

    def __init__(self, cache: BuildCache, namespace: str) -> None:
        self.cache = cache
        self.name = namespace

    def get(self, key: str) -> Any:
        return self.cache.peek(self.name, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self.cache.put(self.name, key, value)


_OPEN: dict[str, BuildCache] = {}


def build_cache(doctreedir: str | os.PathLike[str]) -> BuildCache:
    """The cache of the build using ``doctreedir`` (one object per build directory)."""
    folder = Path(doctreedir) / FOLDER_NAME
    return _OPEN.setdefault(str(folder), BuildCache(folder))


def start_build(app: Sphinx) -> None:
    """A new build (possibly after a clean) reads the file again."""
    _OPEN.pop(str(Path(app.doctreedir) / FOLDER_NAME), None)


def finish_build(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        build_cache(app.doctreedir).save()
