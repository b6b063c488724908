"""The Pagefind index of the built site, one record per story.

Pagefind's filters and ranking work per page, and an issue page holds five stories of
five topics. So each story becomes its own search record: the HTML of its
``section.radar-item`` (cut from the built page, inside the page's
``data-pagefind-body``) with the story's topic, verdict and year as filters and its
issue as metadata; its link is ``page.html#ITEM-ID``. The rest of an issue page (lead,
closing, bibliography) and the other searchable pages are records too, with a lower
weight so that a story matching a query ranks above the summaries that mention it.

The records are written as small HTML files into a folder kept with the doctrees and
indexed there by the Pagefind binary, one bundle per part (``parts.py``). When a
part's records are the same as at the last build, its bundle is left as it is.
"""

from __future__ import annotations

import functools
import html
import json
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from juju_radar.build.cache import digest
from juju_radar.model.archive import Archive
from juju_radar.model.issues import Issue, Vocabulary
from juju_radar.outputs.search.bundle import canonicalize_bundle, remove_unreferenced_files

# Weight of everything that is not a story: it summarises stories or lists sources.
SUMMARY_WEIGHT = "0.3"
# The filter naming each record's kind ("story", "issue", "page"); search.js lists the
# stories of a query before every other record.
KIND_FILTER = "kind"


@dataclass(frozen=True)
class Span:
    """Where an element starts and ends in a page's HTML."""

    start: int
    end: int
    attrs: dict[str, str]


@dataclass(frozen=True)
class SearchRecord:
    """One search result: a story, the rest of an issue page, or another page."""

    kind: str  # "story", "issue" or "page"
    link: str  # relative to the site root, with the story's anchor
    title: str
    body_html: str
    meta: dict[str, str] = field(default_factory=dict)
    filters: dict[str, str] = field(default_factory=dict)
    year: int | None = None  # the issue's, or the period's of a year-period page

    @property
    def file_name(self) -> str:
        """A stable, unique file name for the scratch site (it names no published URL)."""
        page, _, anchor = self.link.partition("#")
        stem = page.removesuffix(".html")
        return f"{stem}/{anchor}.html" if anchor else f"{stem}.html"


# topics/agent/2026.html, best/2026.html, references/2026-09.html
PERIOD_PAGE_RE = re.compile(r"(?:^|/)(\d{4})(?:-\d{2})?\.html$")


def period_year(link: str) -> int | None:
    """The year of a year-period page (by its output file), or None."""
    match = PERIOD_PAGE_RE.search(link.partition("#")[0])
    return int(match.group(1)) if match else None


# Sphinx writes every attribute double-quoted and escapes ``<`` in text, so section
# tags can be found without a full HTML parse (which cost ~25 ms a page).
SECTION_TAG_RE = re.compile(r"<(/?)section\b([^>]*)>")
ATTRIBUTE_RE = re.compile(r'([^\s=]+)(?:="([^"]*)")?')


def section_spans(page_html: str) -> list[tuple[int, Span]]:
    """Every ``<section>`` of the page with its nesting depth, in document order."""
    opened: list[tuple[int, dict[str, str]]] = []
    spans: list[tuple[int, Span]] = []
    for tag in SECTION_TAG_RE.finditer(page_html):
        if not tag.group(1):
            attrs = {
                name: html.unescape(value or "")
                for name, value in ATTRIBUTE_RE.findall(tag.group(2))
            }
            opened.append((tag.start(), attrs))
        elif opened:
            start, attrs = opened.pop()
            spans.append((len(opened), Span(start, tag.end(), attrs)))
    return sorted(spans, key=lambda depth_span: depth_span[1].start)


def body_spans(spans: list[tuple[int, Span]]) -> list[Span]:
    """The page's searchable top-level sections (``data-pagefind-body``)."""
    return [span for depth, span in spans if depth == 0 and "data-pagefind-body" in span.attrs]


def story_spans(spans: list[tuple[int, Span]]) -> dict[str, Span]:
    """Item id -> the span of its ``section.radar-item``."""
    return {
        span.attrs["id"]: span
        for _, span in spans
        if "radar-item" in span.attrs.get("class", "").split() and span.attrs.get("id")
    }


def cut(page_html: str, outer: Span, holes: Iterable[Span]) -> str:
    """The HTML of ``outer`` without the spans in ``holes``."""
    pieces, position = [], outer.start
    for hole in sorted(holes, key=lambda span: span.start):
        if outer.start <= hole.start and hole.end <= outer.end:
            pieces.append(page_html[position : hole.start])
            position = hole.end
    pieces.append(page_html[position : outer.end])
    return "".join(pieces)


