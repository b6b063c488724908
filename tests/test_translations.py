"""Translation strings are text (issue 26, item 4), and a catalogue is read once, the way
the build uses it (issue 51): a translation of the interface catalogue that holds markup
its original has not stops the build before anything is written, named at its file and
line; so does a compiled catalogue anywhere in the site, a file of ``locales/`` the build
does not compile, a ``.po`` that is not UTF-8 or whose header names another charset, and
a ``sphinx.js`` Sphinx would publish. The build compiles the ``.po`` into its own folder
and Sphinx reads only that."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from conftest import ROOT, copy_site, doctrees_of, sphinx_build

from juju_radar.model.translations import (
    check_translations,
    compile_catalogue,
    compiled_problems,
    read_compiled,
    unsafe_markup,
)

CATALOGUE = "locales/zh_CN/LC_MESSAGES/sphinx.po"
HOSTILE = '"><script>alert(1)</script>'


@pytest.mark.parametrize(
    ("original", "translation", "found"),
    [
        ("Color mode", "颜色模式", None),
        ("Color mode", HOSTILE, "<script>"),
        ("Color mode", 'x" onmouseover="alert(1)', '"'),
        ("Color mode", "a > b", ">"),
        ("Color mode", "a <b", "<"),  # a tag open at the end: dropped alone, not in a page
        ("Color mode", "a < b", "<"),
        ("Color mode", "x <!-- y -->", "<!-- y -->"),
        ("Color mode", "</div>", "<"),  # dropped alone, closes the theme's element in a page
        ("Color mode", "<body onload=alert(1)>", '<body onload="alert(1)">'),
        ("Color mode", "&lt;script&gt;", None),  # text, printed as the text it is
        ('<a href="%(path)s">here</a>', '<A HREF="%(path)s">这里</A>', None),
        ("<b>x</b> and <b>y</b>", "<b>x</b><i>y</i>", "<i>"),
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
    assert check_translations(ROOT, []) == []
    assert check_translations(ROOT / "tests/roots/test-seed", []) == []


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
    assert check_translations(srcdir, [])[0].line == line
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode == 2
    assert re.search(
        rf"{re.escape(CATALOGUE)}:{line}: ERROR: .*'Color mode'.*\[radar\.unsafe-translation\]",
        result.stderr,
    ), result.stderr
    assert not (tmp_path / "html" / "index.html").exists()


def compiled(translation: str = HOSTILE, header: str = "text/plain; charset=UTF-8") -> bytes:
    """A catalogue compiled as a contributor could commit it, its header as given."""
    catalogue = Catalog(locale="zh_CN")
    catalogue.add("Color mode", translation)
    with io.BytesIO() as file:
        write_mo(file, catalogue)
        data = file.getvalue()
    return data.replace(b"text/plain; charset=utf-8", header.encode("ascii"))


@pytest.mark.site
def test_the_attack_of_issue_51_is_refused_by_check_and_build(tmp_path: Path):
    """A ``.mo`` beside no ``.po``, whose header gettext reads as UTF-7 and Babel as
    UTF-8: refused at its path, whatever it holds; nothing is written."""
    srcdir = copy_site(tmp_path / "src")
    mo = srcdir / "locales/zh/LC_MESSAGES/sphinx.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(compiled("+ADw-meta http-equiv=refresh+AD4-", "text/plain; xcharset=utf-7"))
    assert [(p.path, p.line) for p in check_translations(srcdir, [])] == [
        ("locales/zh/LC_MESSAGES/sphinx.mo", 1)
    ]
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode == 2
    assert re.search(
        r"locales/zh/LC_MESSAGES/sphinx\.mo:1: ERROR: .*\[radar\.unsafe-translation\]",
        result.stderr,
    ), result.stderr
    assert not (tmp_path / "html" / "index.html").exists()


@pytest.mark.parametrize(
    "path",
    [
        "locales/zh_CN/LC_MESSAGES/sphinx.mo",  # beside a valid .po
        "locales/zh_CN/lc_messages/sphinx.mo",  # a case-insensitive file system loads it
        "locales/zh_CN/LC_MESSAGES/SPHINX.MO",
        "locales/zh_CN/LC_MESSAGES/sphinx.gmo",
        "translations/zh_CN/LC_MESSAGES/sphinx.mo",  # a folder conf.py could name
        "_static/zh_CN/LC_MESSAGES/sphinx.mo",
        "issues/2026/sphinx.mo",
    ],
)
def test_a_compiled_catalogue_anywhere_in_the_site_is_refused_at_its_path(tmp_path, path):
    srcdir = copy_site(tmp_path / "src")
    (srcdir / path).parent.mkdir(parents=True, exist_ok=True)
    (srcdir / path).write_bytes(compiled("颜色模式"))  # harmless, and refused all the same
    problems = check_translations(srcdir, [])
    assert [(p.path, p.line, p.code) for p in problems] == [(path, 1, "unsafe-translation")]
    assert "compiled catalogue" in problems[0].message


def test_a_file_beginning_as_a_catalogue_is_refused_whatever_its_name(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    (srcdir / "_static").mkdir(exist_ok=True)
    (srcdir / "_static" / "logo.png").write_bytes(compiled("颜色模式"))
    (srcdir / "_static" / "notes.mo.txt").write_bytes(b"\x95\x04\x12\xde" + b"\0" * 40)
    problems = check_translations(srcdir, [])
    assert [(p.path, p.line) for p in problems] == [
        ("_static/logo.png", 1),
        ("_static/notes.mo.txt", 1),
    ]


@pytest.mark.parametrize(
    "path",
    [
        "locales/zh_CN/lc_messages/sphinx.po",
        "locales/zh_CN/LC_MESSAGES/Sphinx.po",
        "locales/zh_CN/LC_MESSAGES/sphinx.PO",
        "locales/zh_CN/sphinx.po",
        "locales/zh_CN/LC_MESSAGES/nested/sphinx.po",
        "locales/README.txt",
    ],
)
def test_a_file_of_locales_the_build_does_not_compile_is_refused(tmp_path, path):
    srcdir = copy_site(tmp_path / "src")
    (srcdir / path).parent.mkdir(parents=True, exist_ok=True)
    (srcdir / path).write_bytes((srcdir / CATALOGUE).read_bytes())
    assert [(p.path, p.line) for p in check_translations(srcdir, [])] == [(path, 1)]


VALID_PO = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: zh_CN\\n"\n\n'
    'msgid "Color mode"\nmsgstr "颜色模式"\n'
)


@pytest.mark.parametrize(
    ("data", "found"),
    [
        (VALID_PO.encode("utf-16"), "byte-order mark"),  # UTF-16 with its BOM
        (VALID_PO.encode("utf-16-le"), "NUL"),  # and without
        (VALID_PO.encode("utf-8-sig"), "byte-order mark"),
        (VALID_PO.encode("utf-32"), "byte-order mark"),
        (VALID_PO.encode("gb18030"), "not UTF-8"),
        (VALID_PO.replace("颜色模式", "couleur é").encode("latin-1"), "not UTF-8"),
    ],
)
def test_a_catalogue_not_in_utf8_is_refused_at_line_1(data, found):
    result, problems = compile_catalogue(data, "x.po")
    assert result is None
    assert [(p.line, p.code) for p in problems] == [(1, "unsafe-translation")]
    assert found in problems[0].message


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain; charset=utf-7",
        "text/plain; xcharset=utf-7",  # Babel sees no charset, gettext sees utf-7
        "text/plain; charset=UTF-8; charset=utf-7",
        "text/plain; charset=utf-7; charset=UTF-8",
        "text/plain; xcharset=utf-7; charset=UTF-8",
        "text/plain; charset=UTF-8 charset=utf-7",
        'text/plain; charset="UTF-8"',
        "text/plain; charset=latin-1",
        "text/plain; Charset=UTF-8",  # gettext looks for "charset=" as written
        "text/html; charset=UTF-8",
        "text/plain",
    ],
)
def test_a_header_naming_anything_but_charset_utf8_is_refused_at_its_line(content_type):
    text = VALID_PO.replace("text/plain; charset=UTF-8", content_type)
    result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
    assert result is None
    assert [(p.line, p.code) for p in problems] == [(3, "unsafe-translation")]
    assert "Content-Type" in problems[0].message


@pytest.mark.parametrize(
    ("header", "line"),
    [
        (
            '"Content-Type: text/plain; charset=UTF-8\\n"\n"content-type: text/plain; charset=utf-7\\n"\n',
            3,
        ),
        ('"Language: zh_CN\\n"\n', 1),  # no Content-Type: gettext would decode ASCII
        (None, 1),  # no header at all
    ],
)
def test_a_header_with_two_content_types_or_none_is_refused(header, line):
    body = 'msgid "Color mode"\nmsgstr "颜色模式"\n'
    text = body if header is None else f'msgid ""\nmsgstr ""\n{header}\n{body}'
    result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
    assert result is None
    assert [p.line for p in problems] == [line if header is not None else 1]


def test_these_header_spellings_compile_to_what_the_po_says():
    for content_type in (
        "text/plain; charset=UTF-8",
        "text/plain;charset=utf-8",
        "TEXT/PLAIN; charset=UTF-8",
    ):
        text = VALID_PO.replace("text/plain; charset=UTF-8", content_type)
        result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
        assert problems == [] and result is not None, content_type
        assert read_compiled(result).gettext("Color mode") == "颜色模式"


PLURAL_PO = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {forms}\\n"\n\n'
    'msgid "%(n)s result"\nmsgid_plural "%(n)s results"\nmsgstr[0] "{first}"\nmsgstr[1] "{second}"\n'
)


@pytest.mark.parametrize(
    ("forms", "second", "line"),
    [
        # One form declared, two written: the second would hide from a one-form reader.
        ("nplurals=1; plural=0;", "<script>", 6),
        # gettext cannot evaluate the expression: Sphinx would drop the catalogue silently.
        ("nplurals=2; plural=n.__class__;", "结果", 1),  # the header's line
        ("nplurals=x; plural=n != 1;", "结果", 1),
        # A plural form holding markup, the first harmless.
        ("nplurals=2; plural=(n != 1); charset=utf-7", '"><img src=x onerror=alert(1)>', 6),
    ],
)
def test_plural_forms_trickery_is_refused(forms, second, line):
    text = PLURAL_PO.format(forms=forms, first="%(n)s 个结果", second=second.replace('"', '\\"'))
    result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
    assert result is None
    assert [p.line for p in problems] == [line], problems


def test_plural_forms_compile_as_gettext_reads_them():
    text = PLURAL_PO.format(
        forms="nplurals=2; plural=(n != 1);", first="%(n)s 个结果", second="%(n)s 个结果们"
    )
    result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
    assert problems == [] and result is not None
    assert read_compiled(result).ngettext("%(n)s result", "%(n)s results", 2) == "%(n)s 个结果们"


@pytest.mark.site
def test_conf_naming_locale_dirs_is_refused_by_check_and_build(tmp_path: Path):
    """Sphinx loads the catalogues of locale_dirs before any extension runs."""
    srcdir = copy_site(tmp_path / "src")
    conf = srcdir / "conf.py"
    text = conf.read_text(encoding="utf-8").replace(
        "locale_dirs: list[str] = []", 'locale_dirs = ["locales"]'
    )
    conf.write_text(text, encoding="utf-8")
    line = text.splitlines().index('locale_dirs = ["locales"]') + 1
    checked = subprocess.run(
        [sys.executable, "-m", "juju_radar", "check", "--format", "json", "--root", str(srcdir)],
        capture_output=True,
        text=True,
    )
    found = [(p["path"], p["line"]) for p in json.loads(checked.stdout) if p["severity"] == "error"]
    assert found == [("conf.py", line)]
    result = sphinx_build(srcdir, tmp_path / "html", check=False)
    assert result.returncode == 2
    assert f"conf.py:{line}: ERROR:" in result.stderr
    assert not (tmp_path / "html" / "index.html").exists()


@pytest.mark.site
def test_the_build_compiles_outside_the_source_and_follows_each_edit(tmp_path: Path):
    """The compiled catalogue is in the doctree folder, the source holds only its .po;
    an edited translation shows, and a removed catalogue leaves nothing behind."""
    srcdir = copy_site(tmp_path / "src")
    before = sorted(path.relative_to(srcdir) for path in (srcdir / "locales").rglob("*"))
    html = tmp_path / "html"
    sphinx_build(srcdir, html)
    assert sorted(path.relative_to(srcdir) for path in (srcdir / "locales").rglob("*")) == before
    compiled = doctrees_of(html) / "catalogues"
    # In a folder named by the catalogues' digest: gettext keeps what it read by path.
    [compiled_mo] = compiled.glob("*/zh_CN/LC_MESSAGES/sphinx.mo")
    assert read_compiled(compiled_mo.read_bytes()).gettext("Color mode") == "颜色模式"
    assert "颜色模式" in (html / "index.html").read_text(encoding="utf-8")
    catalogue = srcdir / CATALOGUE
    catalogue.write_text(
        catalogue.read_text(encoding="utf-8").replace("颜色模式", "配色"), encoding="utf-8"
    )
    sphinx_build(srcdir, html)
    page = (html / "index.html").read_text(encoding="utf-8")
    assert "配色" in page and "颜色模式" not in page
    [edited_mo] = compiled.glob("*/zh_CN/LC_MESSAGES/sphinx.mo")
    assert edited_mo != compiled_mo
    catalogue.unlink()
    sphinx_build(srcdir, html)
    assert list(compiled.rglob("*")) == []
    assert "配色" not in (html / "index.html").read_text(encoding="utf-8")


def test_the_build_refuses_a_translations_script(tmp_path: Path):
    srcdir = copy_site(tmp_path / "src")
    script = srcdir / "locales/zh_CN/LC_MESSAGES/sphinx.js"
    script.write_text("Documentation.addTranslations({});alert(1);\n", encoding="utf-8")
    problems = check_translations(srcdir, [])
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


def test_a_file_named_as_a_compiled_catalogue_is_refused_whatever_it_holds(tmp_path):
    srcdir = copy_site(tmp_path / "src")
    (srcdir / "locales/zh_CN/LC_MESSAGES/sphinx.MO").write_bytes(b"not a catalogue yet")
    problems = check_translations(srcdir, [])
    assert [(p.path, p.line) for p in problems] == [("locales/zh_CN/LC_MESSAGES/sphinx.MO", 1)]
    assert "compiled catalogue" in problems[0].message


def test_a_message_gettext_would_read_under_another_msgid_is_refused():
    """gettext reads ``context\\x04msgid``: a msgid holding U+0004 would be looked up as
    another message than the one checked."""
    text = VALID_PO + 'msgid "Search\x04Color mode"\nmsgstr "搜索"\n'
    result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
    assert result is None
    assert [p.line for p in problems] == [8]
    assert "gettext reads" in problems[0].message


def test_compiled_bytes_that_gettext_reads_otherwise_than_the_po_are_refused():
    """The check holds gettext's reading of the compiled bytes to the ``.po``'s."""
    said, compiled_from = Catalog(locale="zh_CN"), Catalog(locale="zh_CN")
    said.add("Color mode", "颜色模式", lineno=7)
    compiled_from.add("Color mode", "配色")
    with io.BytesIO() as file:
        write_mo(file, compiled_from)
        data = file.getvalue()
    problems = compiled_problems(data, said, "x.po")
    assert [(p.line, p.code) for p in problems] == [(7, "unsafe-translation")]
    assert "'配色'" in problems[0].message


def test_lines_are_counted_as_editors_count_them():
    """A line separator Python's splitlines knows (U+2028) does not end a line."""
    text = VALID_PO.replace('msgstr "颜色模式"', 'msgstr "颜色\u2028模式"\n')
    text += 'msgid "Search"\nmsgstr "<b>"\n'
    result, problems = compile_catalogue(text.encode("utf-8"), "x.po")
    assert result is None
    assert [p.line for p in problems] == [text.split("\n").index('msgid "Search"') + 1]
