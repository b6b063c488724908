"""The HTML translator of the archive: Pagefind attributes on what is (not) searchable.

- The page's top-level sections carry ``data-pagefind-body``, except on draft issues
  and the search page: Pagefind then indexes the article and nothing else.
- Generated listings, navigation lines and heading permalinks (``#``) carry
  ``data-pagefind-ignore``: they repeat what the stories say or are not words at all.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.writers.html5 import HTML5Translator

from juju_radar.sphinx_ext.bibliography import ROBUST_COPY, ROBUST_DATE, ROBUST_ORIGINAL
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.item_lines import ENGLISH_LABEL_CLASS

PAGEFIND_BODY = "data-pagefind-body"
PAGEFIND_IGNORE = "data-pagefind-ignore"
# Pages that are never searchable: the search page itself.
UNSEARCHABLE_DOCS = frozenset({"search"})
# Classes of generated listings and page chrome inside the article.
IGNORED_CLASSES = frozenset(
    {
        "radar-front",
        "radar-subscribe",
        "radar-feeds",
        "radar-item-list",
        "radar-issue-list",
        "radar-topic-index",
        "radar-cited-by",
        "radar-on-references-page",
        "radar-count",
        "radar-year",
        "radar-month",
        "radar-issue-meta",
        "radar-issue-nav",
        "radar-draft",
        "radar-search-page",
        "radar-item-extras",
        "radar-cite",
        # Period pages: their entries are indexed where they are cited (the issue pages).
        "radar-reference-list",
        "radar-reference-months",
        "radar-years",
        "radar-more",
        # The bibliography's "no link given" mark and its explanation: not the work's words.
        "radar-missing-identifier",
        "radar-missing-identifier-explained",
    }
)


def is_searchable(env: Any, docname: str) -> bool:
    """False for the search page and for draft issues."""
    if docname in UNSEARCHABLE_DOCS:
        return False
    issue = radar_data(env).issues.get(docname)
    return issue is None or issue.published


class RadarHTMLTranslator(HTML5Translator):
    def __init__(self, document: nodes.document, builder: Any) -> None:
        super().__init__(document, builder)
        # docutils adds a viewport tag to every page; Sphinx's layout has one already.
        self.meta: list[str] = [tag for tag in self.meta if 'name="viewport"' not in tag]

    def starttag(
        self,
        node: nodes.Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **attributes: Any,
    ) -> str:
        if self._is_page_body(node, tagname):
            attributes[PAGEFIND_BODY] = ""
        if IGNORED_CLASSES.intersection(node.get("classes", [])):
            attributes[PAGEFIND_IGNORE] = ""
        if ENGLISH_LABEL_CLASS in node.get("classes", []):
            attributes["lang"] = "en"  # read aloud as English on a Chinese page
        for name in (ROBUST_DATE, ROBUST_COPY, ROBUST_ORIGINAL):
            if node.get(name):
                attributes[f"data-{name}"] = node[name]
        return super().starttag(node, tagname, suffix, empty, **attributes)

    def visit_citation(self, node: nodes.Element) -> None:
        # docutils marks each entry of its role="list" as "doc-biblioentry", a role that
        # DPUB-ARIA 1.1 deprecates and that is no list item (axe: aria-required-children).
        super().visit_citation(node)
        self.body[-1] = self.body[-1].replace('role="doc-biblioentry"', 'role="listitem"')

    def add_permalink_ref(self, node: nodes.Element, title: str) -> None:
        before = len(self.body)
        super().add_permalink_ref(node, title)
        if len(self.body) > before:
            self.body[-1] = self.body[-1].replace(
                '<a class="headerlink"', f'<a class="headerlink" {PAGEFIND_IGNORE}=""', 1
            )

    def _is_page_body(self, node: nodes.Element, tagname: str) -> bool:
        if tagname != "section" or not isinstance(node.parent, nodes.document):
            return False
        return is_searchable(self.builder.env, self.builder.current_docname)
