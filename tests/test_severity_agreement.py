"""One severity table (issue 52, point 3): for every code of ``juju_radar/model/codes.py``,
what ``radar check`` reports and what ``make html`` (sphinx-build ``-W``) reports agree:
the same code at the same file and line, failing both or neither, and the check's exit
status is the build's.

``CASES`` holds one tiny input per code the check and the build both report; the cases of
a group share one site and one build (a build stopping early, on a file BibTeX cannot read
or on a refused file, has a group of its own). ``COMMAND_ONLY`` and ``BUILD_ONLY`` list
the codes only one side can report, with the reason. A code added to the registry without
a line in one of the three fails ``test_every_code_has_a_case``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import copy_site, sphinx_build

from juju_radar.editors import cli
from juju_radar.model import codes

SEED_ISSUE = "issues/2026/2026-09-08.md"
# The main group's site allows few items and small pages, so that those limits are met
# by a tiny page.
MAIN_CONF = "\nradar_max_items = 3\nradar_max_page_chars = 3000\n"


def page(day: int, edit: Callable[[str], str] = lambda text: text, at: str = "") -> dict[str, str]:
    """A valid issue of 2026-10-DAY, with ``edit`` applied, at its path or ``at``."""
    text = f"""---
date: 2026-10-{day:02d}
title: 第{day}期
status: published
length: 约 30 字 · 阅读约 1 分钟
---

导语。

:::{{radar-item}} 🧪 条目{day}
:id: case-{day}
:topic: agent
:score: 5
:verdict: read-original
:sources: 论文 <taubench2026paper>

正文。
:::

:::{{radar-closing}} 今天的主线

收尾。
:::
"""
    return {at or f"issues/2026/2026-10-{day:02d}.md": edit(text)}


def sub(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


NOV_9 = "issues/2026/2026-11-09.md"
ITEM_OPTIONS = ":topic: agent\n:score: 5\n:verdict: read-original\n"
# An item opened with more colons than the one inside it: nesting meant (and refused).
NESTED = "::::{radar-item} 🧪 外层\n:id: outer\n" + ITEM_OPTIONS + "\n外文。\n\n:::{radar-item}"
ITEM = ":::{{radar-item}} 🧪 另一条{n}\n:id: other-{n}\n" + ITEM_OPTIONS + "\n正文{n}。\n:::\n\n"
EXTRA_ITEMS = "".join(ITEM.format(n=n) for n in range(3)).replace("{{", "{").replace("}}", "}")


def site_page(name: str, body: str) -> dict[str, str]:
    """A page of the site's own (an orphan, outside every toctree)."""
    return {name: f"---\norphan: true\n---\n\n# 页面\n\n{body}\n"}


def bib(name: str, text: str) -> dict[str, str]:
    """A .bib file of its own, listed in conf.py's ``bibtex_bibfiles``."""
    return {f"{name}.bib": text}


def entry(key: str, fields: str = "") -> str:
    return f"@misc{{{key},\n  title = {{A title}},\n  doi = {{10.1/{key}}},\n{fields}}}\n"


@dataclass(frozen=True)
class Case:
    files: dict[str, str | bytes]
    group: str = "main"
    links: dict[str, str] = field(default_factory=dict)  # symlinks: path -> target
    # Where Sphinx itself reports the problem, before the extension sees the file: its
    # words, at the same file (and no line), instead of the code.
    sphinx_says: str = ""


