"""Incremental equals clean after random edits of a small archive.

A page shows fields of other issues (listings, the neighbours' links, "also covered in",
"cited by", the references it cites) and is rewritten only when its signature changes: a
field the signature misses leaves the page stale. Hypothesis draws edits of every such
field, applies them to the sources, and builds incrementally and clean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import SEED_SITE, seed_vocabulary, sphinx_build
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from site_builds import EPOCH_ENV, clean_build, differences

from juju_radar.editors.synth import SynthOptions, write_synthetic_archive

pytestmark = pytest.mark.slow

ISSUES = 4
ITEMS = 6  # at most, in a synthetic issue
VOCABULARY = seed_vocabulary()
VALUES: dict[str, list[str]] = {
    "topic": [topic.key for topic in VOCABULARY.topics],
    "score": ["5", "7.5", "9", "9.5"],
    "verdict": [verdict.key for verdict in VOCABULARY.verdicts],
    "tags": ["评测", "复现, 评测", "训练"],
    "heading": ["（更正）", "与 & <b>"],
    "title": ["改过的标题", "另一个标题"],
    "status": ["draft", "published"],
    "sources": ["0", "7", "13", "21"],  # cite the n-th reference of the archive
    "reference-title": ["0", "7", "13"],  # retitle the n-th reference
}


@dataclass(frozen=True)
class Edit:
    issue: int
    item: int
    field: str
    value: str


edits = st.builds(
    Edit,
    issue=st.integers(0, ISSUES - 1),
    item=st.integers(0, ITEMS - 1),
    field=st.sampled_from(sorted(VALUES)),
    value=st.integers(0, 3),
).map(lambda edit: Edit(edit.issue, edit.item, edit.field, pick(edit.field, int(edit.value))))


def pick(field: str, index: int) -> str:
    values = VALUES[field]
    return values[index % len(values)]


def replace_in_item(text: str, item: int, pattern: str, replacement: str) -> str:
    """``pattern`` replaced once in the block of an item of an issue's text (the
    ``item``-th, counted round: issues hold four to six)."""
    blocks = text.split(":::{radar-item}")
    chosen = 1 + item % (len(blocks) - 1)
    blocks[chosen] = re.sub(pattern, replacement, blocks[chosen], count=1, flags=re.M)
    return ":::{radar-item}".join(blocks)


def bib_keys(bib: str) -> list[str]:
    return re.findall(r"^@\w+\{([^,]+),", bib, flags=re.M)


def apply(edit: Edit, srcdir: Path, pages: list[Path]) -> None:
    page = pages[edit.issue]
    text = page.read_text(encoding="utf-8")
    bib_path = srcdir / "references.bib"
    bib = bib_path.read_text(encoding="utf-8")
    if edit.field in ("topic", "score", "verdict", "tags"):
        text = replace_in_item(
            text, edit.item, rf"^:{edit.field}: .*$", f":{edit.field}: {edit.value}"
        )
    elif edit.field == "heading":
        text = replace_in_item(text, edit.item, r"^(.+)$", rf"\1{edit.value}")
    elif edit.field == "title":
        text = re.sub(r"^title: .*$", f"title: {edit.value}", text, count=1, flags=re.M)
    elif edit.field == "status":
        text = re.sub(r"^status: .*$", f"status: {edit.value}", text, count=1, flags=re.M)
    elif edit.field == "sources":
        key = bib_keys(bib)[int(edit.value)]
        text = replace_in_item(text, edit.item, r"^:sources: .*$", f":sources: 论文 <{key}>")
    else:
        key = re.escape(bib_keys(bib)[int(edit.value)])
        pattern = rf"(@\w+\{{{key},[^@]*?title\s*=\s*\{{)"
        bib_path.write_text(re.sub(pattern, r"\1修订：", bib, count=1), encoding="utf-8")
    page.write_text(text, encoding="utf-8")


@dataclass(frozen=True)
class Archive:
    srcdir: Path
    first_texts: dict[Path, str] = field(repr=False)  # its sources' texts before any edit
    base: Path  # the folder its builds go in


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    """A small synthetic archive, built once."""
    base = tmp_path_factory.mktemp("edits")
    srcdir = base / "src"
    write_synthetic_archive(SEED_SITE, srcdir, SynthOptions(ISSUES, text="seed"), VOCABULARY)
    sources = [*sorted((srcdir / "issues").rglob("20*.md")), srcdir / "references.bib"]
    sphinx_build(srcdir, base / "incremental", env=EPOCH_ENV)
    return Archive(srcdir, {path: path.read_text(encoding="utf-8") for path in sources}, base)


def restore(first_texts: dict[Path, str]) -> None:
    """Each source as it was, written anew (a new time of change, as an editor's save)."""
    for path, text in first_texts.items():
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


@settings(
    max_examples=5,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=st.lists(edits, min_size=1, max_size=3))
def test_after_random_edits_the_incremental_build_equals_the_clean_one(archive, changes):
    restore(archive.first_texts)
    pages = sorted(path for path in archive.first_texts if path.suffix == ".md")
    for change in changes:
        apply(change, archive.srcdir, pages)
    sphinx_build(archive.srcdir, archive.base / "incremental", env=EPOCH_ENV)
    clean = clean_build(archive.srcdir, archive.base / "clean")
    assert differences(archive.base / "incremental", clean) == [], changes
