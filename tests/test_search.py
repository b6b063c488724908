"""The search build: Pagefind bundle and records of the built site, Sphinx search gone.

The browser tests (tests/browser) check what a reader sees; these check what the build
writes: which pages are searchable, which records the index holds and with what
metadata, and that the bundle is the same on every build.
"""

from __future__ import annotations

import filecmp
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_site, sphinx_build
from search_bundles import pagefind_records, search_parts, tree_bytes

from juju_radar.accel.search_merge import merge_bundles
from juju_radar.outputs.search.records import (
    SearchRecord,
    add_index_words,
    add_topic_terms,
    body_sections,
    make_searchable,
    page_tree,
    read_manifest,
    record_document,
    record_files,
    records_state,
    run_pagefind,
    story_sections,
    update_record_site,
)
from juju_radar.outputs.search.terms import han_pairs, index_word, index_words

ISSUE_HTML = "issues/2026/2026-09-08.html"
ISSUE_FILE = Path("issues/2026/2026-09-08.md")
STORY_IDS = [
    "tau-bench-customer-service",
    "rise-self-extrapolation",
    "worldsculpt-object-scenes",
    "rentosertib-aging-clocks",
    "spc-ai-disputes-opinion",
]


def stories_by_link(site: Path) -> dict[str, dict[str, Any]]:
    return {
        record["meta"]["link"]: record
        for record in pagefind_records(site)
        if record["meta"].get("kind") == "story"
    }


def plain(text: str) -> str:
    """Record content without Pagefind's zero-width word separators and the index words
    of Han pairs (``terms.py``)."""
    return re.sub(r"qz(?:[a-z]{4}){1,2} ", "", text.replace("\u200b", ""))


# --- the built seed site ----------------------------------------------------------------


def test_the_build_writes_a_pagefind_bundle_and_no_sphinx_search(built_seed_site: Path) -> None:
    # One issue of 2026: the part of its stories, whose runtime loads, and the part of
    # every other record, each with the kind search.js gives its records.
    listing = json.loads((built_seed_site / "pagefind" / "parts.json").read_text())
    assert listing == {
        "parts": ["stories-2026", "other-2026"],
        "kinds": {"stories-2026": "story", "other-2026": "other"},
    }
    bundle = built_seed_site / "pagefind" / "stories-2026"
    assert (bundle / "pagefind.js").is_file()
    for part in search_parts(built_seed_site):
        entry = json.loads(
            (built_seed_site / "pagefind" / part / "pagefind-entry.json").read_text()
        )
        assert list(entry["languages"]) == ["zh-cn"]
    assert not (built_seed_site / "searchindex.js").exists()
    for page in built_seed_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "searchtools.js" not in text and "language_data.js" not in text, page
        assert "searchindex.js" not in text, page


def test_every_story_is_its_own_record_with_filters_and_metadata(built_seed_site: Path) -> None:
    stories = stories_by_link(built_seed_site)
    assert sorted(stories) == sorted(f"{ISSUE_HTML}#{item_id}" for item_id in STORY_IDS)
    story = stories[f"{ISSUE_HTML}#rentosertib-aging-clocks"]
    assert story["meta"]["title"] == "🧪 AI 设计的药物，出现了值得追踪的衰老指标变化"
    assert story["meta"]["date"] == "2026-09-08"
    assert story["meta"]["issue"] == "让 AI 造一个客服，难在代码之外"
    assert story["filters"] == {
        "topic": ["AI for Science"],
        "verdict": ["持续观察"],
        "year": ["2026"],
    }
    content = plain(story["content"])
    assert "衰老时钟" in content and "特发性肺纤维化" in content
    assert "客服" not in content, "a story record holds another story's text"


