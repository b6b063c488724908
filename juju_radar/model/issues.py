"""The archive's data model: issues, items, topics and verdicts.

Pure Python: no Sphinx or docutils import, so the command line and the Sphinx
extension parse and validate an issue file in exactly the same way.
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from myst_parser.parsers.options import TokenizeError, options_to_items

from juju_radar.model.anchors import is_reserved_id
from juju_radar.model.messages import N_, _
from juju_radar.model.page import FrontMatter, Page
from juju_radar.model.problems import Problem

STATUSES = ("published", "draft")
# The front matter fields of an issue page: all the renderer is given of it.
ISSUE_FIELDS = frozenset({"date", "title", "status", "length", "orphan"})
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ITEM_ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
CITE_KEY_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_:.-]*$")
ISSUE_PATH_RE = re.compile(r"(?:^|/)issues/(\d{4})/(\d{4}-\d{2}-\d{2})(?:\.md)?$")
FENCE_RE = re.compile(r"^(`{3,}|~{3,})")
ISSUE_FOLDER_RE = re.compile(r"(?:^|/)issues/[^/]+/[^/]+$")  # any page in a year folder
SOURCE_RE = re.compile(r"^(?P<label>.+?)\s*<(?P<keys>[^<>]+)>$")
# A tag or comment not preceded by an escaping backslash (``\<b>`` is text).
RAW_HTML_RE = re.compile(
    r"(?<!\\)(?:\\\\)*(?:<\s*/?\s*[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?\s*>|<!--)"
)
CODE_SPAN_RE = re.compile(r"(?<!\\)(`+)(?!`).+?(?<!`)\1(?!`)")  # `code` shows as written
MARKDOWN_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~])")
# A sentence ends at 。！？ (or . ! ? before a space), with the closing quotes after it.
SENTENCE_END_RE = re.compile(r"[。！？]+[”’」』）)]*|[.!?]+[\"')]*(?=\s)")
# Chinese characters and full-width punctuation: what an editor's 字 count counts.
CJK_RE = re.compile(
    "[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
    "\u2018\u2019\u201c\u201d\u2014\u2026\U00020000-\U0002fa1f]"
)
LATIN_WORD_RE = re.compile(
    r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff]+(?:[-'’.^][A-Za-z0-9\u0370-\u03ff]+)*"
)
MARKUP_ROLE_RE = re.compile(r"\{[a-z:]+\}`[^`]*`")
# The number of characters the ``length`` field states: its first number followed by 字
# (``约 2,500 字``, ``约 3，100 字``, ``约 1.2 万字``), read whole.
STATED_CHARS_RE = re.compile(r"(?<![\d.,，])(\d[\d,，]*(?:\.\d+)?)\s*(万?)\s*字")
CHINESE_CHARS_PER_MINUTE = 400
LATIN_WORDS_PER_MINUTE = 200
ITEM_DIRECTIVE = "radar-item"
CLOSING_DIRECTIVE = "radar-closing"
ITEM_OPTIONS = ("id", "topic", "tags", "score", "verdict", "sources")
REQUIRED_ITEM_OPTIONS = ("id", "topic", "score", "verdict")
# What an unknown topic or verdict is reported as (by the name of the option).
UNKNOWN_NAME = {
    "topic": N_("unknown topic '{value}'{suggestion}"),
    "verdict": N_("unknown verdict '{value}'{suggestion}"),
}
# The years an issue may be dated in (``radar_date_span``): a page dated 0001 or 9999
# would make the listings and charts span thousands of empty months.
DEFAULT_DATE_SPAN = (2000, 2100)


_Named = TypeVar("_Named", "Topic", "Verdict")


# --- vocabulary -----------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """An entry of a fixed vocabulary: stable key, Chinese and English labels, aliases."""

    key: str
    label: str
    label_en: str
    description: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.key, self.label, self.label_en, *self.aliases)


class Topic(Term):
    """A topic of the archive (``radar_topics``)."""

    @property
    def english_beside(self) -> str:
        """The English label to show beside the Chinese one, or "" when they are the same."""
        return "" if self.label_en == self.label else self.label_en

    @property
    def title(self) -> str:
        """The Chinese label with the English one beside it, when they differ."""
        return f"{self.label} · {self.english_beside}" if self.english_beside else self.label


class Verdict(Term):
    """An editor's verdict on an item (``radar_verdicts``)."""


