"""The entities benchmark's registry (bench/entities_bench.py) is one the build reads
whole: 500 valid entities, the corpus's terms among them."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from entities_bench import synthetic_registry  # noqa: E402

from juju_radar.model.entities import read_registry  # noqa: E402


def test_the_synthetic_registry_is_valid_and_names_the_corpus_terms() -> None:
    registry, problems = read_registry(synthetic_registry(500))
    assert problems == []
    assert len(registry.entities) == 500
    names = registry.names()
    assert names["Transformer"] == names["SE-4"] == "e4"
    assert "AI" not in names  # two letters: every other story
    assert "Synthetic Entity 499" in names
