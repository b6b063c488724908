"""``radar refs``: complete references with their DOI, arXiv id or URL, never guessing.

``missing`` lists what lacks an identifier; ``lookup`` asks doi.org, the arXiv API and
Crossref and keeps the numbered candidates it shows (``_build/refs/KEY.json``);
``accept`` writes one of them into the .bib file after the editor confirms; ``set``
records an identifier an editor found; ``complete`` walks the entries lacking one, newest
issue first, asking for each what to do. Only ``accept``, ``set`` and ``complete`` write,
and only one entry at a time: every other byte of the file stays as it was.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.edit import EditError, find_entry, set_fields
from juju_radar.bib.identifiers import (
    LABEL_FIELD,
    SOURCE_FIELD,
    arxiv_eprint,
    is_arxiv_id,
    is_doi,
    normalize_arxiv,
    normalize_doi,
    web_url,
)
from juju_radar.bib.reader import IDENTIFIER_FIELDS, BibEntry, citable_entries
from juju_radar.editors.exit_status import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE
from juju_radar.editors.lookup.candidates import Candidate, EntryFacts, Ranking, rank
from juju_radar.editors.site_files import Site, SiteError, atomic_write, open_site, read_text
from juju_radar.model.issues import parse_issue
from juju_radar.model.messages import N_, _, ngettext

if TYPE_CHECKING:  # the HTTP client and feed parser load only for a lookup
    from juju_radar.editors.lookup.client import Client

NEWSROOM_TIMEZONE = ZoneInfo("Asia/Shanghai")
LOOKUPS = Path("_build") / "refs"
JOURNAL_TYPES = frozenset({"journal-article", "article-journal", "article"})


def add_parser(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    refs = commands.add_parser(
        "refs", parents=[common], help="complete references: DOI, arXiv id, URL"
    )
    actions = refs.add_subparsers(dest="refs_command", required=True, metavar="ACTION")
    missing = actions.add_parser(
        "missing", parents=[common], help="entries without DOI/arXiv id/URL/ISBN, with their items"
    )
    missing.add_argument("--format", choices=("text", "json"), default="text")
    missing.set_defaults(run=run_missing)
    lookup = actions.add_parser(
        "lookup", parents=[common], help="propose numbered candidates from doi.org, arXiv, Crossref"
    )
    lookup.add_argument("key")
    lookup.add_argument("--format", choices=("text", "json"), default="text")
    lookup.set_defaults(run=run_lookup)
    accept = actions.add_parser(
        "accept", parents=[common], help="write candidate N of the last lookup into the entry"
    )
    accept.add_argument("key")
    accept.add_argument("number", type=int, metavar="N")
    accept.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    accept.set_defaults(run=run_accept)
    setting = actions.add_parser(
        "set", parents=[common], help="record an identifier you found yourself"
    )
    setting.add_argument("key")
    found = setting.add_mutually_exclusive_group(required=True)
    found.add_argument("--doi")
    found.add_argument("--arxiv")
    found.add_argument("--url")
    setting.set_defaults(run=run_set)
    complete = actions.add_parser(
        "complete",
        parents=[common],
        help="look up each entry lacking an identifier, newest issue first, and ask",
    )
    which = complete.add_mutually_exclusive_group()
    which.add_argument("keys", nargs="*", default=[], metavar="KEY")
    which.add_argument(
        "--since", type=dt.date.fromisoformat, metavar="YYYY-MM-DD", help="cited on or after"
    )
    complete.add_argument(
        "--yes-conclusive", action="store_true", help="accept conclusive matches without asking"
    )
    complete.add_argument(
        "--revisit", action="store_true", help="walk the entries skipped before too"
    )
    complete.set_defaults(run=run_complete)
    archive = actions.add_parser(
        "archive",
        parents=[common],
        help="have the Internet Archive capture each source url; record the snapshot",
    )
    archive.add_argument("keys", nargs="*", default=[], metavar="KEY")
    archive.add_argument(
        "--all", action="store_true", help="every entry with a url and no archived copy yet"
    )
    archive.set_defaults(run=run_archive)


def run_archive(args: argparse.Namespace) -> int:
    from juju_radar.editors.archive_sources import run_archive as archive

    return archive(args)


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


def current_entry(site: Site, key: str) -> tuple[str, BibEntry]:
    """The .bib text as it is now, and entry ``key`` in it (:class:`EditError` if none)."""
    text, _bom = read_bib(site)
    return text, find_entry(text, key)


def lacks_identifier(entry: BibEntry) -> bool:
    return not any(entry.has_nonblank_field(name) for name in IDENTIFIER_FIELDS)


# --- missing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Citing:
    path: str
    line: int
    item: str
    issued: dt.date


def run_missing(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    text, _bom = read_bib(site)
    citing = citing_items(site)
    missing = [
        (entry, citing.get((entry.key or "").lower(), []))
        for entry in citable_entries(text)
        if lacks_identifier(entry)
    ]
    if args.format == "json":
        rows = [
            {
                "key": entry.key,
                "path": site.bibfiles[0],
                "line": entry.line,
                "title": entry.field_value("title") or "",
                "cited_by": [
                    {"path": each.path, "line": each.line, "item": each.item} for each in cited_by
                ],
            }
            for entry, cited_by in missing
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for entry, cited_by in missing:
            print_entry(site, entry, cited_by)
    count = len(missing)
    summary = ngettext(
        "{count} entry lacks a DOI, arXiv id, URL or ISBN",
        "{count} entries lack a DOI, arXiv id, URL or ISBN",
        count,
    )
    print(summary.format(count=count), file=sys.stderr)
    return EXIT_OK


def print_entry(site: Site, entry: BibEntry, cited_by: list[Citing]) -> None:
    print(f"{site.bibfiles[0]}:{entry.line}: {entry.key}: {entry.field_value('title')}")
    for each in cited_by:
        where = f"{each.path}:{each.line}"
        print("    " + _("cited by {where} ({item})").format(where=where, item=each.item))
    if not cited_by:
        print("    " + _("cited by no issue"))


def citing_items(site: Site) -> dict[str, list[Citing]]:
    """Citation key (lower case) -> the items citing it, at their ``:sources:`` line."""
    found: dict[str, list[Citing]] = {}
    for path in site.issue_files():
        relative = site.relative(path)
        try:
            issue, _problems = parse_issue(
                read_text(path), relative, site.vocabulary, site.date_span
            )
        except SiteError:
            continue
        if issue is None:
            continue
        for item in issue.items:
            for key in dict.fromkeys(item.citation_keys):
                line = item.sources_line or item.line
                citing = Citing(relative, line, item.id, issue.date)
                found.setdefault(key.lower(), []).append(citing)
    return found


# --- lookup -----------------------------------------------------------------------------


def entry_facts(entry: BibEntry) -> EntryFacts:
    fields = {bib_field.name: bib_field.value for bib_field in entry.fields}
    authors = entry.field_value("author")
    return EntryFacts(
        key=entry.key or "",
        title=(entry.field_value("title") or "").replace("{", "").replace("}", ""),
        year=entry.field_value("year"),
        authors=tuple(name.strip() for name in authors.split(" and ")) if authors else (),
        doi=normalize_doi(fields["doi"]) if fields.get("doi", "").strip() else None,
        eprint=arxiv_eprint(fields),
        fields=fields,
    )


def find_candidates(client: Client, facts: EntryFacts) -> list[Candidate]:
    """By the entry's DOI, else its arXiv id, else its title in Crossref and arXiv."""
    from juju_radar.editors.lookup.services import (
        arxiv_by_id,
        arxiv_title_search,
        crossref_search,
        doi_record,
    )

    if facts.doi:
        return doi_record(client, facts.doi)
    if facts.eprint:
        return arxiv_by_id(client, facts.eprint)
    query = " ".join([facts.title, *facts.authors, facts.year or ""]).strip()
    return crossref_search(client, query) + arxiv_title_search(client, facts.title)


