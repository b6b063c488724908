"""Translation strings are text (issue 26, item 4): a translation of the interface
catalogue that holds markup its original has not stops the build before anything is
written, named at its file and line; so does one in the compiled catalogue gettext
loads, and a ``sphinx.js`` Sphinx would publish."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from conftest import ROOT, copy_site, sphinx_build

from juju_radar.model.translations import check_translations, unsafe_markup

CATALOGUE = "locales/zh_CN/LC_MESSAGES/sphinx.po"
HOSTILE = '"><script>alert(1)</script>'


@pytest.mark.parametrize(
    ("original", "translation", "found"),
    [
        ("Color mode", "颜色模式", None),
        ("Color mode", HOSTILE, "<script>"),
        ("Color mode", 'x" onmouseover="alert(1)', '"'),
        ("Color mode", "a > b", ">"),
        ("Color mode", "a <b", "<"),
        ('<a href="%(path)s">here</a>', '<a href="%(path)s">这里</a>', None),
        (
            '<a href="%(path)s">here</a>',
            '<a href="%(path)s" onclick="x">这里</a>',
            '<a href="%(path)s" onclick="x">',
        ),
        ("Search within %(docstitle)s", "在 %(docstitle)s 中搜索", None),
    ],
)
def test_a_translation_may_hold_only_its_originals_markup(original, translation, found):
    assert unsafe_markup(original, translation) == found


@pytest.mark.live_content  # the site's catalogues, beside the test site's
def test_the_sites_and_the_test_sites_catalogues_are_text():
    assert check_translations(ROOT, ["locales"], "zh_CN") == []
    assert check_translations(ROOT / "tests/roots/test-seed", ["locales"], "zh_CN") == []


def hostile_site(tmp_path: Path) -> tuple[Path, int]:
    """The seed site with "Color mode" translated as markup; the line of its msgid."""
    srcdir = copy_site(tmp_path / "src")
    catalogue = srcdir / CATALOGUE
    text = catalogue.read_text(encoding="utf-8")
    text = text.replace('msgstr "颜色模式"', 'msgstr "\\"><script>alert(1)</script>"')
    catalogue.write_text(text, encoding="utf-8")
    line = text.splitlines().index('msgid "Color mode"') + 1
    return srcdir, line


@pytest.mark.site
def test_the_build_refuses_a_translation_holding_markup(tmp_path: Path):
    srcdir, line = hostile_site(tmp_path)
    assert check_translations(srcdir, ["locales"], "zh_CN")[0].line == line
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode == 2
    assert re.search(
        rf"{re.escape(CATALOGUE)}:{line}: ERROR: .*'Color mode'.*\[radar\.unsafe-translation\]",
        result.stderr,
    ), result.stderr
    assert not (tmp_path / "html" / "index.html").exists()


@pytest.mark.site
def test_the_build_refuses_a_compiled_catalogue_holding_markup(tmp_path: Path):
    """A ``.mo`` newer than its ``.po`` is loaded as it is (Sphinx compiles only older
    ones): what it holds is checked too."""
    srcdir = copy_site(tmp_path / "src")
    catalogue = Catalog(locale="zh_CN")
    catalogue.add("Color mode", HOSTILE)
    mo = srcdir / CATALOGUE.replace(".po", ".mo")
    with mo.open("wb") as file:
        write_mo(file, catalogue)
    later = (srcdir / CATALOGUE).stat().st_mtime + 60
    os.utime(mo, (later, later))
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode == 2
    mo_path = re.escape(CATALOGUE.replace(".po", ".mo"))
    assert re.search(rf"{mo_path}:1: ERROR: .*\[radar\.unsafe-translation\]", result.stderr)
    assert not (tmp_path / "html" / "index.html").exists()


def test_the_build_refuses_a_translations_script(tmp_path: Path):
    srcdir = copy_site(tmp_path / "src")
    script = srcdir / "locales/zh_CN/LC_MESSAGES/sphinx.js"
    script.write_text("Documentation.addTranslations({});alert(1);\n", encoding="utf-8")
    problems = check_translations(srcdir, ["locales"], "zh_CN")
    assert [(p.path, p.line, p.code) for p in problems] == [
        ("locales/zh_CN/LC_MESSAGES/sphinx.js", 1, "unsafe-translation")
    ]


@pytest.mark.site
def test_a_catalogue_of_page_text_is_refused_by_check_and_build(tmp_path: Path):
    """Sphinx would translate the front page with ``index.po``, past the content check."""
    srcdir = copy_site(tmp_path / "src")
    page_catalogue = srcdir / "locales/zh_CN/LC_MESSAGES/index.po"
    page_catalogue.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Juju Radar 归档"\nmsgstr "{raw}`<script>alert(1)</script>`"\n',
        encoding="utf-8",
    )
    checked = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--format", "json", "--root", str(srcdir)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 1
    found = {(p["path"], p["code"]) for p in json.loads(checked.stdout)}
    assert ("locales/zh_CN/LC_MESSAGES/index.po", "unsafe-translation") in found
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode == 2
    assert "locales/zh_CN/LC_MESSAGES/index.po:1: ERROR:" in result.stderr
    assert not (tmp_path / "html" / "index.html").exists()
