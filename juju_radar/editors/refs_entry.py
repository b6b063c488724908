"""One entry of the .bib file as ``radar refs`` reads and writes it: the file's text
exactly as stored, the entry as it is now (with a digest of its text, which a saved
lookup or skip is bound to), and the write of new fields, one entry at a time, after the
file is checked and the editor agrees; with the one-line failures and notes of the
commands."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.edit import EditError, find_entry, set_fields
from juju_radar.bib.entry_records import IDENTIFIER_FIELDS, BibEntry
from juju_radar.editors.exit_status import EXIT_OK, EXIT_PROBLEMS
from juju_radar.editors.replaced_files import Replacements
from juju_radar.editors.site_files import Site, SiteError, atomic_write
from juju_radar.model.messages import _


def read_bib(site: Site) -> tuple[str, str]:
    """The .bib text exactly as stored (line endings kept) and its byte-order mark."""
    try:
        data = site.bib_path.read_bytes()
    except OSError as error:
        reason = error.strerror or error
        raise SiteError(
            _("{path}: cannot be read: {reason}").format(path=site.bib_path, reason=reason)
        ) from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SiteError(
            _("{path}: is not valid UTF-8: {reason}").format(
                path=site.bib_path, reason=error.reason
            )
        ) from error
    return (text[1:], "\ufeff") if text.startswith("\ufeff") else (text, "")


def fail(message: str, status: int = EXIT_PROBLEMS) -> int:
    print(f"radar refs: {_('error')}: {message}", file=sys.stderr)
    return status


def note(message: str) -> None:
    print(f"radar refs: {_('note')}: {message}", file=sys.stderr)


class Refused(Exception):
    """A command cannot go on; the message is one line, ``status`` the exit status."""

    def __init__(self, message: str, status: int = EXIT_PROBLEMS) -> None:
        super().__init__(message)
        self.status = status


def current_entry(site: Site, key: str) -> tuple[BibEntry, str]:
    """Entry ``key`` as the .bib file holds it now (:class:`EditError` if none), and the
    digest of its text."""
    text, _bom = read_bib(site)
    entry = find_entry(text, key)
    return entry, entry_digest(text, entry)


def entry_digest(text: str, entry: BibEntry) -> str:
    return hashlib.sha256(text[entry.start : entry.end].encode("utf-8")).hexdigest()


def lacks_identifier(entry: BibEntry) -> bool:
    return not any(entry.has_nonblank_field(name) for name in IDENTIFIER_FIELDS)


YES = ("y", "yes", "是")
"""What confirms a write, typed in English or Chinese."""


def write_entry(
    site: Site,
    key: str,
    values: dict[str, str],
    entry_type: str | None,
    ask: Callable[[str], str] | None,
) -> int:
    """Write ``values`` into entry ``key`` if the file stays valid (and the editor agrees)."""
    text, bom = read_bib(site)  # as it is now, not as it was when the command started
    try:
        new_text = set_fields(text, key, values, entry_type)
    except EditError as error:
        return fail(str(error))
    name = site.bibfiles[0]
    errors = [p for p in check_bib_text(new_text, name, site.bib_limits) if p.severity == "error"]
    if errors:
        return fail(
            _("the entry would be invalid ({message}); nothing was written").format(
                message=errors[0].message
            )
        )
    if entry_type:
        writing = _("{key}: @{type}, writing into {name}:").format(
            key=key, type=entry_type, name=name
        )
    else:
        writing = _("{key}: writing into {name}:").format(key=key, name=name)
    print(writing)
    for field_name, value in values.items():
        print(f"    {field_name} = {value}")
    if ask is not None:
        try:
            answer = ask(_("write these fields? [y/N] "))
        except EOFError:
            answer = ""
        if answer.strip().lower() not in YES:
            print(_("nothing was written"), file=sys.stderr)
            return EXIT_PROBLEMS
    if outside := site.outside_root(site.bib_path):
        return fail(
            _("{path} leads outside the repository: nothing was written").format(path=outside)
        )
    replacements = Replacements(site)
    replacements.keep(site.bib_path, bom + new_text)
    try:
        atomic_write(site.bib_path, bom + new_text)
    except OSError as error:
        return fail(
            _("cannot write {name}: {reason}; nothing was written").format(
                name=name, reason=error.strerror or error
            )
        )
    replacements.show(sys.stdout)
    print(_("{name}: entry '{key}' updated").format(name=name, key=key))
    return EXIT_OK
