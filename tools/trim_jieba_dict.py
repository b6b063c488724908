"""Write ``juju_radar/editors/data/jieba_words.tsv``: the words ``radar synth`` draws from.

The source is the dictionary of jieba 0.42.1 (``jieba/dict.txt`` in its PyPI package,
MIT licence, see ``juju_radar/editors/data/JIEBA-LICENSE.txt``): one ``WORD FREQUENCY
POS`` line a word. Kept: words of Chinese characters only, of the parts of speech the
synthetic text's clauses use (names of people, places and organisations are left out,
so the text names no real one), the most frequent ``--words`` of them, each with its
frequency and part of speech.

    .venv/bin/pip download --no-deps jieba==0.42.1 -d /tmp/jieba
    tar xzf /tmp/jieba/jieba-0.42.1.tar.gz -C /tmp/jieba
    .venv/bin/python tools/trim_jieba_dict.py /tmp/jieba/jieba-0.42.1/jieba/dict.txt
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from juju_radar.editors.synth_text import PARTS_OF_SPEECH, VOCABULARY  # noqa: E402

CHINESE = re.compile(r"[\u4e00-\u9fff]+")


def trimmed(dictionary: str, words: int) -> list[tuple[str, int, str]]:
    rows = []
    for line in dictionary.splitlines():
        fields = line.split()
        if len(fields) != 3 or fields[2] not in PARTS_OF_SPEECH:
            continue
        if CHINESE.fullmatch(fields[0]):
            rows.append((fields[0], int(fields[1]), fields[2]))
    rows.sort(key=lambda row: (-row[1], row[0]))
    return rows[:words]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dictionary", type=Path, help="jieba's dict.txt")
    parser.add_argument("--words", type=int, default=20_000)
    args = parser.parse_args(argv)
    rows = trimmed(args.dictionary.read_text(encoding="utf-8"), args.words)
    header = "# word\tfrequency\tpart of speech; from jieba 0.42.1 dict.txt (MIT), see README.md\n"
    lines = "".join(f"{word}\t{frequency}\t{pos}\n" for word, frequency, pos in rows)
    VOCABULARY.write_text(header + lines, encoding="utf-8")
    print(f"{len(rows)} words written to {VOCABULARY.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
