"""``radar check`` refuses a .bib file the build would crash or stall on, at its line.

Each case is one that pybtex (which reads ``references.bib`` in the build) and the
check used to read differently, or that the build could not show: an entry that does
not start its line, a crossref through an ``@string``, a crossref to no entry, an
``@string`` bomb, LaTeX the build cannot convert, and the size limits of ``conf.py``.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from conftest import copy_site, sphinx_build

from juju_radar.editors import cli

BIB = "references.bib"


def radar_check(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """Exit status and the error lines about references.bib."""
    status = cli.main(["--root", str(root), "check"])
    out = capsys.readouterr().out.splitlines()
    return status, [line for line in out if line.startswith(f"{BIB}:") and ": error: " in line]


def with_entries(root: Path, entries: str) -> int:
    """Append ``entries`` to the site's references.bib; the line they start on."""
    bib = root / BIB
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text + entries, encoding="utf-8")
    return text.count("\n") + 1


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "src")


def test_a_crossref_loop_between_entries_that_do_not_start_their_line(site, capsys):
    """pybtex reads an entry wherever its '@' is; the loop crashed the build."""
    first = with_entries(
        site,
        "x @misc{loopa, title = {A}, url = {https://a.example}, crossref = {loopb}}\n"
        "see @misc{loopb, title = {B}, url = {https://b.example}, crossref = {loopa}}\n",
    )
    status, errors = radar_check(site, capsys)
    assert status == 1
    assert errors == [
        f"{BIB}:{first}: error: crossref loop: loopa → loopb → loopa [crossref-loop]",
        f"{BIB}:{first + 1}: error: crossref loop: loopb → loopa → loopb [crossref-loop]",
    ]


def test_a_crossref_through_a_string_macro_is_followed(site, capsys):
    first = with_entries(
        site,
        '@string{parent = "viaa"}\n'
        "@misc{viaa, title = {A}, url = {https://a.example}, crossref = {viab}}\n"
        "@misc{viab, title = {B}, url = {https://b.example}, crossref = parent}\n",
    )
    _, errors = radar_check(site, capsys)
    assert errors == [
        f"{BIB}:{first + 1}: error: crossref loop: viaa → viab → viaa [crossref-loop]",
        f"{BIB}:{first + 2}: error: crossref loop: viab → viaa → viab [crossref-loop]",
    ]


def test_a_crossref_to_no_entry_is_an_error(site, capsys):
    first = with_entries(
        site,
        "@misc{orphan,\n  title = {A},\n  url = {https://a.example},\n  crossref = {nosuch},\n}\n",
    )
    status, errors = radar_check(site, capsys)
    assert status == 1
    assert errors == [
        f"{BIB}:{first + 3}: error: entry 'orphan': crossref 'nosuch' names no entry of this "
        "file [crossref-missing]"
    ]


def test_an_url_in_an_entry_that_does_not_start_its_line_is_checked(site, capsys):
    first = with_entries(site, "% moved: @misc{hidden, title = {H}, url = {javascript:alert(1)}}\n")
    _, errors = radar_check(site, capsys)
    assert errors == [
        f"{BIB}:{first}: error: entry 'hidden' has a url that is not an http(s) address: "
        "'javascript:alert(1)' [unsafe-url]"
    ]


def doubling_strings(count: int) -> str:
    """A 2 KB .bib whose last macro is 2**count characters long."""
    lines = ['@string{s0 = "xx"}']
    lines += [f"@string{{s{n + 1} = s{n} # s{n}}}" for n in range(count)]
    lines.append(f"@misc{{bomb, title = s{count}, url = {{https://a.example}}}}")
    return "\n".join(lines) + "\n"


