"""A file's text as the archive reads it: UTF-8 (with or without a byte order mark), or
the problem at its line (``encoding``) or that it cannot be read (``unreadable``). The
commands and the build read pages through here, so both report a file they cannot read
with the same code at the same line.

Pure: no Sphinx or docutils import.
"""

from __future__ import annotations

from pathlib import Path

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem


def decode_utf8(data: bytes, path: str) -> tuple[str | None, list[Problem]]:
    """The text of an export or a page (UTF-8, optional BOM), or None and the problem
    at its line."""
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        byte = data[error.start : error.start + 1].hex()
        message = _("not valid UTF-8 (byte 0x{byte}); save the file as UTF-8").format(byte=byte)
        return None, [Problem(path, line, "error", "encoding", message)]


def read_utf8(path: Path, shown_as: str) -> tuple[str | None, list[Problem]]:
    """The text of the file at ``path`` (named ``shown_as`` in problems), or None and
    the problem that it cannot be read or is not UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as error:
        message = _("cannot read the file: {reason}").format(reason=error.strerror or error)
        return None, [Problem(shown_as, 1, "error", "unreadable", message)]
    return decode_utf8(data, shown_as)
