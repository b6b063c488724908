"""Bad exports: a message at file and line, a non-zero exit, no traceback, nothing written."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import SEED_EXPORT, SEED_SITE, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from import_cases import GOOD, ISSUE, run_import, site_files

from juju_radar.editors import cli
from juju_radar.editors.check_run import check_site
from juju_radar.editors.import_run import import_backlog
from juju_radar.editors.site_files import open_site

BAD = [
    ("empty file", "", "1: error: the file is empty [empty]"),
    ("only blank lines", " \n\n\t\n", "1: error: the file is empty [empty]"),
    (
        "missing date line",
        GOOD.replace("Juju Radar · 2026.09.11\n\n", ""),
        "3: error: expected the date line 'Juju Radar · YYYY.MM.DD', found '约 40 字 · 阅读约 1 分钟' "
        "[date-line]",
    ),
    (
        "malformed date line",
        GOOD.replace("2026.09.11", "2026年9月11日"),
        "3: error: expected the date line 'Juju Radar · YYYY.MM.DD', found 'Juju Radar · 2026年9月11日' "
        "[date-line]",
    ),
    (
        "impossible date",
        GOOD.replace("2026.09.11", "2026.02.30"),
        "3: error: 2026.02.30 is not a date in the calendar [bad-date]",
    ),
    (
        "title missing",
        GOOD.replace("测试标题\n\n", ""),
        "1: error: the file must start with the issue's title, before the date line [missing-title]",
    ),
    (
        "missing length line",
        GOOD.replace("约 40 字 · 阅读约 1 分钟\n\n", ""),
        "5: error: expected the length line '约 N 字 · 阅读约 M 分钟' after the date line, found '导语。' "
        "[length-line]",
    ),
    (
        "item without a category line",
        GOOD.replace("模型训练 · 8.5/10｜持续观察\n\n", ""),
        "17: error: '🧠 第二条' looks like an item heading, but the next paragraph is not a category "
        "line 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT' [missing-category]",
    ),
    (
        "category line without its verdict",
        GOOD.replace("· 9/10｜建议深挖", "· 9/10"),
        "9: error: item '第一条', line 11: the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT': there is no '｜' and verdict after the score [bad-category]",
    ),
    (
        "category line with the score in words",
        GOOD.replace("· 9/10｜建议深挖", "· 9 分｜建议深挖"),
        "9: error: item '第一条', line 11: the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT': the score '9 分' is not written as SCORE/10 [bad-category]",
    ),
    (
        "category line without the dot before the score",
        GOOD.replace("Coding Agent · 9/10", "Coding Agent 9/10"),
        "9: error: item '第一条', line 11: the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT': there is no ' · ' between the category and the score [bad-category]",
    ),
    (
        "unknown topic",
        GOOD.replace("Agent / Coding", "Agnet / Coding"),
        "9: error: item '第一条', line 11: unknown topic 'Agnet' (did you mean 'Agent'?) [unknown-topic]",
    ),
    (
        "topic nothing like a known one",
        GOOD.replace("Agent / Coding", "机器人 / Coding"),
        "9: error: item '第一条', line 11: unknown topic '机器人' (one of: agent (Agent), training (模型训练), 3d (3D 生成), "
        "ai-for-science (AI for Science), governance (治理)) [unknown-topic]",
    ),
    (
        "unknown verdict",
        GOOD.replace("9/10｜建议深挖", "9/10｜建议深究"),
        "9: error: item '第一条', line 11: unknown verdict '建议深究' (did you mean '建议深挖'?) [unknown-verdict]",
    ),
    (
        "score above 10",
        GOOD.replace("9/10", "11/10"),
        "9: error: item '第一条', line 11: score '11' must be a number from 0 to 10 in halves [bad-score]",
    ),
    (
        "score not a number",
        GOOD.replace("9/10", "九/10"),
        "9: error: item '第一条', line 11: score '九' must be a number from 0 to 10 in halves [bad-score]",
    ),
    (
        "score not in halves",
        GOOD.replace("9/10", "8.3/10"),
        "9: error: item '第一条', line 11: score '8.3' must be a number from 0 to 10 in halves [bad-score]",
    ),
    (
        "two items with the same title",
        GOOD.replace("🧠 第二条", "🧠 第一条"),
        "17: error: two items are titled '第一条' (first on line 9) [duplicate-title]",
    ),
    (
        "missing closing section",
        GOOD.split("今天的主线")[0],
        "23: error: the issue has no closing section: a line '今天的主线' followed by its paragraphs "
        "[missing-closing]",
    ),
    (
        "closing section without text",
        GOOD.replace("\n收尾。\n", ""),
        "25: error: the closing section '今天的主线' has no paragraphs [missing-closing]",
    ),
    (
        "heading without emoji",
        GOOD.replace("🛠️ 第一条", "第一条"),
        "9: error: the item heading '第一条' must start with an emoji [missing-emoji]",
    ),
    (
        "item without source labels",
        GOOD.replace("论文 · 代码\n\n", ""),
        "9: error: item '第一条', line 13: an item must end with its line of source link labels, separated by ' · ' "
        "(found '正文一。') [missing-sources]",
    ),
    (
        "labels line missing, the last paragraph a short clause",
        GOOD.replace("正文一。\n\n论文 · 代码\n", "正文一。\n\n数字暂时无法复现，值得持续观察\n"),
        "9: error: item '第一条', line 15: an item must end with its line of source link labels, separated by ' · ' "
        "(found '数字暂时无法复现，值得持续观察': labels have no '，', '；' or '：') "
        "[missing-sources]",
    ),
    (
        "the same label twice in an item",
        GOOD.replace("论文 · 代码\n", "论文 · 论文\n"),
        "9: error: item '第一条', line 15: source labels '论文 · 论文': the label '论文' is given twice; "
        "each label names its own link [bad-label]",
    ),
    (
        "stray separator after the labels",
        GOOD.replace("论文 · 代码\n", "论文 · 代码 · \n"),
        "9: error: item '第一条', line 15: source labels '论文 · 代码 ·': '代码 ·' starts or ends with '·' "
        "(a stray separator?) [bad-label]",
    ),
    (
        "source label too long",
        GOOD.replace("论文 · 代码\n", "论文 · " + "长" * 61 + "\n"),
        "9: error: item '第一条', line 15: source labels '论文 · 长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长…': "
        "a label has at most 60 characters, '长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长…' "
        "has 61 [bad-label]",
    ),
    (
        "tag with an ASCII comma",
        GOOD.replace("Coding Agent", "Coding, Agent"),
        "9: error: item '第一条', line 11: tag 'Coding, Agent' must be non-empty text without ','; separate tags with ' / ' "
        "[bad-tag]",
    ),
    (
        "control character",
        GOOD.replace("导语。", "导语\x07。"),
        "7: error: invisible control character U+0007: delete it [control-character]",
    ),
    (
        "no items",
        GOOD.split("🛠️")[0] + "今天的主线\n\n收尾。\n",
        "7: error: the issue has no items: an item is an emoji-led heading, then its category line "
        "[no-items]",
    ),
]


@pytest.mark.parametrize("text, expected", [case[1:] for case in BAD], ids=[c[0] for c in BAD])
def test_bad_export_is_refused_at_its_line_and_writes_nothing(
    site_copy, tmp_path, capsys, text, expected
):
    before = site_files(site_copy)
    assert run_import(site_copy, tmp_path, text.encode("utf-8")) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'export.txt'}:{expected}" in err.splitlines()
    assert err.rstrip().endswith("0 imported, 0 skipped, 1 failed")
    assert "Traceback" not in err
    assert site_files(site_copy) == before


def test_nothing_is_imported_onto_a_broken_bibliography(site_copy, tmp_path, capsys):
    bib = site_copy / "references.bib"
    original = bib.read_text(encoding="utf-8")
    lines = original.count("\n")
    bib.write_text(original + "\n@misc{broken2026,\n  title = {Foo {bar},\n}\n", encoding="utf-8")
    before = site_files(site_copy)
    assert run_import(site_copy, tmp_path, GOOD.encode("utf-8")) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("references.bib:")] == [
        f"references.bib:{lines + 2}: error: entry 'broken2026' has unbalanced braces: a missing "
        "or extra '{' or '}' makes BibTeX read into the entries that follow [unbalanced-braces]"
    ]
    assert err[-1] == (
        "references.bib has errors: fix them before importing (nothing was imported); "
        "0 imported, 0 skipped, 1 failed"
    )
    assert site_files(site_copy) == before
    bib.write_text(original, encoding="utf-8")
    assert run_import(site_copy, tmp_path, GOOD.encode("utf-8")) == 0


def test_invalid_utf8_names_the_line(site_copy, tmp_path, capsys):
    before = site_files(site_copy)
    data = GOOD.encode("utf-8").replace("导语".encode(), b"\xff\xfe")
    assert run_import(site_copy, tmp_path, data) == 1
    assert (
        f"{tmp_path / 'export.txt'}:7: error: not valid UTF-8 (byte 0xff); save the file "
        "as UTF-8 [encoding]"
    ) in capsys.readouterr().err
    assert site_files(site_copy) == before


def test_a_date_already_in_the_archive_is_skipped(site_copy, tmp_path, capsys):
    before = site_files(site_copy)
    assert cli.main(["--root", str(site_copy), "import", str(SEED_EXPORT)]) == 0
    err = capsys.readouterr().err
    assert (
        f"{SEED_EXPORT}:3: warning: issue 2026-09-08 already exists as issues/2026/2026-09-08.md: "
        "pass --force to replace it [exists]"
    ) in err
    assert err.rstrip().endswith(
        "0 imported, 1 skipped (already in the archive: --force replaces them), 0 failed"
    )
    assert site_files(site_copy) == before
    # With --strict a skipped file fails the command, and nothing is written either.
    assert cli.main(["--root", str(site_copy), "import", "--strict", str(SEED_EXPORT)]) == 1
    assert (
        capsys.readouterr()
        .err.rstrip()
        .endswith("0 imported, 1 skipped (already in the archive: --force replaces them), 0 failed")
    )
    assert site_files(site_copy) == before


def test_a_missing_file_and_a_missing_site(site_copy, tmp_path, capsys):
    assert cli.main(["--root", str(site_copy), "import", str(tmp_path / "nope.txt")]) == 1
    assert (
        f"{tmp_path / 'nope.txt'}:1: error: cannot read the file: No such file or directory "
        "[unreadable]"
    ) in capsys.readouterr().err
    assert cli.main(["--root", str(tmp_path), "check"]) == 2
    assert capsys.readouterr().err == (
        f"radar: error: {tmp_path}: not a site root (no conf.py); use --root DIR\n"
    )


def unchanged(text: str) -> str:
    return text


@pytest.mark.parametrize(
    "variant, expected_change",
    [
        pytest.param(lambda text: text.replace("\n", "\r\n"), unchanged, id="windows line endings"),
        pytest.param(lambda text: text.replace("\n", "  \n"), unchanged, id="trailing spaces"),
        pytest.param(lambda text: "\ufeff" + text, unchanged, id="byte order mark"),
        pytest.param(
            lambda text: text.replace("🛠️", "🛠"),
            lambda page: page.replace("🛠️", "🛠"),
            id="emoji without FE0F (kept as typed)",
        ),
        pytest.param(
            lambda text: text.replace("2026.09.11", "２０２６．０９．１１"),
            unchanged,
            id="full-width date",
        ),
        pytest.param(
            lambda text: text.replace("9/10｜", "9 / 10 | "),
            unchanged,
            id="spaced score, ASCII bar",
        ),
        pytest.param(
            lambda text: text.replace("\n\n", "\n  \n\n"), unchanged, id="blank lines with spaces"
        ),
    ],
)
def test_harmless_variations_import_the_same_page(
    site_copy, tmp_path, capsys, variant, expected_change
):
    assert run_import(site_copy, tmp_path, GOOD.encode("utf-8")) == 0
    expected = expected_change((site_copy / ISSUE).read_text(encoding="utf-8"))
    (site_copy / ISSUE).unlink()
    assert run_import(site_copy, tmp_path, variant(GOOD).encode("utf-8"), "--force") == 0
    page = (site_copy / ISSUE).read_text(encoding="utf-8")
    assert page == expected
    assert "\r" not in page and "\ufeff" not in page


def test_no_temporary_files_are_left_behind(site_copy, tmp_path):
    assert run_import(site_copy, tmp_path, GOOD.encode("utf-8")) == 0
    leftovers = [p.name for p in site_copy.rglob(".*.tmp")]
    assert leftovers == []


# --- never a traceback ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_site() -> Path:
    """conf.py, its topic pages, references.bib and an empty issues/: enough for import
    and check."""
    root = Path(tempfile.mkdtemp(prefix="radar-small-site-"))
    shutil.copy(SEED_SITE / "conf.py", root / "conf.py")
    shutil.copytree(SEED_SITE / "topics", root / "topics", ignore=shutil.ignore_patterns("*/"))
    (root / "issues").mkdir()
    yield root
    shutil.rmtree(root)


def reset(root: Path) -> None:
    shutil.rmtree(root / "issues")
    (root / "issues").mkdir()
    (root / "references.bib").write_text("", encoding="utf-8")


EXPORT_ALPHABET = st.characters(
    codec="utf-8", exclude_categories=("Cs",), include_characters="\n\r\t ·｜/#*_<>`[{%:-"
)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(alphabet=EXPORT_ALPHABET, max_size=400).map(lambda t: t.encode("utf-8")),
        st.text(alphabet=EXPORT_ALPHABET, max_size=30).map(
            lambda t: GOOD.replace("正文一。", t).encode("utf-8")
        ),
    )
)
def test_import_never_raises_on_arbitrary_input(small_site, data):
    reset(small_site)
    export = small_site / "export.txt"
    export.write_bytes(data)
    site = open_site(small_site)
    outcomes = import_backlog(site, [str(export)])
    assert outcomes is not None
    (outcome,) = outcomes
    if outcome.status == "imported":
        assert [p for p in check_site(site) if p.severity == "error"] == []
    else:
        assert outcome.problems and not (small_site / "issues" / "2026").exists()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.binary(max_size=300),
        st.text(alphabet=EXPORT_ALPHABET, max_size=400).map(lambda t: t.encode("utf-8")),
        st.text(alphabet=EXPORT_ALPHABET, max_size=60).map(
            lambda t: (
                (SEED_SITE / "issues/2026/2026-09-08.md")
                .read_text("utf-8")
                .replace("给 AI 一道代码题", t)
                .encode("utf-8")
            )
        ),
    ),
    st.binary(max_size=200),
)
def test_check_never_raises_on_arbitrary_files(small_site, page, bib):
    reset(small_site)
    (small_site / "issues" / "2026").mkdir()
    (small_site / "issues/2026/2026-09-08.md").write_bytes(page)
    (small_site / "references.bib").write_bytes(bib)
    problems = check_site(open_site(small_site))
    assert all(problem.severity in ("error", "warning") for problem in problems)
