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
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from juju_radar.model.issues import (
    CJK_RE,
    ItemFields,
    Rating,
    Vocabulary,
    item_id_problem,
    read_rating,
    split_emoji,
)
from juju_radar.model.messages import N_, _
from juju_radar.model.page import forbidden_characters, page_lines
from juju_radar.model.problems import Problem

CLOSING_TITLE = "今天的主线"
DATE_LINE_RE = re.compile(
    r"^Juju\s*Radar\s*[·・•]\s*(?P<date>\d{4}[.\-/]\d{1,2}[.\-/]\d{1,2})$", re.IGNORECASE
)
LENGTH_LINE_RE = re.compile(r"^约\s*[\d,.]+\s*万?\s*字\s*[·・•]\s*阅读约\s*\d+\s*分钟$")
CATEGORY_RE = re.compile(
    r"^(?P<category>.+?)\s*[·・]\s*(?P<score>[^\s·・]+?)\s*[/／]\s*(?:10|１０)\s*[｜|]\s*"
    r"(?P<verdict>\S.*)$"
)
CATEGORY_PARTS_RE = re.compile(r"\s+/\s+|\s*／\s*")
CATEGORY_FORM = N_("the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT'")
# A line that tries to be a category line: a score out of 10, a verdict bar, "9 分".
CATEGORY_ATTEMPT_RE = re.compile(r"[/／]\s*(?:10|１０)|[｜|]|\d\s*分")
VERDICT_BAR_RE = re.compile(r"[｜|]")
SCORE_OUT_OF_10_RE = re.compile(r"[^\s·・]+?\s*[/／]\s*(?:10|１０)")
SOURCE_SEPARATOR_RE = re.compile(r"\s+[·・]\s+")
SENTENCE_END = "。！？!?"
CLAUSE_PUNCTUATION = "，；："  # in sentences, never in a link's label
MAX_LABEL_CHARS = 60
# A label followed by its address, as pages write a label and its key: ``论文 <https://…>``.
LABEL_ADDRESS_RE = re.compile(r"^(?P<label>.+?)\s+<(?P<address>[^<>]*)>$")
MISPLACED_ADDRESS_RE = re.compile(r"^\S*://\S*$")
MAX_ADDRESS_CHARS = 2000
ADDRESS_REFUSED_CHARS = "\"'`{}\\<>"
MAX_HEADING_CHARS = 80


# --- records ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportSource:
    """A source link label, and the address the editors wrote after it, if any."""

    label: str
    address: str | None = None


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


@dataclass(frozen=True)
class _Block:
    """Consecutive non-blank lines, stripped, with the number of the first one."""

    line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def paragraph(self) -> str:
        """The lines as paragraph text. A break between two Chinese characters is where
        the export wrapped a line, and a browser would show it as a space: it goes."""
        text = self.lines[0]
        for line in self.lines[1:]:
            text += ("" if CJK_RE.match(text[-1]) and CJK_RE.match(line[0]) else "\n") + line
        return text

    @property
    def is_single_line(self) -> bool:
        return len(self.lines) == 1


@dataclass
class _Report:
    path: str
    problems: list[Problem] = field(default_factory=list)

    def error(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "error", code, message))

    @property
    def failed(self) -> bool:
        return any(problem.severity == "error" for problem in self.problems)


@dataclass
class _ItemReport(_Report):
    """Errors about one item, reported at its heading line (where an editor looks for
    the item); the message names the line of the part at fault."""

    heading_line: int = 0
    title: str = ""

    def error(self, line: int, code: str, message: str) -> None:
        if line != self.heading_line:
            message = _("item '{title}', line {line}: {message}").format(
                title=_shorten(self.title), line=line, message=message
            )
        super().error(self.heading_line, code, message)


def _about_item(report: _Report, heading: _Block) -> _ItemReport:
    return _ItemReport(report.path, report.problems, heading.line, split_emoji(heading.text)[1])


# --- reading ----------------------------------------------------------------------------


def split_blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    current: list[str] = []
    first_line = 0
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped:
            if current:
                blocks.append(_Block(first_line, tuple(current)))
                current = []
            continue
        if not current:
            first_line = number
        current.append(stripped)
    if current:
        blocks.append(_Block(first_line, tuple(current)))
    return blocks


def split_item_heads(blocks: list[_Block]) -> list[_Block]:
    """An item heading directly followed by its category line (no blank line between, as
    editors often write them) reads as the two blocks it would be with one; so do lines
    after the category line."""
    result: list[_Block] = []
    for block in blocks:
        head = _Block(block.line, block.lines[:1])
        category = _Block(block.line + 1, block.lines[1:2])
        if len(block.lines) > 1 and _looks_like_heading(head) and _tries_to_be_category(category):
            result += [head, category]
            if len(block.lines) > 2:
                result.append(_Block(block.line + 2, block.lines[2:]))
        else:
            result.append(block)
    return result


def _forbidden_characters(text: str, report: _Report) -> None:
    report.problems.extend(forbidden_characters(text, page_lines(text), report.path))


# --- parsing ----------------------------------------------------------------------------


