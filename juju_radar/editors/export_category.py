"""An export item's category line, ``CATEGORY[ / TAG...] · SCORE/10｜VERDICT``: read
against the site's vocabulary, told apart from prose, and what a line that tries to be
one lacks."""

from __future__ import annotations

import re
from collections.abc import Sequence

from juju_radar.editors.export_blocks import Block
from juju_radar.editors.export_problems import Report, shorten
from juju_radar.model.item_options import Rating, check_visible, read_rating
from juju_radar.model.messages import N_, _
from juju_radar.model.vocabulary import Vocabulary

CATEGORY_RE = re.compile(
    r"^(?P<category>.+?)\s*[·・]\s*(?P<score>[^\s·・]+?)\s*[/／]\s*(?:10|１０)\s*[｜|]\s*"
    r"(?P<verdict>\S.*)$"
)
CATEGORY_PARTS_RE = re.compile(r"\s+/\s+|\s*／\s*")
CATEGORY_FORM = N_("the category line must read 'CATEGORY[ / TAGS] · SCORE/10｜VERDICT'")
# A line that tries to be a category line: a score out of 10, a verdict bar, "9 分".
CATEGORY_ATTEMPT_RE = re.compile(r"[/／]\s*(?:10|１０)|[｜|]|\d\s*分")
VERDICT_BAR_RE = re.compile(r"[｜|]")
SCORE_OUT_OF_10_RE = re.compile(r"[^\s·・]+?\s*[/／]\s*(?:10|１０)")


def read_category(
    block: Block, vocabulary: Vocabulary, report: Report
) -> tuple[str, tuple[str, ...], float, str] | None:
    match = CATEGORY_RE.match(block.text) if block.is_single_line else None
    if match is None:
        report.error(block.line, "bad-category", _(CATEGORY_FORM))
        return None
    topic_name, *tags = CATEGORY_PARTS_RE.split(match.group("category").strip())
    rating = read_rating(
        vocabulary,
        report.path,
        topic=(topic_name, block.line),
        verdict=(match.group("verdict").strip(), block.line),
        score=(match.group("score"), block.line),
        fold_width=True,
    )
    ok = not rating.problems
    # Reported in the order the line reads them: topic, tags, score, verdict.
    _report_rating(rating, ("topic",), report)
    for tag in tags:
        if not tag.strip() or "," in tag:
            report.error(
                block.line,
                "bad-tag",
                _(
                    "tag '{tag}' must be non-empty text without ','; separate tags with ' / '"
                ).format(tag=tag),
            )
            ok = False
        elif not check_visible(tag, block.line, report):
            ok = False
    _report_rating(rating, ("score", "verdict"), report)
    topic, score, verdict = rating.topic, rating.score, rating.verdict
    if not ok or topic is None or verdict is None or score is None:
        return None
    return topic.key, tuple(tag.strip() for tag in tags), score, verdict.key


def _report_rating(rating: Rating, names: Sequence[str], report: Report) -> None:
    for name in names:
        if problem := rating.problems.get(name):
            report.error(problem.line, problem.code, problem.message)


def looks_like_category(block: Block) -> bool:
    return block.is_single_line and CATEGORY_RE.match(block.text) is not None


def tries_to_be_category(block: Block) -> bool:
    return block.is_single_line and CATEGORY_ATTEMPT_RE.search(block.text) is not None


def category_problem(text: str) -> str:
    """What a line that tries to be a category line lacks."""
    bar = VERDICT_BAR_RE.search(text)
    before_bar = text[: bar.start()] if bar else text
    if not re.search(r"[·・]", before_bar):
        return _("there is no ' · ' between the category and the score")
    score = re.split(r"[·・]", before_bar)[-1].strip()
    if not SCORE_OUT_OF_10_RE.fullmatch(score):
        return _("the score '{score}' is not written as SCORE/10").format(score=score)
    if bar is None or not text[bar.end() :].strip():
        return _("there is no '｜' and verdict after the score")
    return _("found '{found}'").format(found=shorten(text))
