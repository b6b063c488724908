"""One reading of a page's front matter: where it ends, the fields it holds, and the
front matter the Markdown renderer is given instead of the page's own.

A page's front matter is data for the model, never settings for the parser. MyST reads a
front matter key ``myst`` as file-level parser options (a page could switch on an
extension whose templates run code), ``html_meta`` as ``<meta>`` tags, and ends the
front matter at any line that starts with ``---``. So MyST never sees the page's own
front matter: ``renderer_source`` gives it one written from the fields read here, only
those a page may have, on as many lines, so every body line keeps its number.

Pure: no Sphinx or docutils import.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

MARK = "---"
# Front matter is a few short fields: anything much bigger or deeper is hostile.
FRONT_MATTER_MAX_CHARS = 20_000
FRONT_MATTER_MAX_DEPTH = 8
# Characters no page or export may hold: C0 and C1 controls but the tab (a newline
# splits lines), lone surrogates, the line and paragraph separators (YAML and MyST count
# them as line breaks, so lines would be numbered differently), and the bidirectional
# controls, which reorder the text shown around them ("8.5/10" as "01/5.8").
FORBIDDEN_CHARACTER_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029"
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Joined by a ZWJ into one emoji: a pictograph and what may follow it within the emoji
# (variation selectors, skin tones, the keycap mark).
EMOJI_MODIFIERS = frozenset("\ufe0e\ufe0f\u20e3") | frozenset(map(chr, range(0x1F3FB, 0x1F400)))
ZWJ = "\u200d"
# What str.splitlines() (MyST's front matter reader) takes for a line break and JSON
# leaves as it is.
_JSON_KEPT_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


@dataclass(frozen=True)
class PageLimits:
    """How big a page may be (``radar_max_page_chars``, ``radar_max_items`` in conf.py):
    past them a page is refused before it is parsed, so that the check and the build
    stop in seconds. A real issue is about 10,000 characters and five items."""

    max_chars: int = 500_000
    max_items: int = 100


@dataclass(frozen=True)
class FrontMatter:
    """The front matter of a page as the archive reads it."""

    fields: Mapping[Any, Any]  # the mapping read; empty when absent or unreadable
    key_lines: Mapping[str, int]  # the page line of each top-level key
    end: int  # the number of lines it takes (both marks included); 0 when absent
    readable: bool  # False when the page has front matter that cannot be read
    problems: tuple[Problem, ...] = ()

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, 1)


@dataclass(frozen=True)
class Page:
    """A page read once: its lines and its front matter, for the content check, the
    model and the renderer alike."""

    path: str
    lines: list[str]
    front: FrontMatter
    character_problems: tuple[Problem, ...] = ()
    limits: PageLimits = PageLimits()

    @classmethod
    def read(cls, text: str, path: str, limits: PageLimits = PageLimits()) -> Page:
        if len(text) > limits.max_chars:
            message = _(
                "the page is {count:,} characters, over the limit of {limit:,} "
                "(radar_max_page_chars in conf.py)"
            ).format(count=len(text), limit=limits.max_chars)
            too_large = _unreadable(path, 1, message, code="page-too-large")
            return cls(path, [], too_large, (), limits)
        lines = page_lines(text)
        problems = tuple(forbidden_characters(text, lines, path))
        return cls(path, lines, read_front_matter(lines, path), problems, limits)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """What the page's reading found: the model reports these of an issue, the
        content check of any other page."""
        return self.character_problems + self.front.problems

    def renderer_source(self, fields: Collection[str]) -> str:
        return renderer_source(self.lines, self.front, fields)


def page_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def forbidden_characters(text: str, lines: list[str], path: str) -> list[Problem]:
    """The first forbidden character of each line that holds one."""
    if not FORBIDDEN_CHARACTER_RE.search(text.replace("\r", "\n")):
        return []
    problems = []
    for number, line in enumerate(lines, 1):
        if match := FORBIDDEN_CHARACTER_RE.search(line):
            char = match.group()
            if char in BIDI_CONTROLS:
                message = _("bidirectional control character U+{code:04X}: delete it")
            else:
                message = _("invisible control character U+{code:04X}: delete it")
            message = message.format(code=ord(char))
            problems.append(Problem(path, number, "error", "control-character", message))
    return problems


NO_FORMAT_CHARACTER_RANGES = (
    ("\x00", "\xac"),  # ASCII and Latin-1 up to the soft hyphen U+00AD
    ("\xae", "\u05ff"),  # the rest of Latin-1, Latin, Greek, Cyrillic, Armenian, Hebrew
    ("\u3000", "\u30ff"),  # CJK punctuation, Hiragana, Katakana
    ("\u4e00", "\u9fff"),  # CJK Unified Ideographs
    ("\uff00", "\uffef"),  # half- and full-width forms
)
"""Blocks without a format character (category Cf), where the titles, keys and labels of
the archive mostly are: a text of them alone is not looked at character by character
(``tests/test_invisible_characters.py`` checks each against ``unicodedata``)."""

_MAYBE_FORMAT_CHARACTER_RE = re.compile(
    "[^"
    + "".join(f"{re.escape(low)}-{re.escape(high)}" for low, high in NO_FORMAT_CHARACTER_RANGES)
    + "]"
)


def invisible_character(text: str) -> str | None:
    """The first invisible format character (Unicode category Cf: U+200B, U+2060, U+FEFF,
    U+00AD, the tag characters U+E0000–U+E007F...) of ``text``, a title, key, label or
    topic name, or None. A ZWJ joining two emoji (``👩‍💻``) is part of them; the
    characters refused everywhere (:data:`FORBIDDEN_CHARACTER_RE`) are that rule's."""
    first = _MAYBE_FORMAT_CHARACTER_RE.search(text)
    return None if first is None else format_character_from(text, first.start())


