"""``radar synth``: the Zipf-like text follows its vocabulary, is reproducible, and the
archive it writes passes ``radar check`` and builds; the seed mode keeps the seed's text."""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import SEED_SITE, sphinx_build

from juju_radar.editors import cli
from juju_radar.editors.site_files import open_site
from juju_radar.editors.synth import SynthOptions, write_synthetic_archive
from juju_radar.editors.synth_text import TERMS, vocabulary
from juju_radar.model.issue_reader import parse_issue, stated_chars

SENTENCE = re.compile(r"[^。！？]+[。！？]")


def synth(out: Path, issues: int, **options) -> Path:
    write_synthetic_archive(
        SEED_SITE, out, SynthOptions(issues=issues, **options), open_site(SEED_SITE).vocabulary
    )
    return out


def page_paragraphs(page: Path) -> list[str]:
    """The text paragraphs of an issue (not front matter, directives or options)."""
    body = page.read_text(encoding="utf-8").split("---", 2)[2]
    return [line for line in body.splitlines() if line and not line.startswith(":")]


def paragraphs(site: Path) -> list[str]:
    return [p for page in sorted((site / "issues").rglob("20*.md")) for p in page_paragraphs(page)]


def seed_page_sentences() -> set[str]:
    found = page_paragraphs(SEED_SITE / "issues/2026/2026-09-08.md")
    return {sentence for paragraph in found for sentence in SENTENCE.findall(paragraph)}


@pytest.fixture(scope="module")
def zipf_site(tmp_path_factory) -> Path:
    return synth(tmp_path_factory.mktemp("zipf") / "site", 150, text="zipf")


@pytest.mark.parametrize("pos", ["n", "v"])
def test_zipf_word_counts_follow_the_vocabulary_frequencies(zipf_site, pos):
    text = "".join(paragraphs(zipf_site))
    words = [(word, freq) for word, freq in vocabulary()[pos] if len(word) >= 2][:400]
    counts = [text.count(word) for word, _ in words]
    log_freq = [math.log(freq) for _, freq in words]
    assert statistics.correlation(log_freq, [math.log(count + 1) for count in counts]) > 0.7
    # By rank bands of 100 words: each band is rarer in the text than the one before.
    bands = [statistics.mean(counts[start : start + 100]) for start in range(0, 400, 100)]
    assert bands == sorted(bands, reverse=True), bands
    # and the first band outnumbers the last about as in the vocabulary (4.6 to 5.4 times)
    expected = [
        statistics.mean(freq for _, freq in words[start : start + 100]) for start in (0, 300)
    ]
    assert 0.5 < (bands[0] / bands[-1]) / (expected[0] / expected[1]) < 2


def test_zipf_text_is_chinese_sentences_with_some_english_terms_and_seed_sentences(zipf_site):
    found = paragraphs(zipf_site)
    text = "".join(found)
    assert all(paragraph.endswith(("。", "！", "？")) for paragraph in found)
    latin = len(re.findall(r"[A-Za-z]", text))
    assert 0.01 * len(text) < latin < 0.1 * len(text)
    assert sum(term in text for term in TERMS) > len(TERMS) / 2
    sentences = [sentence for paragraph in found for sentence in SENTENCE.findall(paragraph)]
    from_seed = sum(sentence in seed_page_sentences() for sentence in sentences)
    assert 0.01 * len(sentences) < from_seed < 0.15 * len(sentences)


def tree(site: Path) -> dict[str, bytes]:
    return {
        path.relative_to(site).as_posix(): path.read_bytes()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def test_the_same_seed_writes_the_same_archive(tmp_path):
    first = tree(synth(tmp_path / "a", 12))
    assert first == tree(synth(tmp_path / "b", 12))
    assert first != tree(synth(tmp_path / "c", 12, seed=9))


def test_seed_mode_writes_only_the_seed_s_sentences(tmp_path):
    found = paragraphs(synth(tmp_path / "site", 6, text="seed"))
    sentences = [sentence for paragraph in found for sentence in SENTENCE.findall(paragraph)]
    assert sentences and set(sentences) <= seed_page_sentences()


def test_radar_synth_takes_the_text_mode(tmp_path, capsys):
    root = ["--root", str(SEED_SITE)]
    assert cli.main([*root, "synth", "2", "--text", "seed", "--out", str(tmp_path / "s")]) == 0
    assert cli.main([*root, "synth", "2", "--out", str(tmp_path / "z")]) == 0
    assert tree(tmp_path / "s") != tree(tmp_path / "z")
    assert tree(tmp_path / "z") == tree(synth(tmp_path / "zipf", 2, text="zipf"))
    with pytest.raises(SystemExit):
        cli.main([*root, "synth", "2", "--text", "lorem", "--out", str(tmp_path / "x")])
    assert "invalid choice: 'lorem'" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["zipf", "seed"])
def test_each_page_states_the_length_the_model_counts(tmp_path, text):
    site = synth(tmp_path / "site", 6, text=text)
    vocab = open_site(SEED_SITE).vocabulary
    for page in sorted((site / "issues").rglob("20*.md")):
        issue, problems = parse_issue(page.read_text(encoding="utf-8"), page.name, vocab)
        assert issue is not None and problems == [], problems
        words = issue.stats.words
        assert stated_chars(issue.stated_length) == (words + 50) // 100 * 100, words
        assert issue.stated_length.endswith(f" · 阅读约 {issue.stats.minutes} 分钟")


@pytest.mark.site
def test_a_zipf_archive_passes_radar_check_and_builds(tmp_path):
    srcdir = synth(tmp_path / "src", 8)
    assert cli.main(["--root", str(srcdir), "check", "--strict"]) == 0
    sphinx_build(srcdir, tmp_path / "html", "-j", "auto")  # -W: any warning fails
    page = BeautifulSoup(
        (tmp_path / "html/issues/2024/2024-01-08.html").read_text(encoding="utf-8"), "html.parser"
    )
    lead = 2  # paragraphs before the first item
    first_item = page_paragraphs(srcdir / "issues/2024/2024-01-08.md")[lead]
    shown = [p.get_text() for p in page.select_one("section.radar-item").select("p")]
    assert first_item in shown
