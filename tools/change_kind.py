"""Whether a push changes content only, for the deploy workflow: ``content`` when every
changed file is the archive's content (issues, topic pages, the site's own pages,
``references.bib``), else ``code``. A content push is checked (``radar check``), built and
link-checked, then deployed, without the code's test suite; a code push runs everything.

``python3 tools/change_kind.py BEFORE AFTER`` prints the kind of the commits between
two revisions. Standard library only: it runs before anything is installed. Anything it
cannot tell (a first push, a revision it does not have) is ``code``.
"""

from __future__ import annotations

import subprocess
import sys
from fnmatch import fnmatch

# Content, by path from the repository's root: what editors change every day. Anything
# else (juju_radar/, conf.py, pyproject.toml, Makefile, tests/, .github/, .ci/, locales/,
# tools/, bench/) is code.
CONTENT = ("issues/*", "topics/*", "references.bib", "index.md", "best.md", "references.md")
CONTENT += ("search.md", "stats.md")
NO_REVISION = "0" * 40


def kind(paths: list[str]) -> str:
    """``content`` when there are changed paths and all are content."""
    is_content = [any(fnmatch(path, pattern) for pattern in CONTENT) for path in paths]
    return "content" if paths and all(is_content) else "code"


def changed_paths(before: str, after: str) -> list[str] | None:
    if not before or before == NO_REVISION:
        return None
    result = subprocess.run(
        ["git", "diff", "--name-only", "--no-renames", before, after],
        capture_output=True,
        text=True,
    )
    return result.stdout.split() if result.returncode == 0 else None


def main(argv: list[str]) -> str:
    before, after = (argv + ["", "HEAD"])[:2]
    paths = changed_paths(before, after)
    return "code" if paths is None else kind(paths)


if __name__ == "__main__":
    print(main(sys.argv[1:]))
