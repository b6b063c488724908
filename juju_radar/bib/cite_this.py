"""Citing the archive itself, an issue or one item of it: BibTeX, GB/T 7714-2025 and APA 7.

Two kinds of work only, both published online by Juju Radar on the issue's date, so
the plain-text styles are written out here rather than through a CSL processor
(``tests/test_cite_this.py`` checks them against hand-worked examples and against the
official CSL styles). The access date is the reader's: callers pass the text to put in
its place (a date, or a marker the page replaces).

Nothing is invented: without the site's URL, no URL (and no ``urldate``) is given.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from juju_radar.model.corrections import last_correction
from juju_radar.model.issue_records import Issue, Item
from juju_radar.model.license import License

PUBLISHER = "Juju Radar"
LANGUAGE = "zh-CN"


@dataclass(frozen=True)
class ArchiveWork:
    """An issue or an item, as a citable work."""

    key: str
    title: str
    date: dt.date
    howpublished: str
    url: str = ""  # "" when the site URL is not configured
    modified: dt.date | None = None  # the issue's last correction, if any


def issue_key(issue: Issue) -> str:
    return f"jujuradar-{issue.date.isoformat()}"


def issue_work(issue: Issue, url: str) -> ArchiveWork:
    howpublished = f"{PUBLISHER} · {issue.date:%Y.%m.%d}"
    modified = last_correction(issue.corrections)
    return ArchiveWork(issue_key(issue), issue.title, issue.date, howpublished, url, modified)


def item_work(issue: Issue, item: Item, url: str) -> ArchiveWork:
    howpublished = f"{PUBLISHER} · {issue.date:%Y.%m.%d} · {issue.title}"
    key, modified = f"jujuradar-{item.id}", last_correction(issue.corrections)
    return ArchiveWork(key, item.title, issue.date, howpublished, url, modified)


def urldate_guidance(modified: dt.date) -> str:
    """What to give as the access date of a page corrected on ``modified``."""
    day = modified.isoformat()
    return (
        f"本页于 {day} 更正：引用时 urldate 请填您实际访问本页的日期；"
        f"在 {day} 之前访问看到的是更正前的版本。"
    )


# --- BibTeX ------------------------------------------------------------------------

# Every character LaTeX gives a meaning: ``{}`` group, ``%`` comments, ``\`` starts a
# command, ``&`` aligns, ``_``/``^`` sub- and superscript, ``#`` a parameter, ``$`` math,
# ``~`` a non-breaking space. Braces are written as commands: BibTeX counts ``\{`` as a
# brace too, so one unbalanced brace in a title would end the field.
LATEX_ESCAPES = {
    "\\": "\\textbackslash{}",
    "{": "\\textbraceleft{}",
    "}": "\\textbraceright{}",
    "%": "\\%",
    "&": "\\&",
    "_": "\\_",
    "#": "\\#",
    "$": "\\$",
    "^": "\\textasciicircum{}",
    "~": "\\textasciitilde{}",
}
LATEX_SPECIAL_RE = re.compile("[" + re.escape("".join(LATEX_ESCAPES)) + "]")
# In a URL, which BibTeX copies and biblatex reads verbatim, only what would end the
# field: braces and the backslash, percent-encoded. A "%" stays as written (as "\\%"
# biblatex would print "%5C%").
URL_ESCAPES = {"{": "%7B", "}": "%7D", "\\": "%5C"}
URL_SPECIAL_RE = re.compile(r"[{}\\]")


def latex_escape(value: str) -> str:
    """In one pass, so that the braces of ``\\textbackslash{}`` stay as they are."""
    return LATEX_SPECIAL_RE.sub(lambda match: LATEX_ESCAPES[match.group()], value)


def _url_escape(value: str) -> str:
    return URL_SPECIAL_RE.sub(lambda match: URL_ESCAPES[match.group()], value)


def rights(license: License) -> str:
    """The licence as one line of text: its SPDX identifier and its address."""
    return f"{license.spdx} {license.url}"


def bibtex(work: ArchiveWork, accessed: str | None, license: License | None = None) -> str:
    """A ``@misc`` entry for biblatex (``date``, ``url``, ``urldate``) and for plain
    BibTeX styles (``year``). The title in double braces: BibTeX styles lower-case
    titles, and these are the archive's own ("AI", "RISE"). Without ``accessed`` (a
    file, read another day), no ``urldate``. The site's licence, when it states one, is
    ``copyright`` (which styles leave out and Zotero reads as Rights)."""
    fields = [
        ("title", f"{{{latex_escape(work.title)}}}"),
        ("author", f"{{{PUBLISHER}}}"),  # an institution: braced, never split into names
        ("howpublished", latex_escape(work.howpublished)),
        ("date", work.date.isoformat()),
        ("year", str(work.date.year)),
        ("langid", "chinese"),
    ]
    if work.url:
        fields.append(("url", _url_escape(work.url)))
    if work.url and accessed is not None:
        fields.append(("urldate", accessed))
    if license is not None:
        fields.append(("copyright", latex_escape(rights(license))))
    body = ",\n".join(f"  {name:<12} = {{{value}}}" for name, value in fields)
    return f"@misc{{{work.key},\n{body},\n}}"


# --- CSL-JSON -------------------------------------------------------------------------


def csl_record(work: ArchiveWork, license: License | None = None) -> dict[str, object]:
    """The work as CSL-JSON: a web page by Juju Radar (no container title: the site's
    name is its author's, which APA leaves out). No access date: the reader's own. The
    site's licence, when it states one, in ``custom`` (CSL-JSON 1.0 has no licence
    variable, and its schema refuses any other)."""
    record: dict[str, object] = {
        "id": work.key,
        "type": "webpage",
        "title": work.title,
        "author": [{"literal": PUBLISHER}],
        "issued": {"date-parts": [[work.date.year, work.date.month, work.date.day]]},
        "language": LANGUAGE,
    }
    if work.url:
        record["URL"] = work.url
    if license is not None:
        record["custom"] = {"license": license.url, "license-spdx": license.spdx}
    return record


def issue_works(issue: Issue, url: str) -> list[ArchiveWork]:
    """The issue, then each of its items, as citable works (``url``: the issue's)."""
    items = [item_work(issue, item, f"{url}#{item.id}" if url else "") for item in issue.items]
    return [issue_work(issue, url), *items]


# --- GB/T 7714-2025 ------------------------------------------------------------------


def gbt7714(work: ArchiveWork, accessed: str) -> str:
    """GB/T 7714-2025 §8.11 (websites and web pages): 主要责任者. 题名[EB/OL].
    （发布日期）[引用日期]. 获取和访问路径."""
    parts = [PUBLISHER, f"{work.title}[EB/OL]", f"（{work.date.isoformat()}）[{accessed}]"]
    if work.url:
        parts.append(work.url)
    return ". ".join(parts) + "."


# --- APA 7 -----------------------------------------------------------------------------

MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# A title ending in one of these takes no period after it (APA 7 §9.19).
TERMINAL_PUNCTUATION = tuple("?!？！")


def apa(work: ArchiveWork) -> str:
    """APA 7 §10.16 (webpage on a news website): Author. (Year, Month Day). Title. URL

    The site name is left out because it is the author (§10.16); no retrieval date,
    because the page is dated and does not change (§9.16); no period after the URL
    (§9.35). Italics (the title) are lost in plain text."""
    date = f"({work.date.year}, {MONTH_NAMES[work.date.month - 1]} {work.date.day})"
    title = work.title if work.title.endswith(TERMINAL_PUNCTUATION) else f"{work.title}."
    citation = f"{PUBLISHER}. {date}. {title}"
    return f"{citation} {work.url}" if work.url else citation