# (scope, code) -> its case: one line a code.
CASES: dict[tuple[codes.Scope, str], Case] = {
    ("issue", "front-matter"): Case(page(1, sub("---\ndate", "date"))),
    ("issue", "missing-date"): Case(page(2, sub("date: 2026-10-02\n", ""))),
    ("issue", "bad-date"): Case(page(3, sub("date: 2026-10-03", "date: 20261003"))),
    ("issue", "date-mismatch"): Case(page(4, sub("date: 2026-10-04", "date: 2026-11-04"))),
    ("issue", "date-out-of-range"): Case(
        page(5, lambda t: t.replace("2026-10", "1999-10"), at="issues/1999/1999-10-05.md")
    ),
    ("issue", "heading-markup"): Case(page(6, sub("导语。", "## 见[这里](https://a.example/)"))),
    ("issue", "too-many-items"): Case(
        page(
            7,
            sub(
                ":::{radar-closing}", EXTRA_ITEMS.replace("other-", "seven-") + ":::{radar-closing}"
            ),
        )
    ),
    ("issue", "bad-path"): Case(page(8, at="issues/2026/oops.md")),
    ("issue", "duplicate-date"): Case(page(9) | page(9, sub("case-9", "case-99"), at=NOV_9)),
    ("issue", "missing-title"): Case(page(10, sub("title: 第10期\n", ""))),
    ("issue", "bad-correction"): Case(  # an issue of 2026-12-01 corrected the day before
        page(
            1,
            lambda t: t.replace("2026-10", "2026-12").replace(
                "status:", "corrections:\n  - date: 2026-11-30\n    text: 早。\nstatus:"
            ),
            at="issues/2026/2026-12-01.md",
        )
    ),
    ("issue", "unknown-status"): Case(page(11, sub("status: published", "status: maybe"))),
    ("issue", "unknown-field"): Case(page(12, sub("status:", "mood: calm\nstatus:"))),
    ("issue", "length-mismatch"): Case(page(13, sub("约 30 字", "约 1,900 字"))),
    ("issue", "missing-closing"): Case(
        page(14, sub(":::{radar-closing} 今天的主线\n\n收尾。\n:::\n", ""))
    ),
    ("issue", "no-items"): Case(
        page(15, lambda t: re.sub(r":::\{radar-item\}.*?\n:::\n", "", t, flags=re.S))
    ),
    ("issue", "nested-block"): Case(page(16, lambda t: NESTED.join(t.split(":::{radar-item}", 1)))),
    ("issue", "stray-close"): Case(page(17, sub("导语。", "导语。\n\n:::"))),
    ("issue", "unclosed-block"): Case(page(18, sub("收尾。\n:::\n", "收尾。\n"))),
    ("issue", "unclosed-fence"): Case(page(19, sub("收尾。", "收尾。\n\n```\n代码"))),
    ("issue", "invisible-character"): Case(
        page(
            2,
            lambda t: t.replace("2026-10-02", "2026-11-02").replace("第2期", "第\u200b2期"),
            at="issues/2026/2026-11-02.md",
        )
    ),
    ("issue", "placeholder"): Case(page(20, sub("title: 第20期", "title: 本期标题"))),
    ("issue", "raw-html"): Case(page(21, sub("正文。", "正文 <span>。"))),
    ("issue", "manual-bibliography"): Case(
        page(22, sub("导语。", "导语。\n\n:::{bibliography}\n:::"))
    ),
    ("issue", "unknown-option"): Case(page(23, sub(":score: 5", ":score: 5\n:colour: red"))),
    ("issue", "missing-option"): Case(page(24, sub(":score: 5\n", ""))),
    ("issue", "duplicate-option"): Case(page(25, sub(":score: 5", ":score: 5\n:score: 6"))),
    ("issue", "bad-options"): Case(page(26, sub(":id: case-26\n", ":id: case-26\n:nonsense\n"))),
    ("issue", "bad-id"): Case(page(27, sub(":id: case-27", ":id: Case_27"))),
    ("issue", "reserved-id"): Case(page(28, sub(":id: case-28", ":id: closing"))),
    ("issue", "unknown-topic"): Case(page(29, sub(":topic: agent", ":topic: cooking"))),
    ("issue", "unknown-verdict"): Case(page(30, sub(":verdict: read-original", ":verdict: maybe"))),
    ("issue", "bad-score"): Case(page(31, sub(":score: 5", ":score: 11"))),
    ("issue", "unknown-entity"): Case(
        page(
            5,
            lambda t: t.replace("2026-10-05", "2026-11-05").replace(
                ":score: 5", ":score: 5\n:entities: nobody"
            ),
            at="issues/2026/2026-11-05.md",
        )
    ),
    ("issue", "bad-sources"): Case(
        page(1, sub("论文 <taubench2026paper>", "论文")) | {}, group="sources"
    ),
    ("issue", "duplicate-id"): Case(
        page(2, sub(":id: case-2", ":id: case-3")) | page(3), group="sources"
    ),
    ("issue", "duplicate-title"): Case(
        page(
            4,
            sub(
                ":::{radar-closing}",
                ":::{radar-item} 🧪 条目4\n:id: again-4\n"
                + ITEM_OPTIONS
                + "\n又一条。\n:::\n\n:::{radar-closing}",
            ),
        ),
        group="sources",
    ),
    ("issue", "missing-citation"): Case(
        page(5, sub("taubench2026paper", "taubench2026papr")), group="sources"
    ),
    ("issue", "encoding"): Case(
        {
            "issues/2026/2026-10-06.md": page(6)["issues/2026/2026-10-06.md"]
            .encode()
            .replace("导语".encode(), b"\xff\xfe")
        },
        group="sources",
    ),
    ("issue", "unreadable"): Case(
        {},
        group="sources",
        links={"issues/2026/2026-10-07.md": "gone.md"},
        sphinx_says="Ignored unreadable document",
    ),
    ("page", "forbidden-directive"): Case(
        site_page("p1.md", "```{eval-rst}\n.. note:: x\n```"), group="sources"
    ),
    ("page", "generated-page"): Case(  # with an issue of its own, whose year has a page
        {
            **page(
                1,
                lambda text: text.replace("2026-10-01", "2026-11-01").replace("case-1", "gen-1"),
                at="issues/2026/2026-11-01.md",
            ),
            "best/2026.md": "---\norphan: true\n---\n\n# 手写的精选\n",
        },
        group="sources",
    ),
    ("page", "forbidden-role"): Case(site_page("p2.md", "见 {sub-ref}`today`。"), group="sources"),
    ("page", "forbidden-link"): Case(site_page("p3.md", "见 [配置](conf.py)。"), group="sources"),
    ("page", "forbidden-image"): Case(
        site_page("p4.md", "![图](https://a.example/x.png)"), group="sources"
    ),
    ("page", "forbidden-field"): Case(
        {"p5.md": "---\norphan: true\nhtml_meta:\n  robots: none\n---\n\n# 页面\n"}, group="sources"
    ),
    ("page", "raw-html"): Case(site_page("p6.md", "<div>原样</div>"), group="html"),
    ("page", "control-character"): Case(site_page("p7.md", "文字\u202e反转"), group="sources"),
    ("page", "page-too-large"): Case(site_page("p8.md", "长" * 3100)),
    ("page", "reserved-id"): Case(site_page("p9.md", "(closing)=\n## 小节"), group="sources"),
    ("page", "refused-file"): Case({"docutils.conf": "[general]\n"}, group="refused-file"),
    ("page", "unsafe-translation"): Case(
        {
            "locales/zh_CN/LC_MESSAGES/sphinx.po": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Search"\nmsgstr "<b>搜索</b>"\n'
        },
        group="translation",
    ),
    ("page", "symlink-outside"): Case(
        {}, group="symlink", links={"_static/leak.txt": "/etc/hostname"}
    ),
    ("bib", "duplicate-key"): Case(bib("b1", entry("dup2026") + entry("DUP2026"))),
    ("bib", "anchor-clash"): Case(bib("b2", entry("rise_2027") + entry("rise.2027"))),
    ("bib", "unbalanced-braces"): Case(
        bib("references", entry("braces2026", "  note = {open,\n")), group="bib-braces"
    ),
    ("bib", "unescaped-percent"): Case(bib("b3", entry("pct2026", "  note = {50% off},\n"))),
    ("bib", "bib-syntax"): Case(
        bib("references", "@misc{syntax2026,\n  title = {A} {B},\n}\n"), group="bib-syntax"
    ),
    ("bib", "missing-title"): Case(bib("b4", "@misc{notitle2026,\n  doi = {10.1/x},\n}\n")),
    ("bib", "unsafe-url"): Case(bib("b5", entry("url2026", "  url = {javascript:alert(1)},\n"))),
    ("bib", "crossref-loop"): Case(
        bib("references", entry("loop2026", "  crossref = {loop2026},\n")), group="bib-loop"
    ),
    ("bib", "crossref-depth"): Case(
        bib(
            "references",
            "".join(entry(f"d{n}", f"  crossref = {{d{n + 1}}},\n") for n in range(5))
            + entry("d5"),
        ),
        group="bib-depth",
    ),
    ("bib", "crossref-missing"): Case(
        bib("references", entry("miss2026", "  crossref = {nowhere},\n")), group="bib-missing"
    ),
    ("bib", "bad-latex"): Case(
        bib("references", entry("latex2026", "  note = {\\href{https://a.example}{x}},\n")),
        group="bib-latex",
    ),
    ("bib", "field-too-long"): Case(
        bib("references", entry("long2026", "  note = {" + "x" * 20_001 + "},\n")), group="bib-long"
    ),
    ("bib", "too-many-entries"): Case(
        {
            "conf.py": "\nradar_bib_max_entries = 2\n",
            **bib("references", entry("m1") + entry("m2") + entry("m3")),
        },
        group="bib-many",
    ),
    ("bib", "expansion-too-large"): Case(
        bib(
            "references",
            '@string{a = "'
            + "x" * 1000
            + '"}\n@string{b = a # a # a # a # a # a # a # a # a # a}\n@string{c = b # b # b # b # b # b # b # b # b # b}\n@string{d = c # c # c # c # c # c # c # c # c # c}\n@string{e = d # d # d # d # d # d # d # d # d # d}\n'
            + entry("exp2026", "  note = e,\n"),
        ),
        group="bib-expansion",
    ),
    ("bib", "control-character"): Case(bib("b6", entry("ctl2026", "  note = {a\u202eb},\n"))),
    ("bib", "escaped-url"): Case(
        bib("b9", entry("esc2026", "  url = {https://a.example/user\\_guide},\n"))
    ),
    ("bib", "private-address"): Case(
        bib("b10", entry("lan2026", "  url = {http://127.0.0.1:8080/internal},\n"))
    ),
    ("bib", "invisible-character"): Case(
        bib("b11", "@misc{zw\u200b2026,\n  title = {A title},\n  doi = {10.1/zw},\n}\n")
    ),
    ("bib", "missing-identifier"): Case(
        bib("b7", "@misc{bare2026,\n  title = {Bare},\n}\n"), group="notes"
    ),
    ("bib", "latex-special"): Case(
        bib("b8", entry("caret2026", "  note = {x^2},\n")), group="notes"
    ),
    ("conf", "missing-topic-page"): Case({"topics/3d.md": ""}, group="sources"),
    ("conf", "bad-license"): Case(
        {"conf.py": "\nradar_license = {'spdx': 'CC-BY-4', 'url': 'https://a.example/'}\n"}
    ),
}