def parse_export(
    text: str, path: str, vocabulary: Vocabulary
) -> tuple[ExportIssue | None, list[Problem]]:
    """Parse an export; return the issue (None when any error was found) and the problems."""
    report = _Report(path)
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
    )
    return issue, report.problems


def _read_header(blocks: list[_Block], report: _Report) -> tuple[str, dt.date, int, str] | None:
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
            ).format(found=_shorten(length_block.text))
        else:
            expected = _("expected the length line '约 N 字 · 阅读约 M 分钟' after the date line")
        report.error(where, "length-line", expected)
        return None
    return title_block.text, date, date_block.line, length_block.text


def _read_date(block: _Block | None, title: _Block, report: _Report) -> dt.date | None:
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
                found=_shorten(block.text)
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


def _closing_index(blocks: list[_Block]) -> int | None:
    for index in range(len(blocks) - 1, -1, -1):
        if blocks[index].text == CLOSING_TITLE:
            return index
    return None


def _read_items(
    blocks: list[_Block], vocabulary: Vocabulary, report: _Report, length_block: _Block
) -> tuple[list[_Block], list[DraftItem]]:
    starts = [
        index
        for index in range(len(blocks) - 1)
        if _looks_like_category(blocks[index + 1]) and not _looks_like_category(blocks[index])
    ]
    heading_indexes = set(starts)
    category_indexes = {start + 1 for start in starts}
    for index, block in enumerate(blocks):
        if index not in category_indexes and _looks_like_category(block):
            report.error(
                block.line,
                "missing-heading",
                _("this category line has no item heading (an emoji and a title) before it"),
            )
        elif index not in heading_indexes and _looks_like_heading(block):
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            if following is not None and _tries_to_be_category(following):
                _about_item(report, block).error(
                    following.line,
                    "bad-category",
                    _(
                        "the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT': "
                        "{problem}"
                    ).format(problem=_category_problem(following.text)),
                )
                continue
            report.error(
                block.line,
                "missing-category",
                _(
                    "'{heading}' looks like an item heading, but the next paragraph is not "
                    "a category line 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT'"
                ).format(heading=_shorten(block.text)),
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
        item = _read_item(heading, category, content, vocabulary, _about_item(report, heading))
        if item is not None:
            items.append(item)
    _check_unique_titles(items, report)
    return blocks[: starts[0]], items


def _read_item(
    heading: _Block,
    category: _Block,
    content: list[_Block],
    vocabulary: Vocabulary,
    report: _Report,
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
            _("the item heading '{title}' must start with an emoji").format(title=_shorten(title)),
        )
        ok = False
    elif not title:
        message = _("the item heading has an emoji but no title")
        report.error(heading.line, "missing-title", message)
        ok = False
    fields = _read_category(category, vocabulary, report)
    sources = _read_sources(content, heading, report)
    body = content[:-1] if sources is not None else content
    if content and sources is not None and not body:
        message = _("the item '{title}' has no body text").format(title=_shorten(title))
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


def _read_category(
    block: _Block, vocabulary: Vocabulary, report: _Report
) -> tuple[str, tuple[str, ...], float, str] | None:
    match = CATEGORY_RE.match(block.text) if block.is_single_line else None
    if match is None:
        report.error(block.line, "bad-category", _(CATEGORY_FORM))
        return None
    topic_name, *tags = CATEGORY_PARTS_RE.split(match.group("category").strip())
    rating = read_rating(
        vocabulary,
        report.path,
        topic=(topic_name, block.line),
        verdict=(match.group("verdict").strip(), block.line),
        score=(match.group("score"), block.line),
        fold_width=True,
    )
    ok = not rating.problems
    # Reported in the order the line reads them: topic, tags, score, verdict.
    _report_rating(rating, ("topic",), report)
    for tag in tags:
        if not tag.strip() or "," in tag:
            report.error(
                block.line,
                "bad-tag",
                _(
                    "tag '{tag}' must be non-empty text without ','; separate tags with ' / '"
                ).format(tag=tag),
            )
            ok = False
    _report_rating(rating, ("score", "verdict"), report)
    topic, score, verdict = rating.topic, rating.score, rating.verdict
    if not ok or topic is None or verdict is None or score is None:
        return None
    return topic.key, tuple(tag.strip() for tag in tags), score, verdict.key


def _report_rating(rating: Rating, names: Sequence[str], report: _Report) -> None:
    for name in names:
        if problem := rating.problems.get(name):
            report.error(problem.line, problem.code, problem.message)


def _read_sources(
    content: list[_Block], heading: _Block, report: _Report
) -> tuple[ExportSource, ...] | None:
    if not content:
        message = _("the item has no body text and no line of source labels")
        report.error(heading.line, "missing-body", message)
        return None
    last = content[-1]
    sources = tuple(_split_address(part) for part in SOURCE_SEPARATOR_RE.split(last.text))
    labels = tuple(source.label for source in sources)
    # A word holding "://" is a misplaced address, refused below as such.
    label_text = " · ".join(label for label in labels if not MISPLACED_ADDRESS_RE.match(label))
    clause = any(char in CLAUSE_PUNCTUATION for char in label_text)
    if not last.is_single_line or clause or any(char in SENTENCE_END for char in label_text):
        # A one-line last paragraph with a comma is body text: the labels line is missing.
        if clause:
            message = _(
                "an item must end with its line of source link labels, separated by ' · ' "
                "(found '{found}': labels have no '，', '；' or '：')"
            )
        else:
            message = _(
                "an item must end with its line of source link labels, separated by ' · ' "
                "(found '{found}')"
            )
        report.error(last.line, "missing-sources", message.format(found=_shorten(last.text)))
        return None
    reasons = [reason for label in labels if (reason := _label_problem(label))]
    reasons += [
        _("the label '{label}' is given twice; each label names its own link").format(label=label)
        for position, label in enumerate(labels)
        if label in labels[:position]
    ]
    if reasons:
        message = _("source labels '{labels}': {reason}").format(
            labels=_shorten(last.text), reason=reasons[0]
        )
        report.error(last.line, "bad-label", message)
        return None
    return sources if _addresses_ok(sources, last.line, report) else None


def _split_address(part: str) -> ExportSource:
    match = LABEL_ADDRESS_RE.match(part)
    return ExportSource(match["label"], match["address"]) if match else ExportSource(part)


def _addresses_ok(sources: Sequence[ExportSource], line: int, report: _Report) -> bool:
    ok = True
    for source in sources:
        if source.address is not None and (reason := address_problem(source.address)):
            message = _("the address of '{label}' {reason}").format(
                label=source.label, reason=reason
            )
            report.error(line, "bad-address", message)
            ok = False
    return ok


def address_problem(address: str) -> str | None:
    """Why ``address`` cannot be a source's url, or None when it can."""
    if len(address) > MAX_ADDRESS_CHARS:
        return _("has {count} characters, at most {limit}").format(
            count=len(address), limit=MAX_ADDRESS_CHARS
        )
    bad = [char for char in address if _refused_in_address(char)]
    if bad:
        return _("holds {char!r}, which an address cannot hold (encode it)").format(char=bad[0])
    try:
        parts = urlsplit(address)
        host, user = parts.hostname, parts.username
    except ValueError:
        return _("'{address}' cannot be read as an address").format(address=_shorten(address))
    if parts.scheme.lower() not in ("http", "https") or not host:
        return _("'{address}' is not a full http(s) address (https://…)").format(
            address=_shorten(address)
        )
    if user is not None:
        return _("'{address}' names a user or password before its host").format(
            address=_shorten(address)
        )
    return None


def _refused_in_address(char: str) -> bool:
    return char.isspace() or char in ADDRESS_REFUSED_CHARS or unicodedata.category(char)[0] == "C"


def _label_problem(label: str) -> str | None:
    """Why ``label`` cannot be a source label, or None when it can."""
    if not label.strip("·・ "):
        return _("a label is empty (a stray ' · '?)")
    if label.strip("·・ ") != label:
        return _("'{label}' starts or ends with '·' (a stray separator?)").format(
            label=_shorten(label)
        )
    if "://" in label:
        return _("'{label}' holds an address: write it after a label, 'LABEL <https://…>'").format(
            label=_shorten(label)
        )
    if len(label) > MAX_LABEL_CHARS:
        return _("a label has at most {limit} characters, '{label}' has {count}").format(
            limit=MAX_LABEL_CHARS, label=_shorten(label), count=len(label)
        )
    return None


def _check_unique_titles(items: Sequence[DraftItem], report: _Report) -> None:
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


def _looks_like_category(block: _Block) -> bool:
    return block.is_single_line and CATEGORY_RE.match(block.text) is not None


def _tries_to_be_category(block: _Block) -> bool:
    return block.is_single_line and CATEGORY_ATTEMPT_RE.search(block.text) is not None


def _category_problem(text: str) -> str:
    """What a line that tries to be a category line lacks."""
    bar = VERDICT_BAR_RE.search(text)
    before_bar = text[: bar.start()] if bar else text
    if not re.search(r"[·・]", before_bar):
        return _("there is no ' · ' between the category and the score")
    score = re.split(r"[·・]", before_bar)[-1].strip()
    if not SCORE_OUT_OF_10_RE.fullmatch(score):
        return _("the score '{score}' is not written as SCORE/10").format(score=score)
    if bar is None or not text[bar.end() :].strip():
        return _("there is no '｜' and verdict after the score")
    return _("found '{found}'").format(found=_shorten(text))


def _looks_like_heading(block: _Block) -> bool:
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


def _shorten(text: str, limit: int = 40) -> str:
    first_line = text.split("\n", 1)[0]
    return first_line if len(first_line) <= limit else first_line[: limit - 1] + "…"


# --- chosen ids -------------------------------------------------------------------------


CHOSEN_ID_RE = re.compile(r"\s*\{#([^{}]*)\}\s*$")


def split_chosen_id(title: str) -> tuple[str, str | None]:
    """An item heading's title and the id its editor chose (``标题 {#my-id}``), if any."""
    match = CHOSEN_ID_RE.search(title)
    return (title[: match.start()], match.group(1)) if match else (title, None)
