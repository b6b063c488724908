"""A synthetic archive in the project's real formats, for scale tests and benchmarks.

Text is Zipf-like Chinese or the seed issue's sentences (``synth_text.py``); topics,
verdicts and scores are spread like a real archive; references are shared across
issues. Deterministic for a given seed. It only writes into the folder it is given.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from juju_radar.editors.synth_text import DEFAULT_TEXT, TextSource, text_source
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import Issue, TextStats, format_score, text_stats
from juju_radar.model.site_layout import NOT_SITE
from juju_radar.model.vocabulary import Vocabulary

FIRST_DATE = dt.date(2024, 1, 1)
EMOJI = ("🛠️", "🧠", "🪑", "🧪", "⚖️", "📐", "🔁", "🛰️", "🧬", "📊")
TOPIC_WEIGHTS = {"agent": 30, "training": 25, "3d": 15, "ai-for-science": 15, "governance": 15}
VERDICT_WEIGHTS = {"dig-deeper": 25, "keep-watching": 50, "read-original": 25}
SCORES = (6, 6.5, 7, 7.5, 8, 8, 8.5, 8.5, 8.5, 9, 9, 9.5, 10)
LABELS = ("论文", "代码与任务", "项目主页", "原文", "技术报告", "数据集")


@dataclass(frozen=True)
class SynthOptions:
    issues: int
    seed: int = 8
    draft_every: int = 97
    text: str = DEFAULT_TEXT  # "zipf" or "seed" (synth_text.TEXT_MODES)


def seed_sentences(seed_issue: Issue) -> list[str]:
    texts = [*seed_issue.lead, *seed_issue.closing]
    for item in seed_issue.items:
        texts += item.body
    return [part for text in texts for part in re.findall(r"[^。！？]+[。！？]", text)]


def write_synthetic_archive(
    site: Path, out: Path, options: SynthOptions, vocabulary: Vocabulary
) -> list[Path]:
    """Copy the site at ``site`` to ``out`` and fill it with ``options.issues`` issues."""
    published_issues = ("20[0-9][0-9]",)  # issues/<year>: the synthetic ones replace them
    shutil.copytree(site, out, ignore=shutil.ignore_patterns(*NOT_SITE, *published_issues))
    seed_page = site / "issues" / "2026" / "2026-09-08.md"
    seed_issue, _ = parse_issue(seed_page.read_text(encoding="utf-8"), "seed.md", vocabulary)
    assert seed_issue is not None, "the seed issue must parse"
    rng = random.Random(options.seed)
    source = text_source(options.text, seed_sentences(seed_issue))
    bib_keys: list[str] = []
    written = []
    bib_entries = []
    for number in range(options.issues):
        date = FIRST_DATE + dt.timedelta(days=number)
        text, new_keys = _issue_text(date, number, options, source, bib_keys, rng)
        bib_entries += [_bib_entry(key, date) for key in new_keys]
        bib_keys += new_keys
        path = out / "issues" / f"{date:%Y}" / f"{date.isoformat()}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    (out / "references.bib").write_text("\n".join(bib_entries), encoding="utf-8")
    return written


def write_synthetic_exports(
    site: Path, out: Path, options: SynthOptions, vocabulary: Vocabulary
) -> list[Path]:
    """Write the issues of the synthetic archive of ``options`` as the editors' export
    files (``out/YYYY-MM-DD.txt``), for benchmarks of ``radar import``."""
    with tempfile.TemporaryDirectory() as scratch:
        archive = Path(scratch) / "archive"
        pages = write_synthetic_archive(site, archive, options, vocabulary)
        out.mkdir(parents=True)
        written = []
        for page in pages:
            issue, _ = parse_issue(page.read_text(encoding="utf-8"), page.name, vocabulary)
            assert issue is not None, "a synthetic page must parse"
            path = out / f"{issue.date.isoformat()}.txt"
            path.write_text(export_text(issue), encoding="utf-8")
            written.append(path)
    return written


def export_text(issue: Issue) -> str:
    """``issue`` in the editors' plain-text export format (``radar import`` reads it)."""
    blocks = [issue.title, f"Juju Radar · {issue.date:%Y.%m.%d}", issue.stated_length]
    blocks += issue.lead
    for item in issue.items:
        tags = "".join(f" / {tag}" for tag in item.tags)
        category = f"{item.topic}{tags} · {format_score(item.score)}/10｜{item.verdict}"
        blocks += [f"{item.heading}\n{category}", *item.body]
        blocks.append(" · ".join(source.label for source in item.sources))
    blocks += ["今天的主线", *issue.closing]
    return "\n\n".join(blocks) + "\n"


