"""Problems found in editors' input: one record shape for the model, the CLI and Sphinx."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from juju_radar.model.messages import N_, _

# A note is information, not a defect: it never fails ``radar check --strict`` or the
# build (an entry without identifiers is honest when no source gave one).
Severity = Literal["error", "warning", "note"]
SEVERITY_WORDS = {"error": N_("error"), "warning": N_("warning"), "note": N_("note")}


@dataclass(frozen=True, order=True)
class Problem:
    """A problem at a line of a file; ``code`` is the ``radar.<code>`` warning subtype."""

    path: str
    line: int
    severity: Severity
    code: str
    message: str

    def format(self) -> str:
        """``PATH:LINE: severity: message [code]``, the severity in the current language."""
        severity = _(SEVERITY_WORDS[self.severity])
        return f"{self.path}:{self.line}: {severity}: {self.message} [{self.code}]"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
