"""Each story's text as its issue page renders it, read back from the written page.

The issue page is the one rendering of a story's text (its citations, links and
markup): the story's page shows the same HTML. It is read from the issue's written
HTML file at ``html-collect-pages``, when every page of the build (serial or forked
writers) is on disk, so an incremental build, which leaves an unchanged issue page as
it was, reads the very text a clean build writes. Each file's stories are kept in the
build cache by the file's size and time (or its bytes, when it changed in the last two
seconds), so an unchanged page is not parsed again.
"""

from __future__ import annotations

import posixpath
import time
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser, LexborNode

from juju_radar.store.cache import SETTLED_NS, BuildCache, digest

STORY_BODIES = "story-bodies"
STORY_SELECTOR = "section.radar-item"  # with an id: the story's anchor
# What the issue page shows around a story's text, which its own page shows its own way.
NOT_TEXT_CLASSES = frozenset(
    {"radar-item-meta", "radar-sources", "radar-item-extras", "radar-story-page-line"}
)
LINK_ATTRIBUTES = (("a", "href"), ("img", "src"))  # (element, its address)


def relocated(address: str, issue_file: str) -> str:
    """An address written on the issue page, as the story's page (one folder deeper, in
    the folder named by the issue) must write it."""
    if address.startswith("#"):
        return f"../{issue_file}{address}"
    if not address or address.startswith("/") or ":" in address.split("/", 1)[0]:
        return address  # absolute, or with a scheme
    return posixpath.join("..", address)


def _is_text(node: LexborNode) -> bool:
    classes = set((node.attributes.get("class") or "").split())
    return node.tag not in ("h2", "-text") and not classes & NOT_TEXT_CLASSES


def story_texts(html: str, issue_file: str) -> dict[str, str]:
    """Story id -> the HTML of its text (the blocks after its heading and category line,
    before its sources), links made relative to its page; ``issue_file`` is the issue
    page's file name."""
    texts: dict[str, str] = {}
    for section in LexborHTMLParser(html).css(STORY_SELECTOR):
        if not section.attributes.get("id"):
            continue
        blocks = [child for child in section.iter() if _is_text(child)]
        for block in blocks:
            for tag, attribute in LINK_ATTRIBUTES:
                for node in block.css(tag):
                    if (address := node.attributes.get(attribute)) is not None:
                        node.attrs[attribute] = relocated(address, issue_file)
        texts[section.attributes["id"] or ""] = "\n".join(block.html or "" for block in blocks)
    return texts


def file_key(path: Path, now_ns: int) -> str | None:
    """The key of a written page's stories: its size and time once settled, else its bytes."""
    try:
        stat = path.stat()
        if now_ns - stat.st_mtime_ns > SETTLED_NS:
            return digest(str(path), f"{stat.st_mtime_ns} {stat.st_size}")
        return digest(str(path), path.read_bytes())
    except OSError:
        return None


def issue_story_texts(cache: BuildCache, page: Path) -> dict[str, str]:
    """The stories' texts of one written issue page ({} when it is not written)."""
    key = file_key(page, time.time_ns())
    if key is None:
        return {}
    found = cache.peek(STORY_BODIES, key)
    if found is None:
        found = story_texts(page.read_text(encoding="utf-8"), page.name)
        cache.put(STORY_BODIES, key, found)
    return dict(found)
