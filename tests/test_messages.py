"""The tools speak the editors' language (issue 31): every message the package marks
has its Chinese translation in juju_radar/locale/zh_CN/LC_MESSAGES/radar.po, with the
same placeholders; the language follows --lang, the locale, then conf.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from juju_radar.model import messages
from juju_radar.model.messages import chosen_language, locale_language

PACKAGE = Path(messages.__file__).resolve().parent.parent
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
HAN = re.compile(r"[\u4e00-\u9fff]")


def marked_messages() -> dict[str, str]:
    """msgid -> where it is marked, as Babel extracts them (what a maintainer's
    ``pybabel extract`` would)."""
    found: dict[str, str] = {}
    extracted = extract_from_dir(
        PACKAGE, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=()
    )
    for filename, line, message, _comments, _context in extracted:
        for text in message if isinstance(message, tuple) else (message,):
            if text:
                found.setdefault(text, f"{filename}:{line}")
    return found


def catalogue() -> dict[str, tuple[str, ...]]:
    with messages.CATALOGUE.open("rb") as stream:
        read = read_po(stream)
    result: dict[str, tuple[str, ...]] = {}
    for message in read:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            result[msgid] = tuple(strings)
    return result


def test_every_marked_message_is_translated() -> None:
    translated = catalogue()
    untranslated = {
        msgid: where
        for msgid, where in marked_messages().items()
        if not all(translated.get(msgid, ("",)))
    }
    assert not untranslated, f"{len(untranslated)} without a Chinese translation: {untranslated}"


def test_the_catalogue_holds_only_marked_messages() -> None:
    obsolete = set(catalogue()) - set(marked_messages())
    assert not obsolete, f"in radar.po but marked nowhere: {sorted(obsolete)}"


def test_the_catalogue_has_each_message_once() -> None:
    text = messages.CATALOGUE.read_text(encoding="utf-8")
    ids = re.findall(r'^msgid "(.*)"$', text, flags=re.MULTILINE)
    repeated = {msgid for msgid in ids if ids.count(msgid) > 1}
    assert not repeated


def test_translations_keep_the_placeholders_and_are_chinese() -> None:
    wrong = []
    for msgid, strings in catalogue().items():
        for string in strings:
            if sorted(PLACEHOLDER.findall(string)) != sorted(PLACEHOLDER.findall(msgid)):
                wrong.append((msgid, string))
    assert not wrong
    assert all(HAN.search(strings[0]) for strings in catalogue().values() if strings[0])


def test_translated_messages_are_not_built() -> None:
    """gettext looks a message up by its text: ``_(f"...")``, ``_("a" + b)`` or
    ``_(text.format(...))`` would never be found in the catalogue. (A table of messages
    is marked with ``N_`` and looked up with ``_(TABLE[key])``.)"""
    built = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in KEYWORDS
                and any(isinstance(arg, (ast.JoinedStr, ast.BinOp, ast.Call)) for arg in node.args)
            ):
                built.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not built


@pytest.mark.parametrize(
    ("flag", "environ", "configured", "expected"),
    [
        ("en", {"LANG": "zh_CN.UTF-8"}, "zh", "en"),
        (None, {"LANG": "zh_CN.UTF-8"}, "en", "zh"),
        (None, {"LANGUAGE": "en:zh", "LANG": "zh_CN.UTF-8"}, "zh", "en"),
        (None, {"LC_ALL": "C.UTF-8", "LANG": "en_US.UTF-8"}, "zh", "zh"),
        (None, {"LANG": "C.UTF-8"}, "zh", "zh"),
        (None, {"LANG": "fr_FR.UTF-8"}, "zh", "zh"),
        (None, {}, None, "en"),
        (None, {}, "klingon", "en"),
    ],
)
def test_the_language_follows_flag_then_locale_then_conf(
    flag: str | None, environ: dict[str, str], configured: object, expected: str
) -> None:
    assert chosen_language(flag, environ, lambda: configured) == expected


def test_the_locale_is_read_as_gettext_reads_it() -> None:
    assert locale_language({"LANGUAGE": "", "LC_MESSAGES": "zh_TW.UTF-8@x"}) == "zh"
    assert locale_language({"LC_ALL": "POSIX"}) is None
