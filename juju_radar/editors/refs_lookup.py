"""``radar refs lookup``: the numbered candidates doi.org, the arXiv API and Crossref
propose for an entry, shown and kept (``_build/refs/KEY.json``, bound to the entry's
text) for ``accept``; and :class:`Lookups`, the HTTP client ``lookup``, ``accept`` and
``complete`` share."""

from __future__ import annotations

import argparse
import json
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.bib.edit import EditError
from juju_radar.bib.entry_records import BibEntry
from juju_radar.bib.identifiers import arxiv_eprint, normalize_doi
from juju_radar.editors.exit_status import EXIT_OFFLINE, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE
from juju_radar.editors.lookup.candidates import Candidate, EntryFacts, Ranking, rank
from juju_radar.editors.refs_entry import Refused, current_entry, fail, note
from juju_radar.editors.site_files import Site, atomic_write, open_site
from juju_radar.model.messages import N_, _

if TYPE_CHECKING:  # the HTTP client and feed parser load only for a lookup
    from juju_radar.editors.lookup.client import Client

LOOKUPS = Path("_build") / "refs"


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
        """The candidates for entry ``key``, best first, saved for ``accept``.
        Raises :class:`EditError`, or ``ServiceError`` when a service fails."""
        entry, digest = current_entry(self.site, key)
        facts = entry_facts(entry)
        ranking = rank(facts, find_candidates(self.client(facts), facts))
        save_lookup(self.site, facts.key, digest, ranking)
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
            if error.offline is not None:
                return fail(error.offline.line(), EXIT_OFFLINE)
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