class Lookups:
    """What ``lookup``, ``accept`` and ``complete`` share: the site, one HTTP client (made
    at the first lookup) and the candidates each lookup keeps for ``accept``."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self._client: Client | None = None
        self._noted = False

    def __enter__(self) -> Lookups:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()

    def look_up(self, key: str) -> tuple[EntryFacts, Ranking]:
        """The candidates for entry ``key``, best first, saved for :meth:`accept`.
        Raises :class:`EditError`, or ``ServiceError`` when a service fails."""
        text, entry = current_entry(self.site, key)
        facts = entry_facts(entry)
        ranking = rank(facts, find_candidates(self.client(facts), facts))
        save_lookup(self.site, facts.key, entry_digest(text, entry), ranking)
        return facts, ranking

    def client(self, facts: EntryFacts) -> Client:
        from juju_radar.editors.lookup.client import Client, Settings

        if self._client is None:
            self._client = Client(Settings.from_environment(self.site.config))
        if not (self._client.settings.contact_email or facts.doi or facts.eprint or self._noted):
            self._noted = True
            note(
                _(
                    "no contact address (RADAR_CONTACT_EMAIL or radar_contact_email in "
                    "conf.py); Crossref asks polite clients for one"
                )
            )
        return self._client

    def accept(self, key: str, number: int, ask: Callable[[str], str] | None) -> int:
        """Write candidate ``number`` of the last lookup of ``key`` into the entry.
        Raises :class:`EditError` or :class:`Refused`."""
        text, entry = current_entry(self.site, key)
        candidate = self.saved_candidate(key, number, entry_digest(text, entry))
        values, entry_type = accepted_fields(entry, candidate)
        return write_entry(self.site, key, values, entry_type, ask)

    def saved_candidate(self, key: str, number: int, digest: str) -> Candidate:
        saved = load_lookup(self.site, key)
        if saved is None:
            raise Refused(
                _("no saved lookup of '{key}': run `radar refs lookup {key}` first").format(key=key)
            )
        if saved.get("entry") != digest:
            raise Refused(
                _(
                    "entry '{key}' changed since it was looked up: "
                    "run `radar refs lookup {key}` again"
                ).format(key=key)
            )
        candidates = saved.get("candidates", [])
        if not 1 <= number <= len(candidates):
            raise Refused(
                _("the lookup of '{key}' has candidates 1 to {count}").format(
                    key=key, count=len(candidates)
                ),
                EXIT_USAGE,
            )
        return Candidate.from_dict(candidates[number - 1])


def run_lookup(args: argparse.Namespace) -> int:
    from juju_radar.editors.lookup.client import ServiceError

    with Lookups(open_site(args.root)) as lookups:
        try:
            facts, ranking = lookups.look_up(args.key)
        except EditError as error:
            return fail(str(error))
        except ServiceError as error:
            return fail(
                _("lookup of '{key}' failed: {error}; nothing was written").format(
                    key=args.key, error=error
                )
            )
    if args.format == "json":
        print(json.dumps(lookup_json(facts, ranking), ensure_ascii=False, indent=2))
    else:
        print_lookup(facts, ranking)
    return EXIT_OK if ranking.candidates else EXIT_PROBLEMS


def lookup_json(facts: EntryFacts, ranking: Ranking) -> dict[str, object]:
    return {
        "key": facts.key,
        "title": facts.title,
        "conclusive": ranking.conclusive,
        "why": ranking.why,
        "candidates": [
            {"number": number, **candidate.as_dict()}
            for number, candidate in enumerate(ranking.candidates, start=1)
        ],
    }


def print_lookup(facts: EntryFacts, ranking: Ranking) -> None:
    print(f"{facts.key}: {facts.title}")
    print_candidates(ranking)
    if not ranking.candidates:
        print(_("no candidate found: search by hand, then `radar refs set`"))
    elif ranking.conclusive:
        print(
            _("best match: {why}; `radar refs accept {key} 1` writes it").format(
                why=ranking.why, key=facts.key
            )
        )
    else:
        print(
            _(
                "inconclusive: {why}; check the candidates before "
                "`radar refs accept {key} N`, or search by hand and `radar refs set`"
            ).format(why=ranking.why, key=facts.key)
        )


CANDIDATE_LABELS = {
    "title": N_("title:"),
    "authors": N_("authors:"),
    "year": N_("year:"),
    "container": N_("container:"),
    "identifier": N_("identifier:"),
    "why": N_("why:"),
}
LABEL_WIDTH = 12
"""Columns of a candidate's labels (``identifier: ``), a Chinese character two."""


