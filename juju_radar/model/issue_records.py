"""An issue and its items as records, where an issue's file lies and which years it
may be dated in, and the text helpers the records and their readers share.

Pure Python: no Sphinx or docutils import.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

if TYPE_CHECKING:
    from juju_radar.model.corrections import Correction

ISSUE_PATH_RE = re.compile(r"(?:^|/)issues/(\d{4})/(\d{4}-\d{2}-\d{2})(?:\.md)?$")
ISSUE_FOLDER_RE = re.compile(r"(?:^|/)issues/[^/]+/[^/]+$")  # any page in a year folder
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
CHINESE_CHARS_PER_MINUTE = 400
LATIN_WORDS_PER_MINUTE = 200
# The years an issue may be dated in (``radar_date_span``): a page dated 0001 or 9999
# would make the listings and charts span thousands of empty months.
DEFAULT_DATE_SPAN = (2000, 2100)


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
    # The entity ids its ``entities`` and ``not-entities`` options name, with their lines.
    entities: tuple[tuple[str, int], ...] = ()
    not_entities: tuple[tuple[str, int], ...] = ()
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
    # What the editors corrected since it was published, oldest first (model.corrections).
    corrections: tuple[Correction, ...] = ()
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
