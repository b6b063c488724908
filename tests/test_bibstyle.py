"""juju_radar.bib.style: the reference list text a reader sees, formatted by pybtex."""

from __future__ import annotations

import pytest
from bib_corpus import SEED_ENTRIES
from pybtex.database import parse_string
from pybtex.plugin import find_plugin

from juju_radar.bib.style import RadarStyle, register

SEED = SEED_ENTRIES


def formatted(bibtex: str, backend: str = "text", style_name: str = "radar") -> list[str]:
    register()
    style = find_plugin("pybtex.style.formatting", style_name)()
    entries = parse_string(bibtex, "bibtex").entries.values()
    return [
        f"[{entry.label}] {entry.text.render_as(backend)}"
        for entry in style.format_entries(entries)
    ]


def only_entry(bibtex: str, backend: str = "text") -> str:
    (line,) = formatted(bibtex, backend)
    return line.removeprefix("[1] ")


def test_register_is_idempotent_and_finds_the_radar_style() -> None:
    register()
    register()
    assert find_plugin("pybtex.style.formatting", "radar") is RadarStyle


def test_seed_entries_in_citation_order() -> None:
    assert formatted(SEED) == [
        "[1] τ^τ-Bench 论文与完整实验。Sierra and Princeton University，2026。"
        "arXiv 公告 2026-09-07。",
        "[2] 最高人民法院。关于依法审理涉人工智能纠纷案件的意见。2026-09-07。",
    ]


def test_labels_follow_citation_order_not_author_order() -> None:
    bibtex = (
        "@misc{z, author = {Zed, Zoe}, title = {Last name Z}, year = {2020}}\n"
        "@misc{a, author = {Abel, Ann}, title = {Last name A}, year = {2021}}\n"
    )
    assert formatted(bibtex) == [
        "[1] Zoe Zed. Last name Z. 2020.",
        "[2] Ann Abel. Last name A. 2021.",
    ]


def test_institutional_chinese_author_is_kept_whole_in_html() -> None:
    html = formatted(SEED, backend="html")[1]
    assert html.startswith('[2] <span class="bibtex-protected">最高人民法院</span>。')


def test_title_case_is_kept_as_written() -> None:
    bibtex = (
        "@article{k, author = {Smith, Jane}, title = {GPT-5 and LLMs in the Wild}, "
        "journal = {Journal of AI}, year = {2026}}"
    )
    assert only_entry(bibtex) == "Jane Smith. GPT-5 and LLMs in the Wild. Journal of AI, 2026."
    (unsrt_line,) = formatted(bibtex, style_name="unsrt")
    assert "Gpt-5 and llms in the wild" in unsrt_line


def test_chinese_authors_are_joined_with_enumeration_comma() -> None:
    bibtex = (
        "@article{k, author = {张三 and 李四 and 王五}, title = {大模型评测}, "
        "journal = {计算机学报}, volume = {3}, pages = {1--9}, year = {2026}}"
    )
    assert only_entry(bibtex) == "张三、李四、王五。大模型评测。计算机学报，3:1–9，2026。"


def test_two_chinese_authors_have_no_and() -> None:
    bibtex = "@misc{k, author = {张三 and 李四}, title = {报告}, year = {2026}}"
    assert only_entry(bibtex) == "张三、李四。报告。2026。"


def test_chinese_name_with_comma_is_family_then_given_without_space() -> None:
    bibtex = "@misc{k, author = {张, 三丰}, title = {太极}, year = {2026}}"
    assert only_entry(bibtex) == "张三丰。太极。2026。"


def test_chinese_entries_use_chinese_punctuation_latin_entries_keep_theirs() -> None:
    """GB/T 7714 in Chinese text: "，" within a part, "。" ending it, no space between
    parts; an English entry of the same bibliography keeps ", " and ". "."""
    bibtex = (
        "@misc{zh, title = {RISE 论文}, organization = {某大学}, year = {2026},"
        " note = {训练方法}}\n"
        "@misc{en, title = {DevDay Recap}, organization = {OpenAI}, year = {2026},"
        " note = {Keynote summary}}\n"
    )
    assert formatted(bibtex) == [
        "[1] RISE 论文。某大学，2026。训练方法。",
        "[2] DevDay Recap. OpenAI, 2026. Keynote summary.",
    ]


def test_latin_authors_are_joined_as_unsrt_does() -> None:
    bibtex = (
        "@misc{k, author = {Knuth, Donald E. and Lamport, Leslie and Zhang, San}, "
        "title = {Typesetting}, year = {1990}}"
    )
    assert (
        only_entry(bibtex) == "Donald E. Knuth, Leslie Lamport, and San Zhang. Typesetting. 1990."
    )


def test_latin_institutional_author_is_kept_whole() -> None:
    bibtex = (
        "@misc{k, author = {{Supreme People's Court of the PRC}}, "
        "title = {Opinions on AI Disputes}, year = {2026}}"
    )
    assert only_entry(bibtex) == "Supreme People's Court of the PRC. Opinions on AI Disputes. 2026."


def test_article_without_author_or_journal() -> None:
    assert only_entry("@article{k, title = {Anonymous Piece}, year = {2024}}") == (
        "Anonymous Piece. 2024."
    )


