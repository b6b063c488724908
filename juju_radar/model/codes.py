"""Every code the archive reports a problem with: one registry, for the documentation.

A code names a kind of problem: ``radar check`` prints it in brackets
(``PATH:LINE: error: message [code]``), the build makes it the subtype of a Sphinx warning
of type ``radar`` (``[radar.code]``), ``radar import``, ``radar links`` and ``radar refs``
print it the same way. Each entry says where the code is reported (its scope), with what
severity by default, and what it means; the documentation's tables of codes
(``docs/reference/codes.md``) are generated from it, and ``tests/test_codes.py`` checks
that it names every code the package emits, and nothing else.

The severity a code is reported with comes from here: ``radar check`` grades what it
found by :func:`graded` and fails on what :func:`fails` says fails, the build logs a
problem of the model at the level :func:`severity` gives, so the two agree on every code
(``tests/test_severity_agreement.py`` builds an input for each one). ``make html`` runs
sphinx-build with ``-W``, where a warning fails the build as an error does: the scopes
both report (issue, page, bib, conf) hold errors and notes only, and a warning still
fails ``radar check`` as it fails the build. The emitting code states a severity too, the
registry's (``tests/test_codes.py`` keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

from juju_radar.model.problems import Problem, Severity

Scope = Literal["issue", "page", "bib", "conf", "entities", "import", "build", "links", "refs"]

# The scopes in the order the documentation lists them, with their headings.
SCOPES: dict[Scope, str] = {
    "issue": "Issue pages (`issues/*/*.md`)",
    "page": "Every page (issue pages and the site's own pages)",
    "bib": "`references.bib`",
    "conf": "The site's configuration (`conf.py`)",
    "entities": "The editors' registry of entities (`entities.yaml`)",
    "import": "Importing an export (`radar import`)",
    "build": "The build only (`make html`)",
    "links": "A built site's links (`radar links`)",
    "refs": "Completing references (`radar refs`)",
}


@dataclass(frozen=True)
class Code:
    """A code as reported in one scope. ``where`` says where it is reported, when that
    is not simply the file and line at fault."""

    code: str
    severity: Severity
    scope: Scope
    meaning: str
    where: str = ""


def _row(scope: Scope, severity: Severity, codes: str, meaning: str, where: str = "") -> list[Code]:
    """One row of a table: the codes (separated by spaces) sharing a meaning."""
    return [Code(code, severity, scope, meaning, where) for code in codes.split()]


_ISSUE: list[Code] = [
    *_row(
        "issue",
        "error",
        "bad-correction",
        "a `corrections` entry that is not a `date` (`YYYY-MM-DD`, not before the issue's) "
        "and a `text` (one sentence on one line, at most 500 characters), or `corrections` "
        "not a list; reported at the entry's line and left out",
    ),
    *_row(
        "issue",
        "note",
        "uncorrected-change",
        "the page's file has a commit after the one that added it, dated after the issue's "
        "date and after its last correction (`git log`): a change after publishing with no "
        "correction recorded",
        "`radar check` only, at the date's line, from the repository's history",
    ),
    *_row(
        "issue",
        "error",
        "front-matter",
        "no `---` front matter, a closing line other than `---` alone, invalid YAML, or a "
        "field of the wrong type; also YAML aliases (`*name`), front matter over 20,000 "
        "characters or nested more than 8 deep",
    ),
    *_row(
        "issue",
        "error",
        "missing-date bad-date date-mismatch",
        "date missing, not a date written `YYYY-MM-DD` (`20260910` and `2026-W37-4` are "
        "refused), or not the file name's",
    ),
    *_row(
        "issue",
        "error",
        "date-out-of-range",
        "the date's year is outside `radar_date_span` (2000–2100 unless `conf.py` says otherwise)",
    ),
    *_row(
        "issue",
        "error",
        "heading-markup",
        "a heading (`#` or underlined with `===`/`---`) holding a link, image or role: "
        "headings hold text only",
    ),
    *_row("issue", "error", "too-many-items", "more items than `radar_max_items` (100)"),
    *_row(
        "issue",
        "error",
        "bad-path",
        "a page in `issues/YYYY/` not named `YYYY-MM-DD.md` by its date and year",
    ),
    *_row("issue", "error", "duplicate-date", "two issue pages have the same date"),
    *_row("issue", "error", "missing-title", "the issue or an item has no title"),
    *_row("issue", "error", "unknown-status", "`status` is not `published` or `draft`"),
    *_row("issue", "error", "unknown-field", "an unknown front-matter field"),
    *_row(
        "issue",
        "error",
        "length-mismatch",
        "the number of 字 the `length` field states differs from the counted one (正文实计) "
        "by more than half of the counted one (checked on a page without errors): a "
        "truncated export, or another issue's figure (see the maintainers' decisions)",
    ),
    *_row("issue", "error", "missing-closing", "no `{radar-closing}` block"),
    *_row("issue", "error", "no-items", "the issue has no items"),
    *_row(
        "issue",
        "error",
        "nested-block stray-close unclosed-block unclosed-fence",
        "broken `:::` blocks or code fences (an unclosed fence is reported where it opens)",
    ),
    *_row(
        "issue",
        "error",
        "placeholder",
        "a published issue still holds `radar new`'s placeholders (本期标题, 在这里写…, "
        "第一条的标题, a `draft-…` id, an empty `length`)",
    ),
    *_row("issue", "error", "raw-html", "`<tag>`-looking text (write `\\<`)"),
    *_row(
        "issue",
        "error",
        "manual-bibliography",
        "a `{bibliography}` block: the build adds the issue's bibliography",
    ),
    *_row(
        "issue",
        "error",
        "unknown-option missing-option duplicate-option bad-options",
        "item options",
    ),
    *_row(
        "issue",
        "error",
        "unknown-entity",
        "an item's `entities` or `not-entities` option names an id `entities.yaml` lacks",
    ),
    *_row("issue", "error", "bad-id", "the id is not lowercase ASCII letters, digits and `-`"),
    *_row(
        "issue",
        "error",
        "reserved-id",
        "the id is one the issue page uses for its own parts (`top`, `references`, "
        "`cite-this`, `closing`, `cite-…`, the theme's)",
    ),
    *_row(
        "issue",
        "error",
        "unknown-topic unknown-verdict",
        "not in `conf.py` (with the closest name, or the list of choices)",
    ),
    *_row("issue", "error", "bad-score", "not 0–10 in halves"),
    *_row("issue", "error", "bad-sources", "`:sources:` is not `label <key> · label <key>`"),
    *_row(
        "issue",
        "error",
        "duplicate-id",
        "the id is used twice in the issue or in another issue",
    ),
    *_row("issue", "error", "duplicate-title", "two items in the issue have the same title"),
    *_row(
        "issue",
        "error",
        "missing-citation",
        "a citation key that is not in `references.bib`",
    ),
    *_row(
        "issue",
        "error",
        "encoding unreadable",
        "the file is not UTF-8, or cannot be read",
    ),
]

_PAGE: list[Code] = [
    *_row(
        "page",
        "error",
        "forbidden-directive",
        "a block (in a `:::` or a backtick fence) the page may not hold, `{eval-rst}` and "
        "math included; an item or closing written in a backtick fence",
    ),
    *_row("page", "error", "forbidden-role", "any `{role}`"),
    *_row(
        "page",
        "error",
        "forbidden-link",
        "a link that is not http(s), `mailto:`, a `.md` page of the site or an anchor (a "
        "file, a page outside the site, `//other.host`), or a toctree entry that is not a "
        "page",
    ),
    *_row(
        "page",
        "error",
        "forbidden-image",
        "any image: the archive shows none, from a file or from another host",
    ),
    *_row(
        "page",
        "error",
        "forbidden-field",
        "front matter MyST acts on (`myst`, `html_meta`, `substitutions`), or a site page's "
        "field other than `orphan`/`description`",
    ),
    *_row("page", "error", "raw-html", "raw HTML in a site page (when the site enables it)"),
    *_row(
        "page",
        "error",
        "control-character",
        'a control, line-separator or bidirectional control character (see "Security")',
    ),
    *_row(
        "issue",
        "error",
        "invisible-character",
        "an invisible format character (Unicode category Cf: U+200B, U+2060, U+FEFF, U+00AD, "
        "the tag characters U+E0000–U+E007F...) in the title, an item's or the closing's "
        "heading, a source label, the topic, the verdict or a tag; a ZWJ joining two emoji is "
        'allowed (see "Security")',
    ),
    *_row(
        "page",
        "error",
        "page-too-large",
        "the page is over `radar_max_page_chars` (500,000) characters",
    ),
    *_row(
        "page",
        "error",
        "reserved-id",
        "a MyST target (`(closing)=`) taking an id the page gives its own parts",
    ),
    *_row(
        "page",
        "error",
        "refused-file",
        "a `docutils.conf` at the root: it would configure the build",
    ),
    *_row(
        "page",
        "error",
        "unsafe-translation",
        "an interface translation holding markup; a compiled catalogue (`.mo`, `.gmo`, or a "
        "file beginning as one) anywhere in the site; a file of `locales/` other than "
        "`<language>/LC_MESSAGES/sphinx.po`; a `.po` that is not UTF-8 (a byte-order mark, "
        "UTF-16), whose header's Content-Type is not exactly `text/plain; charset=UTF-8`, or "
        "that gettext reads otherwise than it says; `locale_dirs` naming a folder in `conf.py` "
        "(the catalogue rule)",
    ),
    *_row(
        "page",
        "error",
        "symlink-outside",
        "a symlink of the site (`_static/`, `issues/`…) pointing out of the repository",
    ),
]

_BIB: list[Code] = [
    *_row("bib", "error", "duplicate-key", "an entry key is used twice (keys ignore case)"),
    *_row(
        "bib",
        "error",
        "anchor-clash",
        "two keys differ only in punctuation or accents (`a_b`, `a.b`; `café`, `cafe`): a "
        "page would give both one anchor",
    ),
    *_row("bib", "error", "unbalanced-braces", "a missing or extra `{`/`}`"),
    *_row("bib", "error", "unescaped-percent", "a bare `%` in a field (write `\\%`)"),
    *_row(
        "bib",
        "error",
        "bib-syntax",
        "anything else pybtex cannot read, or a repeated field",
    ),
    *_row("bib", "error", "missing-title", "an entry without a title"),
    *_row("bib", "error", "unsafe-url", "a URL that is not http(s)"),
    *_row(
        "bib",
        "error",
        "private-address",
        "a `url`, `archiveurl`, `\\url{…}` or `\\href{…}` whose host is not on the public "
        "internet, read literally (no name is resolved): `localhost` or a name under it, a "
        "loopback, private, link-local, unique-local, multicast, reserved or IPv4-mapped "
        "address in any spelling (`127.1`, `2130706433`, `0x7f000001`, `[::ffff:127.0.0.1]`), "
        "or a user name before the host (`http://example.com@127.0.0.1/`)",
    ),
    *_row(
        "bib",
        "error",
        "escaped-url",
        "an address (`url`, `archiveurl`, `doi`, `eprint`) written with a LaTeX escape "
        "(`\\_`, `\\&`, `\\#`, `\\%`, `\\$`): it is read verbatim, backslashes included",
    ),
    *_row(
        "bib",
        "error",
        "crossref-loop",
        "a `crossref` leading back to its own entry (A → B → A, or A → A)",
    ),
    *_row("bib", "error", "crossref-depth", "a `crossref` chain through more than 3 entries"),
    *_row(
        "bib",
        "error",
        "crossref-missing",
        "a `crossref` naming no entry of the file (its value as pybtex reads it, `@string` "
        "macros expanded)",
    ),
    *_row(
        "bib",
        "error",
        "bad-latex",
        "LaTeX the build cannot turn into text (`\\href{…}{…}`, a bare `\\footnote`, a "
        "trailing `\\`…): the entry is converted as its page and its downloads convert it, "
        "and refused at the field",
    ),
    *_row(
        "bib",
        "error",
        "field-too-long",
        "a field, `@string` or `@preamble` over `radar_bib_max_field_chars` (20,000) "
        "characters once `@string` macros are expanded",
    ),
    *_row(
        "bib",
        "error",
        "too-many-entries",
        "more entries than `radar_bib_max_entries` (100,000): reported at the first one "
        "past the limit, where reading stops",
    ),
    *_row(
        "bib",
        "error",
        "expansion-too-large",
        "`@string` macros expanding the file past twice its length plus 1,000,000 "
        "characters (a macro repeating another): reading stops there",
    ),
    *_row(
        "bib",
        "error",
        "control-character",
        "a control, line-separator or bidirectional control character, as in pages",
    ),
    *_row(
        "bib",
        "error",
        "invisible-character",
        "an invisible format character (Unicode category Cf: U+200B, U+2060, U+FEFF, U+00AD, "
        "the tag characters U+E0000–U+E007F...) in an entry's key, `title`, `booktitle` or "
        "`radarlabel`; a ZWJ joining two emoji is "
        'allowed (see "Security")',
    ),
    *_row(
        "bib",
        "note",
        "missing-identifier",
        "no DOI/URL/arXiv id/ISBN: an editor must complete it",
    ),
    *_row(
        "bib",
        "note",
        "latex-special",
        "a `^`, `_`, `&` or `#` outside math in a text field: pages show it as written and "
        "the downloads escape it, but LaTeX stops on `references.bib` as it stands (write "
        "`\\textasciicircum{}`, `\\_`, `\\&`, `\\#`)",
    ),
    *_row(
        "bib",
        "error",
        "internal-error",
        "a check itself failed on this file: please report it, it is a bug",
    ),
]

_CONF: list[Code] = [
    *_row(
        "conf",
        "error",
        "missing-topic-page",
        "a topic of `radar_topics` without its page `topics/<key>.md` (reported by "
        "`radar check` and the build, at the topic's line)",
    ),
    *_row(
        "conf",
        "error",
        "bad-license",
        "`radar_license` is not a dict of exactly `spdx` (an identifier of the SPDX licence "
        "list) and `url` (an http(s) address); reported at its line, and the site then "
        "states no licence",
    ),
]

_ENTITIES: list[Code] = [
    *_row(
        "entities",
        "error",
        "bad-entity",
        "not valid YAML, not a list of mappings, an unknown or missing field, a field "
        "that is not a text (aliases: a list of texts), or an id that is not lowercase "
        "ASCII letters, digits and `-`",
    ),
    *_row("entities", "error", "duplicate-entity", "an id another entity has"),
    *_row(
        "entities",
        "error",
        "duplicate-alias",
        "a name or alias another entity has (case aside): a mention must name one entity",
    ),
    *_row(
        "entities",
        "error",
        "unknown-kind",
        "a kind other than model, organization, person, benchmark, method, law, product",
    ),
    *_row(
        "entities",
        "error",
        "bad-identifier",
        "an identifier not in its form: wikidata `Q123`, homepage `https://…`, arxiv "
        "`2509.01234` (or an old-style `cs/0112017`)",
    ),
    *_row(
        "entities",
        "error",
        "invisible-character",
        "an invisible format character (Unicode category Cf) in a name or alias",
    ),
]

_IMPORT: list[Code] = [
    *_row("import", "error", "empty", "the file is empty"),
    *_row("import", "error", "encoding", "not UTF-8"),
    *_row("import", "error", "unreadable", "the file cannot be read"),
    *_row(
        "import",
        "error",
        "control-character",
        "a control, line-separator or bidirectional control character, as in pages",
    ),
    *_row(
        "import",
        "error",
        "invisible-character",
        "an invisible format character (Unicode category Cf: U+200B, U+2060, U+FEFF, U+00AD, "
        "the tag characters U+E0000–U+E007F...) in the title, an item heading, a topic, "
        "verdict or tag, or a source label; a ZWJ joining two emoji is "
        'allowed (see "Security")',
    ),
    *_row(
        "import",
        "error",
        "missing-title",
        "no title line before the date line, a title over several lines, or an item "
        "heading with an emoji but no title",
    ),
    *_row("import", "error", "date-line", "no date line `Juju Radar · YYYY.MM.DD` after the title"),
    *_row("import", "error", "bad-date", "the date line's date is not in the calendar"),
    *_row(
        "import",
        "error",
        "length-line",
        "no length line `约 N 字 · 阅读约 M 分钟` after the date line",
    ),
    *_row(
        "import",
        "error",
        "no-items",
        "the issue has no items (reported at the first emoji-led line, else at the lead)",
    ),
    *_row(
        "import",
        "error",
        "missing-category",
        "an emoji heading without a category line after it",
    ),
    *_row(
        "import",
        "error",
        "missing-heading",
        "a category line without an item heading (an emoji and a title) before it",
    ),
    *_row("import", "error", "missing-emoji", "an item heading that does not start with an emoji"),
    *_row("import", "error", "bad-heading", "an item heading over more than one line"),
    *_row(
        "import",
        "error",
        "bad-category",
        "naming the category line, saying what it lacks: the ` · `, `SCORE/10` or the `｜` "
        "and verdict",
    ),
    *_row(
        "import",
        "error",
        "unknown-topic unknown-verdict",
        "with the closest name, or the list of choices",
    ),
    *_row("import", "error", "bad-score", "the score is not a number from 0 to 10 in halves"),
    *_row(
        "import",
        "error",
        "length-mismatch",
        "the length line states more than half as many 字 again as, or less than half of, "
        "the text the import counts: a truncated export, or another issue's figure",
    ),
    *_row(
        "import",
        "error",
        "bad-tag",
        "an empty tag, or a tag holding a `,` (tags are separated by ` / `)",
    ),
    *_row("import", "error", "missing-body", "an item without body text"),
    *_row(
        "import",
        "error",
        "missing-sources",
        "the item's last paragraph is body text, not its line of labels: it spans lines, "
        "ends a sentence or has a `，`, `；` or `：`",
    ),
    *_row(
        "import",
        "error",
        "bad-label",
        "a label on that line is empty, starts or ends with a stray `·`, is over 60 "
        "characters, or is given twice in the item",
    ),
    *_row(
        "import",
        "error",
        "bad-address",
        "the address after a label is not a full http(s) address, or holds a space, a "
        "quote, a brace or a backslash, a user name or password, or is over 2,000 characters",
    ),
    *_row(
        "import",
        "error",
        "private-address",
        "the address after a label names a host not on the public internet, read literally: "
        "`localhost`, a loopback, private, link-local or IPv4-mapped address in any spelling",
    ),
    *_row(
        "import",
        "error",
        "bad-id reserved-id duplicate-id",
        "an id chosen in the export (`{#id}` after an item's title) that is not valid, "
        "is reserved, or is taken by another item of the archive",
    ),
    *_row("import", "error", "duplicate-title", "two items of the export have the same title"),
    *_row(
        "import", "error", "missing-closing", "no closing section (`今天的主线` and its paragraphs)"
    ),
    *_row(
        "import",
        "warning",
        "exists",
        "the date is already in the archive: use `--force` (the file counts as skipped)",
    ),
    *_row("import", "error", "date-out-of-range", "outside `radar_date_span`"),
    *_row(
        "import",
        "error",
        "edited",
        "with `--force`: the page differs from what radar wrote there (edited by hand, or "
        "written before radar kept a note, `_build/radar-written.json`); `--discard-edits` "
        "replaces it, keeping its text under `_build/replaced/`",
    ),
    *_row(
        "import",
        "error",
        "unwritable",
        "naming the file; also when the page or `references.bib` would be written through "
        "a symbolic link leaving the repository: nothing is written; when a page cannot be "
        "written, `references.bib` and the pages already written are put back as they were",
    ),
    *_row(
        "import",
        "error",
        "invalid-page invalid-reference",
        "the page or reference the import would write does not pass `radar check`; please "
        "report it, it is a bug",
    ),
]

_BUILD: list[Code] = [
    *_row(
        "build",
        "error",
        "unsafe-url",
        "a link, resource or attribute of a built page that is not allowed (an attribute "
        "the page allowlist does not list for its element, such as `on…`, `srcdoc` or "
        "`formaction`; a third-party script or style; a `<meta http-equiv>` other than the "
        "page's policy; a `refresh`; a style with an address not of the site): removed "
        "from the page",
        "the page",
    ),
    *_row(
        "build",
        "error",
        "unsafe-markup",
        "an element of a built page that is not the site's own: one the page allowlist "
        "does not list, an inline `<script>` or "
        "`<style>` whose text the site's templates do not print, a `<base>`, a `<form>` "
        "other than the search form, an `<iframe>` not of the site, an `<object>` or "
        "`<embed>`; or a page whose Content-Security-Policy is missing or after a script: "
        "removed from the page",
        "the page",
    ),
    *_row(
        "build",
        "error",
        "unsafe-translation",
        "what `radar check` refuses under the same code (the catalogue rule), checked on the "
        "catalogue the build compiled and as gettext reads it: stops the build before "
        "anything is read",
        "the catalogue's line (the header's for its Content-Type; line 1 for an encoding or "
        "a compiled catalogue; `conf.py`'s for `locale_dirs`)",
    ),
    *_row(
        "build",
        "error",
        "internal-error",
        "an exception in the build: one line, `FILE: ERROR: the build failed on this file: "
        "REASON [radar.internal-error]`; the traceback is saved to a file named on the "
        "next line",
        "the page being read or written (`conf.py` when no page can be named)",
    ),
    *_row(
        "build",
        "error",
        "bib-unreadable",
        "an `unbalanced-braces`, `bib-syntax`, `crossref-loop`, `crossref-depth`, "
        "`crossref-missing`, `bad-latex`, `field-too-long`, `too-many-entries` or "
        "`expansion-too-large` error in `references.bib`: the build stops before it builds "
        "anything",
        "the first such error's line",
    ),
    *_row(
        "build",
        "error",
        "bad-site-url",
        "the site's address is not http(s) (or has a query or fragment): stops the build",
        "`conf.py`",
    ),
    *_row(
        "build",
        "error",
        "no-site-url",
        "a build with `RADAR_DEPLOY=1` that has no address: stops the build",
        "`conf.py`",
    ),
    *_row(
        "page",
        "error",
        "generated-page",
        "a page source where the build generates a year or month page (`references/`, "
        "`best/`, `topics/<topic>/`), such as a stub an older build wrote: the generated "
        "page replaces the source's",
        "the file",
    ),
    *_row(
        "build",
        "warning",
        "search",
        "the search index could not be built",
        "the build's log",
    ),
    *_row(
        "build",
        "note",
        "missing-identifier",
        "references without any identifier, summed up in one line "
        "(`references.bib: N entries without a DOI/URL/arXiv id/ISBN yet`)",
        "`references.bib`",
    ),
    *_row(
        "build",
        "error",
        "card-font-missing",
        "the CJK font a story's share card is drawn with (Noto Sans CJK, Debian's "
        "`fonts-noto-cjk`, as README asks) is not installed: no card is drawn",
        "`conf.py`",
    ),
]

_LINKS: list[Code] = [
    *_row(
        "links",
        "error",
        "broken-link",
        "a local link, asset or anchor of a built page that does not resolve "
        "(`PAGE: TARGET [broken-link]`; the exit status is 1)",
    ),
    *_row(
        "links",
        "warning",
        "source-dead",
        "`radar links --external`: a source that is gone (4xx, 5xx, unreachable); the exit "
        "status is 1 with `--strict`",
    ),
    *_row(
        "links",
        "note",
        "source-moved",
        "`radar links --external`: a source permanently redirected (301/308, with where to)",
    ),
    *_row(
        "links",
        "note",
        "source-refused",
        "`radar links --external`: a source turning robots away (401/403/429)",
    ),
]

_REFS: list[Code] = [
    *_row(
        "refs",
        "error",
        "archive-failed",
        "`radar refs archive`: a capture by the Internet Archive failed; nothing is written "
        "for the entry and the exit status is 1",
    ),
]

CODES: tuple[Code, ...] = (
    *_ISSUE,
    *_PAGE,
    *_BIB,
    *_CONF,
    *_ENTITIES,
    *_IMPORT,
    *_BUILD,
    *_LINKS,
    *_REFS,
)


# The scopes ``radar check`` and ``make html`` both report: a code has one severity there.
CHECKED: tuple[Scope, ...] = ("issue", "page", "bib", "conf", "entities", "build")
# What fails ``radar check``, as it fails ``make html`` (sphinx-build -W): a note never.
FAILING: frozenset[Severity] = frozenset({"error", "warning"})


def severity(code: str, default: Severity) -> Severity:
    """The severity ``radar check`` and the build report ``code`` with: the registry's in
    the scopes both report; ``default`` (the emitter's) for a code the registry lacks."""
    return _checked_severities().get(code, default)


@cache
def _checked_severities() -> dict[str, Severity]:
    return {entry.code: entry.severity for entry in CODES if entry.scope in CHECKED}


def fails(code: str, default: Severity) -> bool:
    """Whether a problem of ``code`` fails ``radar check`` and ``make html``."""
    return severity(code, default) in FAILING


def graded(problem: Problem) -> Problem:
    """``problem`` with the severity the registry gives its code."""
    wanted = severity(problem.code, problem.severity)
    return problem if wanted == problem.severity else replace(problem, severity=wanted)


def in_scope(scope: Scope) -> tuple[Code, ...]:
    """The codes reported in ``scope``, in the registry's order."""
    return tuple(code for code in CODES if code.scope == scope)


def names() -> frozenset[str]:
    """Every code, whatever its scope."""
    return frozenset(code.code for code in CODES)


def severities(code: str) -> frozenset[Severity]:
    """The severities ``code`` is reported with (one per scope it is reported in)."""
    return frozenset(entry.severity for entry in CODES if entry.code == code)


def table_rows(codes: Iterable[Code]) -> list[tuple[tuple[str, ...], Code]]:
    """Rows of a table: consecutive codes sharing severity, meaning and place, together."""
    rows: list[tuple[tuple[str, ...], Code]] = []
    for code in codes:
        if rows:
            names_so_far, first = rows[-1]
            same = (first.severity, first.meaning, first.where)
            if same == (code.severity, code.meaning, code.where):
                rows[-1] = ((*names_so_far, code.code), first)
                continue
        rows.append(((code.code,), code))
    return rows
