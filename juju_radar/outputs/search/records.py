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

from juju_radar.model.issue_records import Issue
from juju_radar.model.vocabulary import Topic, Vocabulary
from juju_radar.store.cache import digest

# Weight of everything that is not a story: it summarises stories or lists sources.
SUMMARY_WEIGHT = "0.3"


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

    @property
    def file_name(self) -> str:
        """A stable, unique file name for the scratch site (it names no published URL)."""
        page, _, anchor = self.link.partition("#")
        stem = page.removesuffix(".html")
        return f"{stem}/{anchor}.html" if anchor else f"{stem}.html"


# topics/agent/2026.html, best/2026.html, references/2026-09.html
PERIOD_PAGE_RE = re.compile(r"(?:^|/)(\d{4})(?:-(\d{2}))?\.html$")


def link_period(link: str) -> tuple[int | None, int | None]:
    """The year and month of a period page (by its output file); None for either it
    does not have."""
    match = PERIOD_PAGE_RE.search(link.partition("#")[0])
    if not match:
        return None, None
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


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
        body_html, lead = with_topic_terms(
            searchable_html(page_html[span.start : span.end]), topic_terms(topic)
        )
        records.append(
            SearchRecord(
                kind="story",
                link=f"{link}#{item.id}",
                title=item.heading,
                body_html=body_html,
                meta={
                    **issue_meta,
                    LEAD_META: str(lead),
                    "topic": topic.label,
                    **({"topic_en": topic.english_beside} if topic.english_beside else {}),
                    "verdict": vocab.verdict_by_key(item.verdict).label,
                },
                filters={
                    "year": f"{issue.date.year}",
                    "topic": topic.label,
                    "verdict": vocab.verdict_by_key(item.verdict).label,
                },
            )
        )
    rest = "".join(cut(page_html, body, stories.values()) for body in bodies)
    if rest:
        # No filters: it is no story, and the filters count stories.
        body_html = searchable_html(rest)
        records.append(
            SearchRecord(
                "issue", link, issue.title, body_html, issue_meta | heading_lead(body_html)
            )
        )
    return records


# A story's topic is found by any of its names: the label, the English label and the
# aliases of the vocabulary are indexed with the story, in a block after its meta line
# (``<p class="radar-item-meta">``). The result shows the topic in its own line and the
# excerpt starts after the "lead" (heading, meta line, these names): its length, in
# characters other than white space, is the record's ``lead`` metadata (search.js).
LEAD_META = "lead"
TERMS_CLASS = "radar-topic-terms"
TERMS_WEIGHT = "3"  # a story of the topic ranks above one that mentions its name
ITEM_META_END_RE = re.compile(r'<p class="radar-item-meta"[^>]*>.*?</p>', re.DOTALL)
HEADING_END_RE = re.compile(r"</h[1-6]>")
TAG_RE = re.compile(r"<[^>]*>")


def topic_terms(topic: Topic) -> list[str]:
    """The topic's names, each once (case aside), in the vocabulary's order."""
    terms: dict[str, str] = {}
    for name in (topic.label, topic.label_en, *topic.aliases):
        terms.setdefault(name.casefold(), name)
    return list(terms.values())


def with_topic_terms(body_html: str, terms: list[str]) -> tuple[str, int]:
    """The story's HTML with its topic's names after the meta line, and its lead length."""
    meta_line = ITEM_META_END_RE.search(body_html) or HEADING_END_RE.search(body_html)
    position = meta_line.end() if meta_line else 0
    names = html.escape(" ".join(terms))
    block = f'\n<p class="{TERMS_CLASS}" data-pagefind-weight="{TERMS_WEIGHT}">{names}。</p>'
    result = body_html[:position] + block + body_html[position:]
    return result, lead_length(result[: position + len(block)])


def heading_lead(body_html: str) -> dict[str, str]:
    """The ``lead`` of a record that opens with its heading (the result's title)."""
    heading = HEADING_END_RE.search(body_html)
    if heading is None or lead_length(body_html[: heading.start()].split("<h", 1)[0]):
        return {}
    return {LEAD_META: str(lead_length(body_html[: heading.end()]))}