def test_article_shows_publisher_and_named_month() -> None:
    bibtex = (
        "@article{k, title = {T}, journal = {J}, publisher = {Springer}, "
        "year = {2025}, month = sep}"
    )
    assert only_entry(bibtex) == "T. J, Springer, September 2025."


def test_online_entry_shows_date_field_howpublished_link_note_and_url() -> None:
    bibtex = (
        "@online{k, title = {DevDay Recap}, organization = {OpenAI}, "
        "howpublished = {\\url{https://example.org/%7Edevday}}, date = {2026-09-01}, "
        "note = {Keynote summary}, url = {https://example.org/recap}}"
    )
    assert only_entry(bibtex) == (
        "DevDay Recap. OpenAI, https://example.org/%7Edevday, 2026-09-01. "
        "Keynote summary. 网址：https://example.org/recap"
    )
    assert only_entry(bibtex, backend="html") == (
        "DevDay Recap.\n"
        'OpenAI, <a href="https://example.org/%7Edevday">https://example.org/%7Edevday</a>, '
        "2026-09-01.\n"
        "Keynote summary.\n"
        '网址：<a href="https://example.org/recap">https://example.org/recap</a>'
    )


def test_software_entry_is_formatted_as_misc_with_publisher() -> None:
    bibtex = (
        "@software{k, author = {Kwon, Woosuk}, title = {vLLM}, publisher = {GitHub}, "
        "year = {2026}, month = {3}, url = {https://example.org/vllm}}"
    )
    assert (
        only_entry(bibtex) == "Woosuk Kwon. vLLM. GitHub, 2026-03. 网址：https://example.org/vllm"
    )


def test_techreport_shows_institution_and_number() -> None:
    bibtex = (
        "@techreport{k, title = {Frontier AI Safety Report}, institution = {UK AISI}, "
        "number = {7}, year = {2026}}"
    )
    assert only_entry(bibtex) == "Frontier AI Safety Report. Technical Report 7, UK AISI, 2026."


def test_unknown_type_is_formatted_as_misc() -> None:
    assert only_entry("@podcast{k, title = {Episode 12}, year = {2020}}") == "Episode 12. 2020."


def test_book_missing_required_fields_falls_back_to_misc() -> None:
    assert only_entry("@book{k, title = {No Author Book}, year = {2020}}") == (
        "No Author Book. 2020."
    )


def test_entry_with_only_a_title() -> None:
    assert only_entry("@misc{k, title = {RISE 论文}, note = {训练方法}}") == "RISE 论文。训练方法。"


@pytest.mark.parametrize(
    ("date_fields", "shown_date"),
    [
        ("year = {2026}", "2026"),
        ("year = {2026}, month = {9}", "2026-09"),
        ("year = {2026}, month = {9}, day = {7}", "2026-09-07"),
        ("year = {2026}, month = sep, day = {7}", "September 7, 2026"),
        ("date = {2026-09-07}, year = {2025}", "2026-09-07"),
    ],
)
def test_misc_date_is_shown_as_written(date_fields: str, shown_date: str) -> None:
    assert only_entry(f"@misc{{k, title = {{T}}, {date_fields}}}") == f"T. {shown_date}."


def test_identifiers_are_links_labelled_in_chinese() -> None:
    """DOI, arXiv id and URL each link to the work; a URL that only repeats the DOI's
    link is left out; the editors' bookkeeping fields never show."""
    bibtex = (
        "@article{k, author = {Zhou, Lin}, title = {WorldSculpt}, "
        "journal = {Journal of Synthetic Test Fixtures}, year = {2026}, "
        "doi = {10.5555/world\\_sculpt.2026}, eprint = {2609.01234}, archiveprefix = {arXiv}, "
        "url = {https://doi.org/10.5555/world_sculpt.2026}, urldate = {2026-09-20}, "
        "radarnote = {Juju Radar 2026-09-08 条目 x 的来源链接“论文”}, "
        "radarsource = {Crossref https://api.crossref.org/works/10.5555/x (2026-09-20)}}"
    )
    assert only_entry(bibtex, backend="html") == (
        "Lin Zhou.\nWorldSculpt.\n<em>Journal of Synthetic Test Fixtures</em>, 2026.\n"
        'DOI：<a href="https://doi.org/10.5555/world_sculpt.2026">10.5555/world_sculpt.2026</a>；'
        'arXiv 编号：<a href="https://arxiv.org/abs/2609.01234">2609.01234</a>'
    )
    other = "@misc{k, title = {T}, url = {https://example.org/a}, eprint = {x}, archiveprefix = {PubMed}}"
    assert only_entry(other) == "T. 网址：https://example.org/a"


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        (r"a \{ b \}", "a { b }"),
        (r"τ\textasciicircum{}τ-Bench", "τ^τ-Bench"),
        (r"\textbraceleft{}x\textbraceright{} \_ \&", "{x} _ &"),
    ],
)
def test_what_pybtex_misreads_is_shown_as_the_downloads_read_it(written, shown) -> None:
    entry = only_entry(f"@misc{{k, title = {{{written}}}, organization = {{{written}}}}}")
    assert entry == f"{shown}. {shown}."
