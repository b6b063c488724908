"""Whether an acceleration runs: accelerations are on (``RADAR_ACCEL`` is not ``0``),
the installed version of every package it touches is the one it was written for, and its
module imports. The module is imported only here and only then, so a private name that
an upgrade renamed turns that acceleration off (one info line says why) instead of
stopping the extension from loading."""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType

from juju_radar.sphinx_ext.config import (
    ACCEL_ENV,
    ACCEL_OFF_ENV,
    acceleration_enabled,
    accelerations_enabled,
)


@dataclass(frozen=True)
class Acceleration:
    name: str
    module: str  # where it lives; imported only when it may run
    written_for: tuple[tuple[str, str], ...]  # (distribution, version) it reaches into
    replaces: str
    upstream: str  # the upstream issue or limitation that makes it necessary
    delete_when: str
    gain: str  # measured at 3,650 issues (clean build; adding an issue)


@functools.cache
def _imported(module: str) -> ModuleType | str:
    """The module, or why it does not import."""
    try:
        return importlib.import_module(module)
    except (ImportError, AttributeError) as error:
        return f"{type(error).__name__}: {error}"


def _installed(distribution: str) -> str | None:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def other_version(written_for: tuple[tuple[str, str], ...]) -> str | None:
    """The first installed distribution that is not the version named, said, or None."""
    for distribution, version_meant in written_for:
        installed = _installed(distribution)
        if installed != version_meant:
            return (
                f"{distribution} {installed} is not {version_meant}, the version it was written for"
            )
    return None


def why_off(acceleration: Acceleration) -> str | None:
    """Why ``acceleration`` may not run, or None."""
    if not accelerations_enabled():
        return f"{ACCEL_ENV}=0"
    if not acceleration_enabled(acceleration.name):
        return f"{ACCEL_OFF_ENV} names it"
    if (other := other_version(acceleration.written_for)) is not None:
        return other
    imported = _imported(acceleration.module)
    return imported if isinstance(imported, str) else None


def load(acceleration: Acceleration) -> ModuleType | None:
    """The acceleration's module, where it may run."""
    if why_off(acceleration) is not None:
        return None
    imported = _imported(acceleration.module)
    return imported if isinstance(imported, ModuleType) else None


@dataclass(frozen=True)
class Reach:
    """A reach into a dependency past its documented API that the core still makes, where
    moving it here would rewrite what it serves: registered with the versions it was
    written for (an upgrade that changes them fails ``tests/test_accel.py`` and is said
    once by the build), the upstream reason, and when it goes. ``tests/test_private_names.py``
    allows its names in its module only."""

    name: str
    modules: tuple[str, ...]  # the modules of the package that reach
    names: tuple[str, ...]  # what it reaches: a dependency's module, then the name
    written_for: tuple[tuple[str, str], ...]
    upstream: str
    delete_when: str


def unchecked(reach: Reach) -> str | None:
    """Why ``reach`` may not hold on what is installed (another version), or None."""
    return other_version(reach.written_for)
