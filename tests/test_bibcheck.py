"""juju_radar.bib.check: each problem an editor can make, at the line it is on."""

from __future__ import annotations

import pytest
from bib_corpus import SEED_ENTRIES
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.file_entries import bib_entry_identifiers, parse_bib_keys
from juju_radar.model.problems import Problem

PATH = "topics/refs.bib"

SEED = SEED_ENTRIES

VALID = """\
% A comment line with a {brace pair} and 100% sure.
@string{aisi = "UK AI Security Institute"}

@article{smith2025agents,
  author = {Smith, Jane and 张三},
  title = {{LLM} Agents at 50\\% Budget},
  journal = {Journal of AI},
  year = 2025,
  doi = {10.1234/jai.2025.1},
}

@techreport(aisi2026report,
  title = "Frontier " # "Report",
  institution = aisi,
  year = {2026},
  url = {https://example.org/report%20v2.pdf},
)
@misc{linked2026,
  title = {A page},
  howpublished = {\\url{https://example.org/a%7Eb}},
  isbn = {978-0-00-000000-0},
}
"""


def codes_and_lines(problems: list[Problem]) -> list[tuple[str, int]]:
    return [(problem.code, problem.line) for problem in problems]


def test_valid_file_has_no_problems() -> None:
    assert check_bib_text(VALID, PATH) == []


def test_seed_entries_only_lack_identifiers_and_hold_a_bare_caret() -> None:
    assert [problem.format() for problem in check_bib_text(SEED, PATH)] == [
        "topics/refs.bib:1: note: entry 'taubench2026paper' has no DOI/URL/arXiv id/ISBN: "
        "an editor must complete it [missing-identifier]",
        "topics/refs.bib:2: note: field 'title' of entry 'taubench2026paper' holds what "
        "LaTeX reads as math or markup; the downloads escape it: write '^' as "
        "'\\textasciicircum{}' for LaTeX users of references.bib itself [latex-special]",
        "topics/refs.bib:7: note: entry 'spc2026opinion' has no DOI/URL/arXiv id/ISBN: "
        "an editor must complete it [missing-identifier]",
    ]


def test_duplicate_key_is_case_insensitive_and_reported_at_the_second_entry() -> None:
    text = (
        "@misc{OpenAI2026,\n  title = {One},\n  doi = {10.1/a},\n}\n"
        "\n"
        "@misc{openai2026,\n  title = {Two},\n  doi = {10.1/b},\n}\n"
    )
    assert check_bib_text(text, PATH) == [
        Problem(
            PATH,
            6,
            "error",
            "duplicate-key",
            "entry key 'openai2026' is already used on line 1 (keys are case-insensitive); "
            "pybtex stops reading entries here",
        )
    ]


def test_keys_differing_only_in_punctuation_would_share_an_anchor() -> None:
    text = (
        "@misc{rise_2026,\n  title = {One},\n  doi = {10.1/a},\n}\n"
        "\n"
        "@misc{rise.2026,\n  title = {Two},\n  doi = {10.1/b},\n}\n"
    )
    assert check_bib_text(text, PATH) == [
        Problem(
            PATH,
            6,
            "error",
            "anchor-clash",
            "entry key 'rise.2026' differs from 'rise_2026' (line 1) only in punctuation or accents: "
            "both would be the anchor #cite-rise-2026 on the page; rename one",
        )
    ]


@given(st.text())
def test_the_archive_makes_anchors_as_docutils_does(text: str) -> None:
    from docutils.nodes import make_id as docutils_make_id

    from juju_radar.model.anchors import make_id

    assert make_id(text) == docutils_make_id(text)


@pytest.mark.parametrize("key", ["rise2026paper", "Rise_2026", "a.b:c-d", "x__y", "tail_", "café"])
def test_the_anchor_checked_is_the_one_the_page_gives(key: str) -> None:
    from docutils.nodes import make_id as docutils_make_id

    from juju_radar.model.anchors import citation_anchor
    from juju_radar.sphinx_ext.bibliography import citation_id

    assert citation_anchor(key) == citation_id(key) == docutils_make_id(f"cite-{key}")


def test_keys_that_differ_in_accents_only_clash() -> None:
    text = "@misc{café2026, title = {A}}\n@misc{cafe2026, title = {B}}\n"
    clashes = [p for p in check_bib_text(text, "references.bib") if p.code == "anchor-clash"]
    assert [(p.line, p.message) for p in clashes] == [
        (
            2,
            "entry key 'cafe2026' differs from 'café2026' (line 1) only in punctuation or "
            "accents: both would be the anchor #cite-cafe2026 on the page; rename one",
        )
    ]


def test_missing_closing_brace_is_reported_at_the_entry_start() -> None:
    text = (
        "@misc{first,\n  title = {Fine},\n  url = {https://a.example},\n}\n"
        "@misc{broken,\n  title = {Open {brace},\n  url = {https://b.example},\n}\n"
        "@misc{after,\n  title = {After},\n  url = {https://c.example},\n}\n"
    )
    assert codes_and_lines(check_bib_text(text, PATH)) == [("unbalanced-braces", 5)]
    assert parse_bib_keys(text) == {"first": 1, "broken": 5, "after": 9}


