"""``radar new``: a draft issue page for a day, written from a template that passes
``radar check`` as it is."""

from __future__ import annotations

import datetime as dt
from typing import TextIO
from zoneinfo import ZoneInfo

from juju_radar.editors.exit_status import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, command_error
from juju_radar.editors.replaced_files import Replacements, edited_message
from juju_radar.editors.site_files import Site, atomic_write
from juju_radar.model.issue_reader import ISO_DATE_RE, parse_issue
from juju_radar.model.issue_records import date_outside_span
from juju_radar.model.messages import _
from juju_radar.model.vocabulary import Vocabulary

NEWSROOM_TIMEZONE = ZoneInfo("Asia/Shanghai")


def write_new_issue(
    site: Site,
    date_text: str | None,
    force: bool,
    out: TextIO,
    err: TextIO,
    discard_edits: bool = False,
) -> int:
    """Write the draft of the day ``date_text`` names (YYYY-MM-DD; None: today in the
    newsroom) unless its page exists (or ``force``, and the page is radar's as it wrote
    it, or ``discard_edits``); the exit status."""
    date = parse_date_argument(date_text) if date_text else today_in_newsroom()
    if date is None:
        message = _("'{date}' is not a date (YYYY-MM-DD)").format(date=date_text)
        print(command_error(message), file=err)
        return EXIT_USAGE
    if outside := date_outside_span(date, site.date_span):
        print(command_error(outside), file=err)
        return EXIT_USAGE
    target = site.issue_path(date.isoformat())
    relative = site.relative(target)
    if outside := site.outside_root(target):
        message = _("{path} leads outside the repository").format(path=outside)
        print(command_error(message), file=err)
        return EXIT_PROBLEMS
    if target.exists() and not force:
        message = _("{path} already exists: pass --force to replace it").format(path=relative)
        print(command_error(message), file=err)
        return EXIT_PROBLEMS
    replacements = Replacements(site)
    if not discard_edits and replacements.edited(target):
        message = edited_message(relative)
        print(command_error(message), file=err)
        return EXIT_PROBLEMS
    page = draft_page(date, site.vocabulary)
    _parsed, problems = parse_issue(page, relative, site.vocabulary)
    if any(problem.severity == "error" for problem in problems):  # pragma: no cover - a bug
        for problem in problems:
            print(problem.format(), file=err)
        return EXIT_PROBLEMS
    replacements.keep(target, page)
    try:
        atomic_write(target, page)
    except OSError as error:
        message = _("cannot write {path}: {reason}").format(
            path=relative, reason=error.strerror or error
        )
        print(command_error(message), file=err)
        return EXIT_PROBLEMS
    replacements.wrote(target, page)
    replacements.save()
    replacements.show(out)
    if date_text:
        created = _("created {path} (status: draft) for {date}")
    else:
        created = _("created {path} (status: draft) for {date}, today in {timezone}")
    fields = {"path": relative, "date": date.isoformat(), "timezone": NEWSROOM_TIMEZONE.key}
    print(created.format(**fields), file=out)
    return EXIT_OK


def parse_date_argument(text: str) -> dt.date | None:
    """YYYY-MM-DD (or YYYY.MM.DD, as the exports write it); nothing else."""
    written = text.strip().replace(".", "-")
    try:
        return dt.date.fromisoformat(written) if ISO_DATE_RE.match(written) else None
    except ValueError:
        return None


def today_in_newsroom() -> dt.date:
    return dt.datetime.now(NEWSROOM_TIMEZONE).date()


def draft_page(date: dt.date, vocabulary: Vocabulary) -> str:
    """The scaffold of ``radar new``: a draft that passes ``radar check`` as it is."""
    topics = "、".join(topic.key for topic in vocabulary.topics)
    verdicts = "、".join(f"{verdict.key}（{verdict.label}）" for verdict in vocabulary.verdicts)
    first_topic = vocabulary.topics[0].key if vocabulary.topics else "agent"
    first_verdict = vocabulary.verdicts[0].key if vocabulary.verdicts else "keep-watching"
    return DRAFT_TEMPLATE.format(
        date=date.isoformat(),
        compact=f"{date:%Y%m%d}",
        topics=topics,
        verdicts=verdicts,
        topic=first_topic,
        verdict=first_verdict,
    )


# Its title, empty length, "在这里写…" paragraphs, item heading and draft-… id are
# placeholders that check refuses once published (model._check_no_placeholders).
DRAFT_TEMPLATE = """\
---
# 草稿：写完后把 status 改为 published，并填上 length（约 N 字 · 阅读约 M 分钟）。
date: {date}
title: 本期标题
status: draft
length: ""
---

在这里写导语：今天最值得看的是什么，为什么值得看。

:::{{radar-item}} 📌 第一条的标题
:id: draft-{compact}-1
:topic: {topic}
:score: 8
:verdict: {verdict}

在这里写第一条的正文，一段一行，段与段之间空一行。

:::

% 每一条都是一个 radar-item 块：第一行写 emoji 和标题，接着是选项，空一行后是正文，最后一行 ::: 。
% :id: 全站唯一的 id，只用小写英文字母、数字和连字符。
% :topic: 主题，可选 {topics}（也可写中文名或别名）。
% :tags: 可选，多个标签用英文逗号分隔。
% :score: 0 到 10 分，可以有 .5。
% :verdict: {verdicts}。
% :sources: 可选，来源标签后接尖括号括起的 references.bib 引用键，多个来源用 “ · ” 分隔。
% 以 % 开头的行是注释，不会出现在网页上；发布前可以删掉。

:::{{radar-closing}} 今天的主线

在这里写今天的主线。

:::
"""
