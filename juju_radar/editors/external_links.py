"""Whether the sources the archive cites can still be reached: ``radar links --external``.

Every ``url`` of ``references.bib`` and every DOI (through the resolver, ``RADAR_DOI_URL``)
is asked for politely: HEAD first, then GET where a server refuses HEAD; one request to
a host at a time, ``RADAR_LINKS_INTERVAL`` seconds apart (1 s); a few hosts at once. A
source is *dead* when it answers 4xx or 5xx or cannot be reached, *moved* when a
permanent redirect (301, 308) leads elsewhere, *refused* when the server turns robots
away (401, 403, 429): a reader's browser may still get it. Nothing is rewritten: an editor decides
with ``radar refs set``.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from importlib.metadata import version
from urllib.parse import urlsplit

import httpx

from juju_radar.bib.file_entries import citable_entries
from juju_radar.bib.identifiers import normalize_doi
from juju_radar.editors.lookup.client import DEFAULT_DOI_URL, env_seconds
from juju_radar.editors.public_net import (
    NetworkRule,
    NetworkUnavailable,
    followed,
    public_client,
    unresolved_only,
)

DEFAULT_INTERVAL = 1.0
"""Seconds between two requests to one host."""
HOSTS_AT_ONCE = 4
HEAD_REFUSED = frozenset({403, 405, 501})
"""Answers to HEAD after which the same address is asked with GET."""
PERMANENT_REDIRECTS = frozenset({301, 308})
REFUSING = frozenset({401, 403, 429})
"""Answers that say the server will not tell a robot, not that the source is gone."""


@dataclass(frozen=True)
class Source:
    """One address a reference gives, at its line of references.bib."""

    key: str
    line: int
    url: str


@dataclass(frozen=True)
class SourceState:
    """What asking for a source found: ``ok``, ``moved`` (to ``final_url``), ``refused``
    or ``dead``."""

    key: str
    line: int
    url: str
    state: str
    detail: str
    final_url: str = ""


@dataclass(frozen=True)
class LinkSettings:
    doi_url: str = DEFAULT_DOI_URL
    interval: float = DEFAULT_INTERVAL
    timeout: float = 20.0
    network: NetworkRule = NetworkRule()

    @classmethod
    def from_environment(
        cls, config: Mapping[str, object], environ: Mapping[str, str] | None = None
    ) -> LinkSettings:
        env = os.environ if environ is None else environ
        interval = env_seconds(env, "RADAR_LINKS_INTERVAL", DEFAULT_INTERVAL)
        return cls(
            doi_url=env.get("RADAR_DOI_URL") or DEFAULT_DOI_URL,
            interval=interval,
            network=NetworkRule.from_config(config, env),
        )


def cited_sources(bib_text: str, doi_url: str) -> list[Source]:
    """Each entry's ``url``, and its DOI as the resolver's address, in file order."""
    sources = []
    for entry in citable_entries(bib_text):
        fields = {bib_field.name: bib_field for bib_field in entry.fields}
        key = entry.key or ""
        if "url" in fields and fields["url"].value.strip():
            sources.append(Source(key, fields["url"].line, fields["url"].value.strip()))
        if "doi" in fields and fields["doi"].value.strip():
            address = f"{doi_url.rstrip('/')}/{normalize_doi(fields['doi'].value)}"
            sources.append(Source(key, fields["doi"].line, address))
    return sources


class HostPacer:
    """One request to a host at a time, ``interval`` seconds after the last one ended."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._locks: dict[str, threading.Lock] = defaultdict(threading.Lock)
        self._last: dict[str, float] = {}
        self._guard = threading.Lock()

    def send(self, client: httpx.Client, method: str, url: str) -> httpx.Response:
        host = urlsplit(url).netloc.lower()
        with self._guard:
            lock = self._locks[host]
        with lock:
            last = self._last.get(host)
            if last is not None:
                time.sleep(max(0.0, self.interval - (time.monotonic() - last)))
            try:
                with client.stream(method, url) as response:
                    return response  # the status and headers; the body is never read
            finally:
                self._last[host] = time.monotonic()


def check_sources(
    sources: Iterable[Source], settings: LinkSettings, http: httpx.Client | None = None
) -> list[SourceState]:
    """The state of every source, in the order given; hosts are asked side by side.
    Raises :class:`NetworkUnavailable` when no source's host name could be resolved."""
    client = http or polite_client(settings)
    by_host: dict[str, list[Source]] = defaultdict(list)
    ordered = list(sources)
    for source in ordered:
        by_host[urlsplit(source.url).netloc.lower()].append(source)
    pacer = HostPacer(settings.interval)
    found: dict[Source, SourceState] = {}
    errors: dict[Source, Exception | None] = {}

    def check_host(host: str) -> None:
        for source in by_host[host]:
            found[source], errors[source] = source_state(pacer, client, source)

    try:
        with ThreadPoolExecutor(max_workers=HOSTS_AT_ONCE) as pool:
            list(pool.map(check_host, by_host))
    finally:
        if http is None:
            client.close()
    unresolved = unresolved_only(errors[source] for source in ordered)
    if unresolved is not None:
        raise NetworkUnavailable(unresolved)
    return [found[source] for source in ordered]


def polite_client(settings: LinkSettings) -> httpx.Client:
    agent = f"juju-radar/{version('juju-radar')} link check (httpx {httpx.__version__})"
    return public_client(settings.network, timeout=settings.timeout, headers={"User-Agent": agent})


def source_state(
    pacer: HostPacer, client: httpx.Client, source: Source
) -> tuple[SourceState, httpx.HTTPError | None]:
    """What asking for ``source`` found, and the error that made it dead, if one did;
    each hop of a redirect paced by its host and judged by the network rule."""

    def send(method: str, url: str) -> httpx.Response:
        return pacer.send(client, method, url)

    try:
        hops, response = followed(send, "HEAD", source.url)
        if response.status_code in HEAD_REFUSED or response.status_code >= 500:
            hops, response = followed(send, "GET", source.url)
    except httpx.HTTPError as error:
        detail = " ".join(str(error).split()) or type(error).__name__
        return SourceState(**asdict(source), state="dead", detail=detail), error
    return state_of(source, hops, response), None


def state_of(source: Source, hops: list[httpx.Response], response: httpx.Response) -> SourceState:
    final_url = str(response.url)
    if response.status_code >= 400:
        state = "refused" if response.status_code in REFUSING else "dead"
        detail = f"HTTP {response.status_code}"
        return SourceState(**asdict(source), state=state, detail=detail, final_url=final_url)
    permanent = [hop for hop in hops if hop.status_code in PERMANENT_REDIRECTS]
    if permanent and final_url != source.url:
        detail = f"HTTP {permanent[0].status_code} to {final_url}"
        return SourceState(**asdict(source), state="moved", detail=detail, final_url=final_url)
    return SourceState(**asdict(source), state="ok", detail=f"HTTP {response.status_code}")


def report(states: list[SourceState], bib_name: str) -> dict[str, object]:
    """The report the deploy workflow keeps: what was checked, and every source that is
    not ``ok``."""
    return {
        "checked_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "file": bib_name,
        "checked": len(states),
        "problems": [asdict(state) for state in states if state.state != "ok"],
    }