def _issue_text(
    date: dt.date,
    number: int,
    options: SynthOptions,
    source: TextSource,
    known_keys: list[str],
    rng: random.Random,
) -> tuple[str, list[str]]:
    # What the model counts of the page (``issues._issue_stats``), for its ``length``.
    counted: list[str] = []

    def paragraph() -> str:
        text = source.paragraph(rng)
        counted.append(text)
        return text

    status = (
        "draft"
        if options.draft_every and number % options.draft_every == options.draft_every - 1
        else "published"
    )
    title = f"第 {number + 1} 期：{source.title(rng)}"
    counted.append(title)
    lines = [  # the body: the front matter, with the length of the body, goes before it
        "",
        paragraph(),
        "",
        paragraph(),
        "",
    ]
    new_keys: list[str] = []
    for index in range(rng.randint(4, 6)):
        keys = []
        for _ in range(rng.randint(2, 3)):
            if known_keys and rng.random() < 0.25:
                keys.append(rng.choice(known_keys))
            else:
                key = f"synth{date:%Y%m%d}{index}{len(keys)}"
                new_keys.append(key)
                keys.append(key)
        keys = list(dict.fromkeys(keys))
        topic = rng.choices(list(TOPIC_WEIGHTS), weights=list(TOPIC_WEIGHTS.values()))[0]
        verdict = rng.choices(list(VERDICT_WEIGHTS), weights=list(VERDICT_WEIGHTS.values()))[0]
        labels = [LABELS[n % len(LABELS)] for n in range(len(keys))]
        sources = " · ".join(f"{label} <{key}>" for label, key in zip(labels, keys, strict=True))
        emoji = rng.choice(EMOJI)
        item_title = f"条目 {number + 1}-{index + 1}：{source.heading(rng)}"
        heading = f"{emoji} {item_title}"
        counted += [item_title, *labels]
        lines += [
            f":::{{radar-item}} {heading}",
            f":id: s{date:%Y%m%d}-{index + 1}",
            f":topic: {topic}",
            f":tags: {rng.choice(['Coding Agent', '仿真', '生物医药', '应用边界', '评测'])}",
            f":score: {rng.choice(SCORES):g}",
            f":verdict: {verdict}",
            f":sources: {sources}",
            "",
            paragraph(),
            "",
            paragraph(),
            "",
            ":::",
            "",
        ]
    closing_title = "今天的主线"
    counted.append(closing_title)
    lines += [
        f":::{{radar-closing}} {closing_title}",
        "",
        paragraph(),
        "",
        ":::",
        "",
    ]
    stats = sum((text_stats(text) for text in counted), TextStats())
    front = [
        "---",
        f"date: {date.isoformat()}",
        f"title: {title}",
        f"status: {status}",
        f"length: {stated_length(stats)}",
        "---",
    ]
    return "\n".join([*front, *lines]), new_keys


def stated_length(stats: TextStats) -> str:
    """The ``length`` an editor would write for a page of ``stats``: the counted length
    rounded to the nearest 100 字 (at least 100), and the reading time."""
    rounded = max(100, (stats.words + 50) // 100 * 100)
    return f"约 {rounded:,} 字 · 阅读约 {stats.minutes} 分钟"


def _bib_entry(key: str, date: dt.date) -> str:
    return (
        f"@misc{{{key},\n  title = {{合成文献 {key}}},\n  organization = {{合成机构}},\n"
        f"  year = {{{date.year}}},\n  month = {{{date.month}}},\n}}\n"
    )