def format_character_from(text: str, start: int) -> str | None:
    """:func:`invisible_character` of ``text``, its characters looked at one by one from
    ``start`` on."""
    for position, char in enumerate(text[start:], start):
        if unicodedata.category(char) != "Cf" or FORBIDDEN_CHARACTER_RE.match(char):
            continue
        if char == ZWJ and _joins_emoji(text, position):
            continue
        return char
    return None


def _joins_emoji(text: str, position: int) -> bool:
    before = text[:position].rstrip("".join(EMOJI_MODIFIERS))
    after = text[position + 1 : position + 2]
    return bool(before and after) and all(
        unicodedata.category(char) == "So" for char in (before[-1], after)
    )


def invisible_character_problem(text: str, path: str, line: int) -> Problem | None:
    """The problem of a title, key, label or topic name ``text`` at ``path:line`` holding
    an :func:`invisible_character`, or None: the one rule of pages, references.bib and
    exports, for the check and the build alike."""
    char = invisible_character(text)
    if char is None:
        return None
    shown = text.replace(char, f"<U+{ord(char):04X}>").strip()
    message = _("invisible character U+{code:04X} ({name}) in '{text}': delete it").format(
        code=ord(char), name=unicodedata.name(char, "FORMAT CHARACTER"), text=shown[:80]
    )
    return Problem(path, line, "error", "invisible-character", message)


def read_front_matter(lines: list[str], path: str) -> FrontMatter:
    """The front matter opening the page: a first line ``---`` and everything up to the
    next line ``---`` (blanks after the marks are allowed, nothing before them)."""
    if not lines or lines[0].rstrip() != MARK:
        if lines and lines[0].startswith(MARK):
            return _unreadable(path, 1, _("the front matter must open with a line '---' alone"))
        return FrontMatter({}, {}, 0, readable=True)
    for index in range(1, len(lines)):
        line = lines[index]
        if line.rstrip() == MARK:
            return _parse(lines[1:index], index + 1, path)
        if line.strip() == MARK or (line.startswith(MARK) and line.strip("-").strip() == ""):
            message = _("{line!r} does not close the front matter: write '---' alone").format(
                line=line.strip()
            )
            return _unreadable(path, index + 1, message)
    return _unreadable(path, 1, _("the front matter is not closed by a '---' line"))


