"""Hostile content, generated (issue 26, section 7): pages built from a grammar of the
dangerous constructs, written into one site and built. Whatever the check lets through
renders nothing of the content's own (no script, style, form, base or frame), reads no
file and no environment variable of the build machine, runs no command and fetches no
URL; whatever it refuses, it names at its file and line; the build never crashes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import copy_site, sphinx_build
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from probe_server import Probe, probe_server

SECRET = "radar-hostile-secret-41c7"
FENCE = "```"
# {port} is the probe server's, {marker} a file a command would create.
BODY_CONSTRUCTS = [
    "正文。",
    "{{ env.__class__.__init__.__globals__['os'].environ['RADAR_TEST_SECRET'] }}",
    "{{ cycler.__init__.__globals__.os.system('touch {marker}') }}",
    f"{FENCE}{{raw}} html\n<script>alert(1)</script>\n{FENCE}",
    ":::{include} /proc/self/environ\n:::",
    f"{FENCE}{{eval-rst}}\n.. raw:: html\n\n   <script>alert(2)</script>\n{FENCE}",
    f"{FENCE}{{csv-table}} t\n:url: http://127.0.0.1:{{port}}/csv\n{FENCE}",
    "{raw-html}`<b>x</b>` {download}`/etc/passwd`",
    "[a](javascript:alert(1)) [b](//evil.example/) [c](java&#x09;script:alert(1))",
    "![img](http://127.0.0.1:{port}/track.png)",
    "<script>alert(3)</script> <style>body{background:url(//evil.example/x)}</style>",
    "<base href=//evil.example/> <form action=//evil.example/><button>x</button></form>",
    '<iframe src="//evil.example/"></iframe> <object data="x.swf"></object>',
    "&#60;script&#62;alert(4)&#60;/script&#62; &lt;style&gt;",
    "$$\\href{javascript:alert(5)}{x}$$ $x$",
    "\\href{javascript:alert(6)}{x} \\footnote{y}",
    "文字\x01控制 \x1b[31m 与 \u202e倒序",
    "(closing)=\n",
    "看 [首页](../../index.md)\n---",
    "### 标题 {download}`x`",
    "[x]: javascript:alert(7)\n\n[链接][x]",
    "<javascript:alert(8)> <http://127.0.0.1:{port}/autolink>",
    "{{{{ '{{' }}}}",
    "\\<script\\>alert(9)\\</script\\>",
]
# Text that looks dangerous and is not: shown as written.
BENIGN_CONSTRUCTS = [
    "正文。",
    "{{ 7 * 7 }} 与 {% if True %}模板{% endif %}",
    "&#60;script&#62;alert(11)&#60;/script&#62; &lt;base href=//evil.example/&gt;",
    "\\<script\\>alert(12)\\</script\\> 与 `<style>@import url(//evil.example)</style>`",
    f"{FENCE}html\n<script>alert(13)</script>\n{FENCE}",
    "[站内](../../index.md) 与 [链接](http://127.0.0.1:{port}/link) <https://example.org/>",
    "---\n\nmyst:\n  enable_extensions: [substitution]\n\n---",
    'url(//evil.example/x) style="background:url(//evil.example)"',
]
FRONT_MATTER_EXTRAS = [
    "",
    "myst:\n  enable_extensions: [substitution]",
    '"myst": {enable_extensions: [substitution]}',
    "<<: {myst: {enable_extensions: [substitution]}}",
    "html_meta:\n  http-equiv=refresh: 0; url=https://evil.example/",
    "substitutions: {x: '<script>alert(10)</script>'}",
    "? myst\n: {enable_extensions: [substitution]}",
    "!!str myst: {enable_extensions: [substitution]}",
]
CLOSINGS = ["---", "---", " ---", "--- ", "...", "----"]
# What the site's own pages carry (the seed issue's, its page name aside).
ACTIVE_TAGS = ("script", "style", "link", "base", "form", "iframe", "object", "embed", "meta")


@st.composite
def hostile_pages(draw: st.DrawFn) -> list[tuple[str, str, str, str]]:
    """Every construct and every front matter extra in each build, dealt out to its pages
    in an order and grouping hypothesis chooses (its simplest case is no easier)."""
    bodies = draw(st.permutations(BODY_CONSTRUCTS + BENIGN_CONSTRUCTS))
    extras = draw(st.permutations(FRONT_MATTER_EXTRAS))
    count = len(extras)
    closings = draw(st.lists(st.sampled_from(CLOSINGS), min_size=count, max_size=count))
    cuts = sorted(
        draw(st.sets(st.integers(1, len(bodies) - 1), min_size=count - 1, max_size=count - 1))
    )
    ends = [*cuts, len(bodies)]
    chunks = [bodies[start:end] for start, end in zip([0, *cuts], ends, strict=True)]
    hostile = [
        (extra, closing, chunk[0], "\n\n".join(chunk[1:]) or "正文。")
        for extra, closing, chunk in zip(extras, closings, chunks, strict=True)
    ]
    benign = draw(st.permutations(BENIGN_CONSTRUCTS))
    return [*hostile, ("", "---", benign[0], "\n\n".join(benign[1:]))]


def page_text(day: int, parts: tuple[str, str, str, str]) -> str:
    extra, closing, lead, body = parts
    front = f"date: 2026-10-{day:02d}\ntitle: 第{day}期\nstatus: published\nlength: 约 100 字"
    if extra:
        front += "\n" + extra
    return (
        f"---\n{front}\n{closing}\n\n{lead}\n\n"
        f":::{{radar-item}} 🧪 条目{day}\n:id: hostile-{day}\n:topic: agent\n:score: 5\n"
        f":verdict: read-original\n\n{body}\n:::\n\n"
        f":::{{radar-closing}} 今天的主线\n\n收尾。\n:::\n"
    )


@pytest.fixture(scope="module")
def probe() -> Iterator[ThreadingHTTPServer]:
    with probe_server() as server:
        yield server


def own_tags(html: str, pagename: str) -> set[tuple[str, str]]:
    """The active elements of a page, as (tag, attributes and text), with what depends
    on the page (its name, its depth, its content policy's hashes) taken out."""
    soup = BeautifulSoup(html, "html.parser")
    found = set()
    for tag in soup.find_all(ACTIVE_TAGS):
        if tag.name == "meta" and not tag.get("http-equiv"):
            continue
        attributes = {
            name: re.sub(r"^(\.\./)+", "", " ".join(value) if isinstance(value, list) else value)
            for name, value in tag.attrs.items()
            if not (tag.name == "meta" and name == "content")
        }
        text = tag.get_text().replace(pagename, "PAGE")
        if tag.get("type") == "application/ld+json":  # the page's data, not code
            text = "JSON" if json.loads(text) else ""
        found.add((tag.name, json.dumps(sorted(attributes.items())) + text))
    return found


@pytest.mark.slow
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(pages=hostile_pages())
def test_what_the_check_passes_renders_nothing_of_its_own(pages, probe) -> None:
    with tempfile.TemporaryDirectory(prefix="hostile-") as name:
        check_and_build(pages, probe, Path(name))


def check_and_build(pages: list, probe: ThreadingHTTPServer, base: Path) -> None:
    srcdir = copy_site(base / "src")
    marker = base / "command-ran"
    texts = {}
    for day, parts in enumerate(pages, 1):
        path = f"issues/2026/2026-10-{day:02d}.md"
        text = page_text(day, parts)
        text = text.replace("{port}", str(probe.server_port)).replace("{marker}", str(marker))
        (srcdir / path).write_text(text, encoding="utf-8")
        texts[path] = text
    checked = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--format", "json", "--root", str(srcdir)],
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard
    )
    assert checked.stdout.startswith("["), (checked.returncode, checked.stderr[-3000:])
    errors: dict[str, list[dict]] = {}
    for problem in json.loads(checked.stdout):
        if problem["severity"] == "error":
            errors.setdefault(problem["path"], []).append(problem)
    outdir = base / "html"
    env = {**os.environ, "RADAR_TEST_SECRET": SECRET}
    built = sphinx_build(srcdir, outdir, check=False, env=env)
    assert "Traceback" not in built.stderr and "internal-error" not in built.stderr
    assert not marker.exists(), "a page ran a command"
    assert Probe.requests == [], "a page made the build fetch a URL"
    seed = own_tags(
        (outdir / "issues/2026/2026-09-08.html").read_text(encoding="utf-8"),
        "issues/2026/2026-09-08",
    )
    benign = max(texts)  # the last page: only text that looks dangerous
    assert benign not in errors, errors.get(benign)
    for path, text in texts.items():
        if path in errors:  # refused: named at its file and a line of it, by both
            lines = text.count("\n") + 1
            assert all(1 <= problem["line"] <= lines for problem in errors[path]), errors[path]
            assert f"{srcdir / path}:" in built.stderr, path
            continue
        page = outdir / path.replace(".md", ".html")
        html = page.read_text(encoding="utf-8")
        assert SECRET not in html and "root:x:0:0" not in html, path
        assert own_tags(html, path.removesuffix(".md")) <= seed, path
        assert not re.search(r"style\s*=\s*[\"'][^\"']*url\(", html, re.I), path
    everything = "".join(
        file.read_text(encoding="utf-8", errors="replace")
        for file in outdir.rglob("*")
        if file.is_file() and file.suffix in (".html", ".js", ".json", ".xml", ".txt", ".bib")
    )
    assert SECRET not in everything
