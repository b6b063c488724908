"""The site's interface catalogues, read once, the way the build uses them (issue 26,
issue 51).

The theme prints the translations of the ``sphinx`` catalogue into every page as they
are, unescaped (Jinja's ``_()``), in text and in attribute values alike. A translation
may therefore hold no markup its original has not: no element or comment the HTML5
parser (lexbor, as the page check reads) builds from it and not from the msgid, and no
more ``<``, ``>`` or ``"`` than the msgid has.

The catalogue rule:

- The site holds translations only as ``.po`` text, at
  ``locales/<language>/LC_MESSAGES/sphinx.po``. A compiled catalogue (``.mo``, ``.gmo``,
  in any case, or any file that begins as one) anywhere in the site, and any other file
  in ``locales/``, is refused at its path: Sphinx and gettext would load a binary
  catalogue as it is, decoded as its own header says.
- A ``.po`` is UTF-8 without a byte-order mark, and its header's ``Content-Type`` is
  ``text/plain; charset=UTF-8``: one charset parameter, named as gettext finds it.
- The build compiles each ``.po`` itself (``compile_catalogue``: Babel's ``write_mo``)
  and Sphinx reads only the compiled bytes; the check reads the same bytes with
  ``gettext.GNUTranslations``, gettext's own decoding, so what it judges is what the
  theme will print. A message gettext reads otherwise than the ``.po`` says is refused.

Pure: Babel and gettext, no Sphinx.
"""

from __future__ import annotations

import gettext
import io
import re
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, PoFileParser
from selectolax.lexbor import LexborHTMLParser

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem
from juju_radar.model.site_layout import TRANSLATIONS, site_files