@dataclass(frozen=True)
class Vocabulary:
    """The fixed topic and verdict vocabularies configured in ``conf.py``."""

    topics: tuple[Topic, ...]
    verdicts: tuple[Verdict, ...]

    def topic(self, name: str) -> Topic | None:
        return _lookup(self.topics, name)

    def verdict(self, name: str) -> Verdict | None:
        return _lookup(self.verdicts, name)

    def topic_by_key(self, key: str) -> Topic:
        return next(topic for topic in self.topics if topic.key == key)

    def verdict_by_key(self, key: str) -> Verdict:
        return next(verdict for verdict in self.verdicts if verdict.key == key)


def _lookup(records: Iterable[_Named], name: str) -> _Named | None:
    wanted = name.strip().casefold()
    for record in records:
        if wanted in (known.casefold() for known in record.names):
            return record
    return None


def did_you_mean(name: str, records: Iterable[Topic | Verdict]) -> str:
    """The closest name in the form the editor typed (建议深究 -> 建议深挖, agnet ->
    agent, 训炼 -> 训练 rather than Training), or else every choice."""
    records = list(records)
    names = [known for record in records for known in record.names]
    typed_chinese = _has_han(name)
    same_form = [known for known in names if _has_han(known) == typed_chinese]
    close = difflib.get_close_matches(name, same_form, n=1, cutoff=0.5) or (
        difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    )
    if close:
        return _(" (did you mean '{name}'?)").format(name=close[0])
    choices = (
        record.key if record.key == record.label else f"{record.key} ({record.label})"
        for record in records
    )
    return _(" (one of: {choices})").format(choices=", ".join(choices))


def _has_han(text: str) -> bool:
    return any(unicodedata.name(character, "").startswith("CJK UNIFIED") for character in text)


def vocabulary_from_config(
    topics: Sequence[Mapping[str, object]], verdicts: Sequence[Mapping[str, object]]
) -> Vocabulary:
    """Build the vocabulary from the plain ``radar_topics``/``radar_verdicts`` lists."""
    return Vocabulary(
        topics=tuple(Topic(**_record_fields(entry)) for entry in topics),
        verdicts=tuple(Verdict(**_record_fields(entry)) for entry in verdicts),
    )


def _record_fields(entry: Mapping[str, object]) -> dict[str, Any]:
    fields: dict[str, Any] = dict(entry)
    fields["aliases"] = tuple(str(alias) for alias in fields.get("aliases", ()))
    return fields


# --- records ------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """A link label of an item and the citation key of the reference it names."""

    label: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class TextStats:
    cjk_chars: int = 0
    latin_words: int = 0

    @property
    def words(self) -> int:
        return self.cjk_chars + self.latin_words

    @property
    def minutes(self) -> int:
        reading = (
            self.cjk_chars / CHINESE_CHARS_PER_MINUTE + self.latin_words / LATIN_WORDS_PER_MINUTE
        )
        return max(1, math.ceil(reading))

    def __add__(self, other: TextStats) -> TextStats:
        return TextStats(self.cjk_chars + other.cjk_chars, self.latin_words + other.latin_words)


@dataclass(frozen=True)
class ItemFields:
    """What an item says, alike in a page and in a draft read from an export: a page's
    item adds its id and its sources' citation keys; a draft, its sources' addresses."""

    emoji: str
    title: str
    topic: str
    tags: tuple[str, ...]
    score: float
    verdict: str
    body: tuple[str, ...]


@dataclass(frozen=True)
class Item(ItemFields):
    id: str
    sources: tuple[Source, ...]
    line: int = 0
    # Where its :id: and :sources: options are, for problems about them (0: unknown).
    id_line: int = 0
    sources_line: int = 0
    # Derived from ``sources`` once: page signatures and listings ask 100,000s of times.
    citation_keys: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys = tuple(key for source in self.sources for key in source.keys)
        object.__setattr__(self, "citation_keys", keys)

    @property
    def heading(self) -> str:
        return f"{self.emoji} {self.title}" if self.emoji else self.title


