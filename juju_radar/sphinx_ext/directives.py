"""Directives of issue and listing pages; they check options and emit nodes or placeholders."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from juju_radar.model.issue_records import Source, split_emoji
from juju_radar.model.item_options import ITEM_OPTIONS, Reporter, read_item_options
from juju_radar.model.messages import _
from juju_radar.sphinx_ext import render
from juju_radar.sphinx_ext.config import vocabulary
from juju_radar.sphinx_ext.nodes import placeholder


class ItemDirective(SphinxDirective):
    """``:::{radar-item} EMOJI TITLE`` with the item's metadata as options.

    Problems in the options are reported by the collector (through the model), so
    this directive renders what it can and stays silent.
    """

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar = {name: directives.unchanged for name in ITEM_OPTIONS}

    def run(self) -> list[nodes.Node]:
        given = {name: (value.strip(), self.lineno) for name, value in self.options.items()}
        # The collector reports the problems (through the model); here they are dropped.
        read = read_item_options(given, vocabulary(self.config), Reporter(self.env.docname))
        topic, verdict = read.topic, read.verdict
        emoji, title = split_emoji(self.arguments[0])
        classes = ["radar-item"]
        classes += [f"radar-topic-{topic.key}"] if topic else []
        classes += [f"radar-verdict-{verdict.key}"] if verdict else []
        # An unusable id is reported by the collector; the section still needs one.
        anchor = read.id or f"item-line-{self.lineno}"
        section = nodes.section(ids=[anchor], classes=classes)
        section += nodes.title("", f"{emoji} {title}" if emoji else title)
        section += render.item_meta(topic, list(read.tags), read.score, verdict)
        self.state.nested_parse(self.content, self.content_offset, section)
        sources = list(read.sources or ())
        if sources:
            section += self._sources_paragraph(sources)
        section += placeholder("item-extras", item=anchor)
        self.set_source_info(section)
        return [section]

    def _sources_paragraph(self, sources: list[Source]) -> nodes.paragraph:
        paragraph = nodes.paragraph(classes=["radar-sources"])
        paragraph += nodes.inline("", "来源：", classes=["radar-sources-label"])
        for index, source in enumerate(sources):
            if index:
                paragraph += nodes.Text(" · ")
            # Rendered late, from the references as they are when the page is written.
            paragraph += placeholder("source-link", label=source.label, keys=list(source.keys))
        paragraph += nodes.Text(" ")
        paragraph += placeholder(
            "cite-refs", keys=[key for source in sources for key in source.keys]
        )
        return paragraph


class ClosingDirective(SphinxDirective):
    """``:::{radar-closing} 今天的主线``: the closing section of an issue."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        section = nodes.section(ids=["closing"], classes=["radar-closing"])
        section += nodes.title("", self.arguments[0])
        self.state.nested_parse(self.content, self.content_offset, section)
        self.set_source_info(section)
        return [section]


class TopicDirective(SphinxDirective):
    """``{radar-topic} KEY``: a topic page's title, description and item list."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        topic = vocabulary(self.config).topic(self.arguments[0])
        if topic is None:
            raise self.error(_("unknown topic '{topic}'").format(topic=self.arguments[0]))
        section = nodes.section(ids=[f"topic-{topic.key}"], classes=["radar-topic-page"])
        section += nodes.title("", topic.title)
        if topic.description:
            section += nodes.paragraph("", topic.description, classes=["radar-topic-description"])
        section += placeholder("topic-list", topic=topic.key)
        return [section]


def listing_directive(kind: str) -> type[SphinxDirective]:
    """A directive without arguments that stands for one generated listing."""

    class ListingDirective(SphinxDirective):
        def run(self) -> list[nodes.Node]:
            node = placeholder(kind)
            self.set_source_info(node)
            return [node]

    ListingDirective.__name__ = f"ListingDirective_{kind.replace('-', '_')}"
    return ListingDirective
