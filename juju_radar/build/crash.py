"""An exception in the build is one error line naming the file, not a crash report.

Sphinx turns any exception into a traceback and a crash report that names no page.
``python -m juju_radar.accel.sphinxbuild`` replaces that report (Sphinx 9's
``sphinx._cli.util.errors.handle_exception``, in ``sphinx_internals``) with one line::

    issues/2026/2026-09-08.md: ERROR: the build failed on this file: KeyError: 'x'
    [radar.internal-error]

The file is the page being read or written: the builder names it on exceptions raised
in forked readers and writers (``located``), and otherwise the innermost frame of the
traceback that has a ``docname`` says which page it was. What cannot be attributed to a
page names ``conf.py``. The traceback goes to a file, named on a second line.
"""

from __future__ import annotations

import re
import tempfile
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

from juju_radar.model.messages import _

EXIT_STATUS = 2  # sphinx-build's own status for a build that raised
REASON_CHARS = 300
LOCATED_RE = re.compile(r"LocatedBuildError: \[(?P<docname>[^\]]+)\] (?P<reason>.*)", re.DOTALL)


class LocatedBuildError(Exception):
    """An exception raised while a page was read or written, naming the page."""

    def __init__(self, docname: str, reason: str) -> None:
        super().__init__(f"[{docname}] {reason}")
        self.docname = docname
        self.reason = reason


def root_cause(error: BaseException) -> BaseException:
    """What an extension handler raised, rather than Sphinx's ExtensionError around it."""
    seen = {id(error)}
    while (inner := getattr(error, "orig_exc", None) or error.__cause__) is not None:
        if id(inner) in seen:
            break
        seen.add(id(inner))
        error = inner
    return error


def reason(error: BaseException) -> str:
    error = root_cause(error)
    text = " ".join(str(error).split())
    if len(text) > REASON_CHARS:
        text = text[:REASON_CHARS] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


@contextmanager
def located(docname: str) -> Iterator[None]:
    """Name ``docname`` on any exception raised inside (for forked readers and writers,
    whose exceptions reach the main process as text)."""
    try:
        yield
    except LocatedBuildError:
        raise
    except Exception as error:
        raise LocatedBuildError(docname, reason(error)) from error


def docname_in(tb: TracebackType | None) -> str | None:
    """The ``docname`` (or ``pagename``) of the innermost frame that has one."""
    found = None
    while tb is not None:
        for name in ("docname", "pagename"):
            value = tb.tb_frame.f_locals.get(name)
            if isinstance(value, str) and value:
                found = value
        tb = tb.tb_next
    return found


def source_file(srcdir: Path, docname: str | None) -> str:
    if docname:
        candidates = sorted(srcdir.glob(f"{glob_escape(docname)}.*"))
        return str(candidates[0]) if candidates else str(srcdir / docname)
    return str(srcdir / "conf.py")


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def describe(exception: BaseException) -> tuple[str | None, str]:
    """The page and the short reason of ``exception``."""
    if isinstance(exception, LocatedBuildError):
        return exception.docname, exception.reason
    from sphinx.errors import SphinxParallelError

    if isinstance(exception, SphinxParallelError):
        match = LOCATED_RE.search(exception.message)
        if match:
            return match.group("docname"), match.group("reason")
        return None, exception.message
    return docname_in(exception.__traceback__), reason(exception)


def save_traceback(exception: BaseException) -> str:
    text = "".join(traceback.format_exception(exception))
    if isinstance(getattr(exception, "traceback", None), str):
        text += "\n" + exception.traceback  # type: ignore[attr-defined]
    with tempfile.NamedTemporaryFile(
        "w", prefix="radar-build-error-", suffix=".log", delete=False, encoding="utf-8"
    ) as file:
        file.write(text)
    return file.name


def report(exception: BaseException, srcdir: Path, stderr: Any) -> None:
    if isinstance(exception, KeyboardInterrupt):
        print(_("Interrupted!"), file=stderr)
        return
    docname, why = describe(exception)
    location = source_file(srcdir, docname)
    failed = _("the build failed on this file: {reason}").format(reason=why)
    print(f"{location}: ERROR: {failed} [radar.internal-error]", file=stderr)
    saved = _("(the traceback is in {path})").format(path=save_traceback(exception))
    print(saved, file=stderr)