def test_record_text_joins_headings_to_what_follows_in_chinese(built_seed_site: Path) -> None:
    """Pagefind joins a block that ends no sentence to the next with ". "; the records
    end such blocks with "。" first, so excerpts read "……问题。Agent / Coding Agent……"."""
    records = pagefind_records(built_seed_site)
    joined = [
        r["meta"]["link"]
        for r in records
        if re.search(r"[\u3400-\u9fff][\u200b\s]*\.\s", r["content"])
    ]
    assert joined == []
    story = stories_by_link(built_seed_site)[f"{ISSUE_HTML}#tau-bench-customer-service"]
    assert "客服能跑起来，不代表能处理好客户的问题。 Agent" in plain(story["content"])


def test_an_issue_record_holds_its_bibliography(built_seed_site: Path) -> None:
    (issue,) = [r for r in pagefind_records(built_seed_site) if r["meta"].get("kind") == "issue"]
    assert "RISE 论文" in plain(issue["content"])
    assert issue["filters"] == {}, "topic, verdict and year count stories"
    references_pages = [r for r in pagefind_records(built_seed_site) if "references" in r["url"]]
    assert all("RISE 论文" not in plain(r["content"]) for r in references_pages)


def test_the_missing_identifier_mark_and_its_explanation_are_not_indexed(
    built_seed_site: Path,
) -> None:
    """The seed's entries have no address: the page marks each and explains the mark once,
    and neither is a word of the work, so no record holds them."""
    issue_page = (built_seed_site / ISSUE_HTML).read_text(encoding="utf-8")
    assert issue_page.count("（原文未附链接）") >= 2 and issue_page.count("待编辑补全") == 1
    for record in pagefind_records(built_seed_site):
        content = plain(record["content"])
        assert "待编辑补全" not in content and "原文未附链接" not in content, record["url"]
        assert "来源未给出" not in content, record["url"]


def test_records_leave_out_permalinks_listings_and_the_search_page(built_seed_site: Path) -> None:
    records = pagefind_records(built_seed_site)
    links = {record["meta"]["link"] for record in records}
    assert "search.html" not in links
    home = next(record for record in records if record["meta"]["link"] == "index.html")
    assert "RISE" not in plain(home["content"]), "the latest-issue listing was indexed"
    assert [r["meta"]["link"] for r in records if "#" in plain(r["content"])] == []
    issue_rest = next(record for record in records if record["meta"]["kind"] == "issue")
    assert "今天的主线" in plain(issue_rest["content"])
    assert "零售领域" not in plain(issue_rest["content"]), "stories are their own records"


def test_pages_mark_the_article_body_and_what_search_ignores(built_seed_site: Path) -> None:
    issue = (built_seed_site / ISSUE_HTML).read_text(encoding="utf-8")
    assert re.search(r'<section data-pagefind-body="" id="[^"]+">\s*<h1>', issue)
    assert issue.count("data-pagefind-body") == 1
    headerlinks = re.findall(r"<a class=\"headerlink\"[^>]*>", issue)
    assert headerlinks and all("data-pagefind-ignore" in link for link in headerlinks)
    for item_id in STORY_IDS:  # anchors stay on the item's section
        assert f'id="{item_id}"' in issue
    home = (built_seed_site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'class="radar-front"[^>]*data-pagefind-ignore', home)  # its cards
    search_page = (built_seed_site / "search.html").read_text(encoding="utf-8")
    assert "data-pagefind-body" not in search_page
    assert 'class="radar-search-page' in search_page


@pytest.mark.site
def test_a_second_build_writes_the_same_bundle(built_seed_site: Path, tmp_path: Path) -> None:
    """The whole bundle is byte-identical across builds.

    Pagefind 1.5.2 alone writes filter values and names in hash-map order, which changes
    from run to run; the merge (``merge.merge_bundles``) writes them sorted.
    """
    outdir = tmp_path / "html"
    sphinx_build(copy_site(tmp_path / "src"), outdir)
    comparison = filecmp.dircmp(built_seed_site / "pagefind", outdir / "pagefind")
    assert_same_tree(comparison)


TMPFS = Path("/dev/shm")


