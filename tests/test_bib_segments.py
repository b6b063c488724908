"""The .bib check by segment (juju_radar.bib.segment_check) gives what the whole-file
check gives (check_bib_text, the reference): the same problems in the same order at the
same lines, the same keys, and the same entries for the build's other uses of the file
(their texts and identifiers, remembered), on generated files (tests/bib_corpus.py) and
on edits of them checked with the facts kept from before; and it checks again only what
changed."""

from __future__ import annotations

import pickle
from typing import Any

from bib_corpus import WELL_FORMED, edited, edits, joined, limits, odd_pieces, pieces
from conftest import examples
from hypothesis import HealthCheck, event, example, given, settings

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.file_entries import (
    bib_entry_identifiers,
    bib_entry_texts,
    bib_macro_texts,
    entry_texts,
    first_identifiers,
    macro_texts,
    parse_bib_keys,
)
from juju_radar.bib.reader import read_bib
from juju_radar.bib.segment_check import BibCheck, check_bib_segments
from juju_radar.bib.size_limits import BibLimits
from juju_radar.model.messages import current_language, use_language

PATH = "references.bib"


def checked_equal(text: str, cache: dict[str, Any], bib_limits: BibLimits) -> BibCheck:
    checked = check_bib_segments(text, PATH, cache, bib_limits)
    assert checked.problems == check_bib_text(text, PATH, bib_limits)
    assert checked.keys == parse_bib_keys(text)
    # What the build takes of the entries, remembered from the segments.
    read = read_bib(text).entries
    assert bib_entry_texts(text) == entry_texts(text, read)
    assert bib_macro_texts(text) == macro_texts(text, read)
    assert bib_entry_identifiers(text) == first_identifiers(read)
    return checked


def checked_twice(parts: list[tuple[str, str]], changes: list[Any], bib_limits: BibLimits) -> None:
    """A file, then its edit checked with the facts kept from the file."""
    cache: dict[str, Any] = {}
    for text in (joined(parts), joined(edited(parts, changes))):
        checked = checked_equal(text, cache, bib_limits)
        event("by segment" if checked.segment_keys is not None else "whole file")
        cache = pickle.loads(pickle.dumps(cache))  # as the build cache keeps them


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces, edits, limits)
@example([("\n", "@string{jai = {Other}}"), ("\n", "@misc{c, title = jai}")], [], BibLimits())
@example(
    [("\n", "@misc{g, title = {G \\footnote}, crossref = {a}}"), ("\n", WELL_FORMED[0])],
    [],
    BibLimits(),
)
@example(
    [("\n", "@misc{badname, author = {a, b, c, d}, title = {N}}")],
    [("append", 0, ("\n", "@misc{BadName, title = {N \\footnote}}"))],
    BibLimits(),
)
def test_the_check_by_segment_equals_the_whole_file_check(parts, changes, bib_limits):
    checked_twice(parts, changes, bib_limits)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_pieces, edits, limits)
# The whole file read before is not the reading that stops past the limit (found by
# Hypothesis: the entry past it was checked once the file had been read whole).
@example(
    [("\n", "@misc{a, title = {A}}")] * 2,
    [("append", 0, ("\n", "@misc{long, title = {" + "x" * 80 + "}}"))],
    BibLimits(max_entries=2, max_field_chars=60),
)
def test_odd_text_between_commands_is_read_as_in_the_whole_file(parts, changes, bib_limits):
    checked_twice(parts, changes, bib_limits)


def well_formed_file(count: int) -> str:
    return "".join(
        f"@misc{{key{n},\n  title = {{Title {n}}},\n  url = {{https://example.org/{n}}},\n}}\n\n"
        for n in range(count)
    )


class CountingCache(dict[str, Any]):
    """A cache that counts the facts computed."""

    computed = 0

    def __setitem__(self, key: str, value: Any) -> None:
        self.computed += 1
        super().__setitem__(key, value)


def test_appending_entries_computes_only_their_segments():
    cache = CountingCache()
    text = '@string{org = "Org"}\n' + well_formed_file(50)
    first = checked_equal(text, cache, BibLimits())
    assert first.segment_keys is not None and cache.computed == 51
    added = "@misc{new1, title = org}\n\n@misc{new2, title = {N}, url = {javascript:x}}\n"
    second = checked_equal(text + added, cache, BibLimits())
    assert second.segment_keys is not None
    assert cache.computed == 51 + 2


def test_an_edit_in_the_middle_moves_the_rest_without_reading_it_again():
    cache = CountingCache()
    text = well_formed_file(30)
    checked_equal(text, cache, BibLimits())
    middle = text.index("@misc{key15")
    inserted = text[:middle] + "@misc{mid, title = {M},\n  note = {two lines}}\n\n" + text[middle:]
    checked = checked_equal(inserted + "@misc{Key3, title = {again}}\n", cache, BibLimits())
    assert cache.computed == 30 + 2
    assert [problem.code for problem in checked.problems if problem.severity == "error"] == [
        "duplicate-key"
    ]


def test_a_redefined_macro_changes_the_segments_after_it():
    cache = CountingCache()
    text = '@string{org = "Org"}\n@misc{a, title = org}\n@misc{b, title = {B}}\n'
    checked_equal(text, cache, BibLimits())
    checked_equal(text.replace('"Org"', '"Other"'), cache, BibLimits())
    assert cache.computed == 3 + 3


def test_a_command_with_a_line_that_starts_with_an_at_sign_is_one_segment():
    cache = CountingCache()
    spanning = "@misc{spans, title = {T},\n  note = {a line that\n@starts with @}}\n"
    checked = checked_equal(
        well_formed_file(2) + spanning + well_formed_file(2), cache, BibLimits()
    )
    assert checked.segment_keys is not None
    assert len(checked.segment_keys) == 5


def test_a_file_with_an_unreadable_command_is_checked_whole_and_not_kept():
    cache = CountingCache()
    text = well_formed_file(3) + "@misc{broken, title = {x}\n" + well_formed_file(2)
    checked = checked_equal(text, cache, BibLimits())
    assert checked.segment_keys is None
    assert cache.computed == 0


def test_a_file_past_its_entry_limit_is_checked_whole():
    cache = CountingCache()
    checked = checked_equal(well_formed_file(5), cache, BibLimits(max_entries=4))
    assert checked.segment_keys is None
    assert [problem.code for problem in checked.problems][-1] == "too-many-entries"


def test_facts_are_kept_per_language():
    before = current_language()
    cache: dict[str, Any] = {}
    text = "@misc{c, title = {T}}\n"
    try:
        use_language("en")
        english = checked_equal(text, cache, BibLimits()).problems
        use_language("zh")
        chinese = checked_equal(text, cache, BibLimits()).problems
    finally:
        use_language(before)
    assert english[0].message != chinese[0].message
