"""Invisible characters (issue 51, part 5): a format character (Unicode category Cf:
zero-width, word joiner, byte-order mark, soft hyphen, tag characters...) in a title,
key, label or topic name makes two names that look the same and are not. One rule
(``juju_radar.model.page.invisible_character_problem``) refuses it at its file and line
in issue pages (read by the model, so by ``radar check`` and the build alike), in
references.bib and in exports; a ZWJ joining two emoji is part of them."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from conftest import SEED_EXPORT, SEED_SITE, copy_site, examples, seed_vocabulary, sphinx_build
from hostile_spellings import FORMAT_CHARACTERS
from hypothesis import given, settings
from hypothesis import strategies as st

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.segment_check import check_bib_segments
from juju_radar.editors import cli
from juju_radar.editors.export_reader import parse_export
from juju_radar.model.archive_rules import check_vocabulary_names
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.page import (
    NO_FORMAT_CHARACTER_RANGES,
    ZWJ,
    format_character_from,
    invisible_character,
)
from juju_radar.model.vocabulary import vocabulary_from_config

PAGE_PATH = "issues/2026/2026-09-08.md"
SEED_PAGE = (SEED_SITE / PAGE_PATH).read_text(encoding="utf-8")
EXPORT = SEED_EXPORT.read_text(encoding="utf-8")
# Regression cases: where, what the editors wrote, and the character slipped into it.
PAGE_CASES = [
    ("title", "title: 让 AI", "\u200b"),
    ("item heading", "客服能跑起来", "\u2060"),
    ("closing heading", "{radar-closing} 今天", "\ufeff"),
    ("source label", "论文与完整", "\U000e0041"),
    ("topic", ":topic: ag", "\u200b"),
    ("verdict", ":verdict: dig", "\u2063"),
    ("tag", ":tags: Coding", "\u00ad"),
    ("emoji", "🛠️", "\U000e0067"),
]
HEADING_LINE = SEED_PAGE.count("\n", 0, SEED_PAGE.index("🛠️ 客服")) + 1


def slipped(text: str, before: str, char: str) -> tuple[str, int]:
    """``text`` with ``char`` right after the first ``before``, and the line it is on."""
    cut = text.index(before) + len(before)
    return text[:cut] + char + text[cut:], text.count("\n", 0, cut) + 1


def invisible_lines(problems) -> list[int]:
    return [problem.line for problem in problems if problem.code == "invisible-character"]


@pytest.mark.parametrize(("name", "where", "char"), PAGE_CASES)
def test_an_issue_page_refuses_an_invisible_character_at_its_line(name, where, char) -> None:
    text, line = slipped(SEED_PAGE, where, char)
    _issue, problems = parse_issue(text, PAGE_PATH, seed_vocabulary())
    assert invisible_lines(problems) == [line], [p.format() for p in problems]
    assert f"U+{ord(char):04X}" in next(p.message for p in problems if p.line == line)


def test_the_seed_page_and_emoji_joined_by_a_zwj_are_accepted() -> None:
    _issue, problems = parse_issue(SEED_PAGE, PAGE_PATH, seed_vocabulary())
    assert problems == []
    for emoji in ("👩\u200d💻", "👩🏽\u200d💻", "🏳\ufe0f\u200d🌈", "❤\ufe0f\u200d🔥"):
        text = SEED_PAGE.replace("🛠️ 客服", f"{emoji} 客服", 1)
        _issue, problems = parse_issue(text, PAGE_PATH, seed_vocabulary())
        assert problems == [], emoji
    for stray in ("客\u200d服", "\u200d🛠️ 客服", "🛠️\u200d 客服"):
        text = SEED_PAGE.replace("🛠️ 客服", stray, 1)
        _issue, problems = parse_issue(text, PAGE_PATH, seed_vocabulary())
        assert invisible_lines(problems) == [HEADING_LINE], stray


@settings(max_examples=examples(200), deadline=None)
@given(char=st.sampled_from(FORMAT_CHARACTERS), at=st.integers(0, 10))
def test_every_format_character_anywhere_in_a_title_is_refused(char: str, at: int) -> None:
    title = "让 AI 造一个客服，难在代码之外"
    text = SEED_PAGE.replace(title, title[:at] + char + title[at:], 1)
    _issue, problems = parse_issue(text, PAGE_PATH, seed_vocabulary())
    assert invisible_lines(problems) == [3]
    assert invisible_character(title[:at] + char + title[at:]) == char


def test_the_blocks_skipped_hold_no_format_character() -> None:
    """``invisible_character`` looks at a text character by character only from its first
    character outside these blocks: none of them may hold a format character."""
    for low, high in NO_FORMAT_CHARACTER_RANGES:
        found = [
            f"U+{code:04X}"
            for code in range(ord(low), ord(high) + 1)
            if unicodedata.category(chr(code)) == "Cf"
        ]
        assert found == [], (low, high)


names = st.text(
    st.one_of(
        st.sampled_from([*FORMAT_CHARACTERS, ZWJ, "👩", "💻", "\ufe0f", "\u00ad", "\u202e"]),
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4E40),
        st.characters(),
    ),
    max_size=12,
)


@settings(max_examples=examples(500), deadline=None)
@given(names)
def test_the_first_invisible_character_is_that_of_a_scan_from_the_start(text: str) -> None:
    assert invisible_character(text) == format_character_from(text, 0)


EXPORT_CASES = [
    ("title", "让 AI", "\u200b"),
    ("item heading", "客服能跑起来", "\u2060"),
    ("topic", "Agen", "\u200b"),
    ("tag", "Coding Agent", "\ufeff"),
    ("source label", "论文与完整", "\U000e0020"),
]


@pytest.mark.parametrize(("name", "where", "char"), EXPORT_CASES)
def test_an_export_is_refused_with_the_line_of_its_invisible_character(name, where, char) -> None:
    text, line = slipped(EXPORT, where, char)
    issue, problems = parse_export(text, "export.txt", seed_vocabulary())
    assert issue is None
    found = [p for p in problems if p.code == "invisible-character"]
    assert len(found) == 1, [p.format() for p in problems]
    assert found[0].line == line or f"line {line}:" in found[0].message


BIB = """@misc{first2026,
  title = {First},
  url = {https://example.org/first},
}

@inproceedings{probe2026,
  title = {Probe},
  booktitle = {Proceedings},
  radarlabel = {论文},
  year = 2026,
  doi = {10.1234/probe},
}
"""
BIB_CASES = [("{probe2026", 6), ("{Probe}", 7), ("{Proceedings}", 8), ("{论文}", 9)]


@pytest.mark.parametrize(("where", "line"), BIB_CASES)
def test_a_bib_key_or_title_is_refused_at_its_line(where: str, line: int) -> None:
    text = BIB.replace(where, where[:3] + "\u200b" + where[3:])
    problems = check_bib_text(text, "references.bib")
    assert invisible_lines(problems) == [line], [p.format() for p in problems]
    assert check_bib_segments(text, "references.bib", {}).problems == problems
    assert check_bib_text(BIB, "references.bib") == []


# The vocabularies in conf.py: (the line as the seed's conf.py writes it, the same line
# with an invisible character in one name, written as conf.py may write it).
CONF_CASES = [
    ('        "label": "模型训练",', '        "label": "模型\u200b训练",'),
    ('        "label_en": "Training",', '        "label_en": "Train\\u2060ing",'),  # an escape
    (
        '        "aliases": ["训练", "Model training"],',
        '        "aliases": ["训练", "Model\U000e0020training"],',
    ),
    ('        "label": "建议深挖",', '        "label": "建议\u00ad深挖",'),  # a verdict
]


def conf_with(src: Path, written: str, slipped: str) -> int:
    """conf.py of the site at ``src`` with ``written`` replaced by ``slipped``; its line."""
    conf = src / "conf.py"
    text = conf.read_text(encoding="utf-8")
    assert text.count(written) == 1, written
    conf.write_text(text.replace(written, slipped), encoding="utf-8")
    return text[: text.index(written)].count("\n") + 1


@pytest.mark.parametrize(("written", "slipped"), CONF_CASES)
def test_a_vocabulary_name_in_conf_py_is_refused_at_its_line(written, slipped) -> None:
    """The unit: every name of a topic or verdict (key, labels, aliases), at the line of
    conf.py that writes it, escapes read as Python reads them."""
    conf_text = (SEED_SITE / "conf.py").read_text(encoding="utf-8")
    line = conf_text[: conf_text.index(written)].count("\n") + 1
    changed = conf_text.replace(written, slipped)
    config: dict[str, object] = {}
    exec(compile(changed, "conf.py", "exec"), config)  # the test's own copy of the seed's conf.py
    vocabulary = vocabulary_from_config(config["radar_topics"], config["radar_verdicts"])
    problems = check_vocabulary_names(vocabulary, changed)
    assert [(p.path, p.line, p.code) for p in problems] == [
        ("conf.py", line, "invisible-character")
    ]
    assert check_vocabulary_names(seed_vocabulary(), conf_text) == []


@pytest.mark.site
def test_radar_check_and_the_build_refuse_a_topic_label_with_an_invisible_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = copy_site(tmp_path / "src")
    line = conf_with(src, *CONF_CASES[0])
    assert cli.main(["--root", str(src), "check"]) == 1
    said = f"conf.py:{line}: error: invisible character U+200B (ZERO WIDTH SPACE)"
    assert said in capsys.readouterr().out
    result = sphinx_build(src, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert f"conf.py:{line}: ERROR: invisible character U+200B" in result.stderr
