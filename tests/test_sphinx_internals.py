"""The workarounds of Sphinx internals: used only on the Sphinx they were written for,
and the stock builder they fall back to builds the same site."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from types import SimpleNamespace

from conftest import ROOT, copy_site, sphinx_build
from test_incremental import differences

from juju_radar.build import internals_guard
from juju_radar.build.builder import StagedStockHTMLBuilder, StockHTMLBuilder, html_builder
from juju_radar.build.internals_guard import STOCK_BUILDER_ENV
from juju_radar.build.sphinx_internals import (
    SERIAL_READ_BELOW,
    FastHTMLBuilder,
    StagedFastHTMLBuilder,
    read_few_pages_serially,
    restore_parallel,
)
from juju_radar.build.staged import sphinx_command


def pinned(package: str) -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (requirement,) = [r for r in project["dependencies"] if re.match(rf"{package}==", r)]
    return requirement.split("==")[1]


def test_the_pinned_sphinx_is_the_version_the_workarounds_were_written_for():
    assert pinned("sphinx") == internals_guard.WRITTEN_FOR_SPHINX


def test_another_sphinx_gets_the_stock_builder(monkeypatch):
    assert html_builder(staged=False) is FastHTMLBuilder
    assert html_builder(staged=True) is StagedFastHTMLBuilder
    monkeypatch.setattr(internals_guard, "WRITTEN_FOR_SPHINX", "8.2.3")
    assert html_builder(staged=False) is StockHTMLBuilder
    assert html_builder(staged=True) is StagedStockHTMLBuilder
    assert "is not 8.2.3" in internals_guard.fallback_notice()


# A private name the workarounds import (``bold``), renamed away as an upgrade of Sphinx
# could: Sphinx's own modules, which imported it first, keep working.
BREAK_A_PRIVATE_NAME = """
import importlib, pathlib, runpy, sphinx
root = pathlib.Path(sphinx.__file__).parent
for path in sorted(root.rglob("*.py")):  # Sphinx's modules that import it, first
    if "colour import" in path.read_text(encoding="utf-8"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
import sphinx._cli.util.colour as colour
del colour.bold
runpy.run_module("juju_radar.build.sphinxbuild", run_name="__main__")
"""


def test_a_private_name_that_no_longer_imports_turns_the_workarounds_off(tmp_path):
    """On the very Sphinx they were written for: the extension loads, Sphinx's own
    builder builds the same site, and one line says why."""
    srcdir = copy_site(tmp_path / "src")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1788000000")
    sphinx_build(srcdir, tmp_path / "fast", "-j", "2", env=env)
    command = sphinx_command(srcdir, tmp_path / "stock", tmp_path / "stock.doctrees", "-j", "2")
    assert command[1:3] == ["-m", "juju_radar.build.sphinxbuild"]
    broken = [sys.executable, "-c", BREAK_A_PRIVATE_NAME, *command[3:]]
    result = subprocess.run(broken, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    notice = [line for line in result.stdout.splitlines() if "Sphinx's own builder" in line]
    assert len(notice) == 1
    assert "ImportError: cannot import name 'bold'" in notice[0]
    assert differences(tmp_path / "fast", tmp_path / "stock") == []


def test_the_stock_builder_builds_the_same_site_and_says_so_once(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1788000000")
    sphinx_build(srcdir, tmp_path / "fast", "-j", "2", env=env)
    stock_env = {**env, STOCK_BUILDER_ENV: "1"}
    command = sphinx_command(srcdir, tmp_path / "stock", tmp_path / "stock.doctrees", "-j", "2")
    stock = subprocess.run(command, capture_output=True, text=True, env=stock_env)
    assert stock.returncode == 0, stock.stderr
    assert stock.stdout.count("building with Sphinx's own builder") == 1
    assert differences(tmp_path / "fast", tmp_path / "stock") == []


def test_a_small_read_is_serial_and_the_setting_comes_back_for_writing():
    app = SimpleNamespace(parallel=2)
    read_few_pages_serially(app, None, ["issues/2026/2026-09-09"])
    assert app.parallel == 1, "Sphinx reads in parallel only when app.parallel > 1"
    restore_parallel(app, None)
    assert app.parallel == 2


def test_a_large_read_stays_parallel():
    app = SimpleNamespace(parallel=2)
    read_few_pages_serially(app, None, [f"page{n}" for n in range(SERIAL_READ_BELOW)])
    assert app.parallel == 2
    restore_parallel(app, None)
    assert app.parallel == 2


def test_a_deprecation_met_inside_a_build_fails_it(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("\nimport warnings\nwarnings.warn('old API', DeprecationWarning)\n")
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert "DeprecationWarning: old API" in result.stderr


def test_code_blocks_share_a_formatter_and_highlight_as_before():
    from sphinx.highlighting import PygmentsBridge

    from juju_radar.build.sphinx_internals import reuse_formatters

    plain, reusing = PygmentsBridge("html", "sphinx"), PygmentsBridge("html", "sphinx")
    reuse_formatters(reusing)
    blocks = [("@article{a, title={甲}}", "bibtex", {}), ("x = 1", "python", {"linenos": True})]
    for source, lang, options in blocks * 2:
        expected = plain.highlight_block(source, lang, **options)
        assert reusing.highlight_block(source, lang, **options) == expected
    assert reusing.get_formatter() is reusing.get_formatter()
    assert reusing.get_formatter() is not reusing.get_formatter(linenos=True)


def test_the_pinned_sphinxcontrib_bibtex_is_the_one_the_stored_parse_was_written_for():
    from juju_radar.sphinx_ext import stored_bibdata

    assert pinned("sphinxcontrib-bibtex") == stored_bibdata.WRITTEN_FOR_BIBTEX


def test_another_pybtex_parses_the_bib_again(monkeypatch):
    """The stored parse is pybtex's objects: another pybtex must not unpickle them."""
    from sphinxcontrib.bibtex.bibfile import BibData, BibFile

    from juju_radar.sphinx_ext import stored_bibdata

    bibfile = BibFile(mtime=1.0, keys={"a": None})
    bibdata = BibData("utf-8", {ROOT / "references.bib": bibfile}, None)
    before = stored_bibdata.parse_key(bibdata)
    installed = stored_bibdata.version
    monkeypatch.setattr(
        stored_bibdata, "version", lambda name: "0.1" if name == "pybtex" else installed(name)
    )
    assert stored_bibdata.parse_key(bibdata) != before


def _code_page(setting: str | None) -> object:
    """A page of three code blocks (one with its own language), with or without a
    ``highlight`` setting between the first two."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document
    from sphinx import addnodes

    settings = get_default_settings(Parser)
    settings.env = SimpleNamespace(config=SimpleNamespace(highlight_language="bibtex"))
    document = new_document("page", settings)
    section = nodes.section()
    document += section
    section += nodes.literal_block("a\nb\n", "a\nb\n")
    if setting:
        section += addnodes.highlightlang(lang=setting, force=True, linenothreshold=2)
    section += nodes.paragraph("", "", nodes.literal_block("c", "c"))
    section += nodes.literal_block("d", "d", language="text")
    return document


def test_code_blocks_get_their_language_as_sphinx_gives_it():
    from sphinx.transforms.post_transforms.code import HighlightLanguageTransform

    from juju_radar.build.sphinx_internals import HighlightLanguageInOnePass

    for setting in (None, "python"):
        expected, ours = _code_page(setting), _code_page(setting)
        HighlightLanguageTransform(expected).apply()
        HighlightLanguageInOnePass(ours).apply()
        assert ours.pformat() == expected.pformat()
        second = ("bibtex", False) if setting is None else (setting, True)
        blocks = [(block["language"], block.get("force")) for block in _blocks(ours)]
        assert blocks == [("bibtex", False), second, ("text", None)]


def _blocks(document: object) -> list:
    from docutils import nodes

    return list(document.findall(nodes.literal_block))