def _unreadable(
    path: str, line: int, message: str, end: int = 0, code: str = "front-matter"
) -> FrontMatter:
    problem = Problem(path, line, "error", code, message)
    return FrontMatter({}, {}, end, readable=False, problems=(problem,))


class _FrontMatterLoader(yaml.SafeLoader):
    """Safe YAML with dates left as text, so a bad date is reported, not raised.

    Aliases (``*name``) are refused and nesting is bounded while the document is
    composed, before any value exists: an alias bomb expands to gigabytes when a value
    is turned into text, and deep nesting exhausts the recursion limit."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(
                None, None, _("aliases (*name) are not allowed in front matter"), mark
            )
        depth = getattr(self, "_depth", 0)
        if depth >= FRONT_MATTER_MAX_DEPTH:
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(
                None,
                None,
                _("front matter nested more than {depth} deep").format(
                    depth=FRONT_MATTER_MAX_DEPTH
                ),
                mark,
            )
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth


_FrontMatterLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _parse(front: list[str], end: int, path: str) -> FrontMatter:
    source = "\n".join(front)
    if len(source) > FRONT_MATTER_MAX_CHARS:
        message = _("the front matter is over {limit:,} characters").format(
            limit=FRONT_MATTER_MAX_CHARS
        )
        return _unreadable(path, 1, message, end)
    try:
        loader = _FrontMatterLoader(source)  # refuses a non-printable character at once
    except yaml.reader.ReaderError as error:
        return _unreadable(path, *_yaml_problem(error, source), end)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except RecursionError:  # nested flow collections recurse in the scanner too
        return _unreadable(path, 1, _("the front matter is nested too deep"), end)
    except yaml.YAMLError as error:
        return _unreadable(path, *_yaml_problem(error, source), end)
    finally:
        loader.dispose()
    if node is None or not isinstance(data, dict):
        return _unreadable(path, 1, _("the front matter must be a mapping of fields"), end)
    key_lines = {
        str(loader_key.value): loader_key.start_mark.line + 2
        for loader_key, _value in node.value
        if isinstance(loader_key, yaml.ScalarNode)
    }
    return FrontMatter(data, key_lines, end, readable=True)


def _yaml_problem(error: yaml.YAMLError, source: str) -> tuple[int, str]:
    """The page line a YAML error is at (the front matter starts on line 2), and what
    it says."""
    if isinstance(error, yaml.reader.ReaderError):
        line = source.count("\n", 0, error.position) + 2
        message = _("invalid YAML: a character YAML does not allow (U+{code:04X})")
        return line, message.format(code=error.character)
    mark = getattr(error, "problem_mark", None)
    line = mark.line + 2 if mark is not None else 1
    return line, _("invalid YAML: {problem}").format(problem=getattr(error, "problem", error))


def renderer_source(lines: list[str], front: FrontMatter, fields: Collection[str]) -> str:
    """The page as the Markdown renderer gets it: its front matter replaced by the
    ``fields`` of it that hold text or a truth value, as one line of JSON (YAML reads
    JSON), then blank lines down to the page's first body line. Nothing of a page whose
    front matter cannot be read."""
    if not front.readable:
        return ""
    kept = {
        key: value
        for key, value in front.fields.items()
        if key in fields and isinstance(value, str | bool)
    }
    head: list[str] = []
    if kept and front.end >= 3:
        line = json.dumps(kept, ensure_ascii=False)
        for character, escaped in _JSON_KEPT_BREAKS.items():
            line = line.replace(character, escaped)
        head = [MARK, line, MARK]
    head += [""] * (front.end - len(head))
    return "\n".join(head + lines[front.end :])