def issue_records(issue: Issue, page_html: str, link: str, vocab: Vocabulary) -> list[SearchRecord]:
    """The stories of a published issue, then the rest of its page."""
    spans = section_spans(page_html)
    bodies = body_spans(spans)
    stories = story_spans(spans)
    issue_meta = {"date": issue.date.isoformat(), "issue": issue.title}
    records = []
    for item in issue.items:
        span = stories.get(item.id)
        if span is None:
            continue
        topic = vocab.topic_by_key(item.topic)
        records.append(
            SearchRecord(
                kind="story",
                link=f"{link}#{item.id}",
                title=item.heading,
                body_html=searchable_html(page_html[span.start : span.end]),
                meta={
                    **issue_meta,
                    "topic": topic.label,
                    **({"topic_en": topic.english_beside} if topic.english_beside else {}),
                    "verdict": vocab.verdict_by_key(item.verdict).label,
                },
                filters={
                    "year": f"{issue.date.year}",
                    "topic": topic.label,
                    "verdict": vocab.verdict_by_key(item.verdict).label,
                },
                year=issue.date.year,
            )
        )
    rest = "".join(cut(page_html, body, stories.values()) for body in bodies)
    if rest:
        # No filters: it is no story, and the filters count stories.
        records.append(
            SearchRecord(
                "issue", link, issue.title, searchable_html(rest), issue_meta, year=issue.date.year
            )
        )
    return records


def page_record(title: str, page_html: str, link: str) -> SearchRecord | None:
    bodies = body_spans(section_spans(page_html))
    if not bodies:
        return None
    body = "".join(page_html[span.start : span.end] for span in bodies)
    return SearchRecord("page", link, title, searchable_html(body), year=period_year(link))


PageStamp = tuple[object, ...]  # what a page's records are made from, short of its text
KnownRecords = dict[str, tuple[PageStamp, list[SearchRecord]]]  # docname -> stamp, records


def page_stamp(path: Path, issue: Issue | None) -> PageStamp | None:
    """Changes whenever the page file is rewritten (and with what of its issue the
    records carry besides the page); None when there is no page."""
    try:
        stat = path.stat()
    except OSError:
        return None
    about = None
    if issue is not None:
        about = (
            issue.date,
            issue.title,
            tuple((i.id, i.heading, i.topic, i.verdict) for i in issue.items),
        )
    return stat.st_mtime_ns, stat.st_size, about


def site_records(
    outdir: Path,
    pages: dict[str, tuple[str, str]],
    archive: Archive,
    vocab: Vocabulary,
    known: KnownRecords | None = None,
) -> tuple[list[SearchRecord], KnownRecords]:
    """Records of the built site; ``pages`` maps docname -> (output file, page title).
    A page whose stamp is the one ``known`` has is not read again (reading and cutting
    every page took 12 s at 3,650 issues on a build that changed nothing). Returns the
    records and what to know next time."""
    issues = {issue.docname: issue for issue in archive.published}
    known = known or {}
    records: list[SearchRecord] = []
    now: KnownRecords = {}
    for docname in sorted(pages):
        filename, title = pages[docname]
        path = outdir / filename
        stamp = page_stamp(path, issues.get(docname))
        if stamp is None:
            continue
        if docname in known and known[docname][0] == stamp:
            page_records = known[docname][1]
        else:
            page_records = _page_records(docname, path, filename, title, issues, vocab)
        now[docname] = (stamp, page_records)
        records += page_records
    return records, now


def _page_records(
    docname: str,
    path: Path,
    filename: str,
    title: str,
    issues: dict[str, Issue],
    vocab: Vocabulary,
) -> list[SearchRecord]:
    page_html = path.read_text(encoding="utf-8")
    if docname in issues:
        return issue_records(issues[docname], page_html, filename, vocab)
    record = page_record(title, page_html, filename)
    return [record] if record is not None else []


