"""The language of what the archive's tools say: ``radar``'s errors, notes, prompts,
progress and summaries, and the problems the build reports, in Chinese or English.

Messages are written in English in the code and marked for gettext: ``_("...")`` for a
message, ``ngettext(one, many, n)`` for one that counts. Placeholders are ``{name}``
fields filled with ``str.format`` after translating, so a translation may move them.
The Chinese catalogue is ``juju_radar/locale/zh_CN/LC_MESSAGES/radar.po``, the editors'
text; it is read with Babel when first needed (no compiled ``.mo`` to fall out of step).
Codes (``[unknown-topic]``) are never translated.

The language: ``radar --lang zh|en``; else the locale, as gettext reads it (the first
of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, when it names
Chinese or English); else ``radar_messages_language`` in ``conf.py``; else English.

Pure: Babel and gettext, no Sphinx.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN: Final = "radar"
LANGUAGES: Final = ("zh", "en")
DEFAULT_LANGUAGE: Final = "en"
CATALOGUE: Final = Path(__file__).parent.parent / "locale" / "zh_CN" / "LC_MESSAGES" / "radar.po"
LOCALE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_state: dict[str, str] = {"language": DEFAULT_LANGUAGE}


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations(_state["language"]).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counting message for ``count``, in the current language."""
    return _translations(_state["language"]).ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Marks a message kept in a table, translated with ``_`` where it is shown."""
    return message


def current_language() -> str:
    return _state["language"]


def use_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    _state["language"] = language


def chosen_language(
    flag: str | None,
    environ: Mapping[str, str],
    configured: Callable[[], object] = lambda: None,
) -> str:
    """The language of the messages: the flag, the locale, the site's setting, English.
    ``configured`` is asked only when the first two say nothing."""
    if flag:
        return flag
    from_locale = locale_language(environ)
    if from_locale:
        return from_locale
    setting = configured()
    return setting if isinstance(setting, str) and setting in LANGUAGES else DEFAULT_LANGUAGE


def choose_language(flag: str | None, configured: Callable[[], object] = lambda: None) -> str:
    """Choose the language of this process's messages (:func:`chosen_language` from
    the flag, the environment's locale and the site's setting) and use it."""
    language = chosen_language(flag, os.environ, configured)
    use_language(language)
    return language


def locale_language(environ: Mapping[str, str]) -> str | None:
    """Chinese or English as the locale names it (``zh_CN.UTF-8``, ``en:zh``), or None
    for ``C``, ``POSIX``, another language or no locale."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            for entry in value.split(":"):
                language = entry.split(".")[0].split("@")[0].split("_")[0].lower()
                if language in LANGUAGES:
                    return language
            return None
    return None


@cache
def _translations(language: str) -> gettext.NullTranslations:
    if language != "zh":
        return gettext.NullTranslations()
    with CATALOGUE.open("rb") as stream:
        catalogue = read_po(stream, locale="zh_CN", domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
