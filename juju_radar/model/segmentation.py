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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rjieba


def words(text: str, extra_words: Iterable[str] = ()) -> list[str]:
    """``text`` cut into words, every character kept: ``"".join(words(t)) == t``."""
    return segmenter(tuple(sorted(set(extra_words)))).cut(text)


@lru_cache(maxsize=8)
def segmenter(extra_words: tuple[str, ...]) -> rjieba.Jieba:
    """A segmenter knowing jieba's dictionary and ``extra_words``, made once per word set.
    rjieba is imported here, when text is first cut: loading it costs a third of a second
    that the commands which never cut text (``radar check`` of unchanged pages, ``radar
    import``) need not pay."""
    import rjieba

    jieba = rjieba.Jieba()
    for word in extra_words:
        jieba.add_word(word, None, None)
    return jieba


def is_cjk(character: str) -> bool:
    """A Chinese character (CJK unified ideographs and their extension A)."""
    return "\u3400" <= character <= "\u9fff"


def unbreakable_words(text: str) -> list[tuple[str, bool]]:
    """``text`` as runs, each with whether a line must not break inside it: the words
    of two or more Chinese characters are kept whole (a browser breaks Chinese between
    any two characters), everything else is left to the browser. The runs' texts joined
    are ``text``."""
    runs: list[tuple[str, bool]] = []
    for word in words(text):
        whole = len(word) > 1 and all(is_cjk(character) for character in word)
        if runs and not whole and not runs[-1][1]:
            runs[-1] = (runs[-1][0] + word, False)
        else:
            runs.append((word, whole))
    return runs
