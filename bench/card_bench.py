"""CPU to draw and encode one story card at two zlib levels, alternated (not a test).

``.venv/bin/python bench/card_bench.py``: 20 cards of the seed's text at Pillow's default
level (6) and at ``story_cards.PNG_COMPRESS_LEVEL``, five rounds each, the level that goes
first swapped every round; prints the median CPU a card and the size of a card.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import replace

from juju_radar.outputs import story_cards

CARD = story_cards.CardText(
    title="RISE：沿着刚刚学会的方向，再往前走一点，长上下文任务提升显著 Self-Extrapolation",
    topic="模型训练 Training",
    score="8.5/10",
    verdict="建议深挖",
    date="2026-09-08",
    archive="Juju Radar 归档",
)
CARDS, ROUNDS = 20, 5


def main() -> None:
    fonts = story_cards.find_fonts()
    if fonts is None:
        raise SystemExit("README's fonts-noto-cjk is not installed")
    levels = (6, story_cards.PNG_COMPRESS_LEVEL)
    story_cards.card_png(CARD, fonts)  # the faces loaded once
    times: dict[int, list[float]] = {level: [] for level in levels}
    sizes: dict[int, int] = {}
    for round_ in range(ROUNDS):
        for level in levels if round_ % 2 == 0 else levels[::-1]:
            story_cards.PNG_COMPRESS_LEVEL = level
            started = time.process_time()
            for number in range(CARDS):
                data = story_cards.card_png(replace(CARD, title=f"{CARD.title}{number}"), fonts)
            times[level].append((time.process_time() - started) / CARDS)
            sizes[level] = len(data)
    for level in levels:
        median = statistics.median(times[level]) * 1000
        print(f"zlib {level}: {median:.1f} ms CPU a card, {sizes[level] / 1024:.1f} KB")


if __name__ == "__main__":
    main()