# One registry holding a problem of each code of its scope: the cases share it.
REGISTRY_CASE = Case(
    {
        "entities.yaml": (
            "- id: a\n  name_zh: 甲\n  name_en: A\n  kind: model\n"
            "- id: a\n  name_zh: 乙\n  name_en: B\n  kind: model\n"
            "- id: c\n  name_zh: 甲\n  name_en: C\n  kind: model\n"
            "- id: d\n  name_zh: 丁\n  name_en: D\n  kind: robot\n"
            "- id: e\n  name_zh: 戊\n  name_en: E\n  kind: model\n  wikidata: 12\n"
            "- id: f\n  name_zh: 己\u200b\n  name_en: F\n  kind: model\n"
            "- id: G\n  name_zh: 庚\n  name_en: G\n  kind: model\n"
        )
    },
    group="entities",
)
CASES.update(
    {
        ("entities", code): REGISTRY_CASE
        for code in (
            "bad-entity",
            "duplicate-entity",
            "duplicate-alias",
            "unknown-kind",
            "bad-identifier",
            "invisible-character",
        )
    }
)

# Codes ``radar check`` cannot report, and why the build's agreement is checked elsewhere.
BUILD_ONLY: dict[tuple[codes.Scope, str], str] = {
    ("bib", "internal-error"): "a check that fails on a file is a bug: no input makes it",
    ("build", "unsafe-url"): "found in the built HTML (test_security_content)",
    ("build", "unsafe-markup"): "found in the built HTML (test_security_content)",
    ("build", "unsafe-translation"): "the compiled .mo gettext loads; the .po is a page case",
    ("build", "internal-error"): "an exception in the build: a bug (test_build_errors)",
    (
        "build",
        "bib-unreadable",
    ): "the build's summary after the bib cases' own codes, asserted there",
    ("build", "bad-site-url"): "the environment's site address (test_site_address)",
    ("build", "no-site-url"): "a deploy build without an address (test_site_address)",
    ("build", "search"): "the search index failing to build (test_search)",
    ("build", "missing-identifier"): "the build's one-line sum of the bib notes, not a problem",
    ("build", "card-font-missing"): "the build machine's fonts, not the content (test_story_pages)",
}