def labelled(name: str, value: str) -> str:
    """``   title:      value``: the label in the current language, the values in line."""
    label = _(CANDIDATE_LABELS[name])
    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in label)
    return f"   {label}{' ' * max(1, LABEL_WIDTH - width)}{value}"


def print_candidates(ranking: Ranking) -> None:
    for number, candidate in enumerate(ranking.candidates, start=1):
        print(f"{number}. [{candidate.score:.2f}] {candidate.source} · {candidate.kind or '-'}")
        print(labelled("title", candidate.title))
        print(labelled("authors", "; ".join(candidate.authors) or "-"))
        print(labelled("year", candidate.year or "-"))
        print(labelled("container", candidate.container or "-"))
        print(labelled("identifier", candidate.identifier or "-"))
        print(labelled("why", candidate.reason))


def entry_digest(text: str, entry: BibEntry) -> str:
    return hashlib.sha256(text[entry.start : entry.end].encode("utf-8")).hexdigest()


def lookup_path(site: Site, key: str) -> Path:
    return site.root / LOOKUPS / f"{key.lower()}.json"


def save_lookup(site: Site, key: str, digest: str, ranking: Ranking) -> None:
    data = {
        "key": key,
        "entry": digest,
        "conclusive": ranking.conclusive,
        "candidates": [candidate.as_dict() for candidate in ranking.candidates],
    }
    try:
        atomic_write(lookup_path(site, key), json.dumps(data, ensure_ascii=False, indent=1))
    except OSError as error:
        note(_("the candidates were not saved: {error}").format(error=error))


