"""Which files of the repository are the site's source, and which are not."""

from __future__ import annotations

import os
import runpy
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

# Everything at the root that is not site source: the package, its tests and tools,
# build output and caches. Sphinx excludes them, copies of the site leave them out and
# the preview server does not watch them.
NOT_SITE = (
    ".git",
    ".venv",
    "_build",
    "_build.*",
    "tests",
    "bench",
    "tools",
    "juju_radar",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".ci",
    "docs",
    "README.md",
    "BENCHMARKS.md",
    "Makefile",
    "pyproject.toml",
)
# The site's interface translations, as .po text (``model.translations``); the build
# compiles them itself.
TRANSLATIONS = "locales"
# Files that Sphinx or docutils read by name, at the site's root, and that would change
# how the build reads content: code, never content. ``docutils.conf`` overrides the
# build's settings (it turns raw HTML and file insertion back on, and its
# ``record_dependencies`` writes any file). A pull request adding one is refused, named.
REFUSED_CODE_FILES = ("docutils.conf",)


def is_not_site(relative: str) -> bool:
    """Whether a path relative to the site root is left out of the site (``NOT_SITE``)."""
    return any(fnmatch(relative, pattern) for pattern in NOT_SITE)


def site_files(root: Path, suffix: str = "") -> list[Path]:
    """The site's files (ending in ``suffix``), without following symlinked folders."""
    found = []
    for folder, dirnames, filenames in os.walk(root):
        base = Path(folder)
        dirnames[:] = sorted(
            name for name in dirnames if not is_not_site((base / name).relative_to(root).as_posix())
        )
        for name in sorted(filenames):
            relative = (base / name).relative_to(root).as_posix()
            if name.endswith(suffix) and not is_not_site(relative):
                found.append(base / name)
    return found


def refused_code_files(root: Path) -> list[Problem]:
    """Files of ``REFUSED_CODE_FILES`` present at the site's root."""
    return [
        Problem(
            name,
            1,
            "error",
            "refused-file",
            _(
                "{name} would configure the build: the archive's settings are in conf.py "
                "and the package; delete it"
            ).format(name=name),
        )
        for name in REFUSED_CODE_FILES
        if (root / name).exists() or (root / name).is_symlink()
    ]


def outside_symlinks(root: Path) -> list[Problem]:
    """Symlinks of the site that point out of it: a build would publish their target."""
    resolved_root = root.resolve()
    problems = []
    for folder, dirnames, filenames in os.walk(root):
        base = Path(folder)
        dirnames[:] = [
            name for name in dirnames if not is_not_site((base / name).relative_to(root).as_posix())
        ]
        for name in sorted([*dirnames, *filenames]):
            path = base / name
            if path.is_symlink() and not path.resolve().is_relative_to(resolved_root):
                relative = path.relative_to(root).as_posix()
                problems.append(
                    Problem(
                        relative,
                        1,
                        "error",
                        "symlink-outside",
                        _(
                            "a symlink to {target}, outside the repository: commit the file itself"
                        ).format(target=os.readlink(path)),
                    )
                )
    return problems


class SiteConfigError(Exception):
    """The site's conf.py is missing or fails when run."""


def read_site_config(root: Path) -> dict[str, Any]:
    """The names the site's conf.py defines, run as plain Python (it imports no Sphinx):
    the one reading of it outside Sphinx, for ``radar`` and ``make html``'s own lines."""
    conf = root / "conf.py"
    if not conf.is_file():
        message = _("{path}: not a site root (no conf.py); use --root DIR")
        raise SiteConfigError(message.format(path=root))
    try:
        return runpy.run_path(str(conf))
    except Exception as error:
        message = _("{path}: cannot be loaded: {kind}: {error}").format(
            path=conf, kind=type(error).__name__, error=error
        )
        raise SiteConfigError(message) from error
