"""The "cite as" boxes: GB/T 7714-2025, APA 7 and BibTeX of an issue or an item, each copyable.

The access date is the reader's, not the build's: the page holds a marker
(``span.radar-access-date``, reading 引用日期) that ``radar.js`` fills with the day the
page is read, so that the text a reader copies carries it. BibTeX has no such
placeholder (biber refuses ``urldate = {引用日期}``): without scripts its entry has no
``urldate`` and a note says to add one; ``radar.js`` writes the field
(``span.radar-access-date-field``, before the entry's closing brace) and removes the note.
"""

from __future__ import annotations

from docutils import nodes

from juju_radar.bib import cite_this as cite
from juju_radar.sphinx_ext.nodes import disclosure, disclosure_summary

ACCESS_MARK = "\x00"  # never in a title: control characters are refused
ACCESS_DATE_CLASS = "radar-access-date"
ACCESS_DATE_FALLBACK = "引用日期"
ACCESS_DATE_FIELD_CLASS = "radar-access-date-field"
WITHOUT_SCRIPT_CLASS = "radar-without-script"  # removed by radar.js
COPYABLE_CLASS = "radar-copyable"
URLDATE_NOTE = (
    "BibTeX 条目未含访问日期：引用时请在条目中加上 urldate = {YYYY-MM-DD}（您访问本页的日期）。"
)
NO_URL_NOTE = "本站网址尚未确定，以上引用不含网址。"


def _with_access_date(text: str) -> list[nodes.Node]:
    """``text`` with each access-date marker turned into the element the page fills."""
    found: list[nodes.Node] = []
    for index, part in enumerate(text.split(ACCESS_MARK)):
        if index:
            found.append(nodes.inline("", ACCESS_DATE_FALLBACK, classes=[ACCESS_DATE_CLASS]))
        if part:
            found.append(nodes.Text(part))
    return found


def _plain(style: str, text: str) -> nodes.container:
    box = nodes.container(classes=["radar-cite", f"radar-cite-{style}"])
    box += nodes.paragraph("", CAPTIONS[style], classes=["radar-cite-caption"])
    box += nodes.paragraph("", "", *_with_access_date(text), classes=[COPYABLE_CLASS])
    return box


def _bibtex(work: cite.ArchiveWork) -> nodes.container:
    """The entry without ``urldate``, which ``radar.js`` writes where the empty
    ``span.radar-access-date-field`` stands, the reader's day in it."""
    text = cite.bibtex(work, None)
    box = nodes.container(classes=["radar-cite", "radar-cite-bibtex"])
    box += nodes.paragraph("", CAPTIONS["bibtex"], classes=["radar-cite-caption"])
    # Not highlighted (a Pygments run per item).
    children: list[nodes.Node] = [nodes.Text(text)]
    if work.url:
        closing = text.rindex("}")
        field = nodes.inline("", "", classes=[ACCESS_DATE_FIELD_CLASS])
        children = [nodes.Text(text[:closing]), field, nodes.Text(text[closing:])]
    # Its source (with the date's marker) differs from its text: Sphinx then writes the
    # children as they are, instead of highlighting the text.
    source = cite.bibtex(work, ACCESS_MARK)
    block = nodes.literal_block(source, "", *children, language="none")
    block["classes"] = ["radar-bibtex", COPYABLE_CLASS]
    box += block
    if work.url:
        box += nodes.paragraph("", URLDATE_NOTE, classes=[WITHOUT_SCRIPT_CLASS])
    if work.modified:
        guidance = cite.urldate_guidance(work.modified)
        box += nodes.paragraph("", guidance, classes=["radar-cite-corrected"])
    return box


CAPTIONS = {
    "gbt7714": "GB/T 7714-2025",
    "apa": "APA（第 7 版）",
    "bibtex": "BibTeX",
}


def cite_boxes(work: cite.ArchiveWork) -> list[nodes.Node]:
    """The three formats, and a note when the site URL is not known."""
    found: list[nodes.Node] = [
        _plain("gbt7714", cite.gbt7714(work, ACCESS_MARK)),
        _plain("apa", cite.apa(work)),
        _bibtex(work),
    ]
    if not work.url:
        found.append(nodes.paragraph("", NO_URL_NOTE, classes=["radar-cite-no-url"]))
    return found


def cite_disclosure(work: cite.ArchiveWork) -> disclosure:
    """Everything for citing one item, closed under one "引用" control."""
    details = disclosure(classes=["radar-cite-details"])
    details += disclosure_summary("", "引用")
    details.extend(cite_boxes(work))
    return details
