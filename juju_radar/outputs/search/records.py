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

import html
import json
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser, LexborNode

from juju_radar.model.issue_records import Issue
from juju_radar.model.vocabulary import Topic, Vocabulary
from juju_radar.outputs.search.terms import index_words
from juju_radar.store.cache import digest

# Weight of everything that is not a story: it summarises stories or lists sources.
SUMMARY_WEIGHT = "0.3"


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


# Each page is read as a browser reads it: parsed by lexbor (through selectolax, the
# parser of the page check, ``sphinx_ext.safety``), so that the records hold what a
# reader's browser shows. The records are read at the end of a build from the written
# files, and only those of the pages written again, so the check's tree (made while
# the page is rendered, maybe in another process) is not at hand: a page is parsed
# again, in about a millisecond.
def page_tree(page_html: str) -> LexborHTMLParser:
    return LexborHTMLParser(page_html)


def body_sections(tree: LexborHTMLParser) -> list[LexborNode]:
    """The page's searchable top-level sections (``data-pagefind-body``)."""
    return [
        node
        for node in tree.css("section")
        if "data-pagefind-body" in node.attributes and not _has_ancestor(node, "section")
    ]


def story_sections(tree: LexborHTMLParser) -> dict[str, LexborNode]:
    """Item id -> its ``section.radar-item``."""
    return {
        str(node.attributes["id"]): node
        for node in tree.css("section.radar-item")
        if node.attributes.get("id")
    }


def _has_ancestor(node: LexborNode, tag: str) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag == tag:
            return True
        parent = parent.parent
    return False


