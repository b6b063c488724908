"""The reader of an issue page: its front matter, lead, items and closing section read
into an Issue, with every problem found on the way at its line.

Pure Python: no Sphinx or docutils import, so the command line and the Sphinx
extension parse and validate an issue file in exactly the same way.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from myst_parser.parsers.options import TokenizeError, options_to_items

from juju_radar.model.corrections import FIELD as CORRECTIONS
from juju_radar.model.corrections import read_corrections
from juju_radar.model.issue_records import (
    DEFAULT_DATE_SPAN,
    Issue,
    Item,
    TextStats,
    date_from_path,
    date_outside_span,
    plain_text,
    split_emoji,
    text_stats,
)
from juju_radar.model.item_options import (
    ITEM_OPTIONS,
    REQUIRED_ITEM_OPTIONS,
    Reporter,
    check_visible,
    read_item_options,
)
from juju_radar.model.messages import _
from juju_radar.model.page import FrontMatter, Page, invisible_character_problem
from juju_radar.model.problems import Problem
from juju_radar.model.vocabulary import Vocabulary

STATUSES = ("published", "draft")
# The front matter fields of an issue page: all the renderer is given of it.
ISSUE_FIELDS = frozenset({"date", "title", "status", "length", "orphan", CORRECTIONS})
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
FENCE_RE = re.compile(r"^(`{3,}|~{3,})")
# A tag or comment not preceded by an escaping backslash (``\<b>`` is text). This reads
# Markdown, not HTML: it finds a line an editor wrote as raw HTML, to refuse it at its
# line, and judges no markup the page will hold. What a page holds is judged by the HTML5
# parser on the written page (``sphinx_ext.safety``, its allowlist), whatever this
# spelling misses; a wider expression here would only refuse more.
RAW_HTML_RE = re.compile(
    r"(?<!\\)(?:\\\\)*(?:<\s*/?\s*[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?\s*>|<!--)"
)
CODE_SPAN_RE = re.compile(r"(?<!\\)(`+)(?!`).+?(?<!`)\1(?!`)")  # `code` shows as written
# The number of characters the ``length`` field states: its first number followed by 字
# (``约 2,500 字``, ``约 3，100 字``, ``约 1.2 万字``), read whole.
STATED_CHARS_RE = re.compile(r"(?<![\d.,，])(\d[\d,，]*(?:\.\d+)?)\s*(万?)\s*字")
ITEM_DIRECTIVE = "radar-item"
CLOSING_DIRECTIVE = "radar-closing"


@dataclass
class _Block:
    """A ``:::{name} argument`` block of the issue body with its option and body lines."""

    name: str
    argument: str
    line: int
    option_lines: list[tuple[str, int]] = field(default_factory=list)
    options: dict[str, tuple[str, int]] = field(default_factory=dict)
    paragraphs: list[tuple[str, int]] = field(default_factory=list)


def parse_issue(
    text: str | Page,
    path: str,
    vocabulary: Vocabulary,
    date_span: tuple[int, int] = DEFAULT_DATE_SPAN,
) -> tuple[Issue | None, list[Problem]]:
    """Parse an issue file; return the issue (None when unusable) and its problems."""
    report = Reporter(path, date_span)
    page = text if isinstance(text, Page) else Page.read(text, path)
    lines, front = page.lines, page.front
    report.problems.extend(page.character_problems)
    meta = _read_front_matter(front, report)
    corrections = read_corrections(
        front.fields.get(CORRECTIONS),
        meta["date"] if meta else None,
        front.line_of(CORRECTIONS),
        lines,
        front.end,
        report,
    )
    if not front.end:
        return None, report.problems
    body_start = front.end
    lead, blocks = _read_body(lines, body_start, report)
    for block in blocks:  # the items' and the closing's headings
        check_visible(block.argument, block.line, report)
    item_blocks = [block for block in blocks if block.name == ITEM_DIRECTIVE]
    max_items = page.limits.max_items
    if len(item_blocks) > max_items:
        message = _(
            "the issue has {count:,} items, over the limit of {limit:,} (radar_max_items)"
        ).format(count=len(item_blocks), limit=max_items)
        report.error(item_blocks[max_items].line, "too-many-items", message)
        meta = None
    items = tuple(
        item
        for block in item_blocks[:max_items]
        for item in [_read_item(block, vocabulary, report)]
        if item is not None
    )
    _check_unique_ids(items, report)
    closing = [block for block in blocks if block.name == CLOSING_DIRECTIVE]
    swallowed = any(problem.code == "unclosed-fence" for problem in report.problems)
    if not closing and not swallowed:
        report.error(
            len(lines), "missing-closing", _("the issue has no closing section (今天的主线)")
        )
    if not items and not swallowed:
        report.error(body_start + 1, "no-items", _("the issue has no items"))
    if meta is None or page.character_problems:
        return None, report.problems
    if meta["status"] == "published":
        _check_no_placeholders(meta, lead, blocks, report)
    closing_block = closing[0] if closing else _Block(CLOSING_DIRECTIVE, "", 0)
    lead_texts = tuple(text for text, _ in lead)
    closing_texts = tuple(text for text, _ in closing_block.paragraphs)
    issue = Issue(
        date=meta["date"],
        title=meta["title"],
        status=meta["status"],
        stated_length=meta["length"],
        lead=lead_texts,
        items=items,
        closing_title=closing_block.argument,
        closing=closing_texts,
        path=path,
        stats=_issue_stats(meta["title"], lead_texts, items, closing_block.argument, closing_texts),
        date_line=meta["date_line"],
        corrections=corrections,
    )
    _check_stated_length(issue, meta["length_line"], report)
    return issue, report.problems


# What ``radar new`` writes for the editor to replace (editors.new_issue.DRAFT_TEMPLATE).
PLACEHOLDER_TITLE = "本期标题"
PLACEHOLDER_TEXT = "在这里写"
PLACEHOLDER_ITEM_TITLE = "第一条的标题"
PLACEHOLDER_ID_RE = re.compile(r"^draft-\d{8}-\d+$")


def _check_no_placeholders(
    meta: dict, lead: list[tuple[str, int]], blocks: list[_Block], report: Reporter
) -> None:
    """A published issue must not still hold the scaffold's placeholders."""
    found = [meta["title_line"]] if meta["title"] == PLACEHOLDER_TITLE else []
    found += [meta["length_line"]] if not meta["length"] else []
    paragraphs = [*lead, *(paragraph for block in blocks for paragraph in block.paragraphs)]
    found += [line for text, line in paragraphs if text.startswith(PLACEHOLDER_TEXT)]
    found += [block.line for block in blocks if PLACEHOLDER_ITEM_TITLE in block.argument]
    found += [
        line
        for block in blocks
        for name, (value, line) in block.options.items()
        if name == "id" and PLACEHOLDER_ID_RE.match(value)
    ]
    for line in sorted(found):
        report.error(
            line,
            "placeholder",
            _(
                "placeholder text of `radar new` in a published issue: write it, or keep "
                "status: draft"
            ),
        )


