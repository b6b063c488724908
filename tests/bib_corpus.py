"""Generated .bib files and edits of them, from a pool of commands well-formed and
broken: macros defined, redefined, used and undefined, keys used twice or differing in
punctuation only, crossrefs (chains, loops, missing), a bare and an escaped ``%``, fields
over the size limit, LaTeX the build cannot convert (with and without a crossref), names
pybtex refuses, control and invisible characters, unsafe addresses, unbalanced braces,
stray ``@``, commands that do not start a line or span a line that starts with ``@``, and
CRLF line ends. The .bib check
by segment and the parse by segment are tested on them."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from juju_radar.bib.size_limits import BibLimits

LONG = "x" * 80  # over the field limit of the generated files

WELL_FORMED = [
    "@misc{a, title = {A}, url = {https://a.example}}",
    '@article{B, title = "Quoted " # jai, year = 2026, doi = {10.1/x}}',
    '@string{jai = "J. AI"}',
    "@string{jai = {Other}}",
    '@STRING(org = {Org} # " " # jan)',
    "@misc{c, title = org, note = jai # { and } # org}",
    "@misc{d, title = {T}, url = {https://d.example}, note = {a claim\\footnote}}",
    "@misc{e, title = {T \\emph{x}}, crossref = {a}}",
    "@misc{g, title = {G \\footnote}, crossref = {a}}",
    "@misc{f, title = {F}, crossref = {d}}",
    "@misc{loop1, title = {L \\footnote}, crossref = {loop2}}",
    "@misc{loop2, title = {M}, crossref = {loop1}}",
    "@misc{far, title = {F}, crossref = {nowhere}}",
    "@misc{h, title = {50% off}, url = {https://h.example}}",
    "@misc{i, title = {50\\% off}, eprint = {2601.00001}}",
    "@misc{A, title = {the key a again}}",
    "@misc{a.b, title = {x}}",
    "@misc{a_b, title = {y}}",
    "@misc{long, title = {" + LONG + "}}",
    "@string{big = {" + LONG + "}}",
    "@misc{usesbig, title = {B}, note = big}",
    "@misc{ctl, title = {bad\u200echar}}",
    "@misc{und, title = nosuch}",
    '@preamble{"\\newcommand{\\x}{}"}',
    "@comment{ note @misc{inside, title={I}} }",
    "@misc{tau, title = {τ^τ_x}, url = {https://t.example}}",
    "@misc{dupf, title = {a}, title = {b}}",
    "@misc{js, title = {J}, url = {javascript:alert(1)}}",
    "@misc{jsnote, title = {N}, note = {see \\url{JaVa&#x09;Script:alert(1)}}}",
    "@misc{zw\u200bkey, title = {Z\u2060W}, howpublished = {\\href{//evil.example}{x}}}",
    "@misc{esc, title = {E}, url = {https://e.example/a\\_b?c=1\\&d}, doi = {10.1/x\\%y}}",
    "@misc{people, author = {Doe, John and Roe, R.}, title = {P}}",
    "@misc{badname, author = {a, b, c, d}, title = {N}}",
    "x @misc{inline, title = {I}} @misc{inline2, title = {J \\footnote}}",
    "@misc(paren, title = {P}, isbn = {978})",
    "@misc{multi,\r\n  title = {Multi\r\n line},\r\n  year = 2026,\r\n}",
    "@misc{spans, title = {T},\n  note = {a line that\n@starts with an at sign}}",
]
BROKEN = [
    "@misc{unb, title = {unbalanced, url = {https://f.example}}",
    "@misc{trunc, title = {x}",
    "mail me@example.com",
    '@misc{q, title = "a } b"}',
    "@misc{",
    "% a note @ here",
    "@misc{a, title = {A} junk}",
]
SEPARATORS = ["\n", "\n\n", "\r\n", " ", "\n% note\n", "\n  ", "\n}\n"]

# About one command in fifteen is broken: most files read by segment, many do not.
commands = st.sampled_from(WELL_FORMED * 3 + BROKEN)
pieces = st.lists(st.tuples(st.sampled_from(SEPARATORS), commands), max_size=10)


def edit_lists(
    commands: st.SearchStrategy[str], first: int = 0, max_size: int = 4
) -> st.SearchStrategy[list[tuple[str, int, tuple[str, str]]]]:
    """Edits of a file's parts: where (from ``first``), what, and with which command."""
    return st.lists(
        st.tuples(
            st.sampled_from(["append", "insert", "delete", "replace"]),
            st.integers(first, 12),
            st.tuples(st.sampled_from(SEPARATORS), commands),
        ),
        max_size=max_size,
    )


edits = edit_lists(commands)
limits = st.sampled_from([BibLimits(max_entries=12, max_field_chars=60), BibLimits()])


def joined(parts: list[tuple[str, str]]) -> str:
    return "".join(separator + command for separator, command in parts) + "\n"


def edited(parts: list[tuple[str, str]], changes: list[Any]) -> list[tuple[str, str]]:
    parts = list(parts)
    for kind, place, piece in changes:
        at = place % (len(parts) + 1)
        if kind == "append":
            parts.append(piece)
        elif kind == "insert":
            parts.insert(at, piece)
        elif parts and kind == "delete":
            del parts[at % len(parts)]
        elif parts:
            parts[at % len(parts)] = piece
    return parts


# Anything between the commands: stray braces, quotes, at signs and line ends.
ODD_TEXT = st.text(alphabet='@{}()"\n\r %=,#ab\\', max_size=6)
odd_pieces = st.lists(
    st.tuples(st.one_of(st.sampled_from(SEPARATORS), ODD_TEXT), commands), max_size=8
)


# Two entries of the seed issue, as the tests of the check and the style read them.
SEED_ENTRIES = """\
@misc{taubench2026paper,
  title = {τ^τ-Bench 论文与完整实验},
  organization = {Sierra and Princeton University},
  note = {arXiv 公告 2026-09-07},
  year = {2026},
}
@misc{spc2026opinion,
  title = {关于依法审理涉人工智能纠纷案件的意见},
  author = {{最高人民法院}},
  year = {2026}, month = {9}, day = {7},
}
"""