# What Pagefind leaves out (``data-pagefind-ignore``: listings, "cited by" lines,
# navigation) is left out of the records too, so that a change there (a new issue
# citing an old reference) does not make an old part of the index be indexed again.
IGNORED_START_RE = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*\sdata-pagefind-ignore\b[^>]*>")
VOID_TAGS = frozenset(
    {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


def searchable_html(body_html: str) -> str:
    """What Pagefind indexes of a record, as it reads best in excerpts."""
    return end_blocks_in_chinese(without_ignored(body_html))


def without_ignored(body_html: str) -> str:
    pieces, position = [], 0
    for start in IGNORED_START_RE.finditer(body_html):
        if start.start() < position:
            continue  # inside an element already left out
        tag = start.group(1).lower()
        end = start.end() if tag in VOID_TAGS else _closing_end(body_html, tag, start.end())
        if end is None:
            continue
        pieces.append(body_html[position : start.start()])
        position = end
    pieces.append(body_html[position:])
    return "".join(pieces)


def _closing_end(body_html: str, tag: str, position: int) -> int | None:
    """Where the element whose start tag ends at ``position`` ends (None: unclosed)."""
    depth = 1
    for found in _tag_re(tag).finditer(body_html, position):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return found.end()
    return None


@functools.lru_cache(maxsize=64)
def _tag_re(tag: str) -> re.Pattern[str]:
    return re.compile(rf"<(/?){tag}\b[^>]*>")


# Pagefind joins a block that does not end a sentence (a heading, a meta line) to the
# next with an ASCII ". " in its excerpts ("RISE 论文. 从模型……"). Ending such blocks
# with "。" first makes the excerpts read as Chinese. Permalinks (``#``) are dropped:
# they are not indexed, yet they would hide how the heading's text ends.
HEADERLINK_RE = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.DOTALL)
BLOCK_END_RE = re.compile(
    r"(?P<last>[^\s>])(?P<inline>(?:\s*</(?:a|span|em|strong|code|abbr|cite)>)*)"
    r"(?P<close>\s*</(?:h[1-6]|p|li|dt|dd|th|td|caption|figcaption)>)"
)
SENTENCE_END = frozenset("。！？；：…!?.;:")


def end_blocks_in_chinese(body_html: str) -> str:
    """``body_html`` with "。" closing each block whose text ends without punctuation."""

    def close(match: re.Match[str]) -> str:
        last = match["last"]
        mark = "" if last in SENTENCE_END else "。"
        return f"{last}{match['inline']}{mark}{match['close']}"

    return BLOCK_END_RE.sub(close, HEADERLINK_RE.sub("", body_html))


def _meta_tags(name: str, values: dict[str, str]) -> Iterator[str]:
    for key, value in sorted(values.items()):
        yield f'<meta {name}="{html.escape(key)}[content]" content="{html.escape(value)}">'


def record_document(record: SearchRecord, lang: str) -> str:
    """The scratch HTML page Pagefind indexes for one record."""
    meta = {**record.meta, "title": record.title, "link": record.link, "kind": record.kind}
    # Every record has a kind filter, so search.js can ask for the stories first.
    filters = {**record.filters, KIND_FILTER: record.kind}
    weight = "" if record.kind == "story" else f' data-pagefind-weight="{SUMMARY_WEIGHT}"'
    head = "\n".join(
        [
            *_meta_tags("data-pagefind-meta", meta),
            *_meta_tags("data-pagefind-filter", filters),
        ]
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(record.title)}</title>\n{head}\n</head>\n"
        f"<body><main data-pagefind-body><div{weight}>\n{record.body_html}\n"
        "</div></main></body>\n"
        "</html>\n"
    )


RECORD_MANIFEST = "records.json"  # Pagefind indexes HTML files only


def sync_record_site(documents: dict[str, str], digests: dict[str, str], folder: Path) -> None:
    """Make ``folder`` hold exactly ``documents`` (file name -> HTML), writing only the
    files that changed: creating thousands of files costs seconds. A manifest of the
    digests written spares reading them back (1 s at 1,000 issues); a file whose size
    does not match is rewritten all the same, and without a manifest files are compared.
    ``digests`` are ``record_digests(documents)``."""
    manifest = folder / RECORD_MANIFEST
    written = _read_manifest(manifest)
    manifest.unlink(missing_ok=True)  # until the files match it again
    for name, document in documents.items():
        path = folder / name
        encoded = document.encode("utf-8")
        if name in written:
            if written[name] == digests[name] and _size(path) == len(encoded):
                continue
        elif path.is_file() and path.read_bytes() == encoded:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encoded)
    if folder.is_dir():
        for path in folder.rglob("*.html"):
            if path.relative_to(folder).as_posix() not in documents:
                path.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(digests, sort_keys=True), encoding="utf-8")


def _read_manifest(path: Path) -> dict[str, str]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def pagefind_executable() -> Path:
    from pagefind_bin_extended import get_executable

    return get_executable()


def run_pagefind(site: Path, bundle: Path) -> subprocess.CompletedProcess[str]:
    command = [
        str(pagefind_executable()),
        "--site",
        str(site),
        "--output-path",
        str(bundle),
        "--quiet",
    ]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def record_documents(records: Iterable[SearchRecord], lang: str) -> dict[str, str]:
    return {record.file_name: record_document(record, lang) for record in records}


def record_digests(documents: dict[str, str]) -> dict[str, str]:
    return {name: digest(document) for name, document in documents.items()}


def documents_digest(digests: dict[str, str]) -> str:
    """Of all the records, from ``record_digests``."""
    return digest(*(part for name in sorted(digests) for part in (name, digests[name])))


def build_index(
    documents: dict[str, str], digests: dict[str, str], bundle: Path, record_site: Path
) -> subprocess.CompletedProcess[str]:
    """Index ``documents`` (with their ``record_digests``) into ``bundle``, over the
    bundle of the last build.

    The record files are kept in ``record_site`` between builds and Pagefind writes
    over the old bundle (rewriting files is much faster than creating them); what the
    new bundle does not reference is then deleted, so the result equals a fresh index.
    """
    sync_record_site(documents, digests, record_site)
    result = run_pagefind(record_site, bundle)
    if result.returncode == 0:
        canonicalize_bundle(bundle)
        remove_unreferenced_files(bundle)
    return result
