"""Candidates for a reference, as a service states them, and how well each matches.

A candidate holds only what the service's record says; :func:`rank` scores each against
the entry the editors wrote (title words, year, authors) and says why. A lookup never
guesses: a match is conclusive only through the entry's own DOI or arXiv id, or through
a title sharing at least :data:`MIN_TITLE_WORDS` distinct words, most of each title's
(:func:`title_evidence`); an acronym or a name alone ("RISE") never is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from juju_radar.bib.identifiers import normalize_doi
from juju_radar.model.messages import _, current_language

LATIN_WORD = re.compile(r"[0-9a-z]+(?:[-'][0-9a-z]+)*")
CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
STOPWORDS = frozenset(
    "a an and are as at by for from in into is its of on or our the to via we with".split()  # noqa: SIM905
)
CLOSE_MARGIN = 0.15
"""Top two candidates scoring closer than this make the lookup inconclusive."""
GOOD_ENOUGH = 0.5
"""A best candidate scoring below this makes the lookup inconclusive."""
MIN_TITLE_WORDS = 3
"""A title match is evidence only over at least this many distinct shared words..."""
MOST_OF_ENTRY_TITLE = 2 / 3
"""...covering at least this share of the entry's title words..."""
MOST_OF_CANDIDATE_TITLE = 1 / 2
"""...and at least this share of the candidate's."""
IDENTIFIER = "identifier"
TITLE = "title"


@dataclass(frozen=True)
class Candidate:
    """One record found for an entry, with only what the service states."""

    source: str  # "doi.org", "arXiv", "Crossref"
    record: str  # the address of the record the data was read from
    title: str
    authors: tuple[str, ...] = ()  # "Family, Given" (BibTeX order) or an organisation
    year: str | None = None
    container: str | None = None
    kind: str = ""  # the service's type, e.g. "journal-article", "preprint"
    doi: str | None = None
    eprint: str | None = None  # arXiv id
    url: str | None = None
    score: float = 0.0
    reason: str = ""
    evidence: str = ""  # IDENTIFIER, TITLE (enough title words), or "" (a likeness only)

    @property
    def identifier(self) -> str:
        parts = [
            f"DOI {self.doi}" if self.doi else "",
            f"arXiv {self.eprint}" if self.eprint else "",
        ]
        parts.append(self.url or "" if not any(parts) else "")
        return "; ".join(part for part in parts if part)

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "record": self.record,
            "title": self.title,
            "authors": list(self.authors),
            "year": self.year,
            "container": self.container,
            "type": self.kind,
            "doi": self.doi,
            "arxiv": self.eprint,
            "url": self.url,
            "score": round(self.score, 2),
            "reason": self.reason,
            "evidence": self.evidence,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Candidate:
        def text(name: str) -> str | None:
            value = data.get(name)
            return str(value) if value is not None else None

        return cls(
            source=str(data["source"]),
            record=str(data["record"]),
            title=str(data["title"]),
            authors=tuple(str(name) for name in data.get("authors") or []),  # type: ignore[attr-defined]
            year=text("year"),
            container=text("container"),
            kind=str(data.get("type") or ""),
            doi=text("doi"),
            eprint=text("arxiv"),
            url=text("url"),
            score=float(data.get("score") or 0.0),  # type: ignore[arg-type]
            reason=str(data.get("reason") or ""),
            evidence=str(data.get("evidence") or ""),
        )


@dataclass(frozen=True)
class EntryFacts:
    """What the entry in references.bib already says."""

    key: str
    title: str
    year: str | None = None
    authors: tuple[str, ...] = ()
    doi: str | None = None
    eprint: str | None = None
    fields: dict[str, str] = field(default_factory=dict)


def words(text: str) -> set[str]:
    """Latin words (lower case, without stopwords) and pairs of Chinese characters."""
    lowered = text.lower()
    found = {word for word in LATIN_WORD.findall(lowered) if word not in STOPWORDS}
    for run in CJK.findall(text):
        found |= {run[index : index + 2] for index in range(max(1, len(run) - 1))}
    return found


def family_names(authors: Sequence[str]) -> set[str]:
    names = set()
    for author in authors:
        family = author.split(",", 1)[0] if "," in author else author.rsplit(" ", 1)[-1]
        names |= words(family)
    return names


def title_words(entry: EntryFacts, candidate: Candidate) -> tuple[set[str], set[str]]:
    """The entry's title words and the candidate's (:func:`words`); the entry's Chinese
    words only when the candidate's title has Chinese too."""
    wanted, offered = words(entry.title), words(candidate.title)
    if not CJK.search(candidate.title):  # Chinese words cannot match an English title
        wanted = {word for word in wanted if not CJK.match(word)}
    return wanted, offered


def title_evidence(wanted: set[str], offered: set[str]) -> bool:
    """Whether two titles' words make them the same work's: at least
    :data:`MIN_TITLE_WORDS` distinct words shared, most of each title's."""
    shared = len(wanted & offered)
    return (
        shared >= MIN_TITLE_WORDS
        and shared >= MOST_OF_ENTRY_TITLE * len(wanted)
        and shared >= MOST_OF_CANDIDATE_TITLE * len(offered)
    )


