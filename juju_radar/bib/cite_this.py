"""BibTeX entries for citing the archive itself: an issue, or one item of it."""

from __future__ import annotations

import re

from juju_radar.model.issues import Issue, Item

PUBLISHER = "Juju Radar"


# Braces would end the field, ``%`` starts a comment and ``\`` a command in BibTeX.
ESCAPES = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "%": "\\%"}
ESCAPED_RE = re.compile(r"[\\{}%]")


def _escape(value: str) -> str:
    """In one pass, so that the braces of ``\\textbackslash{}`` stay as they are."""
    return ESCAPED_RE.sub(lambda match: ESCAPES[match.group()], value)


def _entry(key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name:<12} = {{{value}}}" for name, value in fields if value)
    return f"@misc{{{key},\n{body},\n}}"


def issue_key(issue: Issue) -> str:
    return f"jujuradar-{issue.date.isoformat()}"


def _archive_entry(key: str, title: str, howpublished: str, issue: Issue, url: str) -> str:
    return _entry(
        key,
        [
            ("title", _escape(title)),
            ("author", f"{{{PUBLISHER}}}"),
            ("howpublished", howpublished),
            ("year", str(issue.date.year)),
            ("month", str(issue.date.month)),
            ("day", str(issue.date.day)),
            ("url", url),
        ],
    )


def issue_bibtex(issue: Issue, url: str) -> str:
    howpublished = f"{PUBLISHER} · {issue.date:%Y.%m.%d}"
    return _archive_entry(issue_key(issue), issue.title, howpublished, issue, url)


def item_bibtex(issue: Issue, item: Item, url: str) -> str:
    howpublished = f"{PUBLISHER} · {issue.date:%Y.%m.%d} · {_escape(issue.title)}"
    return _archive_entry(f"jujuradar-{item.id}", item.title, howpublished, issue, url)
