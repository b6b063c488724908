"""What ``radar check`` and ``radar import`` keep of a .bib file (BibFacts: its problems,
keys, notes' digests, anchors, sizes) is the same whether the file was checked by segment
(the check of an edited file, with the facts of its unchanged segments kept) or read
whole (a cold check), on generated files (tests/bib_corpus.py) and on edits of them."""

from __future__ import annotations

import pickle
from typing import Any

from bib_corpus import edited, edits, joined, limits, odd_pieces, pieces
from conftest import examples
from hypothesis import HealthCheck, event, given, settings

from juju_radar.bib.segment_check import check_bib_segments
from juju_radar.bib.size_limits import BibLimits
from juju_radar.editors.check_cache import bib_facts, segment_bib_facts

PATH = "references.bib"


def facts_equal_twice(
    parts: list[tuple[str, str]], changes: list[Any], bib_limits: BibLimits
) -> None:
    """A file, then its edit checked with the segments kept from the file."""
    cache: dict[str, Any] = {}
    for text in (joined(parts), joined(edited(parts, changes))):
        checked = check_bib_segments(text, PATH, cache, bib_limits)
        if checked.segment_keys is None:
            event("whole file")
            continue
        event("by segment")
        assert segment_bib_facts(text, checked) == bib_facts(text, PATH, bib_limits)
        cache = pickle.loads(pickle.dumps(cache))  # as the check's cache keeps them


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces, edits, limits)
def test_the_facts_by_segment_equal_those_of_a_whole_reading(parts, changes, bib_limits):
    facts_equal_twice(parts, changes, bib_limits)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_pieces, edits, limits)
def test_odd_files_give_the_same_facts_by_segment(parts, changes, bib_limits):
    facts_equal_twice(parts, changes, bib_limits)