def issue_records(issue: Issue, page_html: str, link: str, vocab: Vocabulary) -> list[SearchRecord]:
    """The stories of a published issue, then the rest of its page."""
    tree = page_tree(page_html)
    bodies = body_sections(tree)
    for body in bodies:
        make_searchable(body)
    stories = story_sections(tree)
    issue_meta = {"date": issue.date.isoformat(), "issue": issue.title}
    records = []
    for item in issue.items:
        section = stories.get(item.id)
        if section is None:
            continue
        topic = vocab.topic_by_key(item.topic)
        lead = add_topic_terms(section, topic_terms(topic))
        add_index_words(section)
        records.append(
            SearchRecord(
                kind="story",
                link=f"{link}#{item.id}",
                title=item.heading,
                body_html=section.html or "",
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
    for section in stories.values():
        section.decompose()
    rest_lead = heading_lead(bodies)
    for body in bodies:
        add_index_words(body)
    body_html = "".join(body.html or "" for body in bodies)
    if body_html:
        # No filters: it is no story, and the filters count stories.
        records.append(SearchRecord("issue", link, issue.title, body_html, issue_meta | rest_lead))
    return records


# A story's topic is found by any of its names: the label, the English label and the
# aliases of the vocabulary are indexed with the story, in a block after its meta line
# (``<p class="radar-item-meta">``). The result shows the topic in its own line and the
# excerpt starts after the "lead" (heading, meta line, these names): its length, in
# characters other than white space, is the record's ``lead`` metadata (search.js).
LEAD_META = "lead"
TERMS_CLASS = "radar-topic-terms"
TERMS_WEIGHT = "3"  # a story of the topic ranks above one that mentions its name
HEADINGS = "h1, h2, h3, h4, h5, h6"


def topic_terms(topic: Topic) -> list[str]:
    """The topic's names, each once (case aside), in the vocabulary's order."""
    terms: dict[str, str] = {}
    for name in (topic.label, topic.label_en, *topic.aliases):
        terms.setdefault(name.casefold(), name)
    return list(terms.values())


def add_topic_terms(section: LexborNode, terms: list[str]) -> int:
    """Put the topic's names after the story's meta line (or heading, or first), and
    return the story's lead length."""
    names = html.escape(" ".join(terms))
    block = f'<p class="{TERMS_CLASS}" data-pagefind-weight="{TERMS_WEIGHT}">{names}。</p>'
    terms_node = _element(block)
    after = section.css_first("p.radar-item-meta") or section.css_first(HEADINGS)
    if after is not None:
        after.insert_after("\n")
        after.next.insert_after(terms_node)  # type: ignore[union-attr]
    else:
        section.insert_child("\n")
        section.insert_child(terms_node)
    return lead_length(section, section.css_first(f"p.{TERMS_CLASS}"))


def _element(markup: str) -> LexborNode:
    node = LexborHTMLParser(markup, is_fragment=True).root
    assert node is not None
    return node


def lead_length(root: LexborNode, last: LexborNode | None) -> int:
    """Characters other than white space of ``root``'s text up to the end of ``last``."""
    count = 0
    for node in root.traverse(include_text=True):
        if node.mem_id == getattr(last, "mem_id", None):
            return count + _length(node.text(deep=True))
        if node.is_text_node:
            count += _length(node.text_content or "")
    return count


def _length(text: str) -> int:
    return len(re.sub(r"\s", "", text))


def heading_lead(bodies: list[LexborNode]) -> dict[str, str]:
    """The ``lead`` of a record that opens with its heading (the result's title)."""
    count = 0
    for body in bodies:
        heading = body.css_first(HEADINGS)
        if heading is None:
            count += _length(body.text(deep=True))
            continue
        before = lead_length(body, heading) - _length(heading.text(deep=True))
        if count + before:
            return {}
        return {LEAD_META: str(lead_length(body, heading))}
    return {}


def page_record(title: str, page_html: str, link: str) -> SearchRecord | None:
    bodies = body_sections(page_tree(page_html))
    if not bodies:
        return None
    classes = (bodies[0].attributes.get("class") or "").split()
    kind = ENTITY if ENTITY_PAGE_CLASS in classes else "page"
    for body in bodies:
        make_searchable(body)
    lead = heading_lead(bodies)
    for body in bodies:
        add_index_words(body)
    body_html = "".join(body.html or "" for body in bodies)
    return SearchRecord(kind, link, title, body_html, lead)


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
# Pagefind joins a block that does not end a sentence (a heading, a meta line) to the
# next with an ASCII ". " in its excerpts ("RISE 论文. 从模型……"). Ending such blocks
# with "。" first makes the excerpts read as Chinese. Permalinks (``#``) are dropped:
# they are not indexed, yet they would hide how the heading's text ends.
LEFT_OUT = "[data-pagefind-ignore], a.headerlink"
BLOCKS = "h1, h2, h3, h4, h5, h6, p, li, dt, dd, th, td, caption, figcaption"
INLINE = frozenset({"a", "span", "em", "strong", "code", "abbr", "cite"})
SENTENCE_END = frozenset("。！？；：…!?.;:")


def make_searchable(root: LexborNode) -> None:
    """Make ``root`` what Pagefind indexes of a record, as it reads best in excerpts."""
    for node in reversed(root.css(LEFT_OUT)):  # the innermost first
        node.decompose()
    for block in root.css(BLOCKS):
        end_in_chinese(block)


def end_in_chinese(block: LexborNode) -> None:
    """``block`` with "。" after its text when that ends without punctuation (after the
    inline elements the text closes, before the white space that ends the block)."""
    last_child = _last_content(block)
    last = last_text(block)
    if last_child is None or last is None:
        return
    text = last.text_content or ""
    words = text.rstrip()
    if words[-1] in SENTENCE_END:
        return
    if last_child.is_text_node:
        last.replace_with(f"{words}。{text[len(words) :]}")
    else:
        last_child.insert_after("。")


def _last_content(node: LexborNode) -> LexborNode | None:
    """The last child of ``node`` that is not white space."""
    child = node.last_child
    while child is not None and child.is_text_node and not (child.text_content or "").strip():
        child = child.prev
    return child


def last_text(node: LexborNode) -> LexborNode | None:
    """The text node that ends ``node``, through inline elements only."""
    child = _last_content(node)
    if child is None:
        return None
    if child.is_text_node:
        return child
    return last_text(child) if child.tag in INLINE else None


def add_index_words(root: LexborNode) -> None:
    """Open each innermost block of ``root`` with the index words of its Han bigrams
    (``terms.py``), which take the block's weight (a heading's, the topic names')."""
    for block in root.css(BLOCKS):
        first = block.first_child
        if first is None or len(block.css(BLOCKS)) > 1:  # the block itself, and another
            continue
        words = index_words(block.text(deep=True))
        if words:
            first.insert_before(" ".join(words) + " ")


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