def lead_length(lead_html: str) -> int:
    """Characters other than white space of the text of ``lead_html``."""
    return len(re.sub(r"\s", "", html.unescape(TAG_RE.sub("", lead_html))))


def page_record(title: str, page_html: str, link: str) -> SearchRecord | None:
    bodies = body_spans(section_spans(page_html))
    if not bodies:
        return None
    body = "".join(page_html[span.start : span.end] for span in bodies)
    body_html = searchable_html(body)
    kind = ENTITY if ENTITY_PAGE_CLASS in bodies[0].attrs.get("class", "").split() else "page"
    return SearchRecord(kind, link, title, body_html, heading_lead(body_html))


# An entity's page (``radar-entity.html``) is a record of its own kind, at full weight:
# search.js shows the entity pages a query finds before the stories.
ENTITY = "entity"
ENTITY_PAGE_CLASS = "radar-entity-page"

PageStamp = tuple[object, ...]  # what a page's records are made from, short of its text


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


def page_records(
    path: Path, filename: str, title: str, issue: Issue | None, vocab: Vocabulary
) -> list[SearchRecord]:
    """The records of the built page ``filename`` (relative to the site root)."""
    page_html = path.read_text(encoding="utf-8")
    if issue is not None:
        return issue_records(issue, page_html, filename, vocab)
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
    # No kind filter: stories and the other records are parts of their own, and the
    # browser gives each part its kind (parts.py).
    filters = record.filters
    weight = "" if record.kind in ("story", ENTITY) else f' data-pagefind-weight="{SUMMARY_WEIGHT}"'
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
PageDigests = dict[str, dict[str, str]]  # page file -> its record files -> their digests


def read_manifest(folder: Path) -> PageDigests:
    """The pages of a record site and the digests of the record files each gave."""
    try:
        loaded = json.loads((folder / RECORD_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(loaded, dict) or not all(isinstance(v, dict) for v in loaded.values()):
        return {}
    return loaded


def record_files(folder: Path) -> set[str]:
    if not folder.is_dir():
        return set()
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*.html")}


def update_record_site(
    folder: Path,
    kept: PageDigests,
    written: dict[str, dict[str, str]],
    present: set[str] | None = None,
) -> PageDigests:
    """Make ``folder`` hold the record files of ``kept`` (pages not read again, their
    files already there) and of ``written`` (page -> record file -> HTML), writing only
    the files that changed: creating thousands of files costs seconds. The manifest of
    the digests spares reading files back; it is removed while the files do not match.
    ``present``: the caller's ``record_files(folder)``, if it just listed them (a year's
    records take 25 ms to list)."""
    old = read_manifest(folder)
    (folder / RECORD_MANIFEST).unlink(missing_ok=True)
    old_digests = {name: value for files in old.values() for name, value in files.items()}
    manifest: PageDigests = dict(kept)
    made: set[Path] = set()  # folders made or seen: a clean build writes 22,000 files
    for page, documents in written.items():
        manifest[page] = {}
        for name, document in documents.items():
            encoded = document.encode("utf-8")
            manifest[page][name] = value = digest(document)
            path = folder / name
            if old_digests.get(name) == value and _size(path) == len(encoded):
                continue
            if path.parent not in made:
                path.parent.mkdir(parents=True, exist_ok=True)
                made.add(path.parent)
            path.write_bytes(encoded)
    live = {name for files in manifest.values() for name in files}
    for name in (record_files(folder) if present is None else present) - live:
        (folder / name).unlink()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RECORD_MANIFEST).write_text(json.dumps(manifest, sort_keys=True), encoding="utf-8")
    return manifest


def records_state(manifest: PageDigests) -> str:
    """Of all the records of a record site, whichever pages gave them."""
    files = {name: value for documents in manifest.values() for name, value in documents.items()}
    return digest(*(part for name in sorted(files) for part in (name, files[name])))


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def pagefind_version() -> str:
    """The installed Pagefind's, whose binary is the one ``run_pagefind`` runs."""
    from importlib.metadata import version

    return version("pagefind-bin-extended")


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