def index_in_creation_order(records: list[Path], base: Path, into: Path, merged: bool) -> Path:
    """The record site written file by file in the given order, indexed by Pagefind (and
    merged, as every bundle the site publishes is)."""
    site = into / "site"
    for record in records:
        target = site / record.relative_to(base)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(record, target)
    bundle = into / "bundle"
    assert run_pagefind(site, bundle).returncode == 0
    if not merged:
        return bundle
    merge_bundles([bundle], into / "merged")
    return into / "merged"


@pytest.mark.parametrize("merged", [False, True])
def test_the_bundle_does_not_depend_on_the_order_the_file_system_lists(
    built_seed_site: Path, merged: bool
) -> None:
    """On tmpfs a folder lists files newest first, so the creation order is the listing
    order: Pagefind alone numbers pages by it; the merged bundle does not."""
    assert TMPFS.is_dir(), "no tmpfs at /dev/shm to vary the listing order: mount one"
    base = built_seed_site.parent / "html.doctrees" / "radar-search-records" / "stories-2026-09"
    records = sorted(path for path in base.rglob("*") if path.is_file())
    with tempfile.TemporaryDirectory(dir=TMPFS) as work:
        forward = index_in_creation_order(records, base, Path(work, "a"), merged)
        backward = index_in_creation_order(records[::-1], base, Path(work, "b"), merged)
        same = tree_bytes(forward) == tree_bytes(backward)
    assert same is merged


def assert_same_tree(comparison: filecmp.dircmp[str]) -> None:
    assert not comparison.left_only and not comparison.right_only, (
        comparison.left_only,
        comparison.right_only,
    )
    _, mismatch, errors = filecmp.cmpfiles(
        comparison.left, comparison.right, comparison.common_files, shallow=False
    )
    assert not mismatch and not errors, mismatch
    for sub in comparison.subdirs.values():
        assert_same_tree(sub)


def bundle_files(outdir: Path) -> dict[str, tuple[int, bytes]]:
    return {
        path.relative_to(outdir).as_posix(): (path.stat().st_mtime_ns, path.read_bytes())
        for path in sorted((outdir / "pagefind").rglob("*"))
        if path.is_file()
    }


@pytest.mark.site
def test_rebuilds_index_only_when_records_change_and_repair_a_damaged_bundle(
    built_seed_site: Path, tmp_path: Path
) -> None:
    srcdir, outdir = copy_site(tmp_path / "src"), tmp_path / "html"
    sphinx_build(srcdir, outdir)
    first = bundle_files(outdir)
    sphinx_build(srcdir, outdir)
    assert bundle_files(outdir) == first, "no change: the bundle is left as it is"

    issue = srcdir / ISSUE_FILE
    issue.write_text(
        issue.read_text(encoding="utf-8").replace("衰老时钟", "衰老计时器"), encoding="utf-8"
    )
    sphinx_build(srcdir, outdir)
    changed = bundle_files(outdir)
    assert changed != first
    assert any("衰老计时器" in plain(record["content"]) for record in pagefind_records(outdir))

    shutil.rmtree(outdir / "pagefind" / "stories-2026" / "fragment")
    sphinx_build(srcdir, outdir)
    repaired = bundle_files(outdir)
    assert {name: data for name, (_, data) in repaired.items()} == {
        name: data for name, (_, data) in changed.items()
    }


@pytest.mark.site
def test_a_draft_issue_is_not_searchable(tmp_path: Path) -> None:
    srcdir = copy_site(tmp_path / "src")
    issue_file = srcdir / ISSUE_FILE
    issue_file.write_text(
        issue_file.read_text(encoding="utf-8").replace("status: published", "status: draft"),
        encoding="utf-8",
    )
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir, "-D", "radar_build_drafts=1")  # as `radar serve` builds it
    assert "data-pagefind-body" not in (outdir / ISSUE_HTML).read_text(encoding="utf-8")
    records = pagefind_records(outdir)
    assert records, "the other pages are still searchable"
    assert not [r for r in records if r["meta"]["link"].startswith(ISSUE_HTML)]
    assert not [r for r in records if "特发性肺纤维化" in plain(r["content"])]