def test_extra_closing_brace_is_reported_at_the_entry_start() -> None:
    text = "\n\n@misc{extra,\n  title = {Closed} too}},\n  url = {https://a.example},\n}\n"
    problems = check_bib_text(text, PATH)
    assert codes_and_lines(problems) == [("unbalanced-braces", 3)]
    assert problems[0].message.startswith("entry 'extra' has unbalanced braces")


def test_unescaped_percent_is_reported_at_its_line() -> None:
    text = (
        "@misc{survey,\n"
        "  title = {Escaped 50\\% is fine},\n"
        "  note = {First line\n"
        "          then 30% of labs},\n"
        "  url = {https://example.org/a%20b},\n"
        "}\n"
    )
    assert check_bib_text(text, PATH) == [
        Problem(
            PATH,
            4,
            "error",
            "unescaped-percent",
            "unescaped '%' in field 'note' of entry 'survey': pybtex drops the rest of the "
            "field; write '\\%'",
        )
    ]


def test_percent_in_howpublished_is_fine_inside_url_only() -> None:
    text = (
        "@misc{page,\n"
        "  title = {Page},\n"
        "  howpublished = {\\url{https://example.org/%7E} 10% off},\n"
        "  url = {https://example.org},\n"
        "}\n"
    )
    problems = check_bib_text(text, PATH)
    assert codes_and_lines(problems) == [("unescaped-percent", 3)]
    assert "field 'howpublished'" in problems[0].message


def test_an_address_written_with_latex_escapes_is_an_error_at_its_line() -> None:
    """``radar refs archive`` once stored ``user\\_guide?lang=zh\\&v=2\\#install``: every
    address field is read verbatim, so the backslashes reach the page's links."""
    text = (
        "@misc{k,\n"
        "  title = {T},\n"
        "  url = {https://example.org/user_guide?lang=zh&v=2&p=50%25#install},\n"
        "  archiveurl = {https://web.archive.org/web/1/https://example.org/user\\_guide"
        "?lang=zh\\&v=2\\#install},\n"
        "  doi = {10.1/a\\%b},\n"
        "  eprint = {2601.00001},\n"
        "}\n"
    )
    problems = check_bib_text(text, PATH)
    assert codes_and_lines(problems) == [("escaped-url", 4), ("escaped-url", 5)]
    assert "field 'archiveurl'" in problems[0].message and "\\_ \\& \\#" in problems[0].message
    assert "field 'doi'" in problems[1].message


def test_double_backslash_before_percent_does_not_escape_it() -> None:
    text = "@misc{k,\n  title = {Line\\\\% gone},\n  doi = {10.1/x},\n}\n"
    assert codes_and_lines(check_bib_text(text, PATH)) == [("unescaped-percent", 2)]


def test_missing_title_is_an_error_at_the_entry_start() -> None:
    text = (
        "@misc{ok,\n  title = {T},\n  doi = {10.1/x},\n}\n\n@misc{untitled,\n  doi = {10.1/y},\n}\n"
    )
    assert check_bib_text(text, PATH) == [
        Problem(PATH, 6, "error", "missing-title", "entry 'untitled' has no title")
    ]


def test_empty_title_counts_as_missing() -> None:
    text = "@misc{blank,\n  title = {},\n  doi = {10.1/y},\n}\n"
    assert codes_and_lines(check_bib_text(text, PATH)) == [("missing-title", 1)]


@pytest.mark.parametrize(
    "identifier",
    [
        "doi = {10.1/x}",
        "url = {https://example.org}",
        "eprint = {2609.01234}",
        "isbn = {978-0}",
        "issn = {1234-5678}",
    ],
)
def test_any_identifier_field_satisfies_the_identifier_check(identifier: str) -> None:
    assert check_bib_text(f"@misc{{k,\n  title = {{T}},\n  {identifier},\n}}\n", PATH) == []


def test_blank_identifier_does_not_count() -> None:
    text = "@misc{k,\n  title = {T},\n  doi = {},\n}\n"
    problems = check_bib_text(text, PATH)
    assert [(p.code, p.line, p.severity) for p in problems] == [("missing-identifier", 1, "note")]


def test_stray_at_sign_is_a_syntax_error_at_its_line() -> None:
    text = "Contact editors @ the desk\n@misc{k,\n  title = {T},\n  doi = {10.1/x},\n}\n"
    problems = check_bib_text(text, PATH)
    assert problems == [
        Problem(
            PATH,
            1,
            "error",
            "bib-syntax",
            "pybtex cannot read this: syntax error: '(' or '{' expected",
        )
    ]


def test_undefined_macro_is_a_syntax_error_at_its_line() -> None:
    text = "@article{k,\n  title = {T},\n  journal = jai,\n  doi = {10.1/x},\n}\n"
    assert check_bib_text(text, PATH) == [
        Problem(PATH, 3, "error", "bib-syntax", "pybtex cannot read this: undefined string: jai")
    ]