CODE = "unsafe-translation"
DOMAIN = "sphinx"  # the interface strings' catalogue (Sphinx's and the theme's)
MESSAGES_FOLDER = "LC_MESSAGES"
MARKUP_CHARACTERS = ("<", ">", '"')
# A language folder of ``locales/``: ``zh_CN``, ``zh``, ``sr@latin``, ``zh_Hans``.
LANGUAGE_RE = re.compile(r"[a-z]{2,3}(?:_[A-Za-z0-9]{2,8})*(?:@[a-z]+)?")
# The one Content-Type a catalogue may name (gettext takes what follows the first
# ``charset=``, Babel reads a parameter named ``charset``: here they agree).
CONTENT_TYPE_RE = re.compile(r"(?i:text/plain)\s*;\s*charset=(?i:utf-8)")
CONF_FILE = "conf.py"
LOCALE_DIRS_RE = re.compile(r"locale_dirs\b[^=\n]*=")
# How a gettext catalogue begins, in either byte order.
MO_MAGIC = (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")
MO_SUFFIXES = (".mo", ".gmo")
BYTE_ORDER_MARKS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
# The compiled header's date, so that a catalogue compiles to the same bytes every time.
COMPILED_DATE = datetime(2000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class CompiledCatalogue:
    """A ``.po`` of the site compiled: its path, and its place and bytes among the
    compiled catalogues (``zh_CN/LC_MESSAGES/sphinx.mo``)."""

    source: str
    target: str
    data: bytes


def unsafe_markup(original: str, translation: str) -> str | None:
    """The first piece of markup ``translation`` holds that ``original`` has not.

    What is markup is the HTML5 parser's judgement (lexbor, as the page check and the
    browser read): an element or comment the parser builds from the translation and not
    from the msgid. A fragment read alone is not read as the page reads it (a stray
    ``</div>`` closes the theme's element there, a tag left open at the end swallows
    what follows), so beyond that no more ``<``, ``>`` or ``"`` than the msgid has."""
    meant = Counter(key for key, _ in markup_of(original))
    for key, shown in markup_of(translation):
        if not meant[key]:
            return shown
        meant[key] -= 1
    for character in MARKUP_CHARACTERS:
        if translation.count(character) > original.count(character):
            return character
    return None


def markup_of(fragment: str) -> list[tuple[str, str]]:
    """The elements and comments an HTML5 parser builds from ``fragment`` in a page's
    body, in document order: each as a key that does not depend on the order of its
    attributes, and as its start tag (or the comment) to show. Attributes set on the
    page's own ``html`` or ``body`` count as markup too."""
    if "<" not in fragment:
        return []
    document = LexborHTMLParser(f"<body>{fragment}")
    found: list[tuple[str, str]] = []
    for node in document.root.traverse(include_text=False) if document.root else ():
        attributes = {name: value or "" for name, value in node.attributes.items()}
        if node.tag in ("html", "head", "body") and not attributes:
            continue
        if node.tag == "-comment":
            shown = key = node.html or "<!---->"
        else:
            written = "".join(f' {name}="{value}"' for name, value in attributes.items())
            shown, key = f"<{node.tag}{written}>", f"{node.tag} {sorted(attributes.items())}"
        found.append((key, shown))
    return found


def _texts(value: object) -> list[str]:
    """A message's msgid or msgstr: one text, or one per plural form."""
    return [str(text) for text in value] if isinstance(value, (tuple, list)) else [str(value)]


def _refused(path: str, line: int, message: str) -> Problem:
    return Problem(path, line, "error", CODE, message)


class _HeaderCatalog(Catalog):
    """A Babel catalogue that keeps its header entry as the ``.po`` wrote it: Babel
    keeps only the fields it knows, and writes its own header when it compiles."""

    header: Message | None = None

    def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:
        if not id and self.header is None:
            self.header = message
        super().__setitem__(id, message)


def decode_po(data: bytes, path: str) -> tuple[str | None, list[Problem]]:
    """A ``.po`` file's text: UTF-8 with no byte-order mark and no NUL, or the
    problem at line 1."""
    if data.startswith(BYTE_ORDER_MARKS):
        return None, [
            _refused(
                path,
                1,
                _(
                    "the catalogue begins with a byte-order mark: save it as UTF-8 without one "
                    "(catalogues are UTF-8 text only)"
                ),
            )
        ]
    if b"\x00" in data:
        return None, [
            _refused(
                path,
                1,
                _(
                    "the catalogue holds NUL bytes (UTF-16 or another encoding): save it as "
                    "UTF-8 (catalogues are UTF-8 text only)"
                ),
            )
        ]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        message = _(
            "the catalogue is not UTF-8 (byte 0x{byte} on line {line}): save it as UTF-8 "
            "(catalogues are UTF-8 text only)"
        ).format(byte=data[error.start : error.start + 1].hex(), line=line)
        return None, [_refused(path, 1, message)]


def header_problems(header: Message | None, lines: list[str], path: str) -> list[Problem]:
    """The header's ``Content-Type`` must be ``text/plain; charset=UTF-8``, once; read
    as gettext reads a header (one ``name: value`` a line, names in any case)."""
    if header is None:
        return [
            _refused(
                path,
                1,
                _(
                    'the catalogue has no header (msgid ""): it must name '
                    '"Content-Type: text/plain; charset=UTF-8"'
                ),
            )
        ]
    items = (item.strip().partition(":") for item in str(header.string).split("\n"))
    values = [
        value.strip()
        for name, colon, value in items
        if colon and name.strip().lower() == "content-type"
    ]
    if len(values) == 1 and CONTENT_TYPE_RE.fullmatch(values[0]):
        return []
    shown = "; ".join(repr(value) for value in values) or _("none")
    message = _(
        'the header\'s Content-Type must be exactly "text/plain; charset=UTF-8", once '
        "(found {found}): gettext and the check would otherwise decode the catalogue "
        "differently"
    ).format(found=shown)
    return [_refused(path, _content_type_line(header.lineno or 1, lines), message)]


def _content_type_line(header_line: int, lines: list[str]) -> int:
    """The line of the header entry that names the Content-Type (its first line if none)."""
    for number in range(header_line, len(lines) + 1):
        line = lines[number - 1]
        if not line.strip():
            break
        if "content-type" in line.lower():
            return number
    return header_line


def compile_catalogue(data: bytes, path: str) -> tuple[bytes | None, list[Problem]]:
    """A ``.po`` file compiled as the build loads it, or None and why it is refused."""
    text, problems = decode_po(data, path)
    if text is None:
        return None, problems
    lines = text.split("\n")  # lines as editors count them (str.splitlines splits more)
    catalog = _HeaderCatalog()
    try:
        PoFileParser(catalog, abort_invalid=True).parse([f"{line}\n" for line in lines])
    except PoFileError as error:
        message = _("an unreadable catalogue: {error}").format(error=error.args[0])
        return None, [_refused(path, error.lineno + 1, message)]
    except Exception as error:  # Babel's header parsing raises what it meets
        message = _("an unreadable catalogue: {error}").format(error=error)
        return None, [_refused(path, 1, message)]
    if problems := header_problems(catalog.header, lines, path):
        return None, problems
    catalog.creation_date = COMPILED_DATE
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    header_line = catalog.header.lineno if catalog.header and catalog.header.lineno else 1
    problems = compiled_problems(compiled.getvalue(), catalog, path, header_line)
    return (None if problems else compiled.getvalue()), problems


def read_compiled(data: bytes) -> gettext.GNUTranslations:
    """A compiled catalogue as Sphinx loads it (``gettext.translation``)."""
    return gettext.GNUTranslations(io.BytesIO(data))


def compiled_problems(
    data: bytes, catalog: Catalog, path: str, header_line: int = 1
) -> list[Problem]:
    """What gettext reads in the compiled catalogue: every translation, as the theme
    will print it, must be the ``.po``'s and hold no markup its original lacks."""
    try:
        translations = read_compiled(data)
    except Exception as error:  # gettext raises what its parser meets
        text = _("gettext cannot read the compiled catalogue: {error}").format(error=error)
        return [_refused(path, header_line, text)]
    problems = []
    if (charset := translations.charset() or "ascii").lower() != "utf-8":
        text = _("gettext would decode the compiled catalogue as {charset}, not UTF-8")
        problems.append(_refused(path, header_line, text.format(charset=charset)))
    # Each plural form read by its index: gettext picks form ``plural(n)`` for a count n
    # (the attribute its parser sets from Plural-Forms; typeshed leaves it out).
    translations.plural = lambda n: n  # type: ignore[attr-defined]
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue  # not compiled (Babel's write_mo): gettext prints the msgid
        ids = _texts(message.id)
        if "\x04" in "".join([*ids, message.context or ""]):
            problems.append(_refused(path, _line(message), _separator(ids[0])))
            continue
        for form, expected in enumerate(_compiled_texts(message)):
            printed = _printed(translations, message, form)
            if printed != expected:
                text = _(
                    "gettext reads the translation of {msgid!r} as {printed!r}, not as the "
                    "catalogue writes it"
                )
                problems.append(
                    _refused(path, _line(message), text.format(msgid=ids[0], printed=printed))
                )
            elif markup := unsafe_markup("\n".join(ids), printed):
                text = _(
                    "the translation of {msgid!r} holds {markup!r}, which its original has "
                    "not: the theme prints translations into pages as markup; write them as "
                    "text"
                )
                problems.append(
                    _refused(path, _line(message), text.format(msgid=ids[0], markup=markup))
                )
    return sorted(set(problems))


def _compiled_texts(message: Message) -> list[str]:
    """What Babel's ``write_mo`` writes for a message, a text per form (a plural form left
    empty is written as its msgid), as the check expects gettext to read it."""
    written = _texts(message.string)
    if not message.pluralizable:
        return written[:1]
    ids = _texts(message.id)
    return [text or ids[min(form, len(ids) - 1)] for form, text in enumerate(written)]


def _printed(translations: gettext.GNUTranslations, message: Message, form: int) -> str:
    """What the theme's ``_()`` or ``ngettext()`` would print of a message (its form
    ``form``), through gettext's public calls."""
    ids = _texts(message.id)
    context = message.context
    if not message.pluralizable:
        if context:
            return translations.pgettext(context, ids[0])
        return translations.gettext(ids[0])
    if context:
        return translations.npgettext(context, ids[0], ids[-1], form)
    return translations.ngettext(ids[0], ids[-1], form)


def _separator(msgid: str) -> str:
    return _(
        "the msgid {msgid!r} or its context holds U+0004, which gettext reads as the end of "
        "a context: it would be looked up as another message"
    ).format(msgid=msgid)


def _line(message: Message | None) -> int:
    return message.lineno or 1 if message is not None else 1


def catalogue_sources(root: Path) -> list[Path]:
    """The ``.po`` files the build compiles: ``locales/<language>/LC_MESSAGES/sphinx.po``."""
    folder = root / TRANSLATIONS
    return sorted(
        path
        for path in folder.glob(f"*/{MESSAGES_FOLDER}/{DOMAIN}.po")
        if LANGUAGE_RE.fullmatch(path.parent.parent.name) and path.is_file()
    )


def _begins_as_catalogue(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(4) in MO_MAGIC
    except OSError:
        return False


def stray_files(root: Path, sources: list[Path]) -> list[Problem]:
    """Compiled catalogues anywhere in the site, and files of ``locales/`` that are not
    the ``.po`` the build compiles."""
    problems = []
    translations = root / TRANSLATIONS
    compiled = set(sources)
    for path in site_files(root):
        relative = path.relative_to(root).as_posix()
        in_translations = path.is_relative_to(translations)
        if path.suffix.lower() in MO_SUFFIXES or (
            not path.name.endswith(".md") and _begins_as_catalogue(path)
        ):
            message = _(
                "a compiled catalogue: the site holds translations only as .po text, which the "
                "build compiles itself (a .mo is loaded as its own header says, past the "
                "check); delete it"
            )
        elif not in_translations or path in compiled:
            continue
        elif path.suffix == ".po" and path.parent.name == MESSAGES_FOLDER and path.stem != DOMAIN:
            message = _(
                "a catalogue Sphinx would use to replace the text of pages, past the content "
                "check: the site translates only its interface ({catalogue})"
            ).format(catalogue=f"{DOMAIN}.po")
        elif path.name == f"{DOMAIN}.js":
            message = _(
                "a script Sphinx would publish as every page's _static/translations.js: the "
                "site's translations are .po files only"
            )
        else:
            message = _(
                "a file the build does not compile: {folder} holds only "
                "<language>/LC_MESSAGES/{catalogue} files, UTF-8 text"
            ).format(folder=f"{TRANSLATIONS}/", catalogue=f"{DOMAIN}.po")
        problems.append(_refused(relative, 1, message))
    return problems


def read_catalogues(root: Path) -> tuple[list[Problem], list[CompiledCatalogue]]:
    """Every problem of the site's catalogues at file and line, and the catalogues
    compiled (when there are problems, the build uses none)."""
    sources = catalogue_sources(root)
    problems = stray_files(root, sources)
    compiled = []
    for path in sources:
        relative = path.relative_to(root).as_posix()
        try:
            data = path.read_bytes()
        except OSError as error:
            message = _("an unreadable catalogue: {error}").format(error=error)
            problems.append(_refused(relative, 1, message))
            continue
        result, found = compile_catalogue(data, relative)
        problems += found
        if result is not None:
            target = path.relative_to(root / TRANSLATIONS).with_suffix(".mo").as_posix()
            compiled.append(CompiledCatalogue(relative, target, result))
    return sorted(problems), compiled


def locale_dirs_problems(root: Path, locale_dirs: list[str]) -> list[Problem]:
    """``locale_dirs`` naming a folder of the site: Sphinx loads what it finds there when
    it starts, before the extension can check it, and compiles a ``.po`` there into a
    ``.mo`` beside it. The site's ``conf.py`` sets ``locale_dirs = []``."""
    named = [folder for folder in locale_dirs if (root / folder).is_dir()]
    if not named:
        return []
    conf = root / CONF_FILE
    text = conf.read_text(encoding="utf-8", errors="replace") if conf.is_file() else ""
    lines = [n for n, line in enumerate(text.splitlines(), 1) if LOCALE_DIRS_RE.match(line)]
    message = _(
        "conf.py must set locale_dirs = []: the build compiles {folder} itself, and Sphinx "
        "would load what it finds in {named} as it is (delete any .mo it wrote there)"
    ).format(folder=f"{TRANSLATIONS}/", named=", ".join(named))
    return [_refused(CONF_FILE, lines[-1] if lines else 1, message)]


def check_translations(root: Path, locale_dirs: list[str]) -> list[Problem]:
    """Every problem of the site's catalogues, at file and line (``radar check``)."""
    return locale_dirs_problems(root, locale_dirs) + read_catalogues(root)[0]