# --- record building, without Sphinx --------------------------------------------------------

PAGE = """<html><body><nav><section>nav</section></nav>
<section data-pagefind-body="" id="top"><h1>Issue</h1><p>lead</p>
<section class="radar-item radar-topic-agent" id="one"><h2>One</h2><p>first</p></section>
<section class="radar-closing" id="closing"><h2>Closing</h2></section>
</section></body></html>"""


def test_body_sections_are_the_top_ones_and_stories_are_found_at_any_depth() -> None:
    tree = page_tree(PAGE)
    assert [body.attributes["id"] for body in body_sections(tree)] == ["top"]
    stories = story_sections(tree)
    assert list(stories) == ["one"]
    assert (stories["one"].html or "").endswith("first</p></section>")


def test_records_read_the_page_as_a_browser_parses_it() -> None:
    """What a regular expression took for a section (inside a comment, an attribute, a
    script) is no section to the parser, and so none to the records."""
    page = (
        '<html><body><!-- <section data-pagefind-body="">hidden</section> -->'
        '<p title="<section data-pagefind-body>">x</p>'
        "<script>'<section data-pagefind-body>'</script>"
        '<section data-pagefind-body="" id="real"><p>seen</p>'
        '<section data-pagefind-body="" id="inner"></section></section></body></html>'
    )
    bodies = body_sections(page_tree(page))
    assert [body.attributes["id"] for body in bodies] == ["real"]


@pytest.mark.parametrize(("kind", "weighted"), [("story", False), ("issue", True), ("page", True)])
def test_record_document_carries_metadata_filters_and_weight(kind: str, weighted: bool) -> None:
    record = SearchRecord(
        kind,
        "issues/a.html#x",
        'Title "quoted", <b>',
        "<p>body</p>",
        meta={"date": "2026-09-08"},
        filters={"topic": "治理, 其他"},
    )
    document = record_document(record, "zh-CN")
    assert '<html lang="zh-CN">' in document
    assert (
        'data-pagefind-meta="title[content]" content="Title &quot;quoted&quot;, &lt;b&gt;"'
        in document
    )
    assert 'data-pagefind-meta="link[content]" content="issues/a.html#x"' in document
    assert 'data-pagefind-filter="topic[content]" content="治理, 其他"' in document
    assert ("data-pagefind-weight" in document) is weighted
    assert record.file_name == "issues/a/x.html"


def test_record_site_rewrites_only_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "records"
    pages = {"p1.html": {"a.html": "<p>甲</p>", "sub/b.html": "<p>乙</p>"}, "p2.html": {}}
    pages["p2.html"] = {"c.html": "<p>丙</p>"}
    first = update_record_site(folder, {}, pages)
    assert record_files(folder) == {"a.html", "sub/b.html", "c.html"}
    assert read_manifest(folder) == first and set(first) == {"p1.html", "p2.html"}
    written: list[str] = []
    write_bytes = Path.write_bytes

    def noting_write(path: Path, data: bytes) -> int:
        written.append(path.relative_to(folder).as_posix())
        return write_bytes(path, data)

    monkeypatch.setattr(Path, "write_bytes", noting_write)
    (folder / "c.html").write_text("<p>", encoding="utf-8")  # damaged since: other size
    changed = {**pages, "p1.html": {**pages["p1.html"], "a.html": "<p>甲乙</p>"}}
    second = update_record_site(folder, {}, changed)
    assert sorted(written) == ["a.html", "c.html"]
    assert (folder / "a.html").read_text(encoding="utf-8") == "<p>甲乙</p>"
    assert (folder / "c.html").read_text(encoding="utf-8") == "<p>丙</p>"
    assert records_state(second) != records_state(first)

    # A page not read again keeps its files; a record a page no longer gives goes.
    written.clear()
    third = update_record_site(
        folder, {"p2.html": second["p2.html"]}, {"p1.html": {"a.html": "<p>甲乙</p>"}}
    )
    assert written == []
    assert record_files(folder) == {"a.html", "c.html"}
    assert third == {
        "p1.html": {"a.html": second["p1.html"]["a.html"]},
        "p2.html": second["p2.html"],
    }