def test_repeated_field_is_a_syntax_error_at_the_second_field() -> None:
    text = "@misc{k,\n  title = {T},\n  doi = {10.1/x},\n  title = {Again},\n}\n"
    assert check_bib_text(text, PATH) == [
        Problem(
            PATH,
            4,
            "error",
            "bib-syntax",
            "entry 'k' has a second 'title' field; pybtex ignores it",
        )
    ]


def test_unreadable_name_list_is_a_syntax_error_at_the_entry() -> None:
    text = "\n@misc{k,\n  author = {a, b, c, d},\n  title = {T},\n  doi = {10.1/x},\n}\n"
    assert check_bib_text(text, PATH) == [
        Problem(
            PATH,
            2,
            "error",
            "bib-syntax",
            "pybtex cannot read this: Too many commas in 'a, b, c, d'",
        )
    ]


def test_problems_are_sorted_by_line() -> None:
    text = "@misc{a,\n  doi = {10.1/x},\n}\n@misc{b,\n  title = {5% off},\n}\n"
    assert codes_and_lines(check_bib_text(text, PATH)) == [
        ("missing-title", 1),
        ("missing-identifier", 4),
        ("unescaped-percent", 5),
    ]


def test_parse_bib_keys_in_file_order_skipping_strings_and_comments() -> None:
    text = (
        "@comment{ignored}\n"
        "@string{x = {y}}\n"
        "@misc{zeta,\n  title = {Z},\n}\n"
        "@misc(alpha,\n  title = {A}\n)\n"
        "@misc{ZETA,\n  title = {again},\n}\n"
    )
    assert list(parse_bib_keys(text).items()) == [("zeta", 3), ("alpha", 6)]


def test_parse_bib_keys_of_seed() -> None:
    assert parse_bib_keys(SEED) == {"taubench2026paper": 1, "spc2026opinion": 7}


def test_bib_entry_identifiers_returns_values_as_written() -> None:
    text = (
        "@misc{arxiv2026,\n"
        "  title = {T},\n"
        "  eprint = {2609.01234},\n"
        '  archivePrefix = "arXiv",\n'
        "  url = {https://arxiv.org/abs/2609.01234},\n"
        "}\n"
    )
    identifiers = bib_entry_identifiers(text + SEED)
    assert identifiers == {
        "arxiv2026": {
            "url": "https://arxiv.org/abs/2609.01234",
            "eprint": "2609.01234",
            "archiveprefix": "arXiv",
        },
        "taubench2026paper": {"note": "arXiv 公告 2026-09-07"},
        "spc2026opinion": {},
    }


def no_internal_error(problems: list[Problem]) -> bool:
    return all(problem.code != "internal-error" for problem in problems)


def test_a_checker_that_fails_is_reported_not_swallowed(monkeypatch) -> None:
    from juju_radar.bib import check

    def broken(entries, path):
        raise ValueError("boom")

    monkeypatch.setattr(check, "PER_ENTRY_RULES", (*check.PER_ENTRY_RULES, broken))
    (problem,) = check_bib_text("@misc{a, title = {A}}\n", PATH)
    assert (problem.path, problem.line, problem.code) == (PATH, 1, "internal-error")
    assert "ValueError: boom" in problem.message


@pytest.mark.parametrize(
    "garbage",
    ["", "@", "@@@{{{", "@misc", "@misc{", "@misc{,}", "}}}{{{", "@misc{k, title = {", "\x00@\r\n"],
)
def test_garbage_never_raises(garbage: str) -> None:
    assert no_internal_error(check_bib_text(garbage, PATH))
    assert isinstance(parse_bib_keys(garbage), dict)
    assert isinstance(bib_entry_identifiers(garbage), dict)


def test_empty_text_has_no_problems() -> None:
    assert check_bib_text("", PATH) == []


BIBTEX_ALPHABET = st.sampled_from(
    list('@{}()",=#%\\ \n\tabkmist0123') + ["@misc{", "title = {", "doi", "\r\n", "张"]
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(BIBTEX_ALPHABET, max_size=60).map("".join))
def test_bibtex_like_noise_never_raises(text: str) -> None:
    problems = check_bib_text(text, PATH)
    assert no_internal_error(problems)
    line_count = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    assert all(1 <= problem.line <= line_count for problem in problems)
    parse_bib_keys(text)
    bib_entry_identifiers(text)


@settings(max_examples=examples(100), deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    assert no_internal_error(check_bib_text(text, PATH))
    parse_bib_keys(text)
    bib_entry_identifiers(text)


def test_what_latex_reads_as_math_is_noted_at_its_field_line() -> None:
    text = (
        "@misc{k,\n"
        "  title = {τ^τ-Bench and R&D},\n"
        "  note = {$x^2$ and a\\_b are fine},\n"
        "  url = {https://example.org/a_b#c},\n"
        "}\n"
    )
    (problem,) = [p for p in check_bib_text(text, PATH) if p.code == "latex-special"]
    assert (problem.line, problem.severity) == (2, "note")
    assert "'^' as '\\textasciicircum{}', '&' as '\\&'" in problem.message
