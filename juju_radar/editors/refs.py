"""``radar refs``: complete references with their DOI, arXiv id or URL, never guessing.

``missing`` lists what lacks an identifier; ``lookup`` asks doi.org, the arXiv API and
Crossref and keeps the numbered candidates it shows (``_build/refs/KEY.json``);
``accept`` writes one of them into the .bib file after the editor confirms; ``set``
records an identifier an editor found. Only ``accept`` and ``set`` write, and only the
one entry: every other byte of the file stays as it was.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from juju_radar.bib.check import IDENTIFIER_FIELDS, BibEntry, check_bib_text, citable_entries
from juju_radar.bib.edit import EditError, find_entry, set_fields
from juju_radar.bib.identifiers import (
    SOURCE_FIELD,
    arxiv_eprint,
    is_arxiv_id,
    is_doi,
    normalize_arxiv,
    normalize_doi,
    web_url,
)
from juju_radar.editors.lookup.candidates import Candidate, EntryFacts, Ranking, rank
from juju_radar.editors.site_files import Site, SiteError, atomic_write, open_site, read_text
from juju_radar.model.issues import parse_issue

if TYPE_CHECKING:  # the HTTP client and feed parser load only for a lookup
    from juju_radar.editors.lookup.client import Client

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
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


def read_bib(site: Site) -> tuple[str, str]:
    """The .bib text exactly as stored (line endings kept) and its byte-order mark."""
    try:
        data = site.bib_path.read_bytes()
    except OSError as error:
        raise SiteError(f"{site.bib_path}: cannot be read: {error.strerror or error}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SiteError(f"{site.bib_path}: is not valid UTF-8: {error.reason}") from error
    return (text[1:], "\ufeff") if text.startswith("\ufeff") else (text, "")


def fail(message: str, status: int = EXIT_PROBLEMS) -> int:
    print(f"radar refs: error: {message}", file=sys.stderr)
    return status


# --- missing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Citing:
    path: str
    line: int
    item: str


def run_missing(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    text, _ = read_bib(site)
    citing = citing_items(site)
    missing = [
        (entry, citing.get((entry.key or "").lower(), []))
        for entry in citable_entries(text)
        if not any(entry.has_nonblank_field(name) for name in IDENTIFIER_FIELDS)
    ]
    if args.format == "json":
        rows = [
            {
                "key": entry.key,
                "path": site.bibfiles[0],
                "line": entry.line,
                "title": entry.field_value("title") or "",
                "cited_by": [vars(each) for each in cited_by],
            }
            for entry, cited_by in missing
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for entry, cited_by in missing:
            print(f"{site.bibfiles[0]}:{entry.line}: {entry.key}: {entry.field_value('title')}")
            for each in cited_by:
                print(f"    cited by {each.path}:{each.line} ({each.item})")
            if not cited_by:
                print("    cited by no issue")
    noun = "entry lacks" if len(missing) == 1 else "entries lack"
    print(f"{len(missing)} {noun} a DOI, arXiv id, URL or ISBN", file=sys.stderr)
    return EXIT_OK


def citing_items(site: Site) -> dict[str, list[Citing]]:
    """Citation key (lower case) -> the items citing it, at their ``:sources:`` line."""
    found: dict[str, list[Citing]] = {}
    for path in site.issue_files():
        relative = site.relative(path)
        try:
            issue, _ = parse_issue(read_text(path), relative, site.vocabulary, site.date_span)
        except SiteError:
            continue
        for item in issue.items if issue is not None else ():
            for key in dict.fromkeys(item.citation_keys):
                line = item.sources_line or item.line
                found.setdefault(key.lower(), []).append(Citing(relative, line, item.id))
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


def run_lookup(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    text, _ = read_bib(site)
    try:
        entry = find_entry(text, args.key)
    except EditError as error:
        return fail(str(error))
    from juju_radar.editors.lookup.client import Client, ServiceError, Settings

    facts = entry_facts(entry)
    settings = Settings.from_environment(site.config)
    if not settings.contact_email and not facts.doi and not facts.eprint:
        print(
            "radar refs: note: no contact address (RADAR_CONTACT_EMAIL or radar_contact_email "
            "in conf.py); Crossref asks polite clients for one",
            file=sys.stderr,
        )
    try:
        with Client(settings) as client:
            ranking = rank(facts, find_candidates(client, facts))
    except ServiceError as error:
        return fail(f"lookup of '{facts.key}' failed: {error}; nothing was written")
    save_lookup(site, facts.key, entry_digest(text, entry), ranking)
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
    for number, candidate in enumerate(ranking.candidates, start=1):
        print(f"{number}. [{candidate.score:.2f}] {candidate.source} · {candidate.kind or '-'}")
        print(f"   title:      {candidate.title}")
        print(f"   authors:    {'; '.join(candidate.authors) or '-'}")
        print(f"   year:       {candidate.year or '-'}")
        print(f"   container:  {candidate.container or '-'}")
        print(f"   identifier: {candidate.identifier or '-'}")
        print(f"   why:        {candidate.reason}")
    if not ranking.candidates:
        print("no candidate found: search by hand, then `radar refs set`")
    elif ranking.conclusive:
        print(f"best match: {ranking.why}; `radar refs accept {facts.key} 1` writes it")
    else:
        print(
            f"inconclusive: {ranking.why}; check the candidates before "
            f"`radar refs accept {facts.key} N`, or search by hand and `radar refs set`"
        )


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
        print(f"radar refs: note: the candidates were not saved: {error}", file=sys.stderr)


# --- accept and set ---------------------------------------------------------------------


def today() -> str:
    return dt.datetime.now(NEWSROOM_TIMEZONE).date().isoformat()


def accepted_fields(entry: BibEntry, candidate: Candidate) -> tuple[dict[str, str], str | None]:
    """The fields candidate states (the title stays the editors'), and the entry type."""
    values: dict[str, str] = {}
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


def run_accept(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    text, _ = read_bib(site)
    try:
        entry = find_entry(text, args.key)
    except EditError as error:
        return fail(str(error))
    saved = load_lookup(site, args.key)
    if saved is None:
        return fail(f"no saved lookup of '{args.key}': run `radar refs lookup {args.key}` first")
    if saved.get("entry") != entry_digest(text, entry):
        return fail(
            f"entry '{args.key}' changed since it was looked up: "
            f"run `radar refs lookup {args.key}` again"
        )
    candidates = [Candidate.from_dict(each) for each in saved.get("candidates", [])]
    if not 1 <= args.number <= len(candidates):
        return fail(f"the lookup of '{args.key}' has candidates 1 to {len(candidates)}", EXIT_USAGE)
    candidate = candidates[args.number - 1]
    values, entry_type = accepted_fields(entry, candidate)
    return write_entry(site, args.key, values, entry_type, None if args.yes else input)


def run_set(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    values: dict[str, str] = {}
    if args.doi is not None:
        if not is_doi(args.doi):
            return fail(f"'{args.doi}' is not a DOI (10.NNNN/…)", EXIT_USAGE)
        values["doi"] = normalize_doi(args.doi)
    elif args.arxiv is not None:
        if not is_arxiv_id(args.arxiv):
            return fail(f"'{args.arxiv}' is not an arXiv id (2409.01234)", EXIT_USAGE)
        values |= {"eprint": normalize_arxiv(args.arxiv), "archiveprefix": "arXiv"}
    else:
        if web_url(args.url) is None:
            return fail(f"'{args.url}' is not an http(s) address", EXIT_USAGE)
        values["url"] = args.url.strip()
    values["urldate"] = today()
    return write_entry(site, args.key, values, None, None)


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
        return fail(f"the entry would be invalid ({errors[0].message}); nothing was written")
    print(f"{key}: {'@' + entry_type + ', ' if entry_type else ''}writing into {name}:")
    for field_name, value in values.items():
        print(f"    {field_name} = {value}")
    if ask is not None:
        try:
            answer = ask("write these fields? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing was written", file=sys.stderr)
            return EXIT_PROBLEMS
    if outside := site.outside_root(site.bib_path):
        return fail(f"{outside} leads outside the repository: nothing was written")
    try:
        atomic_write(site.bib_path, bom + new_text)
    except OSError as error:
        return fail(f"cannot write {name}: {error.strerror or error}; nothing was written")
    print(f"{name}: entry '{key}' updated")
    return EXIT_OK


def load_lookup(site: Site, key: str) -> dict | None:
    try:
        data = json.loads(lookup_path(site, key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
