"""The accelerations: each runs only on the versions it was written for, a private name
that no longer imports turns it off, and the build without them (``RADAR_ACCEL=0``)
gives the same site."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import ROOT, copy_site, sphinx_build
from search_bundles import search_differences
from site_builds import differences, epoch_env

from juju_radar.accel import guard
from juju_radar.accel.register import PARALLEL_BUILDER, REACHES, REGISTER, fast_builder
from juju_radar.accel.sphinx_internals import (
    SERIAL_READ_BELOW,
    FastHTMLBuilder,
    StagedFastHTMLBuilder,
    read_few_pages_serially,
    restore_parallel,
)
from juju_radar.build.builder import StagedStockHTMLBuilder, StockHTMLBuilder, stock_builder
from juju_radar.build.staged import sphinx_command
from juju_radar.sphinx_ext.config import ACCEL_ENV, ACCEL_OFF_ENV, acceleration_enabled

SEARCH_MERGE = "search-merge"


def pinned(package: str) -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (requirement,) = [r for r in project["dependencies"] if re.match(rf"{package}==", r)]
    return requirement.split("==")[1]


def test_every_acceleration_and_reach_is_written_for_the_pinned_versions():
    for acceleration, _ in REGISTER:
        for distribution, version in acceleration.written_for:
            assert pinned(distribution) == version, acceleration.name
    for reach in REACHES:
        assert reach.written_for, reach.name
        for distribution, version in reach.written_for:
            assert pinned(distribution) == version, reach.name


def test_a_reach_written_for_another_version_is_said_once(monkeypatch, caplog):
    """An upgrade names each reach to check again (the build's info line)."""
    from juju_radar.accel import guard, register

    monkeypatch.setattr(guard, "_installed", lambda name: "0.0" if name == "pybtex" else "x")
    assert guard.unchecked(register.REACHES[1]) == (
        "pybtex 0.0 is not 0.26.1, the version it was written for"
    )
    said: list[str] = []
    monkeypatch.setattr(register.logger, "info", said.append)
    register.say_unchecked_reaches()
    assert len(said) == len(register.REACHES)
    assert "the reach pybtex-token-patterns is unchecked: pybtex 0.0" in said[1]


def test_every_module_of_the_layer_is_in_the_register():
    helpers = {"__init__", "guard", "register", "sphinxbuild", "write_plan", "pagefind_bundle"}
    modules = {path.stem for path in (ROOT / "juju_radar" / "accel").glob("*.py")} - helpers
    registered = {acceleration.module.rsplit(".", 1)[1] for acceleration, _ in REGISTER}
    assert modules <= registered
    for acceleration, hook in REGISTER:
        if hook is not None:
            assert callable(getattr(importlib.import_module(acceleration.module), hook))


def test_accelerations_named_off_are_off_alone(monkeypatch):
    """How bench/accel_gains.py measures each one's gain."""
    monkeypatch.setenv(ACCEL_OFF_ENV, f"stored-bib-parse,{SEARCH_MERGE}")
    off = {acceleration.name: guard.why_off(acceleration) for acceleration, _ in REGISTER}
    assert off.pop("stored-bib-parse") == off.pop(SEARCH_MERGE) == "RADAR_ACCEL_OFF names it"
    assert set(off.values()) == {None}
    assert not acceleration_enabled(SEARCH_MERGE)
    assert acceleration_enabled("parallel-builder")
    monkeypatch.setenv(ACCEL_ENV, "0")
    assert not acceleration_enabled("parallel-builder")


def test_another_sphinx_gets_the_stock_builder(monkeypatch):
    assert fast_builder(staged=False) is FastHTMLBuilder
    assert fast_builder(staged=True) is StagedFastHTMLBuilder
    installed = guard.version
    monkeypatch.setattr(
        guard, "version", lambda name: "8.2.3" if name == "sphinx" else installed(name)
    )
    assert fast_builder(staged=False) is None
    assert stock_builder(staged=False) is StockHTMLBuilder
    assert stock_builder(staged=True) is StagedStockHTMLBuilder
    assert guard.why_off(PARALLEL_BUILDER) == (
        "sphinx 8.2.3 is not 9.0.4, the version it was written for"
    )


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
runpy.run_module("juju_radar.accel.sphinxbuild", run_name="__main__")
"""


@pytest.fixture(scope="module")
def seed_built_fast(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sources, output) of the seed site built with every acceleration, the site the
    builds without some of them are compared with (read, never changed)."""
    base = tmp_path_factory.mktemp("seed-fast")
    srcdir = copy_site(base / "src")
    sphinx_build(srcdir, base / "fast", "-j", "2", env=epoch_env())
    return srcdir, base / "fast"


@pytest.mark.site
def test_a_private_name_that_no_longer_imports_turns_its_accelerations_off(
    tmp_path, seed_built_fast
):
    """On the very Sphinx they were written for: the extension loads, the accelerations
    of that module are off, one line each, and Sphinx's own builder builds the same site."""
    srcdir, fast = seed_built_fast
    env = epoch_env()
    command = sphinx_command(srcdir, tmp_path / "stock", tmp_path / "stock.doctrees", "-j", "2")
    assert command[1:3] == ["-m", "juju_radar.accel.sphinxbuild"]
    broken = [sys.executable, "-c", BREAK_A_PRIVATE_NAME, *command[3:]]
    result = subprocess.run(broken, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    off = re.findall(
        r"acceleration (\S+) is off: ImportError: cannot import name 'bold'", result.stdout
    )
    in_that_module = [
        acceleration.name
        for acceleration, _ in REGISTER
        if acceleration.module == "juju_radar.accel.sphinx_internals"
    ]
    assert sorted(off) == sorted(in_that_module)
    assert "acceleration stored-bib-parse is off" not in result.stdout
    assert differences(fast, tmp_path / "stock") == []


@pytest.mark.site
def test_without_accelerations_sphinx_build_builds_the_same_site_and_says_so_once(
    tmp_path, monkeypatch, seed_built_fast
):
    srcdir, fast = seed_built_fast
    env = epoch_env()
    monkeypatch.setenv(ACCEL_ENV, "0")
    command = sphinx_command(srcdir, tmp_path / "stock", tmp_path / "stock.doctrees", "-j", "2")
    assert command[1:3] == ["-m", "sphinx"], "Sphinx's own sphinx-build"
    stock = subprocess.run(command, capture_output=True, text=True, env={**env, ACCEL_ENV: "0"})
    assert stock.returncode == 0, stock.stderr
    said = [line for line in stock.stdout.splitlines() if line.startswith("juju_radar:")]
    assert said == ["juju_radar: RADAR_ACCEL=0: every acceleration is off (slower, same output)"]
    assert same_site(fast, tmp_path / "stock")


@pytest.mark.site
def test_templates_compiled_by_an_earlier_build_write_the_same_site(tmp_path, monkeypatch):
    """Builds in this process, as the preview's after it saved: the second takes every
    template from the process's cache, and writes the site a build that compiled them
    writes."""
    from juju_radar.accel.compiled_templates import COMPILED

    loads: list[bool] = []  # whether each template came from the cache
    load = COMPILED.load_bytecode

    def noting(bucket: Any) -> None:
        load(bucket)
        loads.append(bucket.code is not None)

    monkeypatch.setattr(COMPILED, "load_bytecode", noting)
    srcdir = copy_site(tmp_path / "src")
    sphinx_build(srcdir, tmp_path / "first", env=epoch_env())
    loads.clear()
    sphinx_build(srcdir, tmp_path / "again", "-E", env=epoch_env())
    assert len(loads) >= 20 and all(loads)
    monkeypatch.setenv(ACCEL_OFF_ENV, "templates-compiled-once")
    loads.clear()
    sphinx_build(srcdir, tmp_path / "compiled", "-E", env=epoch_env())
    assert loads == []
    assert differences(tmp_path / "compiled", tmp_path / "again") == []


def test_templates_are_shared_only_by_environments_that_compile_them_alike():
    """Jinja's optimizer calls a filter on a constant while compiling: another filter
    under the same name compiles the template to other code."""
    from jinja2 import DictLoader, Environment

    from juju_radar.accel.compiled_templates import CompiledTemplates

    cache = CompiledTemplates()
    loader = DictLoader({"page.html": "{{ 'radar' | shout }}"})

    def render(shout: Any) -> str:
        environment = Environment(loader=loader, bytecode_cache=cache)
        environment.filters["shout"] = shout
        return environment.get_template("page.html").render()

    def upper(text: str) -> str:
        return text.upper()

    assert render(upper) == "RADAR"
    assert render(lambda text: f"{text}!") == "radar!"
    assert render(upper) == "RADAR" and len(cache.code) == 2


def same_site(accelerated: Path, stock: Path) -> bool:
    """Every file the same, but the search parts: Pagefind indexes each part whole, where
    the accelerated build merges it from pieces; search reads them alike."""
    differing = differences(accelerated, stock)
    assert [name for name in differing if not name.startswith("pagefind/")] == []
    assert search_differences(accelerated, stock) == []
    return True


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


@pytest.mark.site
def test_a_deprecation_met_inside_a_build_fails_it(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("\nimport warnings\nwarnings.warn('old API', DeprecationWarning)\n")
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert "DeprecationWarning: old API" in result.stderr


def test_code_blocks_share_a_formatter_and_highlight_as_before():
    from sphinx.highlighting import PygmentsBridge

    from juju_radar.accel.sphinx_internals import reuse_formatters

    plain, reusing = PygmentsBridge("html", "sphinx"), PygmentsBridge("html", "sphinx")
    reuse_formatters(reusing)
    blocks = [("@article{a, title={甲}}", "bibtex", {}), ("x = 1", "python", {"linenos": True})]
    for source, lang, options in blocks * 2:
        expected = plain.highlight_block(source, lang, **options)
        assert reusing.highlight_block(source, lang, **options) == expected
    assert reusing.get_formatter() is reusing.get_formatter()
    assert reusing.get_formatter() is not reusing.get_formatter(linenos=True)


def test_another_pybtex_parses_the_bib_again(monkeypatch):
    """The stored parse is pybtex's objects: another pybtex must not unpickle them."""
    from sphinxcontrib.bibtex.bibfile import BibData, BibFile

    from juju_radar.accel import stored_bibdata

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

    from juju_radar.accel.sphinx_internals import HighlightLanguageInOnePass

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


@pytest.mark.slow
def test_a_synthetic_archive_of_300_issues_builds_the_same_without_accelerations(
    tmp_path, monkeypatch
):
    """HTML, feeds, exports and downloads byte for byte; the search parts read alike."""
    from juju_radar.editors.site_files import open_site
    from juju_radar.editors.synth import SynthOptions, write_synthetic_archive

    seed_site = copy_site(tmp_path / "seed")
    srcdir = tmp_path / "site"
    options = SynthOptions(issues=300)
    write_synthetic_archive(seed_site, srcdir, options, open_site(seed_site).vocabulary)
    env = epoch_env()
    builds = {}
    for name, accel in (("fast", "1"), ("stock", "0")):
        monkeypatch.setenv(ACCEL_ENV, accel)
        out = tmp_path / name
        command = sphinx_command(srcdir, out, tmp_path / f"{name}.doctrees", "-j", "2", "-q")
        result = subprocess.run(
            command, capture_output=True, text=True, env={**env, ACCEL_ENV: accel}
        )
        assert result.returncode == 0, result.stderr
        builds[name] = out
    published = options.issues - options.issues // options.draft_every
    assert len(list(builds["fast"].glob("issues/*/*.html"))) == published
    assert same_site(builds["fast"], builds["stock"])
