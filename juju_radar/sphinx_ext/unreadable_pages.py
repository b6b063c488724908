"""Pages the build cannot read as text: reported as ``radar check`` reports them, at the
line of the first byte that is not UTF-8 (``encoding``) or at line 1 (``unreadable``),
and left out of the build, instead of Sphinx's crash report naming no line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model.page_files import read_utf8
from juju_radar.sphinx_ext.collector import warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def leave_out_unreadable(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``: the pages to read that cannot be, reported and left out
    (read again by the next build, which reports them again until they are fixed)."""
    for docname in sorted(added | changed):
        path = Path(env.doc2path(docname))
        _text, problems = read_utf8(path, path.relative_to(app.srcdir).as_posix())
        if not problems:
            continue
        for problem in problems:
            warn(problem, f"{path}:{problem.line}")
        env.found_docs.discard(docname)
        added.discard(docname)
        changed.discard(docname)
        if docname in env.all_docs:
            removed.add(docname)
    return []