def test_records_leave_out_what_pagefind_ignores() -> None:
    body = (
        '<section><p>kept</p><div class="radar-cited-by" data-pagefind-ignore="">'
        '<div><p>nested</p></div><p data-pagefind-ignore="">inner</p></div>'
        '<img src="x.png" data-pagefind-ignore=""><p>also kept</p>'
        '<span data-pagefind-ignore="">unclosed</section><p>after</p>'
    )
    root = page_tree(body).css_first("section")
    make_searchable(root)
    # An unclosed element ends where the parser ends it (here, with its section).
    assert root.html == "<section><p>kept。</p><p>also kept。</p></section>"


def test_blocks_end_in_chinese_after_their_inline_elements() -> None:
    root = page_tree(
        '<section><h2>标题<a class="headerlink" href="#x">#</a></h2>'
        "<p>甲 <span>乙</span> </p><p>丙。</p><li>A &amp; B</li><p>丁<br></p></section>"
    ).css_first("section")
    make_searchable(root)
    assert root.html == (
        "<section><h2>标题。</h2><p>甲 <span>乙</span>。 </p><p>丙。</p>"
        "<li>A &amp; B。</li><p>丁<br></p></section>"
    )


def test_stories_index_their_topic_names_in_the_lead(built_seed_site: Path) -> None:
    """The topic's label, English label and aliases (conf.py) are indexed with each story
    of the topic, right after its meta line; ``lead`` counts the characters before the
    story's text, which search.js leaves out of the excerpt."""
    stories = stories_by_link(built_seed_site)
    agent = stories[f"{ISSUE_HTML}#tau-bench-customer-service"]
    content = plain(agent["content"])
    assert "9/10｜建议深挖。 Agent 智能体 Agents。 Sierra" in content
    lead = int(agent["meta"]["lead"])
    assert re.sub(r"\s", "", content)[lead:].startswith("Sierra与普林斯顿大学")
    training = plain(stories[f"{ISSUE_HTML}#rise-self-extrapolation"]["content"])
    assert "模型训练 Training 训练 Model training。" in training
    assert "智能体" not in training and "Model training" not in content


def test_topic_names_follow_the_meta_line() -> None:
    section = page_tree(
        '<section><h2>标题</h2>\n<p class="radar-item-meta">A · 9/10</p>\n<p>正文。</p></section>'
    ).css_first("section")
    lead = add_topic_terms(section, ["A", "甲 乙"])
    html_text = section.html or ""
    assert html_text.index("甲 乙。") < html_text.index("正文")
    assert lead == len("标题A·9/10A甲乙。")


def test_han_runs_are_indexed_as_overlapping_pairs() -> None:
    assert han_pairs("3D场景拆成物体，车 AI") == ["场景", "景拆", "拆成", "成物", "物体", "车"]
    words = index_words("拆成物体")
    assert len(words) == 3 and len(set(words)) == 3
    assert all(re.fullmatch(r"qz[a-z]{8}", word) for word in words)
    assert index_word("拆成") == index_word("拆") + index_word("成")[2:]
    assert index_word("𠀀") != index_word("一"), "characters beyond the BMP have words too"


def test_each_innermost_block_opens_with_the_words_of_its_pairs() -> None:
    root = page_tree(
        "<section><h2>拆成物体</h2><ul><li><p>客服 <em>Agent</em></p></li></ul>"
        "<p>Latin only</p></section>"
    ).css_first("section")
    add_index_words(root)
    pairs = " ".join(index_words("拆成物体"))
    assert root.html == (
        f"<section><h2>{pairs} 拆成物体</h2><ul><li><p>{index_word('客服')} 客服 <em>Agent</em></p>"
        "</li></ul><p>Latin only</p></section>"
    )
