"""The parse by segment (juju_radar.accel.stored_bibdata) gives what sphinxcontrib-bibtex's
own parse gives: the same entries in the same order (keys, types, fields, persons), the
same preamble and the same keys per file, on generated files (tests/bib_corpus.py) and on
edits of them parsed with the stored parse of before; where pybtex reports anything it
gives nothing, and sphinxcontrib-bibtex parses the files itself."""

from __future__ import annotations

import pickle
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from bib_corpus import BROKEN, SEPARATORS, WELL_FORMED, edit_lists, edited, joined
from conftest import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pybtex.database import BibliographyData
from sphinxcontrib.bibtex.bibfile import BibData, parse_bibdata

from juju_radar.accel.stored_bibdata import (
    StoredBibData,
    StoredParse,
    parse_by_segment,
    stored_bibdata,
)
from juju_radar.bib.pybtex_parser import pybtex_parse

ENCODING = "utf-8-sig"


def view(bibdata: BibData) -> tuple[Any, ...]:
    """What the pages are made of: every entry in order, the preamble, each file's keys."""
    entries = [
        (
            key,
            entry.key,
            entry.type,
            list(entry.fields.items()),
            [(role, [str(person) for person in people]) for role, people in entry.persons.items()],
        )
        for key, entry in bibdata.data.entries.items()
    ]
    files = {path: list(bibfile.keys) for path, bibfile in bibdata.bibfiles.items()}
    return entries, bibdata.data.preamble_list, files


def as_stored(bibdata: StoredBibData) -> StoredBibData:
    """The parse as the next build finds it: through the build cache's pickle."""
    stored = pickle.loads(pickle.dumps(StoredParse(bibdata.data, dict(bibdata.segments))))
    return stored_bibdata(ENCODING, bibdata.bibfiles, stored.data, "key", stored.segments)


def nothing_parsed() -> BibData:
    return BibData("", {}, BibliographyData())


def parsed_equal(paths: list[Path], previous: BibData) -> StoredBibData | None:
    ours = parse_by_segment(paths, ENCODING, previous)
    if ours is not None:
        assert view(ours) == view(parse_bibdata(paths, ENCODING))
    return ours


MACROS = '@string{jai = "J. AI"}\n@string{org = {Org}}\n@string{big = {B}}\n'
# Commands pybtex reads without a complaint once the macros are defined: most files are
# parsed by segment. Any other leaves the parse to sphinxcontrib-bibtex.
CLEAN = [command for command in WELL_FORMED if not pybtex_parse(MACROS + command).complaints]
commands = st.sampled_from(CLEAN * 6 + WELL_FORMED + BROKEN)
# Distinct commands: a key used twice only leaves the parse to sphinxcontrib-bibtex.
distinct_pieces = st.lists(
    st.tuples(st.sampled_from(SEPARATORS), commands), max_size=10, unique_by=lambda part: part[1]
).map(lambda parts: [("", MACROS), *parts])
edits = edit_lists(commands, first=1, max_size=3)
# A second file, which uses and defines macros too.
SECOND_FILE = [
    "@misc{second1, title = jai # org}",
    "@string{late = {Late}}",
    "@misc{second2, title = late, author = {Second, S.}}",
    "@misc{Second3, title = {x}, crossref = {a}}",
]
second_files = st.lists(
    st.tuples(st.sampled_from(SEPARATORS), st.sampled_from(SECOND_FILE)),
    max_size=4,
    unique_by=lambda part: part[1],
)


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(distinct_pieces, edits, second_files)
def test_the_parse_by_segment_equals_sphinxcontrib_bibtex_s_parse(parts, changes, second):
    with TemporaryDirectory() as folder:
        paths = [Path(folder, "references.bib"), Path(folder, "more.bib")]
        paths[0].write_text(joined(parts), encoding="utf-8")
        paths[1].write_text(joined(second), encoding="utf-8")
        first = parsed_equal(paths, nothing_parsed())
        paths[0].write_text(joined(edited(parts, changes)), encoding="utf-8")
        again = parsed_equal(paths, as_stored(first) if first is not None else nothing_parsed())
        for parsed in (first, again):
            event("by segment" if parsed is not None else "left to sphinxcontrib-bibtex")


def well_formed(count: int, first: int = 0) -> str:
    return "".join(
        f"@misc{{key{n},\n  title = {{Title {n}}},\n  author = {{Doe, J. and Roe, R.}},\n}}\n\n"
        for n in range(first, first + count)
    )


def test_an_appended_entry_is_the_only_one_parsed_again(tmp_path, monkeypatch):
    from juju_radar.accel import stored_bibdata

    path = tmp_path / "references.bib"
    path.write_text('@string{org = "Org"}\n' + well_formed(20), encoding="utf-8")
    first = parsed_equal([path], nothing_parsed())
    assert first is not None
    parsed: list[str] = []
    parse_segment = stored_bibdata.parse_segment
    monkeypatch.setattr(
        stored_bibdata,
        "parse_segment",
        lambda text, macros: parsed.append(text) or parse_segment(text, macros),
    )
    path.write_text(path.read_text(encoding="utf-8") + "@misc{new, title = org}\n", "utf-8")
    again = parsed_equal([path], as_stored(first))
    assert parsed == ["@misc{new, title = org}\n"]
    assert again is not None and again.data.entries["new"].fields["title"] == "Org"


def test_a_repeated_key_is_left_to_sphinxcontrib_bibtex(tmp_path):
    path = tmp_path / "references.bib"
    path.write_text(well_formed(3) + well_formed(1, first=1), encoding="utf-8")
    assert parse_by_segment([path], ENCODING, nothing_parsed()) is None
