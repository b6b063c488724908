"""Transforms: issue pages get header and nav placeholders; placeholders are rendered late."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.osutil import relative_uri

from juju_radar.model.anchors import PAGE_TOP_ID
from juju_radar.model.issue_records import is_issue_path
from juju_radar.sphinx_ext import render
from juju_radar.sphinx_ext.bibliography import load_bibliography
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.config import subscribe_links, view_settings, vocabulary
from juju_radar.sphinx_ext.item_lines import ITEM_LIST_WRITER
from juju_radar.sphinx_ext.nodes import listing_attributes, placeholder, radar_placeholder
from juju_radar.sphinx_ext.preview import is_preview


class IssuePageTransform(SphinxTransform):
    """Give every issue page a header under its title and a nav at its end."""

    default_priority = 880

    def apply(self, **kwargs: Any) -> None:
        if not is_issue_path(self.env.docname):
            return
        section = self.document.next_node(nodes.section)
        if section is None:
            return
        self._give_title_fixed_id(section)
        title = section.next_node(nodes.title)
        position = section.index(title) + 1 if title is not None else 0
        section.insert(position, placeholder("issue-header"))
        if any(node["kind"] == "cite-refs" for node in section.findall(radar_placeholder)):
            section += _section("references", "参考文献", placeholder("issue-bibliography"))
        section += _section("cite-this", "引用本期", placeholder("issue-cite"))
        self.document += placeholder("issue-nav")

    def _give_title_fixed_id(self, section: nodes.section) -> None:
        """The title's id would be a slug of the issue's title, which an item may have."""
        for old_id in section["ids"]:
            self.document.ids.pop(old_id, None)
            for name, target in list(self.document.nameids.items()):
                if target == old_id:
                    self.document.nameids[name] = PAGE_TOP_ID
        section["ids"] = [PAGE_TOP_ID]
        self.document.ids[PAGE_TOP_ID] = section


def _section(section_id: str, title: str, *children: nodes.Node) -> nodes.section:
    section = nodes.section(ids=[section_id], classes=[f"radar-{section_id}"])
    section += nodes.title("", title)
    section.extend(children)
    return section


Renderer = Callable[[render.RenderContext, radar_placeholder], list[nodes.Node]]


def listing_view(context: render.RenderContext, node: radar_placeholder) -> Any:
    """The view model of the listing ``node`` stands for: all its renderer reads."""
    return context.listing_view(node["kind"], listing_attributes(node))


RENDERERS: dict[str, Renderer] = {
    "issue-header": lambda context, node: render.issue_header(context),
    "issue-nav": lambda context, node: render.issue_nav(context),
    "issue-cite": lambda context, node: render.issue_cite(context),
    "issue-bibliography": lambda context, node: render.issue_bibliography(context),
    "cite-refs": lambda context, node: render.cite_refs(context, node["keys"]),
    "source-link": lambda context, node: render.source(context, node["label"], node["keys"]),
    "item-extras": lambda context, node: render.item_extras(context, node["item"]),
    "topic-list": lambda context, node: render.topic_list(
        context, node["topic"], listing_view(context, node)
    ),
    "topic-index": lambda context, node: render.topic_index(context, listing_view(context, node)),
    "archive": lambda context, node: render.archive_listing(context, listing_view(context, node)),
    "feeds": lambda context, node: render.feeds_page(context),
    "best": lambda context, node: render.best_items(context, listing_view(context, node)),
    "references-index": lambda context, node: render.references_index(context),
}


def add_renderer(kind: str, renderer: Renderer) -> None:
    """Let another module render a placeholder kind (a listing's has its view model in
    ``model.listing_views``)."""
    RENDERERS[kind] = renderer


def page_link(base: str, target: str, suffix: str) -> str:
    """The html builder's ``get_relative_uri`` (without reaching the builder through the
    deprecated ``self.app``): Sphinx's ``relative_uri``, worked out once per pair of
    folders (a listing page links thousands of items)."""
    base_uri, target_uri = base + suffix, target + suffix
    target_folder, _, name = target_uri.rpartition("/")
    if base_uri == target_uri or not name or target_uri.startswith("/"):
        return relative_uri(base_uri, target_uri)
    return folder_link(base_uri.rpartition("/")[0], target_folder) + name


@functools.lru_cache(maxsize=4096)
def folder_link(base_folder: str, target_folder: str) -> str:
    """How a page in ``base_folder`` reaches ``target_folder``: "", or ending in "/"."""
    placeholder = "x"
    base = f"{base_folder}/{placeholder}" if base_folder else placeholder
    target = f"{target_folder}/{placeholder}" if target_folder else placeholder
    return relative_uri(base, target).removesuffix(placeholder)


def description_length(config: Any) -> int:
    """How much of a page's text its description takes: opengraph's, when a site address
    loaded it (``sphinx_ext/outputs/hooks.py``), else 0."""
    try:
        return int(config.ogp_description_length)
    except AttributeError:
        return 0


class PlaceholderTransform(SphinxPostTransform):
    """Render every placeholder from the collected issues.

    Runs before references are resolved (priority 10).
    """

    default_priority = 6

    def run(self, **kwargs: Any) -> None:
        found = list(self.document.findall(radar_placeholder))
        if not found:
            return
        data = radar_data(self.env)
        suffix = self.config.html_link_suffix or self.config.html_file_suffix or ".html"

        def link(docname: str, anchor: str) -> str:
            uri = page_link(self.env.docname, docname, suffix)
            return f"{uri}#{anchor}" if anchor else uri

        context = render.RenderContext(
            archive=data.archive(),
            vocabulary=vocabulary(self.config),
            docname=self.env.docname,
            issue=data.issues.get(self.env.docname),
            link=link,
            site_url=self.config.radar_site_url,
            bibliography=load_bibliography(self.env),
            preview=is_preview(self.config),
            text_read=description_length(self.config),
            view_settings=view_settings(self.config),
            list_writer=self.env.events.emit_firstresult(ITEM_LIST_WRITER),
            subscribe_links=subscribe_links(self.config),
        )
        for node in found:
            node.replace_self(RENDERERS[node["kind"]](context, node))