def load_lookup(site: Site, key: str) -> dict | None:
    try:
        data = json.loads(lookup_path(site, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# --- accept and set ---------------------------------------------------------------------


def today() -> str:
    return dt.datetime.now(NEWSROOM_TIMEZONE).date().isoformat()


def accepted_fields(entry: BibEntry, candidate: Candidate) -> tuple[dict[str, str], str | None]:
    """The fields the candidate states, its title replacing the editors' (kept in
    ``radarlabel``), and the entry type."""
    values = title_fields(entry, candidate.title)
    if candidate.doi:
        values["doi"] = candidate.doi
    if candidate.eprint:
        values["eprint"] = candidate.eprint
        values["archiveprefix"] = "arXiv"
    if candidate.url:
        values["url"] = candidate.url
    if candidate.authors:
        values["author"] = " and ".join(candidate.authors)
    if candidate.year:
        values["year"] = candidate.year
    entry_type = None
    if candidate.container:
        if candidate.kind in JOURNAL_TYPES and candidate.source != "arXiv":
            values["journal"] = candidate.container
            entry_type = None if entry.entry_type == "article" else "article"
        elif entry.entry_type == "article":
            values["journal"] = candidate.container
        else:
            values["howpublished"] = candidate.container
    values["urldate"] = today()
    values[SOURCE_FIELD] = f"{candidate.source} {candidate.record} ({today()})"
    return values, entry_type


def title_fields(entry: BibEntry, title: str) -> dict[str, str]:
    """The work's own title, the editors' one kept in ``radarlabel`` (once: a second
    accept keeps the first label)."""
    label = entry.field_value("title") or ""
    if " ".join(label.replace("{", "").replace("}", "").split()) == title:
        return {}
    if entry.has_nonblank_field(LABEL_FIELD) or not label.strip():
        return {"title": title}
    return {"title": title, LABEL_FIELD: label}


def run_accept(args: argparse.Namespace) -> int:
    with Lookups(open_site(args.root)) as lookups:
        try:
            return lookups.accept(args.key, args.number, None if args.yes else input)
        except EditError as error:
            return fail(str(error))
        except Refused as error:
            return fail(str(error), error.status)


def run_set(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    try:
        values = identifier_fields(doi=args.doi, arxiv=args.arxiv, url=args.url)
    except Refused as error:
        return fail(str(error), error.status)
    return write_entry(site, args.key, values, None, None)


def identifier_fields(
    doi: str | None = None, arxiv: str | None = None, url: str | None = None
) -> dict[str, str]:
    """The fields ``set`` writes for the one identifier given, checked for its shape."""
    values: dict[str, str] = {}
    if doi is not None:
        if not is_doi(doi):
            raise Refused(_("'{doi}' is not a DOI (10.NNNN/…)").format(doi=doi), EXIT_USAGE)
        values["doi"] = normalize_doi(doi)
    elif arxiv is not None:
        if not is_arxiv_id(arxiv):
            raise Refused(
                _("'{arxiv}' is not an arXiv id (2409.01234)").format(arxiv=arxiv), EXIT_USAGE
            )
        values |= {"eprint": normalize_arxiv(arxiv), "archiveprefix": "arXiv"}
    else:
        if url is None or web_url(url) is None:
            raise Refused(_("'{url}' is not an http(s) address").format(url=url), EXIT_USAGE)
        values["url"] = url.strip()
    values["urldate"] = today()
    return values


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
    try:
        atomic_write(site.bib_path, bom + new_text)
    except OSError as error:
        return fail(
            _("cannot write {name}: {reason}; nothing was written").format(
                name=name, reason=error.strerror or error
            )
        )
    print(_("{name}: entry '{key}' updated").format(name=name, key=key))
    return EXIT_OK


# --- complete ---------------------------------------------------------------------------

SKIPPED = LOOKUPS / "skipped.json"
"""Entries an editor skipped (key -> digest of the entry's text), left out next time."""


@dataclass(frozen=True)
class Answer:
    action: str  # "accept", "set", "skip" or "quit"
    number: int = 0
    values: dict[str, str] = field(default_factory=dict)


OUTCOMES = ("accepted", "set by hand", "skipped", "failed")


def run_complete(args: argparse.Namespace) -> int:
    from juju_radar.editors.lookup.client import ServiceError

    site = open_site(args.root)
    try:
        queue = entries_to_complete(site, args.keys, args.since, args.revisit)
    except EditError as error:
        return fail(f"{site.bibfiles[0]}: {error}")
    tally: Counter[str] = Counter()
    left = 0
    with Lookups(site) as lookups:
        for position, (key, cited_by) in enumerate(queue):
            print(f"\n[{position + 1}/{len(queue)}]")
            try:
                outcome = complete_one(lookups, key, cited_by, args.yes_conclusive)
            except ServiceError as error:
                fail(
                    _("lookup of '{key}' failed: {error}; stopped, what was written stays").format(
                        key=key, error=error
                    )
                )
                tally["failed"] += 1
                left = len(queue) - position - 1
                break
            if outcome == "quit":
                left = len(queue) - position
                break
            tally[outcome] += 1
    counts = _(
        "{accepted} accepted, {by_hand} set by hand, {skipped} skipped, {failed} failed, "
        "{left} left"
    ).format(
        accepted=tally["accepted"],
        by_hand=tally["set by hand"],
        skipped=tally["skipped"],
        failed=tally["failed"],
        left=left,
    )
    print(f"radar refs complete: {counts}", file=sys.stderr)
    return EXIT_PROBLEMS if tally["failed"] else EXIT_OK


def entries_to_complete(
    site: Site, keys: list[str], since: dt.date | None, revisit: bool
) -> list[tuple[str, list[Citing]]]:
    """The entries to walk: ``keys`` as given, else those lacking an identifier (cited
    on or after ``since``), the newest issue first, without those skipped before."""
    text, _bom = read_bib(site)
    citing = citing_items(site)
    if keys:
        return chosen_entries(site, text, keys, citing)
    skipped = {} if revisit else load_skipped(site)
    queue, left_out = [], 0
    for entry in citable_entries(text):
        key = entry.key or ""
        cited_by = citing.get(key.lower(), [])
        if not lacks_identifier(entry) or not cited_since(cited_by, since):
            continue
        if skipped.get(key.lower()) == entry_digest(text, entry):
            left_out += 1
            continue
        queue.append((key, cited_by))
    if left_out:
        note(
            _(
                "{count} skipped before, left out (`--revisit` walks them too; {path} lists them)"
            ).format(count=left_out, path=SKIPPED.as_posix())
        )
    return sorted(queue, key=lambda pair: -newest_issue(pair[1]).toordinal())


def chosen_entries(
    site: Site, text: str, keys: list[str], citing: dict[str, list[Citing]]
) -> list[tuple[str, list[Citing]]]:
    chosen = []
    for key in dict.fromkeys(keys):
        entry = find_entry(text, key)
        if lacks_identifier(entry):
            chosen.append((entry.key or key, citing.get(key.lower(), [])))
        else:
            where = f"{site.bibfiles[0]}:{entry.line}"
            note(
                _("{where}: '{key}' has a DOI, arXiv id, URL or ISBN already; left out").format(
                    where=where, key=entry.key
                )
            )
    return chosen


def cited_since(cited_by: list[Citing], since: dt.date | None) -> bool:
    return since is None or any(each.issued >= since for each in cited_by)


def newest_issue(cited_by: list[Citing]) -> dt.date:
    return max((each.issued for each in cited_by), default=dt.date.min)


def complete_one(lookups: Lookups, key: str, cited_by: list[Citing], yes_conclusive: bool) -> str:
    """Look entry ``key`` up, ask what to do and do it: one of :data:`OUTCOMES`, or
    "quit". Raises ``ServiceError`` when a service fails."""
    try:
        text, entry = current_entry(lookups.site, key)
    except EditError as error:
        fail(str(error))
        return "failed"
    print_entry(lookups.site, entry, cited_by)
    _facts, ranking = lookups.look_up(key)
    print_candidates(ranking)
    print(verdict(ranking))
    if yes_conclusive and ranking.conclusive:
        print(_("conclusive: accepting candidate 1"))
        answer = Answer("accept", 1)
    else:
        answer = ask_answer(len(ranking.candidates))
    return carry_out(lookups, key, answer, entry_digest(text, entry))


def verdict(ranking: Ranking) -> str:
    if not ranking.candidates:
        return _("no candidate found")
    if ranking.conclusive:
        return _("best match: {why}").format(why=ranking.why)
    return _("inconclusive: {why}").format(why=ranking.why)


def ask_answer(candidates: int) -> Answer:
    """The editor's answer, asked again until it is one; the end of the input quits."""
    if candidates > 1:
        prompt = _("1-{count} accept, s skip, q quit, or a DOI, arXiv id or URL: ").format(
            count=candidates
        )
    elif candidates:
        prompt = _("1 accept, s skip, q quit, or a DOI, arXiv id or URL: ")
    else:
        prompt = _("s skip, q quit, or a DOI, arXiv id or URL: ")
    while True:
        try:
            text = input(prompt)
        except EOFError:
            print()
            return Answer("quit")
        answer = read_answer(text, candidates)
        if answer is not None:
            return answer
        print(_("not an answer: '{text}'").format(text=text.strip()))


def read_answer(text: str, candidates: int) -> Answer | None:
    answer = text.strip()
    if answer.lower() in ("s", "skip", "跳过"):
        return Answer("skip")
    if answer.lower() in ("q", "quit", "退出"):
        return Answer("quit")
    if answer.isdigit():
        return Answer("accept", int(answer)) if 1 <= int(answer) <= candidates else None
    if is_doi(answer):
        return Answer("set", values=identifier_fields(doi=answer))
    if is_arxiv_id(answer):
        return Answer("set", values=identifier_fields(arxiv=answer))
    if web_url(answer):
        return Answer("set", values=identifier_fields(url=answer))
    return None


def carry_out(lookups: Lookups, key: str, answer: Answer, digest: str) -> str:
    if answer.action == "quit":
        return "quit"
    if answer.action == "skip":
        remember_skipped(lookups.site, key, digest)
        return "skipped"
    if answer.action == "set":
        status = write_entry(lookups.site, key, answer.values, None, None)
        return "set by hand" if status == EXIT_OK else "failed"
    try:
        status = lookups.accept(key, answer.number, None)
    except EditError as error:
        status = fail(str(error))
    except Refused as error:
        status = fail(str(error), error.status)
    return "accepted" if status == EXIT_OK else "failed"


def load_skipped(site: Site) -> dict[str, str]:
    try:
        data = json.loads((site.root / SKIPPED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(key): str(digest) for key, digest in data.items()} if isinstance(data, dict) else {}


def remember_skipped(site: Site, key: str, digest: str) -> None:
    skipped = load_skipped(site) | {key.lower(): digest}
    try:
        atomic_write(site.root / SKIPPED, json.dumps(skipped, ensure_ascii=False, indent=1))
    except OSError as error:
        note(_("the skip was not recorded: {error}").format(error=error))
