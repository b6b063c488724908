"""The site's one segmentation of Chinese text into words.

jieba's dictionary through jieba-rs (rjieba), the segmenter Pagefind's extended build
uses for Chinese (through charabia): what the search index takes for a word is what the
rest of the site takes for one (entity mentions, heading line breaks, query words).
Words the editors register (entity names) are added to a segmenter of their own, so that
the shared default one is never changed by a build.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import rjieba


def words(text: str, extra_words: Iterable[str] = ()) -> list[str]:
    """``text`` cut into words, every character kept: ``"".join(words(t)) == t``."""
    return segmenter(tuple(sorted(set(extra_words)))).cut(text)


@lru_cache(maxsize=8)
def segmenter(extra_words: tuple[str, ...]) -> rjieba.Jieba:
    """A segmenter knowing jieba's dictionary and ``extra_words``, made once per word set."""
    jieba = rjieba.Jieba()
    for word in extra_words:
        jieba.add_word(word, None, None)
    return jieba