def stated_chars(stated_length: str) -> int | None:
    """The number of characters a ``length`` field states (``约 2,500 字 · 阅读约 9 分钟``:
    2500), or None when it states none (or a number of more than 12 digits)."""
    match = STATED_CHARS_RE.search(stated_length)
    if match is None:
        return None
    number = re.sub("[,，]", "", match.group(1))
    if len(number.split(".")[0]) > 12:
        return None
    return round(float(number) * (10_000 if match.group(2) else 1))


def _check_stated_length(issue: Issue, line: int, report: Reporter) -> None:
    """The editors' stated length should be near the counted one: a figure off by more
    than half of the count is a leftover of another issue or a typo. Checked only on a
    page without errors: an unclosed fence or a refused item leaves text uncounted."""
    if any(problem.severity == "error" for problem in report.problems):
        return
    stated = stated_chars(issue.stated_length)
    counted = issue.stats.words
    if stated is None or abs(stated - counted) * 2 <= counted:
        return
    report.error(
        line,
        "length-mismatch",
        _(
            "the stated length ({stated:,} 字) differs from the counted one ({counted:,} 字) "
            "by more than half: correct the `length` line"
        ).format(stated=stated, counted=counted),
    )


def _issue_stats(
    title: str,
    lead: Sequence[str],
    items: Sequence[Item],
    closing_title: str,
    closing: Sequence[str],
) -> TextStats:
    texts = [title, *lead, closing_title, *closing]
    for item in items:
        texts += [item.title, *item.body, *(source.label for source in item.sources)]
    return sum((text_stats(text) for text in texts), TextStats())