def match(entry: EntryFacts, candidate: Candidate) -> Candidate:
    """The candidate with its score (0–1), the reason for it and its evidence."""
    reasons: list[str] = []
    if entry.doi and candidate.doi and normalize_doi(entry.doi).lower() == candidate.doi.lower():
        reason = _("the record of the entry's own DOI")
        return replace(candidate, score=1.0, reason=reason, evidence=IDENTIFIER)
    if entry.eprint and candidate.eprint and _same_arxiv(entry.eprint, candidate.eprint):
        reason = _("the record of the entry's own arXiv id")
        return replace(candidate, score=1.0, reason=reason, evidence=IDENTIFIER)
    wanted, offered = title_words(entry, candidate)
    shared = wanted & offered
    if not wanted or not offered:
        score = 0.0
        reasons.append(_("no title words to compare"))
    else:
        recall, precision = len(shared) / len(wanted), len(shared) / len(offered)
        score = 0.7 * recall + 0.3 * precision
        listed = ", ".join(sorted(shared)[:6]) or _("none")
        reasons.append(
            _("title shares {shared} of the entry's {wanted} words ({listed})").format(
                shared=len(shared), wanted=len(wanted), listed=listed
            )
        )
    if entry.year and candidate.year:
        if entry.year == candidate.year:
            score += 0.1
            reasons.append(_("year {year} as in the entry").format(year=candidate.year))
        else:
            score -= 0.3
            reasons.append(
                _("year {year}, the entry says {stated}").format(
                    year=candidate.year, stated=entry.year
                )
            )
    if entry.authors and candidate.authors:
        common = family_names(entry.authors) & family_names(candidate.authors)
        if common:
            score += 0.1
            names = ", ".join(sorted(common)[:3])
            reasons.append(_("author {names} as in the entry").format(names=names))
        else:
            score -= 0.2
            reasons.append(_("no author in common with the entry"))
    separator = "；" if current_language() == "zh" else "; "
    return replace(
        candidate,
        score=max(0.0, min(1.0, score)),
        reason=separator.join(reasons),
        evidence=TITLE if title_evidence(wanted, offered) else "",
    )


def _same_arxiv(left: str, right: str) -> bool:
    return re.sub(r"v\d+$", "", left.lower()) == re.sub(r"v\d+$", "", right.lower())


def same_work(left: Candidate, right: Candidate) -> bool:
    """The same DOI, or the same title with an author in common (or no authors given)."""
    if left.doi and right.doi:
        return left.doi.lower() == right.doi.lower()
    if " ".join(LATIN_WORD.findall(left.title.lower())) != " ".join(
        LATIN_WORD.findall(right.title.lower())
    ):
        return False
    names = family_names(left.authors), family_names(right.authors)
    return not all(names) or bool(names[0] & names[1])


def merge_same_work(candidates: Sequence[Candidate]) -> list[Candidate]:
    """One candidate per work: an arXiv record of a work that Crossref or doi.org also
    found gives that candidate its arXiv id instead of standing beside it."""
    merged = [candidate for candidate in candidates if candidate.source != "arXiv"]
    for preprint in (candidate for candidate in candidates if candidate.source == "arXiv"):
        index = next((i for i, c in enumerate(merged) if same_work(c, preprint)), None)
        if index is None:
            merged.append(preprint)
        elif merged[index].eprint is None:
            merged[index] = replace(merged[index], eprint=preprint.eprint)
    return merged


@dataclass(frozen=True)
class Ranking:
    candidates: tuple[Candidate, ...]
    conclusive: bool
    why: str


def rank(entry: EntryFacts, found: Sequence[Candidate]) -> Ranking:
    """Candidates best first, and whether the best one stands out."""
    scored = sorted(
        (match(entry, candidate) for candidate in merge_same_work(found)),
        key=lambda candidate: -candidate.score,
    )
    if not scored:
        return Ranking((), False, _("no candidate found"))
    best = scored[0]
    if best.score < GOOD_ENOUGH:
        why = _("the best candidate scores only {score:.2f}").format(score=best.score)
        return Ranking(tuple(scored), False, why)
    if len(scored) > 1 and best.score - scored[1].score < CLOSE_MARGIN:
        why = _("candidates 1 and 2 score {best:.2f} and {second:.2f}: too close").format(
            best=best.score, second=scored[1].score
        )
        return Ranking(tuple(scored), False, why)
    if not best.evidence:
        why = _(
            "candidate 1 has no identifier of the entry's and shares {shared} title words: "
            "a match takes at least {needed}, most of both titles"
        ).format(shared=len(set.intersection(*title_words(entry, best))), needed=MIN_TITLE_WORDS)
        return Ranking(tuple(scored), False, why)
    return Ranking(
        tuple(scored), True, _("candidate 1 scores {score:.2f}").format(score=best.score)
    )
