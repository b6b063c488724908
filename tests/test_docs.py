"""The documentation (docs/, `make docs`): it builds without a warning, its tables of codes
are the registry's, it is not part of the archive, README stays short, and the editors'
pages are written in Chinese and name only commands and options that radar has."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, copy_site, deprecations_fail

from juju_radar.editors import cli
from juju_radar.model import codes
from juju_radar.model.site_layout import is_not_site, site_files

DOCS = ROOT / "docs"
README_LIMIT = 6 * 1024


@pytest.mark.site
def test_the_docs_build_without_warnings_and_list_every_code(tmp_path):
    out = tmp_path / "html"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "--no-color"]
    command += ["-b", "html", "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)]
    env = {**os.environ, "PYTHONWARNINGS": deprecations_fail()}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (out / "reference" / "codes.html").read_text(encoding="utf-8")
    shown = set(re.findall(r'<span class="pre">([a-z]+(?:-[a-z]+)*)</span>', page))
    assert not codes.names() - shown, sorted(codes.names() - shown)
    # Each page says its language: the editors' pages Chinese, the others English.
    for built in out.rglob("*.html"):
        chinese = built.relative_to(out).parts[0] == "editors"
        language = re.search(r"<html lang=\"([^\"]+)\"", built.read_text(encoding="utf-8"))
        assert language is not None, built
        assert language.group(1) == ("zh-CN" if chinese else "en"), built


def test_readme_is_short_and_its_links_resolve():
    readme = ROOT / "README.md"
    assert len(readme.read_bytes()) <= README_LIMIT
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_every_docs_page_is_in_the_documentation_not_in_the_archive(tmp_path, capsys):
    assert is_not_site("docs")
    site = copy_site(tmp_path / "src")
    shutil.copytree(DOCS, site / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    # What the archive refuses in a page, which the documentation may hold.
    (site / "docs" / "hostile.md").write_text(
        "# Hostile\n\n```{eval-rst}\n.. raw:: html\n\n   <script>alert(1)</script>\n```\n\n"
        "![x](https://example.org/x.png) <b>raw</b>\n",
        encoding="utf-8",
    )
    assert not [path for path in site_files(site, ".md") if "docs" in path.parts]
    assert cli.main(["--root", str(site), "check"]) == 0
    captured = capsys.readouterr()
    assert "docs/" not in captured.out + captured.err


EDITORS_PAGES = sorted((DOCS / "editors").glob("*.md"))
CODE_BLOCK_RE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
CODE_SPAN_RE = re.compile(r"(`+)((?:(?!\1).)+?)\1", re.DOTALL)
HAN_RE = re.compile(r"[\u4e00-\u9fff]")
LATIN_RE = re.compile(r"[A-Za-z]")


def prose(markdown: str) -> str:
    """A page's text without its code, link targets and labels: what is translated."""
    text = CODE_SPAN_RE.sub("", CODE_BLOCK_RE.sub("", markdown))
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return re.sub(r"^\(.*\)=$", "", text, flags=re.MULTILINE)


def code_lines(markdown: str) -> list[str]:
    """What a page shows as code: each line of its code blocks, each code span."""
    lines = [
        line
        for block in CODE_BLOCK_RE.finditer(markdown)
        for line in block.group(0).splitlines()[1:-1]
    ]
    return lines + [
        span.group(2) for span in CODE_SPAN_RE.finditer(CODE_BLOCK_RE.sub("", markdown))
    ]


def test_the_editors_pages_are_written_in_chinese():
    assert len(EDITORS_PAGES) >= 9
    for page in EDITORS_PAGES:
        text = prose(page.read_text(encoding="utf-8"))
        han, latin = len(HAN_RE.findall(text)), len(LATIN_RE.findall(text))
        assert han > latin, f"{page.name}: {han} Chinese characters, {latin} Latin letters"


def radar_help(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main([*path, "--help"])
    assert exited.value.code == 0, path
    return capsys.readouterr().out


def offers(help_text: str, option: str) -> bool:
    return re.search(rf"{option}(?![\w-])", help_text) is not None


def test_the_editors_pages_name_only_the_commands_and_options_radar_has(capsys):
    """Every `radar COMMAND [ACTION] … --option` the editors' pages show (in code, which
    is what an editor types) is a command of radar with that option, and every other
    option they name is one of those commands'; every `make TARGET`, a target of the
    Makefile. The translation keeps them byte for byte."""
    invoked: dict[tuple[str, ...], set[str]] = {}
    named: set[str] = set()
    targets: set[str] = set()
    for page in EDITORS_PAGES:
        for line in code_lines(page.read_text(encoding="utf-8")):
            command = line.split("#")[0]
            named.update(re.findall(r"(?<![\w-])--[a-z][a-z-]*", line))
            targets.update(re.findall(r"\bmake ([a-z][a-z-]*)", command))
            for call in re.finditer(r"\bradar((?: +[^ ]+)*)", command):
                words = call.group(1).split()
                # Output quoted from radar ("radar refs: 错误: …") is not a command.
                path = tuple(words[: 2 if words[:1] == ["refs"] else 1])
                if path and all(re.fullmatch("[a-z]+", word) for word in path):
                    options = {word for word in words if re.fullmatch("--[a-z][a-z-]*", word)}
                    invoked.setdefault(path, set()).update(options)
    assert {("import",), ("new",), ("check",), ("links",), ("serve",), ("refs", "set")} <= set(
        invoked
    ), sorted(invoked)
    helps = {path: radar_help(path, capsys) for path in invoked}
    for path, options in invoked.items():
        missing = {option for option in options if not offers(helps[path], option)}
        assert not missing, (path, sorted(missing))
    every_help = "\n".join(helps.values())
    assert not {option for option in named if not offers(every_help, option)}, sorted(named)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert targets and all(re.search(rf"^{target}:", makefile, re.MULTILINE) for target in targets)