@dataclass(frozen=True)
class Issue:
    date: dt.date
    title: str
    status: str
    stated_length: str
    lead: tuple[str, ...]
    items: tuple[Item, ...]
    closing_title: str
    closing: tuple[str, ...]
    path: str = ""
    stats: TextStats = field(default_factory=TextStats)
    date_line: int = 1
    # Every key the issue cites, once, in order of first citation (from ``items``).
    citation_keys: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys = dict.fromkeys(key for item in self.items for key in item.citation_keys)
        object.__setattr__(self, "citation_keys", tuple(keys))

    @property
    def published(self) -> bool:
        return self.status == "published"

    @property
    def docname(self) -> str:
        """The Sphinx document name: the source path without its suffix."""
        return self.path.removesuffix(".md") if self.path else issue_docname(self.date)


def issue_docname(date: dt.date) -> str:
    return f"issues/{date:%Y}/{date.isoformat()}"


def date_from_path(path: str) -> dt.date | None:
    """The date an issue's file name states, or None for a path that is not an issue."""
    match = ISSUE_PATH_RE.search(path.replace("\\", "/"))
    if not match:
        return None
    try:
        date = dt.date.fromisoformat(match.group(2))
    except ValueError:
        return None
    return date if date.year == int(match.group(1)) else None  # %Y of year 1 is "1"


def is_issue_path(path: str) -> bool:
    return ISSUE_PATH_RE.search(path.replace("\\", "/")) is not None


def misplaced_issue(path: str) -> Problem | None:
    """A page in a year folder of ``issues/`` that is not named by its date there."""
    posix = path.replace("\\", "/")
    if not ISSUE_FOLDER_RE.search(posix) or date_from_path(posix) is not None:
        return None
    return Problem(
        path,
        1,
        "error",
        "bad-path",
        _(
            "an issue page must be issues/YYYY/YYYY-MM-DD.md, named by its date in the folder "
            "of its year; rename or move it"
        ),
    )


def plain_text(markdown: str) -> str:
    """Editor text as readers see it: Markdown backslash escapes removed."""
    return MARKDOWN_ESCAPE_RE.sub(r"\1", markdown)


def first_sentence(text: str) -> str:
    """The text up to the end of its first sentence (all of it when it has no end)."""
    end = SENTENCE_END_RE.search(text)
    return text[: end.end()] if end else text


def format_score(score: float) -> str:
    return f"{score:g}"


def text_stats(text: str) -> TextStats:
    plain = MARKUP_ROLE_RE.sub(" ", text)
    return TextStats(len(CJK_RE.findall(plain)), len(LATIN_WORD_RE.findall(plain)))


def split_emoji(heading: str) -> tuple[str, str]:
    """An item heading's leading emoji (possibly empty: with its variation selectors,
    joiners and modifiers) and the title after it. The importer and the pages share it."""
    text = heading.strip()
    end = 0
    while end < len(text) and _is_emoji_char(text[end], first=end == 0):
        end += 1
    return text[:end], text[end:].strip()


def _is_emoji_char(char: str, first: bool) -> bool:
    category = unicodedata.category(char)
    if first:
        return category == "So"
    return category in ("So", "Sk", "Mn", "Me", "Cf") or char in "\ufe0f\u200d"


# --- parsing ------------------------------------------------------------------------


