"""Incremental equals clean after random edits of a small archive.

A page shows fields of other issues (listings, the neighbours' links, "also covered in",
"cited by", the references it cites) and is rewritten only when its signature changes: a
field the signature misses leaves the page stale. Hypothesis draws edits of every such
field, and issues added, moved to another day or deleted, applies them to the sources,
and builds incrementally and clean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import SEED_SITE, seed_vocabulary, sphinx_build
from hypothesis import HealthCheck, example, given, settings
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
    "heading": ["（更正）", "与 & 〈b〉"],
    "title": ["改过的标题", "另一个标题"],
    "status": ["draft", "published"],
    "lead": ["新的一句导语。", "导语 & *强调*。"],
    "sources": ["0", "7", "13", "21"],  # cite the n-th reference of the archive
    "reference-title": ["0", "7", "13"],  # retitle the n-th reference
    # A copy of the issue as another day's; the issue moved to another day; deleted.
    "add-issue": ["2024-01-09", "2024-02-11", "2025-01-02"],
    "rename-issue": ["2024-01-08", "2024-03-01", "2023-12-30"],
    "remove-issue": [""],
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
    if not page.exists():  # removed or renamed by an edit before
        return
    text = page.read_text(encoding="utf-8")
    bib_path = srcdir / "references.bib"
    bib = bib_path.read_text(encoding="utf-8")
    if edit.field in ("topic", "score", "verdict", "tags"):
        text = replace_in_item(
            text, edit.item, rf"^:{edit.field}: .*$", f":{edit.field}: {edit.value}"
        )
    elif edit.field == "heading":
        text = replace_in_item(text, edit.item, r"^(.+)$", rf"\1{edit.value}")
    elif edit.field in ("title", "status"):
        line = f"{edit.field}: {edit.value}"
        text = re.sub(rf"^{edit.field}: .*$", line, text, count=1, flags=re.M)
    elif edit.field == "lead":
        text = text.replace("\n---\n\n", f"\n---\n\n{edit.value}", 1)
    elif edit.field == "sources":
        key = bib_keys(bib)[int(edit.value)]
        text = replace_in_item(text, edit.item, r"^:sources: .*$", f":sources: 论文 <{key}>")
    elif edit.field == "reference-title":
        key = re.escape(bib_keys(bib)[int(edit.value)])
        pattern = rf"(@\w+\{{{key},[^@]*?title\s*=\s*\{{)"
        bib_path.write_text(re.sub(pattern, r"\1修订：", bib, count=1), encoding="utf-8")
    elif edit.field == "remove-issue":
        page.unlink()
        return
    else:  # add-issue, rename-issue
        other = as_of(text, page.stem, edit.value)
        target = srcdir / "issues" / edit.value[:4] / f"{edit.value}.md"
        if target.exists():
            return
        target.parent.mkdir(exist_ok=True)
        target.write_text(other, encoding="utf-8")
        if edit.field == "rename-issue":
            page.unlink()
        return
    page.write_text(text, encoding="utf-8")


def as_of(text: str, date: str, other: str) -> str:
    """An issue's text as another day's, its items' ids made its own."""
    compact = date.replace("-", "")
    return text.replace(date, other).replace(
        f":id: s{compact}-", f":id: s{other.replace('-', '')}-"
    )


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


def restore(srcdir: Path, first_texts: dict[Path, str]) -> None:
    """Each source as it was, written anew where it changed (a new time of change, as an
    editor's save); the issues edits added, deleted."""
    for path in (srcdir / "issues").rglob("20*.md"):
        if path not in first_texts:
            path.unlink()
    for path, text in first_texts.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


@settings(
    max_examples=5,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=st.lists(edits, min_size=1, max_size=3))
@example(  # every value that is text, and an issue moved into a new year and one added
    changes=[
        Edit(0, 0, "lead", VALUES["lead"][1]),
        Edit(1, 0, "heading", VALUES["heading"][1]),
        Edit(2, 0, "rename-issue", "2023-12-30"),
        Edit(3, 1, "add-issue", "2025-01-02"),
    ]
)
def test_after_random_edits_the_incremental_build_equals_the_clean_one(archive, changes):
    restore(archive.srcdir, archive.first_texts)
    pages = sorted(path for path in archive.first_texts if path.suffix == ".md")
    for change in changes:
        apply(change, archive.srcdir, pages)
    sphinx_build(archive.srcdir, archive.base / "incremental", env=EPOCH_ENV)
    clean = clean_build(archive.srcdir, archive.base / "clean")
    assert differences(archive.base / "incremental", clean) == [], changes
