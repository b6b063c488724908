"""``radar links``: the links of the built site, or (``--external``) the sources
``references.bib`` cites, checked and reported one line each."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TextIO

from juju_radar.editors.check_run import counted
from juju_radar.editors.exit_status import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE
from juju_radar.editors.site_files import Site


def check_built_links(outdir: Path, newer_than: Path | None, out: TextIO, err: TextIO) -> int:
    """Every link of the pages in ``outdir`` (those written after ``newer_than`` was,
    when given) that does not resolve; the exit status."""
    from juju_radar.editors.site_links import broken_links, html_pages, pages_written_since

    pages = html_pages(outdir)
    if not pages:
        print(f"radar: error: {outdir} holds no built pages: run make html", file=err)
        return EXIT_USAGE
    if newer_than is not None:
        pages = pages_written_since(outdir, newer_than)
    broken = broken_links(outdir, pages)
    for line in broken:
        print(f"{line} [broken-link]", file=out)
    print(f"{counted(len(broken), 'broken link')} in {counted(len(pages), 'page')}", file=err)
    return EXIT_PROBLEMS if broken else EXIT_OK


def check_cited_sources(
    site: Site, report_name: str, strict: bool, out: TextIO, err: TextIO
) -> int:
    """Dead, moved and refused sources, one line each at their line of references.bib,
    and the report file (``report_name``, below the site's root). Exit 1 only when
    ``strict`` and a source is dead."""
    from juju_radar.editors import external_links as external

    settings = external.LinkSettings.from_environment()
    bib_name = site.relative(site.bib_path)
    text = site.bib_path.read_text(encoding="utf-8-sig") if site.bib_path.is_file() else ""
    sources = external.cited_sources(text, settings.doi_url)
    states = external.check_sources(sources, settings)
    for state in states:
        if state.state != "ok":
            line = f"{bib_name}:{state.line}: {state.state}: {state.key} {state.url}"
            print(f"{line} ({state.detail}) [source-{state.state}]", file=out)
    report_path = site.root / report_name
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report = external.report(states, bib_name)
    report_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", "utf-8")
    dead = sum(state.state == "dead" for state in states)
    summary = Counter(state.state for state in states)
    counts = ", ".join(f"{summary[name]} {name}" for name in ("ok", "moved", "refused", "dead"))
    print(f"{counted(len(states), 'source')} checked: {counts}; report in {report_name}", file=err)
    return EXIT_PROBLEMS if dead and strict else EXIT_OK
