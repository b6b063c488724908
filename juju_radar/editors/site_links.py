"""Every page and link of a built site resolves: local files exist, anchors are there."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from juju_radar.model.messages import _

LINK_ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src"}


@dataclass
class PageLinks:
    """The local targets one HTML page links to, and the ids it holds."""

    targets: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = PageLinks()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.found.ids.add(str(values["id"]))
        target = values.get(LINK_ATTRIBUTES.get(tag, ""))
        if target:
            self.found.targets.append(target)


def read_page(path: Path) -> PageLinks:
    parser = _LinkParser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser.found


def html_pages(outdir: Path) -> list[Path]:
    """The site's pages, without the theme's and Pagefind's assets."""
    return sorted(
        path
        for path in outdir.rglob("*.html")
        if not {"_static", "pagefind"} & set(path.relative_to(outdir).parts)
    )


def _target_file(outdir: Path, page: Path, path: str) -> Path:
    if path.startswith("/"):  # root-relative, as on the 404 page
        return outdir / unquote(path).lstrip("/")
    if not path:
        return page
    return Path(os.path.normpath(page.parent / unquote(path)))


def pages_written_since(outdir: Path, stamp: Path) -> list[Path]:
    """The pages written after ``stamp`` was (a build writes every page it changes)."""
    since = stamp.stat().st_mtime
    return [page for page in html_pages(outdir) if page.stat().st_mtime >= since]


def broken_links(outdir: Path, pages: list[Path] | None = None) -> list[str]:
    """``PAGE: TARGET`` (and why, for a missing anchor) for every local link or asset of
    ``pages`` (all the site's by default) that does not resolve."""
    cache: dict[Path, PageLinks] = {}

    def links_of(path: Path) -> PageLinks:
        if path not in cache:
            cache[path] = read_page(path)
        return cache[path]

    broken = []
    for page in html_pages(outdir) if pages is None else pages:
        for target in links_of(page).targets:
            parts = urlsplit(target)
            if parts.scheme or target.startswith("//"):
                continue
            file = _target_file(outdir, page, parts.path)
            if file.is_dir():
                file = file / "index.html"
            where = page.relative_to(outdir).as_posix()
            if not file.is_file():
                broken.append(f"{where}: {target}")
            elif (
                parts.fragment
                and file.suffix == ".html"
                and unquote(parts.fragment) not in links_of(file).ids
            ):
                no_anchor = _(" (no such anchor)")
                broken.append(f"{where}: {target}{no_anchor}")
    return broken