# Codes of the commands that write or read what is not a page of the build: no build
# reports them (their own tests exercise each through its command).
_IMPORT = "radar import, on an export: no page exists yet (test_cli_bad_input, test_import*)"
COMMAND_ONLY: dict[tuple[codes.Scope, str], str] = {
    **{("import", code.code): _IMPORT for code in codes.in_scope("import")},
    ("links", "broken-link"): "radar links, on the built site (test_cli)",
    ("issue", "uncorrected-change"): "radar check, from git history (test_corrections)",
    ("links", "source-dead"): "radar links --external, over the network (test_external_links)",
    ("links", "source-moved"): "radar links --external (test_external_links)",
    ("links", "source-refused"): "radar links --external (test_external_links)",
    ("refs", "archive-failed"): "radar refs archive, over the network (test_sources_archive)",
}


def test_every_code_has_a_case():
    registered = {(code.scope, code.code) for code in codes.CODES}
    listed = [*CASES, *BUILD_ONLY, *COMMAND_ONLY]
    assert len(listed) == len(set(listed)), "a code with two entries"
    missing = sorted(registered - set(listed))
    assert not missing, f"codes without a case in {__file__}: {missing}"
    assert not set(listed) - registered, "cases of codes no longer in the registry"


# --- the groups: one site, one check and one build each ----------------------------------