def _read_front_matter(front: FrontMatter, report: Reporter) -> dict | None:
    report.problems.extend(front.problems)
    if not front.readable:
        return None
    if not front.end:
        report.error(1, "front-matter", _("the file must start with YAML front matter ('---')"))
        return None
    data = front.fields
    key_lines = front.key_lines
    ok = True
    date = _front_date(data.get("date"), key_lines.get("date", 1), report)
    if date is not None and (outside := date_outside_span(date, report.date_span)):
        report.error(key_lines.get("date", 1), "date-out-of-range", outside)
        date = None
    path_date = date_from_path(report.path)
    if date is not None and path_date is not None and date != path_date:
        report.error(
            key_lines.get("date", 1),
            "date-mismatch",
            _("date {date} does not match the file name ({named})").format(
                date=date.isoformat(), named=path_date.isoformat()
            ),
        )
    title = data.get("title")
    if title is not None and not isinstance(title, str):
        report.error(
            key_lines.get("title", 1), "front-matter", _('title must be text (quote it: "...")')
        )
        ok = False
    elif not isinstance(title, str) or not title.strip():
        report.error(key_lines.get("title", 1), "missing-title", _("the issue has no title"))
        ok = False
    elif problem := invisible_character_problem(title, report.path, key_lines.get("title", 1)):
        report.problems.append(problem)
    status = data.get("status", "published")
    if status not in STATUSES:
        report.error(
            key_lines.get("status", 1),
            "unknown-status",
            _("status '{status}' is not one of: {statuses}").format(
                status=status, statuses=", ".join(STATUSES)
            ),
        )
        ok = False
    length = data.get("length", "")
    if not isinstance(length, str):
        report.error(key_lines.get("length", 1), "front-matter", _("length must be text"))
        ok = False
    # YAML reads a key such as 2026 or yes as a number or a boolean.
    for unknown in sorted(map(str, set(data) - ISSUE_FIELDS)):
        report.error(
            key_lines.get(unknown, 1),
            "unknown-field",
            _("unknown front matter field '{name}'").format(name=unknown),
        )
    if date is None or not ok:
        return None
    return {
        "date": date,
        "title": plain_text(str(title).strip()),
        "status": status,
        "length": length.strip(),
        "date_line": key_lines.get("date", 1),
        "title_line": key_lines.get("title", 1),
        "length_line": key_lines.get("length", 1),
    }


def _front_date(value: object, line: int, report: Reporter) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if value is None:
        report.error(line, "missing-date", _("the front matter has no date"))
        return None
    if not isinstance(value, str | int):
        report.error(line, "bad-date", _("the date must be written YYYY-MM-DD"))
        return None
    text = str(value)[:40]
    try:
        if ISO_DATE_RE.match(text):
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    report.error(line, "bad-date", _("'{text}' is not a date (YYYY-MM-DD)").format(text=text))
    return None


def _read_body(
    lines: list[str], start: int, report: Reporter
) -> tuple[list[tuple[str, int]], list[_Block]]:
    """Split the body into lead paragraphs and ``:::`` blocks, tracking line numbers."""
    lead: list[tuple[str, int]] = []
    blocks: list[_Block] = []
    block: _Block | None = None
    paragraph: list[str] = []
    paragraph_line = 0
    in_options = False
    fence, fence_line = "", 0
    seen_block = False
    block_colons = 0  # the colons that opened ``block``

    def flush() -> None:
        nonlocal paragraph
        if paragraph:
            text = "\n".join(paragraph)
            if block is not None:
                block.paragraphs.append((text, paragraph_line))
            elif not seen_block and not text.startswith(("#", "(")):
                lead.append((text, paragraph_line))
            paragraph = []

    for index in range(start, len(lines)):
        number = index + 1
        line = lines[index].rstrip()
        stripped = line.strip()
        if fence:
            if _closes(stripped, fence):
                fence = ""
            continue
        if opening_fence := FENCE_RE.match(stripped):
            flush()
            fence, fence_line = opening_fence.group(1), number
            continue
        opening = re.match(r"^(:::+)\s*\{([a-z-]+)\}\s*(.*)$", stripped)
        if opening:
            flush()
            if block is not None and len(opening.group(1)) < block_colons:
                report.error(number, "nested-block", _("a ':::' block is opened inside another"))
            elif block is not None:
                # As many colons as the open block's: its ':::' is missing, not nesting
                # meant; said where the open block starts, which is where to look.
                _unclosed(block, report, number)
            # Other names are the content check's (model.content: forbidden-directive).
            block = _Block(opening.group(2), opening.group(3).strip(), number)
            block_colons = len(opening.group(1))
            blocks.append(block)
            seen_block = True
            in_options = True
            continue
        if re.match(r"^:::+$", stripped):
            flush()
            if block is None:
                report.error(number, "stray-close", _("':::' closes no block"))
            block = None
            in_options = False
            continue
        if in_options and block is not None:
            if stripped.startswith(":") and not stripped.startswith(":::"):
                block.option_lines.append((stripped[1:], number))
                continue
            in_options = False
        if stripped.startswith("%"):  # a MyST comment line
            continue
        if RAW_HTML_RE.search(CODE_SPAN_RE.sub("", line)):
            report.error(number, "raw-html", _("raw HTML is not allowed in an issue"))
        if not stripped:
            flush()
            continue
        if not paragraph:
            paragraph_line = number
        paragraph.append(line)
    flush()
    if fence:  # it swallowed the rest of the page, ':::' lines included
        report.error(
            fence_line,
            "unclosed-fence",
            _(
                "this code fence ({fence}) is never closed: the rest of the page reads as code"
            ).format(fence=fence),
        )
    elif block is not None:
        _unclosed(block, report)
    return lead, blocks


