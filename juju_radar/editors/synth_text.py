"""The text of a synthetic archive: the seed issue's sentences, or Zipf-like Chinese.

``seed`` samples every paragraph from the seed issue's ~70 sentences: each story is
then much like every other, so a search query matches a large share of the archive
(the mode stays for tests that want the seed's own text back). ``zipf`` writes
sentences from a vocabulary of 20,000 Chinese words with their frequencies in jieba's
dictionary (``data/jieba_words.tsv``), drawn by frequency into a few clause patterns,
with English technical terms among the nouns and, now and then, one of the seed's
sentences (so the search benchmark's queries, written for the seed's stories, still
find stories). Both are deterministic for a given ``random.Random``.
"""

from __future__ import annotations

import bisect
import functools
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

VOCABULARY = Path(__file__).resolve().parent / "data" / "jieba_words.tsv"
TEXT_MODES = ("zipf", "seed")
DEFAULT_TEXT = "zipf"

# Clause slots and the parts of speech (jieba's tags) each draws from.
SLOTS = {
    "N": ("n", "an"),  # nouns, adjectival nouns
    "V": ("v",),
    "VN": ("vn",),  # verbal nouns: 发展, 研究
    "A": ("a",),
    "D": ("d", "ad"),  # adverbs
    "P": ("p",),
    "C": ("c",),
    "R": ("r",),  # pronouns
    "T": ("t",),  # time words
    "F": ("f",),  # locatives: 上, 中, 之间
    "B": ("b",),  # distinguishing words: 主要, 大型
    "S": ("s",),  # place words: 国内, 当地
}
PARTS_OF_SPEECH = frozenset(pos for parts in SLOTS.values() for pos in parts)
LITERALS = {"DE": "的", "LE": "了"}
CLAUSES = tuple(
    pattern.split()
    for pattern in (
        "N D V N",
        "R D V B N",
        "P N F D V VN",
        "T N V A DE N",
        "N DE VN D A",
        "C N D V N DE N",
        "N V LE A DE N",
        "A DE N V N",
        "D V VN DE N",
        "S DE N V NUM",
        "N VN D V NUM",
    )
)
# English terms as an AI newsletter uses them, most common first (drawn with weight
# 1/rank). None of them is a word of the search benchmark's queries.
TERMS = (
    "AI", "LLM", "Agent", "GPU", "API", "Transformer", "benchmark", "token", "Python",
    "RAG", "MoE", "prompt", "fine-tuning", "embedding", "CUDA", "SDK", "RLHF", "diffusion",
    "inference", "checkpoint", "open source", "pipeline", "dataset", "latency", "context window",
    "tokenizer", "LoRA", "vision-language", "multimodal", "reasoning", "distillation",
    "quantization", "JSON", "Kubernetes", "TPU", "PyTorch", "JAX", "attention", "scaling law",
    "leaderboard", "eval", "zero-shot", "few-shot", "chain-of-thought", "tool use",
)  # fmt: skip
TERM_SHARE = 0.08  # of the noun slots
SEED_SHARE = 0.05  # of the sentences
ENDINGS = ("。", "。", "。", "。", "。", "。", "。", "。", "。", "。", "！", "？")
CLAUSE_JOINS = ("，", "，", "，", "；")
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z0-9%]")


class TextSource(Protocol):
    def title(self, rng: random.Random) -> str: ...

    def heading(self, rng: random.Random) -> str: ...

    def paragraph(self, rng: random.Random) -> str: ...


@dataclass(frozen=True)
class SeedText:
    """Paragraphs of 2-4 of the seed's sentences."""

    sentences: tuple[str, ...]

    def title(self, rng: random.Random) -> str:
        return rng.choice(self.sentences)[:18].rstrip("，。；：")

    def heading(self, rng: random.Random) -> str:
        return rng.choice(self.sentences)[:20]

    def paragraph(self, rng: random.Random) -> str:
        return "".join(rng.sample(self.sentences, rng.randint(2, 4)))


