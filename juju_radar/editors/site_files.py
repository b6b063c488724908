"""The site's files as the command line sees them: conf.py, issues, references, reading
them as UTF-8, atomic writes."""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from juju_radar.bib.size_limits import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_FIELD_CHARS,
    BibLimits,
    read_bib_limits,
)
from juju_radar.model.issue_records import DEFAULT_DATE_SPAN, read_date_span
from juju_radar.model.messages import _
from juju_radar.model.page import PageLimits
from juju_radar.model.site_layout import SiteConfigError, read_site_config
from juju_radar.model.vocabulary import Vocabulary, vocabulary_from_config

DEFAULT_BIBFILES = ("references.bib",)
ITEM_ID_OPTION_RE = re.compile(r"^:id:\s*(\S+)\s*$", re.MULTILINE)


class SiteError(Exception):
    """A problem with the site itself (no conf.py, unreadable file): the command stops."""


@dataclass(frozen=True)
class Site:
    root: Path
    config: dict[str, object]

    @property
    def vocabulary(self) -> Vocabulary:
        topics = self.config.get("radar_topics", [])
        verdicts = self.config.get("radar_verdicts", [])
        try:
            return vocabulary_from_config(topics, verdicts)  # type: ignore[arg-type]
        except TypeError as error:
            message = _("{path}: bad radar_topics/radar_verdicts: {error}").format(
                path=self.root / "conf.py", error=error
            )
            raise SiteError(message) from error

    @property
    def date_span(self) -> tuple[int, int]:
        value = self.config.get("radar_date_span", DEFAULT_DATE_SPAN)
        span = read_date_span(value)
        if span is None:
            message = _("{path}: radar_date_span must be two years, not {value!r}").format(
                path=self.root / "conf.py", value=value
            )
            raise SiteError(message)
        return span

    @property
    def page_limits(self) -> PageLimits:
        default = PageLimits()
        chars = self.config.get("radar_max_page_chars", default.max_chars)
        items = self.config.get("radar_max_items", default.max_items)
        if not (isinstance(chars, int) and isinstance(items, int)):
            message = _("{path}: radar_max_page_chars and radar_max_items must be numbers")
            message = message.format(path=self.root / "conf.py")
            raise SiteError(message)
        return PageLimits(chars, items)

    @property
    def bib_limits(self) -> BibLimits:
        """How large the .bib files may be (``radar_bib_max_entries``, ``…_field_chars``)."""
        limits = read_bib_limits(
            self.config.get("radar_bib_max_entries", DEFAULT_MAX_ENTRIES),
            self.config.get("radar_bib_max_field_chars", DEFAULT_MAX_FIELD_CHARS),
        )
        if isinstance(limits, str):
            raise SiteError(f"{self.root / 'conf.py'}: {limits}")
        return limits

    @property
    def bibfiles(self) -> tuple[str, ...]:
        names = self.config.get("bibtex_bibfiles") or DEFAULT_BIBFILES
        return tuple(str(name) for name in names)  # type: ignore[attr-defined]

    @property
    def bib_path(self) -> Path:
        return self.root / self.bibfiles[0]

    def relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def outside_root(self, *paths: Path) -> str:
        """The first of ``paths`` that would be written outside the root, through a
        symbolic link on the way (``issues/2027 -> elsewhere``), or ""."""
        for path in paths:
            if not Path(os.path.realpath(path)).is_relative_to(self.root):
                return self.relative(path)
        return ""

    def issue_files(self) -> list[Path]:
        return sorted((self.root / "issues").glob("*/*.md"))

    def issue_path(self, date_text: str) -> Path:
        return self.root / "issues" / date_text[:4] / f"{date_text}.md"


def open_site(root: str | os.PathLike[str]) -> Site:
    """The site at ``root``, with conf.py run as plain Python (it imports no Sphinx)."""
    root_path = Path(root).resolve()
    try:
        return Site(root_path, read_site_config(root_path))
    except SiteConfigError as error:
        raise SiteError(str(error)) from error


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as error:
        message = _("{path}: cannot be read: {reason}")
        raise SiteError(message.format(path=path, reason=error.strerror or error)) from error
    except UnicodeDecodeError as error:
        message = _("{path}: is not valid UTF-8: {reason}")
        raise SiteError(message.format(path=path, reason=error.reason)) from error


def item_ids_in(text: str) -> list[str]:
    return ITEM_ID_OPTION_RE.findall(text)


def atomic_write(path: Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes, as they are) to a temporary file beside ``path``, then
    rename it over ``path``.

    Readers (and a crash) see either the old file or the whole new one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8") if isinstance(text, str) else text)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