@dataclass
class Reporter:
    """Collects the problems found in one file."""

    path: str
    date_span: tuple[int, int] = DEFAULT_DATE_SPAN
    problems: list[Problem] = field(default_factory=list)

    def error(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "error", code, message))

    def warning(self, line: int, code: str, message: str) -> None:
        self.problems.append(Problem(self.path, line, "warning", code, message))


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
    if not front.end:
        return None, report.problems
    body_start = front.end
    lead, blocks = _read_body(lines, body_start, report)
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
        report.warning(body_start + 1, "no-items", _("the issue has no items"))
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
    report.warning(
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
        report.warning(
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


def read_date_span(value: object) -> tuple[int, int] | None:
    """``radar_date_span`` as (first year, last year), or None when it is not that."""
    if not (isinstance(value, list | tuple) and len(value) == 2):
        return None
    first, last = value
    valid = all(isinstance(year, int) and 1 <= year <= 9999 for year in (first, last))
    return (first, last) if valid and first <= last else None


def date_outside_span(date: dt.date, span: tuple[int, int]) -> str:
    """Why ``date`` is refused (its year is outside ``radar_date_span``), or ""."""
    first, last = span
    if first <= date.year <= last:
        return ""
    return _(
        "date {date} is outside the archive's years {first}–{last} (radar_date_span in conf.py)"
    ).format(date=date.isoformat(), first=first, last=last)


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
        opening = re.match(r"^:::+\s*\{([a-z-]+)\}\s*(.*)$", stripped)
        if opening:
            flush()
            if block is not None:
                report.error(number, "nested-block", _("a ':::' block is opened inside another"))
            # Other names are the content check's (model.content: forbidden-directive).
            block = _Block(opening.group(1), opening.group(2).strip(), number)
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
        report.error(
            block.line,
            "unclosed-block",
            _("block '{block}' is not closed by ':::'").format(block=f"{{{block.name}}}"),
        )
    return lead, blocks


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


@dataclass(frozen=True)
class ItemOptions:
    """An item block's options as read: None where an option is missing or unusable."""

    id: str | None
    topic: Topic | None
    verdict: Verdict | None
    score: float | None
    sources: tuple[Source, ...] | None
    tags: tuple[str, ...]


def read_item_options(
    options: Mapping[str, tuple[str, int]], vocabulary: Vocabulary, report: Reporter
) -> ItemOptions:
    """``name -> (value, line)`` into an item's fields, reporting each unusable one. The
    model and the item directive both read options through here."""
    item_id = _item_id(options.get("id"), report)
    rating = read_rating(
        vocabulary,
        report.path,
        topic=options.get("topic"),
        verdict=options.get("verdict"),
        score=options.get("score"),
    )
    for problem in rating.problems.values():
        report.error(problem.line, problem.code, problem.message)
    return ItemOptions(
        id=item_id,
        topic=rating.topic,
        verdict=rating.verdict,
        score=rating.score,
        sources=_item_sources(options.get("sources"), report),
        tags=_item_tags(options.get("tags")),
    )


@dataclass(frozen=True)
class Rating:
    """An item's topic, verdict and score as read: None where one is not given or not
    usable, and the problem with each unusable one, under its name."""

    topic: Topic | None
    verdict: Verdict | None
    score: float | None
    problems: Mapping[str, Problem]


def read_rating(
    vocabulary: Vocabulary,
    path: str,
    *,
    topic: tuple[str, int] | None,
    verdict: tuple[str, int] | None,
    score: tuple[str, int] | None,
    fold_width: bool = False,
) -> Rating:
    """The one check of an item's topic and verdict against the vocabulary and of its
    score, for pages and exports alike: each is ``(text, line)``, or None when not given
    (and not checked). With ``fold_width``, a score's full-width characters (８．５) are
    read as ASCII, as exports allow; problems quote the text as written."""
    problems: dict[str, Problem] = {}
    found_topic = _known(topic, vocabulary.topics, "topic", "unknown-topic", path, problems)
    found_verdict = _known(
        verdict, vocabulary.verdicts, "verdict", "unknown-verdict", path, problems
    )
    found_score = None
    if score is not None:
        value, line = score
        found_score = parse_score(unicodedata.normalize("NFKC", value) if fold_width else value)
        if found_score is None:
            message = _("score '{value}' must be a number from 0 to 10 in halves").format(
                value=value
            )
            problems["score"] = Problem(path, line, "error", "bad-score", message)
    return Rating(found_topic, found_verdict, found_score, problems)


def _known(
    given: tuple[str, int] | None,
    records: tuple[_Named, ...],
    name: str,
    code: str,
    path: str,
    problems: dict[str, Problem],
) -> _Named | None:
    """The topic or verdict ``given`` names, or None (and its problem, when given)."""
    if given is None:
        return None
    value, line = given
    found = _lookup(records, value)
    if found is None:
        message = _(UNKNOWN_NAME[name]).format(value=value, suggestion=did_you_mean(value, records))
        problems[name] = Problem(path, line, "error", code, message)
    return found


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
    )


def _item_id(option: tuple[str, int] | None, report: Reporter) -> str | None:
    if option is None:
        return None
    value, line = option
    if problem := item_id_problem(value):
        code, message = problem
        report.error(line, code, message)
        return None
    return value


def item_id_problem(value: str) -> tuple[str, str] | None:
    """Why ``value`` cannot be an item's id (its code and message), or None: the one rule
    for ids written in a page and ids editors choose in an export."""
    if not ITEM_ID_RE.match(value):
        return "bad-id", _(
            "item id '{value}' must be lowercase ASCII letters, digits and '-'"
        ).format(value=value)
    if is_reserved_id(value):
        return "reserved-id", _(
            "item id '{value}' is an id the issue page uses for its own parts: choose another"
        ).format(value=value)
    return None


def parse_score(value: str) -> float | None:
    """A score from 0 to 10 in halves, or None when the text is not one."""
    try:
        score = float(value.strip().removesuffix("/10"))
    except ValueError:
        return None
    if math.isnan(score) or not 0 <= score <= 10 or (score * 2) != int(score * 2):
        return None
    return score


def parse_sources(value: str) -> list[Source] | None:
    """``label <key> · label <key, key>`` into sources, or None when malformed."""
    sources = []
    for part in (part.strip() for part in value.split(" · ")):
        match = SOURCE_RE.match(part)
        if not match:
            return None
        keys = tuple(key.strip() for key in match.group("keys").split(","))
        if not all(CITE_KEY_RE.match(key) for key in keys):
            return None
        sources.append(Source(match.group("label").strip(), keys))
    return sources


def _item_sources(option: tuple[str, int] | None, report: Reporter) -> tuple[Source, ...] | None:
    if option is None or not option[0]:
        return ()
    value, line = option
    sources = parse_sources(value)
    if sources is None:
        report.error(
            line,
            "bad-sources",
            _("sources must read 'label <citation-key> · label <citation-key>'"),
        )
        return None
    return tuple(sources)


def _item_tags(option: tuple[str, int] | None) -> tuple[str, ...]:
    if option is None:
        return ()
    return tuple(tag.strip() for tag in option[0].split(",") if tag.strip())


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


# --- archive-wide checks ---------------------------------------------------------------


def topic_page(topic: Topic) -> str:
    return f"topics/{topic.key}.md"


def check_topic_pages(
    vocabulary: Vocabulary, conf_text: str, page_exists: Callable[[str], bool]
) -> list[Problem]:
    """Each topic in conf.py needs its page: the listings and the topic index link to it."""
    conf_lines = conf_text.splitlines()
    problems = []
    for topic in vocabulary.topics:
        if page_exists(topic_page(topic)):
            continue
        line = next(
            (
                number
                for number, text in enumerate(conf_lines, 1)
                if repr(topic.key) in text or f'"{topic.key}"' in text
            ),
            1,
        )
        problems.append(
            Problem(
                "conf.py",
                line,
                "error",
                "missing-topic-page",
                _(
                    "topic '{key}' has no page: create {page} holding a {{radar-topic}} {key} "
                    "block and list it in topics/index.md's toctree"
                ).format(key=topic.key, page=topic_page(topic)),
            )
        )
    return problems


def archive_problems(
    issues: Iterable[Issue],
    bib_keys: set[str] | None,
    vocabulary: Vocabulary,
    conf_text: str,
    page_exists: Callable[[str], bool],
) -> list[Problem]:
    """Every problem visible only across the archive, for ``radar check`` and the build
    alike: dates and ids used twice, unknown citation keys, topics without their page."""
    return [
        *check_archive(issues, bib_keys),
        *check_topic_pages(vocabulary, conf_text, page_exists),
    ]


def check_archive(issues: Iterable[Issue], bib_keys: set[str] | None) -> list[Problem]:
    """Problems only visible across issues: a date or an item id used twice, unknown keys."""
    problems: list[Problem] = []
    first_use: dict[str, Issue] = {}
    first_of_date: dict[dt.date, Issue] = {}
    for issue in sorted(issues, key=lambda issue: (issue.date, issue.path)):
        if (same_day := first_of_date.setdefault(issue.date, issue)) is not issue:
            problems.append(
                Problem(
                    issue.path,
                    issue.date_line,
                    "error",
                    "duplicate-date",
                    _("{path} is already the issue of {date}").format(
                        path=same_day.path, date=issue.date.isoformat()
                    ),
                )
            )
        for item in issue.items:
            owner = first_use.setdefault(item.id, issue)
            if owner is not issue:
                problems.append(
                    Problem(
                        issue.path,
                        item.id_line or item.line,
                        "error",
                        "duplicate-id",
                        _("item id '{id}' is already used in {path}").format(
                            id=item.id, path=owner.path
                        ),
                    )
                )
            for key in item.citation_keys if bib_keys is not None else ():
                if key not in bib_keys:  # type: ignore[operator]
                    problems.append(
                        Problem(
                            issue.path,
                            item.sources_line or item.line,
                            "error",
                            "missing-citation",
                            _("citation key '{key}' is not in references.bib").format(key=key),
                        )
                    )
    return problems
