"""Interface translations are text (issue 26): the theme prints the translations of the
site's ``sphinx`` catalogue (``locales/<language>/LC_MESSAGES/sphinx.po``) into every
page as they are, unescaped (Jinja's ``_()``), in text and in attribute values alike. A
translation may therefore hold no markup its original has not: no tag the msgid lacks,
and no more ``<``, ``>`` or ``"`` than the msgid has outside its tags.

The check reads the ``.po`` files, the editors' source, with their line numbers, and the
``.mo`` files gettext loads for the catalogue (``gettext.find``: the ones Sphinx compiled
from them, or any other left in their place). A ``sphinx.js`` beside them would be
published as the pages' ``_static/translations.js``: the site's translations are ``.po``
files only.

Pure: Babel and gettext, no Sphinx.
"""

from __future__ import annotations

import gettext
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

CODE = "unsafe-translation"
DOMAIN = "sphinx"  # the interface strings' catalogue (Sphinx's and the theme's)
MARKUP_CHARACTERS = ("<", ">", '"')
TAG_RE = re.compile(r"<[^<>]*>")


def unsafe_markup(original: str, translation: str) -> str | None:
    """The first piece of markup ``translation`` holds that ``original`` has not."""
    extra = Counter(TAG_RE.findall(translation)) - Counter(TAG_RE.findall(original))
    if extra:
        return next(iter(extra))
    text, original_text = TAG_RE.sub("", translation), TAG_RE.sub("", original)
    for character in MARKUP_CHARACTERS:
        if text.count(character) > original_text.count(character):
            return character
    return None


def message_markup(message: Message) -> str | None:
    """The markup a message's translation (any plural form) adds to its msgid."""
    original = "\n".join(_texts(message.id))
    for string in _texts(message.string):
        if string and (found := unsafe_markup(original, string)):
            return found
    return None


def _texts(value: object) -> list[str]:
    """A message's msgid or msgstr: one text, or one per plural form."""
    return [str(text) for text in value] if isinstance(value, (tuple, list)) else [str(value)]


def problem(path: str, line: int, message: Message, markup: str, compiled: bool = False) -> Problem:
    if compiled:
        text = _(
            "the translation of {msgid!r} (in the compiled catalogue gettext loads) holds "
            "{markup!r}, which its original has not: the theme prints translations into pages "
            "as markup; write them as text"
        )
    else:
        text = _(
            "the translation of {msgid!r} holds {markup!r}, which its original has not: the "
            "theme prints translations into pages as markup; write them as text"
        )
    return Problem(path, line, "error", CODE, text.format(msgid=_msgid(message), markup=markup))


def unreadable(path: str, error: Exception) -> Problem:
    message = _("an unreadable catalogue: {error}").format(error=error)
    return Problem(path, 1, "error", CODE, message)


def po_problems(path: Path, relative: str) -> list[tuple[str, Problem]]:
    """The messages of a ``.po`` file that add markup: (msgid, problem at its line)."""
    try:
        with path.open("rb") as file:
            catalog = read_po(file)
    except Exception as error:  # Babel's parse errors have no common base
        return [("", unreadable(relative, error))]
    return [
        (_msgid(message), problem(relative, message.lineno or 1, message, markup))
        for message in catalog
        if message.id and (markup := message_markup(message))
    ]


def mo_problems(path: Path, relative: str, checked: Iterable[str]) -> list[Problem]:
    """The messages of a compiled catalogue that add markup, except those already
    reported at their ``.po`` line (``checked``: their msgids)."""
    try:
        with path.open("rb") as file:
            catalog = read_mo(file)
    except Exception as error:
        return [unreadable(relative, error)]
    reported = set(checked)
    return [
        problem(relative, 1, message, markup, compiled=True)
        for message in catalog
        if message.id and _msgid(message) not in reported and (markup := message_markup(message))
    ]


def _msgid(message: Message) -> str:
    return _texts(message.id)[0]


def loaded_catalogues(root: Path, locale_dirs: Iterable[str], language: str) -> Iterator[Path]:
    """The ``.mo`` files gettext loads for the interface (Sphinx's ``locale.init``)."""
    for folder in locale_dirs:
        yield from (Path(found) for found in gettext.find(DOMAIN, root / folder, [language], True))


def check_translations(root: Path, locale_dirs: Iterable[str], language: str) -> list[Problem]:
    """Every problem of the site's interface catalogues, at file and line."""
    folders = [root / folder for folder in locale_dirs]
    problems: list[Problem] = []
    reported: dict[Path, set[str]] = {}
    for po in sorted(path for folder in folders for path in folder.rglob(f"{DOMAIN}.po")):
        found = po_problems(po, po.relative_to(root).as_posix())
        problems += [found_problem for _, found_problem in found]
        reported[po.with_suffix(".mo").resolve()] = {msgid for msgid, _ in found}
    for mo in dict.fromkeys(
        path.resolve() for path in loaded_catalogues(root, locale_dirs, language)
    ):
        problems += mo_problems(mo, _relative(mo, root), reported.get(mo, set()))
    for other in sorted(
        path
        for folder in folders
        for pattern in ("*.po", "*.mo")
        for path in folder.rglob(pattern)
        if path.stem != DOMAIN
    ):
        problems.append(
            Problem(
                _relative(other, root),
                1,
                "error",
                CODE,
                _(
                    "a catalogue Sphinx would use to replace the text of pages, past the content "
                    "check: the site translates only its interface ({catalogue})"
                ).format(catalogue=f"{DOMAIN}.po"),
            )
        )
    for script in sorted(path for folder in folders for path in folder.rglob(f"{DOMAIN}.js")):
        problems.append(
            Problem(
                _relative(script, root),
                1,
                "error",
                CODE,
                _(
                    "a script Sphinx would publish as every page's _static/translations.js: the "
                    "site's translations are .po files only"
                ),
            )
        )
    return problems


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