def _unclosed(block: _Block, report: Reporter, next_line: int = 0) -> None:
    """``block`` is not closed: before the block opening at ``next_line``, or at all."""
    name = f"{{{block.name}}}"
    if next_line:
        message = _(
            "block '{block}' is not closed by ':::' before the next block opens at line {line}"
        ).format(block=name, line=next_line)
    else:
        message = _("block '{block}' is not closed by ':::'").format(block=name)
    report.error(block.line, "unclosed-block", message)


def _closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes ``fence``: the same character, at least as many, nothing
    after them (CommonMark, as markdown-it reads it)."""
    run = FENCE_RE.match(line)
    return (
        run is not None
        and run.group(1)[0] == fence[0]
        and len(run.group(1)) >= len(fence)
        and not line[run.end(1) :].strip()
    )


def _read_options(block: _Block, report: Reporter) -> bool:
    """Read the option lines exactly as MyST will (its option parser is pure Python)."""
    if not block.option_lines:
        return True
    first_line = block.option_lines[0][1]
    try:
        items, _warnings = options_to_items("\n".join(line for line, _n in block.option_lines))
    except TokenizeError as error:
        line = first_line + error.problem_mark.line
        message = _("unreadable item option: {problem}").format(problem=error.problem)
        report.error(line, "bad-options", message)
        return False
    key_lines = [(line.split(":", 1)[0], number) for line, number in block.option_lines]
    for name, value in items:
        number = next((n for key, n in key_lines if key == name), first_line)
        if name in block.options:
            report.error(
                number, "duplicate-option", _("option ':{name}:' given twice").format(name=name)
            )
        block.options[name] = (value.strip(), number)
    return True


def _read_item(block: _Block, vocabulary: Vocabulary, report: Reporter) -> Item | None:
    if not _read_options(block, report):
        return None
    options = block.options
    for name in options:
        if name not in ITEM_OPTIONS:
            message = _("unknown item option ':{name}:'").format(name=name)
            report.error(options[name][1], "unknown-option", message)
    missing = [name for name in REQUIRED_ITEM_OPTIONS if name not in options]
    for name in missing:
        message = _("the item has no ':{name}:' option").format(name=name)
        report.error(block.line, "missing-option", message)
    emoji, title = split_emoji(block.argument)
    if not title:
        report.error(block.line, "missing-title", _("the item has no title"))
    read = read_item_options(options, vocabulary, report)
    item_id, topic, verdict, score, sources = (
        read.id,
        read.topic,
        read.verdict,
        read.score,
        read.sources,
    )
    if missing or None in (item_id, topic, verdict, score, sources) or not title:
        return None
    assert item_id and topic and verdict and score is not None and sources is not None
    return Item(
        id=item_id,
        emoji=emoji,
        title=title,
        topic=topic.key,
        tags=read.tags,
        score=score,
        verdict=verdict.key,
        sources=sources,
        body=tuple(text for text, _ in block.paragraphs),
        line=block.line,
        id_line=options["id"][1],
        sources_line=options["sources"][1] if "sources" in options else 0,
        entities=read.entities,
        not_entities=read.not_entities,
    )


def _check_unique_ids(items: Sequence[Item], report: Reporter) -> None:
    seen: dict[str, Item] = {}
    titles: dict[str, Item] = {}
    for item in items:
        if item.id in seen:
            report.error(
                item.id_line or item.line,
                "duplicate-id",
                _("item id '{id}' is used twice in this issue").format(id=item.id),
            )
        if item.title in titles:
            message = _("two items are titled '{title}'").format(title=item.title)
            report.error(item.line, "duplicate-title", message)
        seen.setdefault(item.id, item)
        titles.setdefault(item.title, item)
