"""The editors' plain-text export format, read into drafts: an issue whose items have
no id and no citation keys yet (:mod:`juju_radar.editors.page_writer` writes them).

Pure Python, no Sphinx import. The export is a sequence of blocks separated by blank
lines (see ``docs/editors/export-format.md`` for the rules):

    TITLE
    Juju Radar · YYYY.MM.DD
    约 N 字 · 阅读约 M 分钟
    LEAD PARAGRAPH...
    EMOJI ITEM TITLE                      (one or more items)
    CATEGORY[ / TAG...] · SCORE/10｜VERDICT
    BODY PARAGRAPH...
    LABEL [<URL>] · LABEL [<URL>]         (the item's source link labels)
    今天的主线
    CLOSING PARAGRAPH...
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from juju_radar.editors.export_blocks import Block, split_blocks
from juju_radar.editors.export_category import (
    category_problem,
    looks_like_category,
    read_category,
    tries_to_be_category,
)
from juju_radar.editors.export_problems import Report, about_item, shorten
from juju_radar.editors.export_sources import SENTENCE_END, ExportSource, read_sources
from juju_radar.model.issue_records import ItemFields, split_emoji
from juju_radar.model.item_options import check_visible, item_id_problem
from juju_radar.model.messages import _
from juju_radar.model.page import forbidden_characters, page_lines
from juju_radar.model.problems import Problem
from juju_radar.model.vocabulary import Vocabulary

CLOSING_TITLE = "今天的主线"
DATE_LINE_RE = re.compile(
    r"^Juju\s*Radar\s*[·・•]\s*(?P<date>\d{4}[.\-/]\d{1,2}[.\-/]\d{1,2})$", re.IGNORECASE
)
LENGTH_LINE_RE = re.compile(r"^约\s*[\d,.]+\s*万?\s*字\s*[·・•]\s*阅读约\s*\d+\s*分钟$")
MAX_HEADING_CHARS = 80


# --- records ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DraftItem(ItemFields):
    """An item as the editor wrote it: no id or citation keys yet."""

    line: int
    sources: tuple[ExportSource, ...]
    chosen_id: str | None = None  # written after the title as {#id}; else made from it

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(source.label for source in self.sources)


@dataclass(frozen=True)
class ExportIssue:
    date: dt.date
    title: str
    stated_length: str
    lead: tuple[str, ...]
    items: tuple[DraftItem, ...]
    closing: tuple[str, ...]
    date_line: int = 3
    length_line: int = 5


# --- reading ----------------------------------------------------------------------------


def split_item_heads(blocks: list[Block]) -> list[Block]:
    """An item heading directly followed by its category line (no blank line between, as
    editors often write them) reads as the two blocks it would be with one; so do lines
    after the category line."""
    result: list[Block] = []
    for block in blocks:
        head = Block(block.line, block.lines[:1])
        category = Block(block.line + 1, block.lines[1:2])
        if len(block.lines) > 1 and _looks_like_heading(head) and tries_to_be_category(category):
            result += [head, category]
            if len(block.lines) > 2:
                result.append(Block(block.line + 2, block.lines[2:]))
        else:
            result.append(block)
    return result


def _forbidden_characters(text: str, report: Report) -> None:
    report.problems.extend(forbidden_characters(text, page_lines(text), report.path))


# --- parsing ----------------------------------------------------------------------------


def parse_export(
    text: str, path: str, vocabulary: Vocabulary
) -> tuple[ExportIssue | None, list[Problem]]:
    """Parse an export; return the issue (None when any error was found) and the problems."""
    report = Report(path)
    text = text.removeprefix("\ufeff")
    _forbidden_characters(text, report)
    blocks = split_blocks(text)
    if not blocks:
        report.error(1, "empty", _("the file is empty"))
        return None, report.problems
    header = _read_header(blocks, report)
    if header is None:
        return None, report.problems
    title, date, date_line, stated_length = header
    rest = split_item_heads(blocks[3:])
    closing_index = _closing_index(rest)
    if closing_index is None:
        last_line = blocks[-1].line + len(blocks[-1].lines) - 1
        report.error(
            last_line,
            "missing-closing",
            _(
                "the issue has no closing section: a line '{title}' followed by its paragraphs"
            ).format(title=CLOSING_TITLE),
        )
        content, closing = rest, []
    else:
        content, closing = rest[:closing_index], rest[closing_index + 1 :]
        if not closing:
            report.error(
                rest[closing_index].line,
                "missing-closing",
                _("the closing section '{title}' has no paragraphs").format(title=CLOSING_TITLE),
            )
    lead, items = _read_items(content, vocabulary, report, blocks[2])
    if report.failed:
        return None, report.problems
    issue = ExportIssue(
        date=date,
        title=title,
        stated_length=stated_length,
        lead=tuple(block.paragraph for block in lead),
        items=tuple(items),
        closing=tuple(block.paragraph for block in closing),
        date_line=date_line,
        length_line=blocks[2].line,
    )
    return issue, report.problems


def _read_header(blocks: list[Block], report: Report) -> tuple[str, dt.date, int, str] | None:
    title_block = blocks[0]
    if DATE_LINE_RE.match(_folded(title_block.text)):
        report.error(
            title_block.line,
            "missing-title",
            _("the file must start with the issue's title, before the date line"),
        )
        return None
    if not title_block.is_single_line:
        report.error(
            title_block.line,
            "missing-title",
            _("the title must be one line, followed by a blank line"),
        )
        return None
    date_block = blocks[1] if len(blocks) > 1 else None
    date = _read_date(date_block, title_block, report)
    if date is None or date_block is None:
        return None
    length_block = blocks[2] if len(blocks) > 2 else None
    if length_block is None or not LENGTH_LINE_RE.match(_folded(length_block.text)):
        where = length_block.line if length_block else date_block.line + 1
        if length_block:
            expected = _(
                "expected the length line '约 N 字 · 阅读约 M 分钟' after the date line, "
                "found '{found}'"
            ).format(found=shorten(length_block.text))
        else:
            expected = _("expected the length line '约 N 字 · 阅读约 M 分钟' after the date line")
        report.error(where, "length-line", expected)
        return None
    if not check_visible(title_block.text, title_block.line, report):
        return None
    return title_block.text, date, date_block.line, length_block.text


def _read_date(block: Block | None, title: Block, report: Report) -> dt.date | None:
    if block is None:
        report.error(
            title.line + 1,
            "date-line",
            _("expected the date line 'Juju Radar · YYYY.MM.DD' after the title"),
        )
        return None
    match = DATE_LINE_RE.match(_folded(block.text))
    if not match or not block.is_single_line:
        report.error(
            block.line,
            "date-line",
            _("expected the date line 'Juju Radar · YYYY.MM.DD', found '{found}'").format(
                found=shorten(block.text)
            ),
        )
        return None
    year, month, day = (int(part) for part in re.split(r"[.\-/]", match.group("date")))
    try:
        return dt.date(year, month, day)
    except ValueError:
        message = _("{date} is not a date in the calendar").format(date=match.group("date"))
        report.error(block.line, "bad-date", message)
        return None


def _closing_index(blocks: list[Block]) -> int | None:
    for index in range(len(blocks) - 1, -1, -1):
        if blocks[index].text == CLOSING_TITLE:
            return index
    return None


def _read_items(
    blocks: list[Block], vocabulary: Vocabulary, report: Report, length_block: Block
) -> tuple[list[Block], list[DraftItem]]:
    starts = [
        index
        for index in range(len(blocks) - 1)
        if looks_like_category(blocks[index + 1]) and not looks_like_category(blocks[index])
    ]
    heading_indexes = set(starts)
    category_indexes = {start + 1 for start in starts}
    for index, block in enumerate(blocks):
        if index not in category_indexes and looks_like_category(block):
            report.error(
                block.line,
                "missing-heading",
                _("this category line has no item heading (an emoji and a title) before it"),
            )
        elif index not in heading_indexes and _looks_like_heading(block):
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            if following is not None and tries_to_be_category(following):
                about_item(report, block).error(
                    following.line,
                    "bad-category",
                    _(
                        "the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT': "
                        "{problem}"
                    ).format(problem=category_problem(following.text)),
                )
                continue
            report.error(
                block.line,
                "missing-category",
                _(
                    "'{heading}' looks like an item heading, but the next paragraph is not "
                    "a category line 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT'"
                ).format(heading=shorten(block.text)),
            )
    if not starts:
        # At the first thing that looks like an item, else where the items should be.
        heads = [block.line for block in blocks if split_emoji(block.lines[0])[0]]
        where = heads[0] if heads else blocks[0].line if blocks else length_block.line
        report.error(
            where,
            "no-items",
            _("the issue has no items: an item is an emoji-led heading, then its category line"),
        )
        return blocks, []
    items = []
    bounds = [*starts, len(blocks)]
    for start, end in zip(bounds, bounds[1:], strict=False):
        heading, category, content = blocks[start], blocks[start + 1], blocks[start + 2 : end]
        item = _read_item(heading, category, content, vocabulary, about_item(report, heading))
        if item is not None:
            items.append(item)
    _check_unique_titles(items, report)
    return blocks[: starts[0]], items


def _read_item(
    heading: Block,
    category: Block,
    content: list[Block],
    vocabulary: Vocabulary,
    report: Report,
) -> DraftItem | None:
    emoji, title = split_emoji(heading.text)
    title, chosen_id = split_chosen_id(title)
    ok = True
    if chosen_id is not None and (problem := item_id_problem(chosen_id)):
        report.error(heading.line, *problem)
        ok = False
    if not heading.is_single_line:
        report.error(heading.line, "bad-heading", _("an item heading must be one line"))
        ok = False
    elif not emoji:
        report.error(
            heading.line,
            "missing-emoji",
            _("the item heading '{title}' must start with an emoji").format(title=shorten(title)),
        )
        ok = False
    elif not title:
        message = _("the item heading has an emoji but no title")
        report.error(heading.line, "missing-title", message)
        ok = False
    ok = check_visible(heading.text, heading.line, report) and ok
    fields = read_category(category, vocabulary, report)
    sources = read_sources(content, heading, report)
    body = content[:-1] if sources is not None else content
    if content and sources is not None and not body:
        message = _("the item '{title}' has no body text").format(title=shorten(title))
        report.error(content[0].line, "missing-body", message)
        ok = False
    if not ok or fields is None or sources is None:
        return None
    topic, tags, score, verdict = fields
    return DraftItem(
        line=heading.line,
        emoji=emoji,
        title=title,
        topic=topic,
        tags=tags,
        score=score,
        verdict=verdict,
        body=tuple(block.paragraph for block in body),
        sources=sources,
        chosen_id=chosen_id,
    )


def _check_unique_titles(items: Sequence[DraftItem], report: Report) -> None:
    first_line: dict[str, int] = {}
    for item in items:
        if item.title in first_line:
            report.error(
                item.line,
                "duplicate-title",
                _("two items are titled '{title}' (first on line {line})").format(
                    title=item.title, line=first_line[item.title]
                ),
            )
        first_line.setdefault(item.title, item.line)


def _looks_like_heading(block: Block) -> bool:
    emoji, title = split_emoji(block.text)
    return (
        bool(emoji)
        and block.is_single_line
        and len(block.text) <= MAX_HEADING_CHARS
        and not any(char in SENTENCE_END for char in title)
    )


def _folded(text: str) -> str:
    """Full-width digits and punctuation folded to ASCII, for matching fixed lines only."""
    return unicodedata.normalize("NFKC", text)


# --- chosen ids -------------------------------------------------------------------------


CHOSEN_ID_RE = re.compile(r"\s*\{#([^{}]*)\}\s*$")


def split_chosen_id(title: str) -> tuple[str, str | None]:
    """An item heading's title and the id its editor chose (``标题 {#my-id}``), if any."""
    match = CHOSEN_ID_RE.search(title)
    return (title[: match.start()], match.group(1)) if match else (title, None)
