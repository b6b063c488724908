"""juju_radar.bib.reader reads a .bib file as pybtex does: proven on generated text.

For every generated text, either pybtex reports an error and ``radar check`` refuses the
file, or the entries the check reads (keys, field names, values with ``@string`` macros
expanded, the ``@preamble``) are exactly those pybtex's parser gives. The texts hold
what makes readers disagree: entries that do not start their line, text and stray
``@`` between entries, ``@comment`` with entries inside, ``@string`` and ``#``,
nested braces, quoted values, odd keys, missing and repeated commas.
"""

from __future__ import annotations

import string
from typing import Any

from conftest import examples
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pybtex.bibtex.utils import split_name_list
from pybtex.database import Person

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.entry_records import normalize_whitespace
from juju_radar.bib.file_entries import parse_bib_keys, scan_entries
from juju_radar.bib.latex_conversion import PERSON_FIELDS, conversion_error, needs_conversion
from juju_radar.bib.pybtex_parser import pybtex_reading
from juju_radar.bib.reader import braces_balance, read_bib

PATH = "references.bib"

# --- the corpus --------------------------------------------------------------------------

SPACE = st.sampled_from(["", " ", "  ", "\n", "\r\n", "\t", " \n  "])
PLAIN = st.text(alphabet="ab Z9.:/-_'张 \n\t\\%,=#()@", max_size=8)
MACRO_NAMES = ["jai", "JAI", "org", "k2", "jan", "Sep", "nosuch"]
FIELD_NAMES = [
    "title",
    "Title",
    "author",
    "editor",
    "note",
    "url",
    "year",
    "crossref",
    "a.b",
    "x-y",
]
KEYS = ["a", "B", "b", "a.b:c", "x_y", "k(1)", 'k"q', "k{", "k=1", "k#2", "张三2026", "c"]


@st.composite
def braced_text(draw: Any, depth: int = 0) -> str:
    """The contents of a ``{...}`` value: text and balanced groups."""
    pieces = draw(
        st.lists(PLAIN if depth > 2 else st.one_of(PLAIN, PLAIN, braced_group(depth)), max_size=3)
    )
    return "".join(pieces)


@st.composite
def braced_group(draw: Any, depth: int) -> str:
    return "{" + draw(braced_text(depth + 1)) + "}"


@st.composite
def quoted_text(draw: Any) -> str:
    """The contents of a ``"..."`` value: no bare quote, braces balanced."""
    pieces = draw(
        st.lists(st.one_of(PLAIN.map(lambda t: t.replace('"', "")), braced_group(0)), max_size=3)
    )
    return "".join(pieces)


def value_part() -> st.SearchStrategy[str]:
    return st.one_of(
        braced_text().map(lambda t: "{" + t + "}"),
        quoted_text().map(lambda t: '"' + t + '"'),
        st.integers(0, 3000).map(str),
        st.sampled_from(MACRO_NAMES),
    )


@st.composite
def value(draw: Any) -> str:
    parts = draw(st.lists(value_part(), min_size=1, max_size=3))
    joiner = draw(SPACE) + "#" + draw(SPACE)
    return joiner.join(parts)


@st.composite
def bib_field(draw: Any) -> str:
    name = draw(st.sampled_from(FIELD_NAMES))
    if name == "crossref" and draw(st.booleans()):
        return "crossref = " + draw(st.sampled_from(["k2", "{a}", "{b}", '"c"']))
    return name + draw(SPACE) + "=" + draw(SPACE) + draw(value())


def field_name(field_text: str) -> str:
    return field_text.split("=", 1)[0].strip().lower()


@st.composite
def entry(draw: Any) -> str:
    kind = draw(st.sampled_from(["misc", "Article", "book", "@misc"]))
    opening, closing = draw(st.sampled_from([("{", "}"), ("(", ")")]))
    key = draw(st.sampled_from(KEYS)) + draw(st.sampled_from(["", "1", "2", "3", "4", "5"]))
    # Mostly distinct names: a repeated field (or key) only makes pybtex refuse the text.
    fields = draw(st.lists(bib_field(), max_size=4, unique_by=field_name))
    separator = draw(st.sampled_from([",", ", ", ",\n  ", " , ", ",,"]))
    after_key = draw(st.sampled_from([",", ",\n  ", " ", ",,", ""]))
    trailing = draw(st.sampled_from(["", ",", ",\n", "\n"]))
    body = key + (
        after_key + separator.join(fields) if fields else draw(st.sampled_from(["", ","]))
    )
    return f"@{draw(SPACE)}{kind}{draw(SPACE)}{opening}{body}{trailing}{closing}"


@st.composite
def command(draw: Any) -> str:
    choice = draw(st.integers(0, 9))
    if choice <= 5:
        return draw(entry())
    if choice == 6:
        name = draw(st.sampled_from(["jai", "org", "k2", "Sep"]))
        return f"@string{{{name} = {draw(value())}}}"
    if choice == 7:
        return f"@preamble{{{draw(value())}}}"
    if choice == 8:
        return "@comment{" + draw(st.one_of(PLAIN, entry())) + "}"
    return "@" + draw(PLAIN)  # a stray at sign


MACROS = '@string{jai = "J. AI"}\n@string(org = {Org {X}} # " " # jan)\n@STRING{k2 = "b"}\n'


@st.composite
def bib_text(draw: Any) -> str:
    pieces = [draw(st.sampled_from(["", MACROS]))]  # defined before use, or undefined
    for each in draw(st.lists(command(), max_size=6)):
        between = draw(st.sampled_from(["\n", "\n\n", "x ", "% note\n", " ", "}\n", "\r\n"]))
        pieces.append(between + each)
    return "".join(pieces) + draw(st.sampled_from(["", "\n", " tail"]))


