"""Content can only be content (issue 18, section 1): each attack is written into a copy
of the seed site, refused by `radar check` and by the build at its file and line, and the
built site holds nothing of it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import copy_site, sphinx_build
from probe_server import Probe, probe_server

from juju_radar.model.content import MarkdownSyntax, check_content, markdown

SECRET = "radar-test-secret-6d1f0c"
BODY_LINE = 16  # the first body line of an item in ``issue_page``


def issue_page(day: int, body: str, lead: str = "导语。") -> str:
    return f"""---
date: 2026-10-{day:02d}
title: 第{day}期
status: published
length: 约 100 字 · 阅读约 1 分钟
---

{lead}

:::{{radar-item}} 🧪 条目{day}
:id: attack-{day}
:topic: agent
:score: 5
:verdict: read-original

{body}
:::

:::{{radar-closing}} 今天的主线

收尾。
:::
"""


def issue(day: int) -> str:
    return f"issues/2026/2026-10-{day:02d}.md"


FENCE = "```"
# A substitution that would print the build's environment, were MyST's substitution
# extension switched on (by a page's front matter key ``myst``).
JINJA = "{{ env.__class__.__init__.__globals__['os'].environ['RADAR_TEST_SECRET'] }}"
MYST_VALUE = "  enable_extensions: [substitution]"
MYST_SETTINGS = f"myst:\n{MYST_VALUE}"


def with_settings(day: int, key_and_value: str) -> str:
    """An issue whose front matter holds ``key_and_value`` on line 5, before length."""
    page = issue_page(day, "正文。", lead=f"导语 {JINJA}")
    return page.replace("length:", f"{key_and_value}\nlength:", 1)


# path -> (text, [(line, code)]); {port} is the probe server's.
ATTACKS: dict[str, tuple[str, list[tuple[int, str]]]] = {
    # Issue 18, section 1: the build machine's files.
    issue(1): (
        issue_page(
            1, f"{FENCE}{{literalinclude}} ../../../../../../../../proc/self/environ\n{FENCE}"
        ),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(2): (
        issue_page(2, f"{FENCE}{{include}} /proc/self/environ\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(3): (
        issue_page(3, f"{FENCE}{{csv-table}}\n:file: /proc/self/environ\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(4): (
        issue_page(4, f"{FENCE}{{eval-rst}}\n.. include:: /proc/self/environ\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(5): (
        issue_page(5, "看[这里](../../../../../../../../etc/passwd)。"),
        [(BODY_LINE, "forbidden-link")],
    ),
    issue(6): (
        issue_page(6, "![x](../../../../../../../../etc/passwd)"),
        [(BODY_LINE, "forbidden-image")],
    ),
    issue(7): (
        issue_page(7, "下载 {download}`../../conf.py`。"),
        [(BODY_LINE, "forbidden-role")],
    ),
    # Section 2: stored XSS through a toctree entry (a site page).
    "evil-toctree.md": (
        "---\norphan: true\n---\n\n# 目录\n\n```{toctree}\n\nevil <javascript://%0aalert(document.domain)>\nEvil2 <JaVaScRiPt://%0aalert(2)>\n```\n",
        [(9, "forbidden-link"), (10, "forbidden-link")],
    ),
    # Section 3: redirect.
    issue(8): (
        issue_page(
            8,
            f"{FENCE}{{eval-rst}}\n.. meta::\n   :http-equiv=refresh: 0; url=https://evil.example/\n{FENCE}",
        ),
        [(BODY_LINE, "forbidden-directive")],
    ),
    # Section 4: SSRF.
    issue(9): (
        issue_page(
            9,
            f"{FENCE}{{eval-rst}}\n.. csv-table:: t\n   :url: http://127.0.0.1:{{port}}/ssrf\n{FENCE}",
        ),
        [(BODY_LINE, "forbidden-directive")],
    ),
    # Section 5: third parties.
    issue(10): (
        issue_page(10, "![](http://evil.example/track.png)"),
        [(BODY_LINE, "forbidden-image")],
    ),
    issue(11): (
        issue_page(11, f"{FENCE}{{math}}\nE = mc^2\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    # Our own.
    issue(12): (
        issue_page(12, f"{FENCE}{{raw}} html\n<script>alert(1)</script>\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(13): (
        issue_page(13, f"{FENCE}{{image}} ../../conf.py\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(14): (
        issue_page(14, f"{FENCE}{{figure}} https://evil.example/x.png\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(15): (
        issue_page(
            15, ":::{include} /proc/self/environ\n:::", lead=":::{include} /proc/self/environ\n:::"
        ),
        [(8, "forbidden-directive"), (BODY_LINE + 1, "forbidden-directive")],
    ),
    issue(16): (
        issue_page(
            16, "![a](//evil.example/x.png) [b](//evil.example/) [c](java&#x09;script:alert(1))"
        ),
        [
            (BODY_LINE, "forbidden-image"),
            (BODY_LINE, "forbidden-link"),
            (BODY_LINE, "forbidden-link"),
        ],
    ),
    issue(17): (
        issue_page(
            17, "![d](data:image/png;base64,iVBORw0KGgo=)\n{raw-html}`<b>x</b>` {doc}`index`"
        ),
        [
            (BODY_LINE, "forbidden-image"),
            (BODY_LINE + 1, "forbidden-role"),
            (BODY_LINE + 1, "forbidden-role"),
        ],
    ),
    issue(18): (
        issue_page(
            18, f"{FENCE}{{only}} html\n正文\n{FENCE}\n\n{FENCE}{{ifconfig}} True\n正文\n{FENCE}"
        ),
        [(BODY_LINE, "forbidden-directive"), (BODY_LINE + 4, "forbidden-directive")],
    ),
    issue(19): (
        issue_page(19, f"{FENCE}{{LiteralInclude}} /proc/self/environ\n{FENCE}"),
        [(BODY_LINE, "forbidden-directive")],
    ),
    issue(20): (
        issue_page(20, "见 [配置](../../conf.py) 与 [别处](../../../../outside.md)。"),
        [(BODY_LINE, "forbidden-link"), (BODY_LINE, "forbidden-link")],
    ),
    issue(21): (
        issue_page(21, "正文。").replace(
            "length:",
            "myst:\n  html_meta:\n    http-equiv=refresh: 0; url=https://evil.example/\nlength:",
        ),
        [(5, "forbidden-field")],
    ),
    issue(22): (
        issue_page(22, "正文。")
        + f"\n{FENCE}{{radar-item}} 🧪 围栏里的条目\n:id: fenced-item\n:topic: agent\n:score: 5\n:verdict: read-original\n\n正文。\n{FENCE}\n",
        [(24, "forbidden-directive")],
    ),
    # Issue 26, section 1: front matter reaching MyST as settings, so that a
    # substitution (a Jinja2 template) runs code. A closing line MyST reads on past:
    issue(24): (
        issue_page(24, "正文。", lead=f"导语 {JINJA}").replace(
            "length: 约 100 字 · 阅读约 1 分钟\n---\n",
            f"length: 约 100 字 · 阅读约 1 分钟\n ---\n{MYST_SETTINGS}\n---\n",
        ),
        [(6, "front-matter")],
    ),
    # ... and the key spelled in forms a line pattern does not match.
    issue(25): (with_settings(25, f'"myst":\n{MYST_VALUE}'), [(5, "forbidden-field")]),
    issue(26): (
        with_settings(26, "<<: {myst: {enable_extensions: [substitution]}}"),
        [(5, "forbidden-field")],
    ),
    issue(27): (with_settings(27, f"!!str myst:\n{MYST_VALUE}"), [(5, "forbidden-field")]),
    issue(28): (with_settings(28, f"? myst\n:\n{MYST_VALUE}"), [(5, "forbidden-field")]),
    issue(29): (
        issue_page(29, "正文。", lead=f"导语 {JINJA}").replace(
            "date: 2026-10-29\ntitle: 第29期\nstatus: published\nlength: 约 100 字 · 阅读约 1 分钟\n",
            "{date: 2026-10-29, title: 第29期, length: 约 100 字,\n"
            " myst: {enable_extensions: [substitution]}}\n\n\n",
        ),
        [(3, "forbidden-field")],
    ),
    issue(30): (
        issue_page(30, "正文。", lead=f"导语 {JINJA}").replace(
            "status: published\n", f"status: published\n...\n{MYST_SETTINGS}\n"
        ),
        [(6, "front-matter")],
    ),
    # Text, not links (markdown-it refuses these schemes): refused by being text.
    issue(23): (
        issue_page(
            23,
            "[a](JaVaScRiPt:alert(1)) [b](&#106;avascript:alert(1)) [c](vbscript:msgbox(1)) "
            "[d](data:text/html,<script>alert(1)</script>) <javascript:alert(1)>",
        ),
        [],
    ),
}


@pytest.fixture(scope="module")
def probe() -> Iterator[ThreadingHTTPServer]:
    with probe_server() as server:
        yield server


def write_attacks(srcdir: Path, port: int) -> Path:
    for path, (text, _) in ATTACKS.items():
        target = srcdir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.replace("{port}", str(port)), encoding="utf-8")
    # Not a page: the build reads Markdown only.
    (srcdir / "evil.rst").write_text(
        "Evil\n====\n\n.. meta::\n   :http-equiv=refresh: 0; url=https://evil.example/\n",
        encoding="utf-8",
    )
    return srcdir


@pytest.fixture(scope="module")
def attacked_site(tmp_path_factory: pytest.TempPathFactory, probe: ThreadingHTTPServer) -> Path:
    return write_attacks(copy_site(tmp_path_factory.mktemp("attacked") / "src"), probe.server_port)


def expected() -> set[tuple[str, int, str]]:
    return {(path, line, code) for path, (_, found) in ATTACKS.items() for line, code in found}


def test_radar_check_refuses_each_attack_at_file_and_line(attacked_site):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "juju_radar",
            "check",
            "--root",
            str(attacked_site),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    found = {
        (p["path"], p["line"], p["code"])
        for p in json.loads(result.stdout)
        if p["severity"] == "error"
    }
    assert expected() <= found
    security = {
        "forbidden-directive",
        "forbidden-role",
        "forbidden-link",
        "forbidden-image",
        "forbidden-field",
        "front-matter",
    }
    assert {entry for entry in found if entry[2] in security} == expected()


def built_text(outdir: Path, suffixes: tuple[str, ...]) -> str:
    return "\n".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and path.suffix in suffixes
    )


def assert_nothing_published(outdir: Path) -> None:
    everything = built_text(outdir, (".html", ".js", ".json", ".xml", ".csv", ".txt", ".bib"))
    assert SECRET not in everything
    assert "root:x:0:0" not in everything
    assert "leaked" not in everything
    text = built_text(outdir, (".html",))
    assert not re.search(
        r"""(?:href|src|action)\s*=\s*["']?\s*(?:javascript|vbscript|data):""", text, re.I
    )
    # The one http-equiv of a page is its own Content-Security-Policy (sphinx_ext.csp).
    assert not re.search(
        r"""http-equiv(?!="Content-Security-Policy" content="default-src)""", text, re.I
    )
    assert not re.search(r"""<(?:img|script|iframe)[^>]*src=["']?(?:https?:)?//""", text, re.I)
    assert "mathjax" not in text.lower()
    assert not (outdir / "_downloads").exists()
    assert not (outdir / "_images").exists()
    assert not (outdir / "evil.html").exists()


