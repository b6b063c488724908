"""The words of Chinese text that the index and the query both take: overlapping bigrams.

Pagefind segments a page's Chinese with jieba at index time and the reader's query with
the browser's ``Intl.Segmenter`` (ICU) at query time, and the two disagree (Pagefind
issues 987 and 1237): "拆成物体" is one ICU word, yet jieba indexed "拆成" and "物体", so
the query found nothing. Instead, every run of Han characters is indexed also as its
overlapping pairs of characters (bigrams), and search.js turns each Han run of the query
into the same pairs: any phrase of a story then matches, however either side segments.

Each bigram is written as one word of lowercase ASCII letters (``qz`` and four letters a
character), which neither segmenter splits, so both sides see exactly the same word.
search.js leaves these words out of excerpts (``INDEX_WORD`` there matches them).
"""

from __future__ import annotations

import re

# Han ideographs (the unified blocks, their extension A, the compatibility block, and the
# supplementary planes' extensions B to G).
HAN_RUN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")
WORD_PREFIX = "qz"
LETTERS = "abcdefghijklmnopqrstuvwxyz"
CHAR_LETTERS = 4  # 26**4 > 0x3134F, the highest Han code point above


def char_code(char: str) -> str:
    """``char``'s code point in four base-26 letters."""
    number, letters = ord(char), []
    for _ in range(CHAR_LETTERS):
        number, digit = divmod(number, len(LETTERS))
        letters.append(LETTERS[digit])
    return "".join(reversed(letters))


def index_word(chars: str) -> str:
    """The index word of one or two Han characters."""
    return WORD_PREFIX + "".join(char_code(char) for char in chars)


def han_pairs(text: str) -> list[str]:
    """The overlapping pairs of characters of each Han run of ``text``, in order; a run of
    one character gives that character alone."""
    pairs: list[str] = []
    for run in HAN_RUN_RE.findall(text):
        pairs.extend(run[at : at + 2] for at in range(max(1, len(run) - 1)))
    return pairs


def index_words(text: str) -> list[str]:
    """The index words of ``text``'s Han bigrams."""
    return [index_word(pair) for pair in han_pairs(text)]
