"""Which files of the repository are the site's source, and which are not."""

from __future__ import annotations

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
# Period pages the build writes beside the listing pages (see ``sphinx_ext.paging``).
GENERATED_PAGES = ("references", "best")
