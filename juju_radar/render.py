"""Docutils nodes for what readers see: item metadata, listings, issue header and nav.

The interface text is Chinese; topic names carry their English label beside them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from docutils import nodes

from .archive import Archive, ItemRef
from .model import Issue, Topic, Verdict, Vocabulary, format_score

# (fromdocname-relative) URI of a document, optionally with an anchor.
Linker = Callable[[str, str], str]


def topic_title(topic: Topic) -> str:
    return topic.label if topic.label == topic.label_en else f"{topic.label} · {topic.label_en}"


def topic_link(topic: Topic) -> nodes.Node:
    from sphinx.addnodes import pending_xref

    xref = pending_xref(
        "",
        refdomain="std",
        reftype="doc",
        reftarget=f"/topics/{topic.key}",
        refexplicit=True,
        refwarn=True,
    )
    xref += nodes.inline("", topic.label, classes=["radar-topic"])
    return xref


def item_meta(
    topic: Topic | None, tags: list[str], score: float | None, verdict: Verdict | None
) -> nodes.paragraph:
    """The category line as editors write it: ``TOPIC / TAG · 9/10｜VERDICT``."""
    meta = nodes.paragraph(classes=["radar-item-meta"])
    if topic is not None:
        meta += topic_link(topic)
    for tag in tags:
        meta += nodes.Text(" / ")
        meta += nodes.inline("", tag, classes=["radar-tag"])
    if score is not None:
        meta += nodes.Text(" · ")
        meta += nodes.inline("", f"{format_score(score)}/10", classes=["radar-score"])
    if verdict is not None:
        meta += nodes.Text("｜")
        meta += nodes.inline(
            "", verdict.label, classes=["radar-verdict", f"radar-verdict-{verdict.key}"]
        )
    return meta


def _link(uri: str, text: str, classes: Iterable[str] = ()) -> nodes.reference:
    return nodes.reference("", text, refuri=uri, internal=True, classes=list(classes))


def _item_line(ref: ItemRef, vocab: Vocabulary, link: Linker, with_date: bool) -> nodes.paragraph:
    item = ref.item
    line = nodes.paragraph(classes=["radar-item-line"])
    if with_date:
        line += _link(link(ref.docname, ""), ref.date, ["radar-date"])
        line += nodes.Text(" · ")
    line += _link(link(ref.docname, item.id), item.heading, ["radar-item-title"])
    line += nodes.Text(" · ")
    topic = vocab.topic_by_key(item.topic)
    line += _link(link(f"topics/{topic.key}", ""), topic.label, ["radar-topic"])
    line += nodes.Text(f" · {format_score(item.score)}/10｜")
    verdict = vocab.verdict_by_key(item.verdict)
    line += nodes.inline(
        "", verdict.label, classes=["radar-verdict", f"radar-verdict-{verdict.key}"]
    )
    for tag in item.tags:
        line += nodes.Text(" ")
        line += nodes.inline("", tag, classes=["radar-tag"])
    return line


def item_list(
    refs: Iterable[ItemRef], vocab: Vocabulary, link: Linker, with_date: bool = True
) -> nodes.Element:
    listing = nodes.bullet_list(classes=["radar-item-list"])
    for ref in refs:
        listing += nodes.list_item("", _item_line(ref, vocab, link, with_date))
    if not listing.children:
        return nodes.paragraph("", "暂无条目。", classes=["radar-empty"])
    return listing


def topic_list(archive: Archive, topic: str, vocab: Vocabulary, link: Linker) -> list[nodes.Node]:
    refs = archive.topic_items(topic)
    count = nodes.paragraph("", f"共 {len(refs)} 条，按日期从新到旧排列。", classes=["radar-count"])
    return [count, item_list(refs, vocab, link)]


def topic_index(archive: Archive, vocab: Vocabulary, link: Linker) -> list[nodes.Node]:
    listing = nodes.bullet_list(classes=["radar-topic-index"])
    for topic in vocab.topics:
        entry = nodes.paragraph()
        entry += _link(link(f"topics/{topic.key}", ""), topic_title(topic), ["radar-topic"])
        entry += nodes.Text(f"（{len(archive.topic_items(topic.key))} 条）")
        if topic.description:
            entry += nodes.Text(f"：{topic.description}")
        listing += nodes.list_item("", entry)
    return [listing]


def archive_listing(archive: Archive, link: Linker) -> list[nodes.Node]:
    if not archive.published:
        return [nodes.paragraph("", "暂无已发布的期刊。", classes=["radar-empty"])]
    result: list[nodes.Node] = []
    for year, months in archive.by_year_month():
        result.append(nodes.rubric("", f"{year} 年", classes=["radar-year"], ids=[f"y{year}"]))
        for month, issues in months:
            result.append(
                nodes.rubric(
                    "",
                    f"{year} 年 {month} 月",
                    classes=["radar-month"],
                    ids=[f"y{year}-m{month:02d}"],
                )
            )
            listing = nodes.bullet_list(classes=["radar-issue-list"])
            for issue in issues:
                entry = nodes.paragraph()
                entry += nodes.inline("", issue.date.isoformat(), classes=["radar-date"])
                entry += nodes.Text(" · ")
                entry += _link(link(issue.docname, ""), issue.title, ["radar-issue-title"])
                entry += nodes.Text(f"（{len(issue.items)} 条）")
                listing += nodes.list_item("", entry)
            result.append(listing)
    return result


def latest_issue(archive: Archive, vocab: Vocabulary, link: Linker) -> list[nodes.Node]:
    issue = archive.latest
    if issue is None:
        return [nodes.paragraph("", "暂无已发布的期刊。", classes=["radar-empty"])]
    box = nodes.container(classes=["radar-latest"])
    heading = nodes.paragraph(classes=["radar-latest-title"])
    heading += nodes.inline("", f"最新一期 · {issue.date.isoformat()} · ", classes=["radar-date"])
    heading += _link(link(issue.docname, ""), issue.title, ["radar-issue-title"])
    box += heading
    for paragraph in issue.lead:
        box += nodes.paragraph("", paragraph, classes=["radar-lead"])
    box += item_list((ItemRef(issue, item) for item in issue.items), vocab, link, with_date=False)
    more = nodes.paragraph(classes=["radar-more"])
    more += _link(link("issues/index", ""), "往期归档")
    more += nodes.Text(" · ")
    more += _link(link("topics/index", ""), "按主题浏览")
    more += nodes.Text(" · ")
    more += _link(link("references", ""), "参考文献")
    box += more
    return [box]


def issue_header(issue: Issue) -> list[nodes.Node]:
    result: list[nodes.Node] = []
    if not issue.published:
        note = nodes.admonition(classes=["radar-draft", "warning"])
        note += nodes.title("", "草稿")
        note += nodes.paragraph("", "本期尚未发布：它不出现在归档、主题、首页与参考文献中。")
        result.append(note)
    line = nodes.paragraph(classes=["radar-issue-meta"])
    line += nodes.inline("", f"Juju Radar · {issue.date:%Y.%m.%d}", classes=["radar-date"])
    if issue.stated_length:
        line += nodes.Text(" · ")
        line += nodes.inline("", issue.stated_length, classes=["radar-stated-length"])
    stats = issue.stats
    line += nodes.Text(" · ")
    line += nodes.inline(
        "", f"本站统计：{stats.words:,} 字，阅读约 {stats.minutes} 分钟", classes=["radar-stats"]
    )
    result.append(line)
    return result


def issue_nav(archive: Archive, docname: str, link: Linker) -> list[nodes.Node]:
    older, newer = archive.neighbours(docname)
    if older is None and newer is None:
        return []
    nav = nodes.paragraph(classes=["radar-issue-nav"])
    if older is not None:
        nav += _link(
            link(older.docname, ""),
            f"← 上一期：{older.date.isoformat()} {older.title}",
            ["radar-prev"],
        )
    if older is not None and newer is not None:
        nav += nodes.Text(" ｜ ")
    if newer is not None:
        nav += _link(
            link(newer.docname, ""),
            f"下一期：{newer.date.isoformat()} {newer.title} →",
            ["radar-next"],
        )
    return [nav]


def cited_by(refs: list[ItemRef], link: Linker) -> nodes.paragraph:
    line = nodes.paragraph(classes=["radar-cited-by"])
    line += nodes.inline("", "被引用：", classes=["radar-cited-by-label"])
    if not refs:
        line += nodes.Text("暂无已发布条目引用。")
    for index, ref in enumerate(refs):
        if index:
            line += nodes.Text("；")
        line += _link(link(ref.docname, ref.item.id), f"{ref.date} {ref.item.heading}")
    return line


def missing_identifier_note() -> nodes.paragraph:
    return nodes.paragraph(
        "", "来源未给出 DOI、arXiv 编号或网址，待编辑补全。", classes=["radar-missing-identifier"]
    )
