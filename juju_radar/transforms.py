"""Transforms: issue pages get header and nav placeholders; placeholders are rendered late."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from . import render
from .archive import Archive
from .collector import radar_data
from .config import vocabulary
from .model import is_issue_path
from .nodes import placeholder, radar_placeholder

if TYPE_CHECKING:
    from sphinxcontrib.bibtex.domain import BibtexDomain


class IssuePageTransform(SphinxTransform):
    """Give every issue page a header under its title and a nav at its end."""

    default_priority = 880

    def apply(self, **kwargs: Any) -> None:
        if not is_issue_path(self.env.docname):
            return
        section = self.document.next_node(nodes.section)
        if section is None:
            return
        title = section.next_node(nodes.title)
        position = section.index(title) + 1 if title is not None else 0
        section.insert(position, placeholder("issue-header"))
        self.document += placeholder("issue-nav")


class PlaceholderTransform(SphinxPostTransform):
    """Render every placeholder from the collected issues.

    Runs after sphinxcontrib-bibtex has built the bibliographies (priority 5) and
    before references are resolved (priority 10).
    """

    default_priority = 6

    def run(self, **kwargs: Any) -> None:
        found = list(self.document.findall(radar_placeholder))
        if not found:
            return
        archive = Archive(radar_data(self.env).issues)
        for node in found:
            node.replace_self(self.render(node, archive))

    def link(self, docname: str, anchor: str) -> str:
        uri = self.app.builder.get_relative_uri(self.env.docname, docname)
        return f"{uri}#{anchor}" if anchor else uri

    def render(self, node: radar_placeholder, archive: Archive) -> list[nodes.Node]:
        vocab = vocabulary(self.config)
        docname = self.env.docname
        kind = node["kind"]
        if kind == "issue-header":
            issue = radar_data(self.env).issues.get(docname)
            return render.issue_header(issue) if issue else []
        if kind == "issue-nav":
            return render.issue_nav(archive, docname, self.link)
        if kind == "topic-list":
            return render.topic_list(archive, node["topic"], vocab, self.link)
        if kind == "topic-index":
            return render.topic_index(archive, vocab, self.link)
        if kind == "archive":
            return render.archive_listing(archive, self.link)
        if kind == "latest":
            return render.latest_issue(archive, vocab, self.link)
        if kind == "cited-by":
            self.add_cited_by(archive)
            return []
        raise ValueError(f"unknown placeholder kind {kind!r}")

    def add_cited_by(self, archive: Archive) -> None:
        """Under each entry of the page's bibliography, link every item citing it."""
        domain = cast("BibtexDomain", self.env.get_domain("cite"))
        key_by_id = {
            citation.citation_id: citation.key
            for citation in domain.citations
            if citation.bibliography_key.docname == self.env.docname
        }
        for node in self.document.findall(nodes.citation):
            key = next((key_by_id[i] for i in node["ids"] if i in key_by_id), None)
            if key is not None:
                node += render.cited_by(archive.cited_by.get(key, []), self.link)


IDENTIFIER_FIELDS = ("doi", "url", "eprint", "isbn", "issn")


class MissingIdentifierTransform(SphinxPostTransform):
    """Say so on every bibliography entry that has no identifier at all."""

    default_priority = 6

    def run(self, **kwargs: Any) -> None:
        domain = cast("BibtexDomain", self.env.get_domain("cite"))
        bare = {
            citation.citation_id
            for citation in domain.citations
            if citation.bibliography_key.docname == self.env.docname
            and not any(field in citation.entry.fields for field in IDENTIFIER_FIELDS)
        }
        for node in self.document.findall(nodes.citation):
            if bare.intersection(node["ids"]):
                node += render.missing_identifier_note()
