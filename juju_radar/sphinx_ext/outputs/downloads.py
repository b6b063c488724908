"""Per-issue downloads written beside each issue page: what it cites, as the entries of
``references.bib`` (``.bib``), RIS (``.ris``) and CSL-JSON (``.csl.json``); and how to
cite the issue and each of its items, in the same three formats (``.cite.bib``...).

Written with the page, and at the end of every build wherever one is missing: a page
that was not rewritten still links its download (deleted output, an interrupted build).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from juju_radar.bib import cite_this as cite
from juju_radar.bib.exchange import (
    BIBTEX_SUFFIX,
    CITE_SUFFIXES,
    CSL_JSON_SUFFIX,
    DOWNLOAD_SUFFIXES,
    RIS_SUFFIX,
    csl_json,
    csl_record,
    published_entry_text,
    ris_text,
)
from juju_radar.model.license import configured_license
from juju_radar.outputs.files import write_if_changed
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.bibliography import Bibliography, load_bibliography
from juju_radar.sphinx_ext.collector import radar_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.model.issue_records import Issue


def write_issue_bib(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    issue = radar_data(app.env).issues.get(pagename)
    if issue is None or app.builder.format != "html":
        return
    _write_cite(app, issue, pagename)
    if not issue.citation_keys:
        for target in _targets(app, pagename):
            target.unlink(missing_ok=True)  # written when the issue still cited something
        return
    _write(app, issue, pagename)


def write_missing_issue_bibs(app: Sphinx, exception: BaseException | None) -> None:
    """Every issue that cites something has its download, whether or not its page was
    rewritten by this build."""
    if exception is not None or app.builder.format != "html":
        return
    files_in = _folder_listing(Path(app.outdir))
    for docname, issue in sorted(radar_data(app.env).issues.items()):
        folder, _, name = docname.rpartition("/")
        present = files_in(folder)
        if issue.citation_keys and not _all_present(present, name, DOWNLOAD_SUFFIXES):
            _write(app, issue, docname)
        if not _all_present(present, name, CITE_SUFFIXES):
            _write_cite(app, issue, docname)


def _all_present(present: frozenset[str], name: str, suffixes: tuple[str, ...]) -> bool:
    return all(f"{name}{suffix}" in present for suffix in suffixes)


def _folder_listing(outdir: Path) -> Callable[[str], frozenset[str]]:
    """The names in a folder of ``outdir``, listed once (a stat of each download took
    half a second of a build that changed nothing, at 3,650 issues)."""

    @cache
    def files_in(folder: str) -> frozenset[str]:
        try:
            return frozenset(os.listdir(outdir / folder))
        except OSError:
            return frozenset()

    return files_in


def _targets(
    app: Sphinx, docname: str, suffixes: tuple[str, ...] = DOWNLOAD_SUFFIXES
) -> list[Path]:
    return [Path(app.outdir, f"{docname}{suffix}") for suffix in suffixes]


@lru_cache(maxsize=16384)
def _record(bibliography: Bibliography, key: str) -> dict[str, Any]:
    """One entry as CSL-JSON, made once per version of the .bib files (a Bibliography
    is one object per version). Not to be changed by callers."""
    return csl_record(key, bibliography.data.entries[key])


def cited_records(app: Sphinx, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The CSL-JSON records of what an issue (or a story) cites, in order of first citation."""
    bibliography = load_bibliography(app.env)
    entries = bibliography.data.entries
    return [_record(bibliography, key) for key in dict.fromkeys(keys) if key in entries]


def _write(app: Sphinx, issue: Issue, docname: str) -> None:
    entries, keys = load_bibliography(app.env).texts, issue.citation_keys
    records = cited_records(app, issue.citation_keys)
    texts = {
        BIBTEX_SUFFIX: "\n".join(
            published_entry_text(entries[key]) for key in keys if key in entries
        ),
        RIS_SUFFIX: ris_text(records),
        CSL_JSON_SUFFIX: csl_json(records),
    }
    Path(app.outdir, docname).parent.mkdir(parents=True, exist_ok=True)
    for suffix, text in texts.items():
        write_if_changed(Path(app.outdir, f"{docname}{suffix}"), text)


def _write_cite(app: Sphinx, issue: Issue, docname: str) -> None:
    """The issue and its items as citable works, as the page's cite boxes give them."""
    site = SiteUrl.from_config(app.config)
    url = site.url(app.builder.get_target_uri(docname)) if site else ""
    works = cite.issue_works(issue, url)
    license = configured_license(app.config.radar_license)
    records = [cite.csl_record(work, license) for work in works]
    # Text outside BibTeX entries is a comment to every reader of the file.
    guidance = f"% {cite.urldate_guidance(works[0].modified)}\n\n" if works[0].modified else ""
    texts = dict(
        zip(
            CITE_SUFFIXES,
            (
                guidance + "\n\n".join(cite.bibtex(work, None, license) for work in works) + "\n",
                ris_text(records),
                csl_json(records),
            ),
            strict=True,
        )
    )
    Path(app.outdir, docname).parent.mkdir(parents=True, exist_ok=True)
    for suffix, text in texts.items():
        write_if_changed(Path(app.outdir, f"{docname}{suffix}"), text)