def test_a_string_bomb_is_refused_without_being_expanded(site, capsys):
    """Memory, not time, shows it: a check that built the macros would hold gigabytes
    (its speed is the machine's)."""
    bomb = doubling_strings(100)  # 2**101 characters, were it built
    first = with_entries(site, bomb)
    tracemalloc.start()
    try:
        status, errors = radar_check(site, capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"
    assert status == 1
    # s14 (32,768 characters) is the first over the field limit; at s18 the macros so far
    # hold 2**20 - 2 characters, past twice the file's length plus 1,000,000: reading stops.
    assert errors[0] == (
        f"{BIB}:{first + 14}: error: @string 's14' expands to 32,768 characters after @string "
        "expansion (at most 20,000: radar_bib_max_field_chars in conf.py) [field-too-long]"
    )
    assert errors[-1] == (
        f"{BIB}:{first + 18}: error: @string macros expand the file past twice its length plus "
        "1,000,000 characters here (a macro repeating another?); the file is not read further "
        "[expansion-too-large]"
    )


def test_a_field_is_measured_after_its_macros_are_expanded(site, capsys):
    first = with_entries(site, doubling_strings(12))  # s12: 8,192 characters
    (site / "conf.py").write_text(
        (site / "conf.py").read_text(encoding="utf-8") + "radar_bib_max_field_chars = 5_000\n",
        encoding="utf-8",
    )
    _, errors = radar_check(site, capsys)
    assert errors[-1] == (
        f"{BIB}:{first + 13}: error: entry 'bomb': field 'title' has 8,192 characters after "
        "@string expansion (at most 5,000: radar_bib_max_field_chars in conf.py) [field-too-long]"
    )


@pytest.mark.parametrize(
    ("latex", "command"),
    [
        ("see \\href{https://a.example}{the page}", "\\href"),
        ("a claim\\footnote", "\\footnote"),
        ("C:\\", "\\"),
    ],
)
def test_latex_the_build_cannot_convert_is_refused_at_its_field(site, capsys, latex, command):
    first = with_entries(
        site,
        f"@misc{{latexy,\n  title = {{T}},\n  url = {{https://a.example}},\n  note = {{{latex}}},\n}}\n",
    )
    status, errors = radar_check(site, capsys)
    assert status == 1
    assert len(errors) == 1
    assert errors[0].startswith(
        f"{BIB}:{first + 3}: error: field 'note' of entry 'latexy' holds LaTeX the build "
        f"cannot turn into text ({command}; "
    )
    assert errors[0].endswith("[bad-latex]")


def test_latex_the_build_converts_passes(site, capsys):
    with_entries(
        site,
        "@misc{accents,\n  title = {{\\'E}tude \\emph{na\\\"ive} 50\\% \\url{https://a.example}},\n"
        "  author = {M{\\\"u}ller, J{\\'e}r{\\^o}me},\n  url = {https://a.example},\n}\n",
    )
    status, errors = radar_check(site, capsys)
    assert (status, errors) == (0, [])


def test_the_entry_limit_comes_from_conf_py(site, capsys):
    (site / "conf.py").write_text(
        (site / "conf.py").read_text(encoding="utf-8") + "radar_bib_max_entries = 5\n",
        encoding="utf-8",
    )
    text = (site / BIB).read_text(encoding="utf-8")
    sixth = text.count("\n", 0, [i for i in range(len(text)) if text.startswith("@", i)][5]) + 1
    status, errors = radar_check(site, capsys)
    assert status == 1
    assert errors == [
        f"{BIB}:{sixth}: error: more than 5 entries (radar_bib_max_entries in conf.py): this is "
        "the first entry past the limit, and the file is not read further [too-many-entries]"
    ]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("radar_bib_max_entries = 0", "radar_bib_max_entries must be a whole number of at least 1"),
        ("radar_bib_max_field_chars = '10k'", "radar_bib_max_field_chars must be a whole number"),
        (
            "radar_bib_max_field_chars = 2_000_000",
            "radar_bib_max_field_chars may be at most 1,000,000",
        ),
    ],
)
def test_a_wrong_limit_in_conf_py_stops_the_check(site, capsys, setting, message):
    conf = site / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + setting + "\n", encoding="utf-8")
    assert cli.main(["--root", str(site), "check"]) == 2
    assert message in capsys.readouterr().err


# --- the build refuses the same files, at the same lines --------------------------------


@pytest.mark.site
def test_the_build_stops_at_a_crossref_loop_hidden_mid_line_with_its_line(tmp_path):
    """It used to crash with a RecursionError reported against another file."""
    site = copy_site(tmp_path / "src")
    first = with_entries(
        site,
        "x @misc{loopa, title = {A}, url = {https://a.example}, crossref = {loopb}}\n"
        "see @misc{loopb, title = {B}, url = {https://b.example}, crossref = {loopa}}\n"
        "@misc{latexy,\n  title = {T},\n  url = {https://a.example},\n"
        "  note = {see \\href{https://a.example}{the page}},\n}\n",
    )
    result = sphinx_build(site, tmp_path / "html", check=False)
    assert result.returncode != 0
    bib = str(site / BIB)
    assert (
        f"{bib}:{first}: ERROR: crossref loop: loopa → loopb → loopa [radar.crossref-loop]"
        in result.stderr
    )
    assert f"{bib}:{first + 5}: ERROR: field 'note' of entry 'latexy' holds LaTeX" in result.stderr
    assert f"{bib}:{first}: ERROR: BibTeX cannot read this file: nothing was built" in result.stderr
    assert "internal-error" not in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.site
def test_the_build_refuses_a_string_bomb_and_too_many_entries(tmp_path):
    site = copy_site(tmp_path / "src")
    first = with_entries(site, doubling_strings(100))
    result = sphinx_build(site, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert (
        f"{site / BIB}:{first + 18}: ERROR: @string macros expand the file past twice its length"
        in result.stderr
    )
    assert "[radar.expansion-too-large]" in result.stderr

    (site / BIB).write_text("@misc{a, title={A}}\n@misc{b, title={B}}\n", encoding="utf-8")
    result = sphinx_build(site, tmp_path / "html", "-D", "radar_bib_max_entries=1", check=False)
    assert result.returncode != 0
    assert (
        f"{site / BIB}:2: ERROR: more than 1 entries (radar_bib_max_entries in conf.py)"
        in result.stderr
    )
    assert "Traceback" not in result.stderr + result.stdout


def test_control_and_bidi_characters_in_an_entry_are_refused(site, capsys):
    """A reference's title is shown in pages as the editors' own text is."""
    first = with_entries(
        site,
        "@misc{spoof,\n  title = {评分 \u202e8.5/10},\n  url = {https://a.example},\n}\n"
        "@misc{bell, title = {A\x07B}, url = {https://b.example}}\n",
    )
    status, errors = radar_check(site, capsys)
    assert status == 1
    assert errors == [
        f"{BIB}:{first + 1}: error: bidirectional control character U+202E: delete it "
        "[control-character]",
        f"{BIB}:{first + 4}: error: invisible control character U+0007: delete it "
        "[control-character]",
    ]