@dataclass(frozen=True)
class WordClass:
    """Words drawn with probability proportional to their frequency."""

    words: tuple[str, ...]
    cumulative: tuple[int, ...]

    def draw(self, rng: random.Random) -> str:
        return self.words[bisect.bisect_right(self.cumulative, rng.random() * self.cumulative[-1])]


def word_class(entries: list[tuple[str, int]]) -> WordClass:
    total, cumulative = 0, []
    for _, frequency in entries:
        total += frequency
        cumulative.append(total)
    return WordClass(tuple(word for word, _ in entries), tuple(cumulative))


@functools.cache
def vocabulary() -> dict[str, list[tuple[str, int]]]:
    """Part of speech -> (word, frequency), most frequent first, from ``VOCABULARY``."""
    by_pos: dict[str, list[tuple[str, int]]] = {}
    for line in VOCABULARY.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, frequency, pos = line.split("\t")
            by_pos.setdefault(pos, []).append((word, int(frequency)))
    return by_pos


@functools.cache
def slot_classes() -> dict[str, WordClass]:
    words = vocabulary()
    classes = {}
    for slot, parts in SLOTS.items():
        entries = sorted((entry for pos in parts for entry in words[pos]), key=lambda e: -e[1])
        classes[slot] = word_class(entries)
    return classes


def joined(tokens: list[str]) -> str:
    """Tokens as Chinese is typeset: no spaces, but one between Chinese and Latin text."""
    text = tokens[0]
    for token in tokens[1:]:
        before, after = text[-1], token[0]
        latin_before, latin_after = LATIN.match(before), LATIN.match(after)
        spaced = (latin_before and (latin_after or CJK.match(after))) or (
            latin_after and CJK.match(before)
        )
        text += f" {token}" if spaced else token
    return text


@dataclass(frozen=True)
class ZipfText:
    """Sentences of 2-3 clauses of words drawn by frequency, with some seed sentences."""

    seed_sentences: tuple[str, ...]

    def clause(self, rng: random.Random) -> str:
        classes = slot_classes()
        tokens = []
        for slot in rng.choice(CLAUSES):
            if slot in LITERALS:
                tokens.append(LITERALS[slot])
            elif slot == "NUM":
                tokens += (
                    [f"{rng.randint(2, 98)}%"]
                    if rng.random() < 0.5
                    else [
                        str(rng.randint(2, 20)),
                        "倍",
                    ]
                )
            elif slot == "N" and rng.random() < TERM_SHARE:
                tokens.append(self.term(rng))
            else:
                tokens.append(classes[slot].draw(rng))
        return joined(tokens)

    @staticmethod
    def term(rng: random.Random) -> str:
        return rng.choices(TERMS, cum_weights=_TERM_WEIGHTS)[0]

    def sentence(self, rng: random.Random) -> str:
        if rng.random() < SEED_SHARE:
            return rng.choice(self.seed_sentences)
        text = self.clause(rng)
        for _ in range(rng.randint(1, 2)):
            text += rng.choice(CLAUSE_JOINS) + self.clause(rng)
        return text + rng.choice(ENDINGS)

    def title(self, rng: random.Random) -> str:
        return self.clause(rng)

    def heading(self, rng: random.Random) -> str:
        return joined([self.term(rng), "：" + self.clause(rng)])

    def paragraph(self, rng: random.Random) -> str:
        return "".join(self.sentence(rng) for _ in range(rng.randint(2, 4)))


_TERM_WEIGHTS = tuple(
    sum(1 / rank for rank in range(1, count + 1)) for count in range(1, len(TERMS) + 1)
)


def text_source(mode: str, seed_sentences: list[str]) -> TextSource:
    if mode == "seed":
        return SeedText(tuple(seed_sentences))
    if mode == "zipf":
        return ZipfText(tuple(seed_sentences))
    raise ValueError(f"unknown text mode {mode!r}; one of {', '.join(TEXT_MODES)}")