# --- what each reader sees ---------------------------------------------------------------


def names(people: list[Person]) -> list[str]:
    return [str(person) for person in people]


def pybtex_view(data: Any) -> tuple[list[tuple[str, str, dict[str, Any]]], list[str]]:
    entries = []
    for key, pybtex_entry in data.entries.items():
        fields: dict[str, Any] = {
            name.lower(): value for name, value in pybtex_entry.fields.items()
        }
        for role, people in pybtex_entry.persons.items():
            fields[role.lower()] = names(people)
        entries.append((key, pybtex_entry.type, fields))
    return entries, list(data.preamble_list)


def reader_view(text: str) -> tuple[list[tuple[str, str, dict[str, Any]]], list[str]]:
    entries, preamble = [], []
    for read in read_bib(text).entries:
        values = [normalize_whitespace(bib_field.value) for bib_field in read.fields]
        if read.entry_type == "preamble":
            preamble += values
        if not read.is_citable:
            continue
        fields: dict[str, Any] = {}
        for bib_field, field_value in zip(read.fields, values, strict=True):
            if bib_field.name in PERSON_FIELDS:
                people = [Person(name) for name in split_name_list(field_value)]
                if people:
                    fields[bib_field.name] = names(people)
            else:
                fields[bib_field.name] = field_value
        entries.append((read.key, read.entry_type, fields))
    return entries, preamble


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bib_text())
@example("x @misc{a, title={A}, crossref={b}}\ny @misc{b, title={B}, crossref={a}}\n")
@example('@string{k = "b"}\n@misc{a title = {A}, crossref = k,, note = "x {y "} z" # k # 7}')
@example('@comment{ @misc{c, title = jan} }\n@preamble{ "x" # jan }')
@example("@misc(k(1), title = {)})\n@misc{k{, title={x}}")
def test_the_check_reads_what_pybtex_reads(text: str) -> None:
    data, complaints = pybtex_reading(text)
    if complaints or data is None:
        problems = check_bib_text(text, PATH)
        assert any(problem.severity == "error" for problem in problems), complaints
    else:
        assert reader_view(text) == pybtex_view(data)


# --- the LaTeX the check converts --------------------------------------------------------

SAFE_ESCAPES = ["\\" + character for character in "'\"^`~=.%&#_${}\\-,;:!?@*()[]0123456789"]
LATEX_PIECES = st.sampled_from(
    [*"ab ~-'`$&#_^\"\t\n.,:;!?@*()[]0张é", *SAFE_ESCAPES, "{a}", " and ", "{\\'e}", "--"]
)
CONVERTED_FIELDS = ["title", "author", "editor", "note", "howpublished", "month", "year", "date"]


@st.composite
def escaped_entry(draw: Any) -> str:
    fields = []
    for name in draw(st.lists(st.sampled_from(CONVERTED_FIELDS), min_size=1, max_size=4)):
        text = "".join(draw(st.lists(LATEX_PIECES, max_size=8)))
        if not braces_balance(text):
            text = text.replace("{", "").replace("}", "")
        fields.append(f"  {name} = {{{text}}},\n")
    kind = draw(st.sampled_from(["misc", "article", "techreport", "book"]))
    return f"@{kind}{{k,\n{''.join(fields)}}}\n"


@settings(max_examples=examples(200), deadline=None)
@given(escaped_entry())
@example(
    "@misc{k,\n  title = {50\\% of {\\'e}t{\\'e}},\n  author = {M{\\\"u}ller, J. and O\\'Brien},\n}\n"
)
def test_an_entry_without_a_command_converts_as_the_build_converts_it(text: str) -> None:
    """Why the check converts only entries that hold a command (``needs_conversion``):
    pybtex's and pylatexenc's conversions of anything else succeed, but for a bare
    ``%``, which ``unescaped-percent`` refuses."""
    (read,) = read_bib(text).entries
    data, complaints = pybtex_reading(text)
    if needs_conversion(read) or complaints or data is None:
        return
    if conversion_error("k", data.entries["k"], data) is not None:
        codes = {problem.code for problem in check_bib_text(text, PATH)}
        assert "unescaped-percent" in codes


def test_names_and_keys_use_pybtex_s_own_patterns() -> None:
    from pybtex.database.input.bibtex import NAME_CHARS

    assert set(string.ascii_letters) <= set(NAME_CHARS)
    assert read_bib("@misc{a, @x! = {v}}").entries[0].fields[0].name == "@x!"


def test_entries_are_where_pybtex_finds_them() -> None:
    text = (
        "% moved to @misc{inline, title = {I}}\n"
        "@comment{ old: @misc{commented, title = {C}} }\n"
        "@misc{plain title = {P},, year = 2026}\n"
    )
    assert list(parse_bib_keys(text)) == ["inline", "commented", "plain"]
    assert read_bib(text).entries[-1].field_value("year") == "2026"


def test_a_value_too_long_to_build_keeps_its_written_text() -> None:
    text = '@string{a = "' + "x" * 600_000 + '"}\n@misc{k, title = a # a}\n'
    _, entry = read_bib(text).entries
    (title,) = entry.fields
    assert (title.length, title.value, title.is_built) == (1_200_000, "a # a", False)


def test_a_reading_stopped_at_a_limit_is_not_what_other_readers_get() -> None:
    text = "@misc{a, title={A}}\n@misc{b, title={B}}\n@misc{c, title={C}}\n"
    assert read_bib(text, stop_after=1).entries_line == 2
    assert [entry.key for entry in scan_entries(text)] == ["a", "b", "c"]
    assert read_bib(text, stop_after=5).entries_line == 0
