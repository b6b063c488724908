"""Per-issue downloads written beside each issue page: the ``.bib`` of what it cites.

Written with the page, and at the end of every build wherever one is missing: a page
that was not rewritten still links its download (deleted output, an interrupted build).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from juju_radar.sphinx_ext.bibliography import load_bibliography
from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.model.issues import Issue


def write_issue_bib(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    issue = radar_data(app.env).issues.get(pagename)
    if issue is None or app.builder.format != "html":
        return
    target = Path(app.outdir, f"{pagename}.bib")
    if not issue.citation_keys:
        target.unlink(missing_ok=True)  # written when the issue still cited something
        return
    _write(app, issue, target)


def write_missing_issue_bibs(app: Sphinx, exception: BaseException | None) -> None:
    """Every issue that cites something has its download, whether or not its page was
    rewritten by this build."""
    if exception is not None or app.builder.format != "html":
        return
    for docname, issue in sorted(radar_data(app.env).issues.items()):
        target = Path(app.outdir, f"{docname}.bib")
        if issue.citation_keys and not target.is_file():
            _write(app, issue, target)


def _write(app: Sphinx, issue: Issue, target: Path) -> None:
    entries = load_bibliography(app.env).texts
    text = "\n".join(entries[key] for key in issue.citation_keys if key in entries)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