Found = set[tuple[str, int, str, bool]]  # path, line, code, fails
BUILT = re.compile(
    r"^(?P<path>[^\n]*?)(?::(?P<line>\d+))?: (?P<level>WARNING|ERROR|CRITICAL): "
    r"(?P<message>[^\n]*?)(?: \[radar\.(?P<code>[a-z-]+)\])?$",
    re.M,
)


def write_group(root: Path, cases: list[Case]) -> None:
    (root / SEED_ISSUE).unlink()
    conf = root / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + MAIN_CONF, encoding="utf-8")
    bibfiles = ["references.bib"]
    for case in cases:
        for path, text in case.files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if path == "conf.py":
                text = conf.read_text(encoding="utf-8") + str(text)
            if path.endswith(".bib") and path not in bibfiles:
                bibfiles.append(path)
            if isinstance(text, bytes):
                target.write_bytes(text)
            elif path.endswith(".md") and not text:
                target.unlink()
            else:
                target.write_text(text, encoding="utf-8")
        for path, target in case.links.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(target, root / path)
    extra = f"\nbibtex_bibfiles = {bibfiles!r}\n"
    if any(case.group == "html" for case in cases):
        extra += "myst_disable_syntax = []\n"
    conf.write_text(conf.read_text(encoding="utf-8") + extra, encoding="utf-8")


def checked(root: Path) -> tuple[int, Found]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main(["--root", str(root), "check", "--format", "json"])
    found = {
        (p["path"], p["line"], p["code"], codes.fails(p["code"], p["severity"]))
        for p in json.loads(out.getvalue())
    }
    return status, found


def built(root: Path, outdir: Path, cases: list[tuple[str, Case]]) -> tuple[int, Found]:
    """The build's exit status, and the radar problems it reported, all failing it
    (what Sphinx says in a case's ``sphinx_says`` words stands for the case's code)."""
    result = sphinx_build(root, outdir, check=False)
    found = set()
    for match in BUILT.finditer(result.stderr):
        path = match["path"].removeprefix(str(root) + os.sep)
        code = match["code"] or next(
            (
                code
                for code, case in cases
                if case.sphinx_says and case.sphinx_says in match["message"]
            ),
            None,
        )
        if code is not None:
            found.add((path, int(match["line"] or 1), code, True))
    return result.returncode, found


GROUPS = sorted({case.group for case in CASES.values()})


@pytest.mark.site
@pytest.mark.parametrize("group", GROUPS)
def test_the_check_and_the_build_agree(group, tmp_path):
    """The group's cases in one site: each code the check reports as failing is what the
    build reports, at the same files and lines; then each case alone in a site of its
    own: ``radar check`` exits 1 on it exactly when the build failed on it."""
    cases = {key: case for key, case in CASES.items() if case.group == group}
    root = copy_site(tmp_path / "src")
    write_group(root, list(cases.values()))
    check_status, in_check = checked(root)
    build_status, in_build = built(
        root, tmp_path / "html", [(code, case) for (_scope, code), case in cases.items()]
    )
    shutil.rmtree(tmp_path / "html", ignore_errors=True)
    assert (check_status != 0) == (build_status != 0), (in_check, in_build)
    for (scope, code), case in cases.items():
        reported = {entry for entry in in_check if entry[2] == code}
        assert reported, f"{scope} {code}: radar check does not report it"
        failing = {entry for entry in reported if entry[3]}
        in_the_build = {entry for entry in in_build if entry[2] == code}
        assert failing == in_the_build, f"{scope} {code}: check {reported}, build {in_build}"
        solo = copy_site(tmp_path / f"{scope}-{code}")
        write_group(solo, [case])
        status, alone = checked(solo)
        assert code in {entry[2] for entry in alone}, f"{scope} {code}: not reported alone"
        assert (status != 0) == bool(in_the_build), f"{scope} {code}: check exits {status}"
