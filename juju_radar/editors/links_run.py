"""``radar links``: the links of the built site, or (``--external``) the sources
``references.bib`` cites, checked and reported one line each."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TextIO

from juju_radar.editors.exit_status import (
    EXIT_OFFLINE,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    command_error,
)
from juju_radar.editors.site_files import Site
from juju_radar.model.messages import N_, _, ngettext

# What asking a source found, as each line of ``radar links --external`` says it.
STATE_WORDS = {"ok": N_("ok"), "moved": N_("moved"), "refused": N_("refused"), "dead": N_("dead")}


def check_built_links(outdir: Path, newer_than: Path | None, out: TextIO, err: TextIO) -> int:
    """Every link of the pages in ``outdir`` (those written after ``newer_than`` was,
    when given) that does not resolve; the exit status."""
    from juju_radar.editors.site_links import broken_links, html_pages, pages_written_since

    pages = html_pages(outdir)
    if not pages:
        message = _("{outdir} holds no built pages: run make html").format(outdir=outdir)
        print(command_error(message), file=err)
        return EXIT_USAGE
    if newer_than is not None:
        pages = pages_written_since(outdir, newer_than)
    broken = broken_links(outdir, pages)
    for line in broken:
        print(f"{line} [broken-link]", file=out)
    broken_count, page_count = len(broken), len(pages)
    links = ngettext("{count} broken link", "{count} broken links", broken_count)
    in_pages = ngettext("{count} page", "{count} pages", page_count)
    summary = _("{links} in {pages}").format(
        links=links.format(count=broken_count), pages=in_pages.format(count=page_count)
    )
    print(summary, file=err)
    return EXIT_PROBLEMS if broken else EXIT_OK


def check_cited_sources(
    site: Site, report_name: str, strict: bool, out: TextIO, err: TextIO
) -> int:
    """Dead, moved and refused sources, one line each at their line of references.bib,
    and the report file (``report_name``, below the site's root). Exit 1 only when
    ``strict`` and a source is dead; :data:`EXIT_OFFLINE`, with no report, when no host
    name could be resolved."""
    from juju_radar.editors import external_links as external
    from juju_radar.editors.public_net import NetworkUnavailable

    settings = external.LinkSettings.from_environment(site.config)
    bib_name = site.relative(site.bib_path)
    text = site.bib_path.read_text(encoding="utf-8-sig") if site.bib_path.is_file() else ""
    sources = external.cited_sources(text, settings.doi_url)
    try:
        states = external.check_sources(sources, settings)
    except NetworkUnavailable as offline:
        print(command_error(offline.line()), file=err)
        return EXIT_OFFLINE
    for state in states:
        if state.state != "ok":
            word = _(STATE_WORDS[state.state])
            line = f"{bib_name}:{state.line}: {word}: {state.key} {state.url}"
            print(f"{line} ({state.detail}) [source-{state.state}]", file=out)
    report_path = site.root / report_name
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report = external.report(states, bib_name)
    report_path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", "utf-8")
    dead = sum(state.state == "dead" for state in states)
    summary = Counter(state.state for state in states)
    source_count = len(states)
    checked = ngettext("{count} source", "{count} sources", source_count)
    line = _(
        "{checked} checked: {ok} ok, {moved} moved, {refused} refused, {dead} dead; "
        "report in {report}"
    ).format(
        checked=checked.format(count=source_count),
        ok=summary["ok"],
        moved=summary["moved"],
        refused=summary["refused"],
        dead=summary["dead"],
        report=report_name,
    )
    print(line, file=err)
    return EXIT_PROBLEMS if dead and strict else EXIT_OK
