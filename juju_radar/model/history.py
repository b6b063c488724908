"""A page's history in the repository: the days of the commits that touched its file,
read from ``git log`` (the committer's day, ``%cs``: the same for the same commit on
any machine). Outside a git repository, or without git, there is none, and nothing is
said of it rather than a date invented.

The rule for a page changed after it was published: its file has a commit after the
one that added it, dated after the issue's date, and later than its last recorded
correction. ``radar check`` notes it (``uncorrected-change``).

No Sphinx or docutils import.
"""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from juju_radar.model.corrections import last_correction
from juju_radar.model.issue_records import Issue
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

COMMIT_MARK = "\x00"
# Each commit as a line "\0YYYY-MM-DD", then the files it touched, relative to the root.
GIT_LOG = ["git", "log", "--format=%x00%cs", "--name-only", "--relative", "--", "."]
GIT_TIMEOUT = 120

History = Mapping[str, tuple[dt.date, ...]]  # path -> its commits' days, newest first


def parse_log(text: str) -> dict[str, tuple[dt.date, ...]]:
    days: dict[str, list[dt.date]] = {}
    day: dt.date | None = None
    for line in text.splitlines():
        if line.startswith(COMMIT_MARK):
            day = dt.date.fromisoformat(line[1:].strip())
        elif line.strip() and day is not None:
            days.setdefault(line.strip(), []).append(day)
    return {path: tuple(found) for path, found in days.items()}


def file_history(root: Path) -> dict[str, tuple[dt.date, ...]]:
    """The history of every file under ``root`` (a path relative to it -> the days of
    its commits, newest first); empty when ``root`` is in no git repository."""
    try:
        result = subprocess.run(
            GIT_LOG, cwd=root, capture_output=True, text=True, timeout=GIT_TIMEOUT, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    return parse_log(result.stdout) if result.returncode == 0 else {}


def last_commit(history: History, path: str) -> dt.date | None:
    days = history.get(path, ())
    return days[0] if days else None


def last_change(issue: Issue | None, committed: dt.date | None) -> dt.date | None:
    """A page's last change: its last correction, else its last commit, else unknown."""
    corrected = last_correction(issue.corrections) if issue is not None else None
    return corrected or committed


def changed_after_publishing(issue: Issue, days: Sequence[dt.date]) -> dt.date | None:
    """The day of the latest commit that changed the published issue with no correction
    recorded for it (see the module's rule), or None."""
    later = [day for day in days[:-1] if day > issue.date]  # days[-1]: the file's first
    latest = max(later, default=None)
    corrected = last_correction(issue.corrections)
    if latest is None or (corrected is not None and corrected >= latest):
        return None
    return latest


def uncorrected_changes(issues: Sequence[Issue], history: History) -> list[Problem]:
    problems = []
    for issue in issues:
        changed = changed_after_publishing(issue, history.get(issue.path, ()))
        if changed is not None and issue.published:
            message = _(
                "changed on {day} (git log), after the issue was published, with no correction "
                "recorded: add one to its front matter (corrections: date and text)"
            ).format(day=changed.isoformat())
            problem = Problem(issue.path, issue.date_line, "note", "uncorrected-change", message)
            problems.append(problem)
    return problems
