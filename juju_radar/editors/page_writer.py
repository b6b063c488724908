"""A draft issue (:mod:`juju_radar.editors.export_reader`) as the model's issue, its MyST
page and its BibTeX entries, as text; :mod:`juju_radar.editors.import_run` writes them.

Pure Python, no Sphinx import. Editor text in the page is escaped so MyST renders it
exactly as written; in a BibTeX value, braces and backslashes cannot pass.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping, Sequence

import yaml
from myst_parser.parsers.options import TokenizeError, options_to_items

from juju_radar.bib.edit import bib_value as raw_field_value
from juju_radar.bib.identifiers import EDITORS_NOTE_FIELD, url_identifiers
from juju_radar.editors.export_reader import CLOSING_TITLE, ExportIssue
from juju_radar.model.issue_records import Issue, Item, Source, format_score, plain_text

# --- the model's records ----------------------------------------------------------------


def to_issue(
    export: ExportIssue,
    ids: Sequence[str],
    keys: Sequence[Sequence[str]],
    path: str,
    status: str = "published",
) -> Issue:
    """The model's issue, with each item's id and one citation key per source label."""
    items = tuple(
        Item(
            id=item_id,
            emoji=draft.emoji,
            title=draft.title,
            topic=draft.topic,
            tags=draft.tags,
            score=draft.score,
            verdict=draft.verdict,
            sources=tuple(
                Source(label, (key,)) for label, key in zip(draft.labels, item_keys, strict=True)
            ),
            body=draft.body,
            line=draft.line,
        )
        for draft, item_id, item_keys in zip(export.items, ids, keys, strict=True)
    )
    return Issue(
        date=export.date,
        title=export.title,
        status=status,
        stated_length=export.stated_length,
        lead=export.lead,
        items=items,
        closing_title=CLOSING_TITLE,
        closing=export.closing,
        path=path,
    )


# --- escaping ---------------------------------------------------------------------------

# ``<tag>``-looking text would be raw HTML; escaped, it is text the model accepts.
LESS_THAN = "\\<"
INLINE_SPECIAL_RE = re.compile(r"[\\`*_\[\]{}|]")
ENTITY_RE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
LINE_START_SPECIAL_RE = re.compile(r"^(?:[#>+\-=~:%(]|\d+[.)])")


def escape_inline(text: str) -> str:
    """Escape what MyST would read as inline markup, so the text renders as written."""
    text = INLINE_SPECIAL_RE.sub(lambda match: "\\" + match.group(0), text)
    text = ENTITY_RE.sub("\\\\&", text)
    return text.replace("<", LESS_THAN)


def escape_line(line: str) -> str:
    """Escape one line of a paragraph, including what only matters at a line start."""
    escaped = escape_inline(line.strip())
    match = LINE_START_SPECIAL_RE.match(escaped)
    if match is None:
        return escaped
    marker = match.group(0)
    if marker[-1] in ".)":
        return f"{marker[:-1]}\\{marker[-1]}{escaped[len(marker) :]}"
    return "\\" + escaped


def escape_paragraph(text: str) -> str:
    return "\n".join(escape_line(line) for line in text.split("\n"))


def escape_heading_text(text: str) -> str:
    """Inline escaping, plus a trailing '#' (an ATX heading would drop it)."""
    escaped = escape_inline(text)
    return escaped[:-1] + "\\#" if escaped.endswith("#") else escaped


def unescape(text: str) -> str:
    """The text a reader sees for escaped page text (for checks and tests)."""
    return plain_text(text)


def yaml_scalar(value: str) -> str:
    """``value`` as a YAML scalar: plain when YAML reads it back unchanged, else quoted."""
    try:
        plain_ok = yaml.safe_load(f"key: {value}") == {"key": value}
    except yaml.YAMLError:
        plain_ok = False
    return value if plain_ok and value == value.strip() else json.dumps(value, ensure_ascii=False)


def option_value(value: str) -> str:
    """``value`` as a directive option value: plain when MyST reads it back unchanged."""
    try:
        plain_ok = options_to_items(f"option: {value}")[0] == [("option", value)]
    except TokenizeError:
        plain_ok = False
    return value if plain_ok else json.dumps(value, ensure_ascii=False)


def bib_value(text: str) -> str:
    """Editor text inside a braced BibTeX value: braces and backslashes cannot pass."""
    return text.replace("\\", "＼").replace("{", "｛").replace("}", "｝").replace("%", "\\%")


# --- rendering --------------------------------------------------------------------------


def render_page(issue: Issue) -> str:
    """The issue page, in the format of the existing pages."""
    parts = [
        _front_matter(issue),
        *(escape_paragraph(paragraph) for paragraph in issue.lead),
        *(_item_block(item) for item in issue.items),
        _closing_block(issue.closing_title, issue.closing),
    ]
    return "\n\n".join(parts) + "\n"


def _front_matter(issue: Issue) -> str:
    lines = [
        "---",
        f"date: {issue.date.isoformat()}",
        f"title: {yaml_scalar(escape_heading_text(issue.title))}",
        f"status: {issue.status}",
    ]
    if issue.stated_length:
        lines.append(f"length: {yaml_scalar(issue.stated_length)}")
    return "\n".join([*lines, "---"])


def _item_block(item: Item) -> str:
    options = [f":id: {item.id}", f":topic: {item.topic}"]
    if item.tags:
        options.append(f":tags: {option_value(', '.join(item.tags))}")
    options += [f":score: {format_score(item.score)}", f":verdict: {item.verdict}"]
    if item.sources:
        rendered = " · ".join(
            f"{source.label} <{', '.join(source.keys)}>" for source in item.sources
        )
        options.append(f":sources: {option_value(rendered)}")
    opening = "\n".join([f":::{{radar-item}} {item.heading}", *options])
    return "\n\n".join([opening, *(escape_paragraph(text) for text in item.body), ":::"])


def _closing_block(title: str, paragraphs: Iterable[str]) -> str:
    body = [escape_paragraph(text) for text in paragraphs]
    return "\n\n".join([f":::{{radar-closing}} {title}", *body, ":::"])


# --- the references ---------------------------------------------------------------------


def source_note(date: dt.date, item_id: str, title: str, label: str) -> str:
    """The note of an imported reference: where it came from (no invented facts)."""
    return f"Juju Radar {date.isoformat()} 条目 {item_id}（{title}）的来源链接“{label}”"


def source_title(title: str, label: str) -> str:
    return f"{label}（{title}）"


def source_fields(address: str | None, date: dt.date) -> dict[str, str]:
    """The fields the editors' address of a source gives: the url, read on the issue's
    date, and the DOI or arXiv id it names."""
    if address is None:
        return {}
    return {"url": address, "urldate": date.isoformat(), **url_identifiers(address)}


def render_bib_entry(
    key: str, title: str, note: str, identifiers: Mapping[str, str] | None = None
) -> str:
    """A reference holding only what the export states: its title, the address the
    editors gave (``identifiers``, from :func:`source_fields`) and their note of where it
    came from (in ``radarnote``, which no page shows)."""
    fields = {
        "title": bib_value(title),
        **{name: raw_field_value(name, value) for name, value in (identifiers or {}).items()},
        EDITORS_NOTE_FIELD: bib_value(note),
    }
    width = max(len(name) for name in fields)
    lines = "".join(f"  {name.ljust(width)} = {{{value}}},\n" for name, value in fields.items())
    return f"@misc{{{key},\n{lines}}}\n"