def build_attacked(
    attacked_site: Path, outdir: Path, *options: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RADAR_TEST_SECRET": SECRET}
    return sphinx_build(attacked_site, outdir, *options, check=False, env=env)


@pytest.mark.site
def test_the_build_refuses_each_attack_and_publishes_nothing_of_it(attacked_site, tmp_path, probe):
    result = build_attacked(attacked_site, tmp_path / "html")
    assert result.returncode != 0
    for path, line, code in expected():
        pattern = rf"{re.escape(path)}:{line}: ERROR: .*\[radar\.{code}\]"
        assert re.search(pattern, result.stderr), f"{path}:{line} {code} not reported"
    assert_nothing_published(tmp_path / "html")
    assert Probe.requests == []


DEFENCE_CONF = """
# The page check is switched off: what remains must still refuse everything.
import juju_radar.sphinx_ext.content as content

content.check_content = lambda *args, **kwargs: []
"""


@pytest.mark.site
def test_without_the_page_check_the_parser_and_the_built_page_check_still_refuse(
    attacked_site, tmp_path, probe
):
    srcdir = tmp_path / "src"
    subprocess.run(["cp", "-a", str(attacked_site), str(srcdir)], check=True)
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(DEFENCE_CONF)
    result = build_attacked(srcdir, tmp_path / "html")
    stderr = result.stderr
    assert re.search(rf"{issue(1)}:{BODY_LINE}: ERROR: .*\[radar\.forbidden-directive\]", stderr)
    assert re.search(rf"{issue(7)}:{BODY_LINE}: ERROR: .*\[radar\.forbidden-role\]", stderr)
    assert re.search(r"evil-toctree\.md.*ERROR: .*javascript.*\[radar\.", stderr)
    assert re.search(
        rf"{issue(6)}:{BODY_LINE}: ERROR: .*image.*\[radar\.forbidden-directive\]", stderr
    )
    assert_nothing_published(tmp_path / "html")
    assert Probe.requests == []


@pytest.mark.site
def test_a_symlink_out_of_the_repository_stops_check_and_build(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    (srcdir / "_static").mkdir()
    (srcdir / "_static" / "leak.txt").symlink_to("/proc/self/environ")
    (srcdir / "issues" / "2026" / "2026-10-01.md").symlink_to(tmp_path / "elsewhere.md")
    (srcdir / "topics" / "inside.md").symlink_to(srcdir / "topics" / "agent.md")  # stays inside
    result = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--root", str(srcdir), "--format", "json"],
        capture_output=True,
        text=True,
    )
    found = {(p["path"], p["code"]) for p in json.loads(result.stdout)}
    assert ("_static/leak.txt", "symlink-outside") in found
    assert ("issues/2026/2026-10-01.md", "symlink-outside") in found
    assert not any(path == "topics/inside.md" for path, _ in found)
    built = sphinx_build(
        srcdir, tmp_path / "html", check=False, env={**os.environ, "RADAR_TEST_SECRET": SECRET}
    )
    assert built.returncode != 0
    assert re.search(r"_static/leak\.txt:1: ERROR: .*\[radar\.symlink-outside\]", built.stderr)
    assert not (tmp_path / "html" / "index.html").exists()


def test_the_seed_site_holds_nothing_the_check_refuses(site_copy):
    for page in site_copy.rglob("*.md"):
        relative = page.relative_to(site_copy).as_posix()
        kind = "issue" if relative.startswith("issues/2") else "site"
        assert check_content(page.read_text(encoding="utf-8"), relative, kind) == []


def test_the_check_reads_the_tokens_myst_renders():
    """model.content's markdown-it gives the tokens of MyST's own parser (which the pure
    model cannot import), for every attack page and the seed issue."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    myst = create_md_parser(
        MdParserConfig(
            enable_extensions={"colon_fence"}, disable_syntax=["html_block", "html_inline"]
        ),
        RendererHTML,
    )
    ours = markdown(MarkdownSyntax())
    texts = [text for text, _ in ATTACKS.values()]
    texts.append((Path(__file__).parent / "roots/test-seed/issues/2026/2026-09-08.md").read_text())

    def shape(tokens):
        return [
            (t.type, t.info, t.map, t.content, dict(t.attrs), shape(t.children or []))
            for t in tokens
        ]

    for text in texts:
        assert shape(ours.parse(text)) == shape(myst.parse(text))


def test_the_built_page_check_keeps_the_site_and_removes_the_rest():
    from juju_radar.sphinx_ext.safety import check_page_html

    reported: list[str] = []
    clean = (
        '<a href="../x.html#a">x</a><a href="https://example.org/">y</a>'
        '<link rel="canonical" href="https://example.org/radar/x.html"><img src="_static/a.png">'
    )
    assert check_page_html(clean, reported.append) == clean
    assert reported == []
    hostile = (
        '<a href="JaVaScRiPt&#58;alert(1)">a</a><img src="//evil.example/t.png">'
        '<script src="https://cdn.example/mathjax.js"></script>'
        '<meta http-equiv="refresh" content="0; url=https://evil.example/">'
        '<link rel="stylesheet" href="https://evil.example/x.css"><b onclick="alert(1)">b</b>'
        '<img\tsrc="//evil.example/u.png"/><a\nhref="javascript:x">c</a><br/>'
        '<a class="reference" href="//evil.example/x">d</a><span class="e" onmouseover="x">e</span>'
        '<img/src="//evil.example/v.png"><a/href="javascript:y">f</a>'
    )
    cleaned = check_page_html(hostile, reported.append)
    assert len(reported) == 12
    # Written from the parsed tree, without what was refused.
    assert "<img><a>f</a>" in cleaned
    assert "<img><a>c</a><br>" in cleaned
    assert "<script" not in cleaned and "<link" not in cleaned and "<meta" not in cleaned
    assert not re.search(r"javascript|evil|cdn|onclick|http-equiv", cleaned, re.I)
