"""The HTTP client of ``radar refs lookup``: configured endpoints, timeouts, retries with
backoff, and arXiv's one request every three seconds.

Every failure (no network, an HTTP error, a response that cannot be read) becomes a
:class:`ServiceError` whose message is one line an editor can act on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import httpx

from juju_radar.editors.public_net import (
    NameNotResolved,
    NetworkRule,
    NetworkUnavailable,
    followed,
    public_client,
)
from juju_radar.model.messages import _

DEFAULT_CROSSREF_URL = "https://api.crossref.org"
DEFAULT_ARXIV_URL = "https://export.arxiv.org/api"
DEFAULT_DOI_URL = "https://doi.org"
ARXIV_INTERVAL = 3.0
"""Seconds between two requests to the arXiv API (its terms of use)."""
RETRIED_STATUS = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 30.0


class ServiceError(Exception):
    """A service could not answer; the message is one line. ``offline`` when it failed
    because no host name could be resolved (the network is unavailable)."""

    def __init__(self, message: str, offline: NetworkUnavailable | None = None) -> None:
        super().__init__(message)
        self.offline = offline


@dataclass(frozen=True)
class Settings:
    crossref_url: str = DEFAULT_CROSSREF_URL
    arxiv_url: str = DEFAULT_ARXIV_URL
    doi_url: str = DEFAULT_DOI_URL
    contact_email: str = ""
    timeout: float = 20.0
    retries: int = 2
    backoff: float = 2.0
    network: NetworkRule = NetworkRule()

    @classmethod
    def from_environment(
        cls, config: Mapping[str, object], environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Endpoints from ``RADAR_*_URL``, the contact address from
        ``RADAR_CONTACT_EMAIL`` or conf.py's ``radar_contact_email``."""
        env = os.environ if environ is None else environ

        return cls(
            crossref_url=env.get("RADAR_CROSSREF_URL") or DEFAULT_CROSSREF_URL,
            arxiv_url=env.get("RADAR_ARXIV_URL") or DEFAULT_ARXIV_URL,
            doi_url=env.get("RADAR_DOI_URL") or DEFAULT_DOI_URL,
            contact_email=env.get("RADAR_CONTACT_EMAIL")
            or str(config.get("radar_contact_email") or ""),
            timeout=env_seconds(env, "RADAR_HTTP_TIMEOUT", cls.timeout),
            retries=int(env_seconds(env, "RADAR_HTTP_RETRIES", cls.retries)),
            backoff=env_seconds(env, "RADAR_HTTP_BACKOFF", cls.backoff),
            network=NetworkRule.from_config(config, env),
        )


def env_seconds(env: Mapping[str, str], name: str, default: float) -> float:
    """A non-negative number from the environment, or ``default`` when unset or unreadable."""
    try:
        return max(0.0, float(env[name]))
    except (KeyError, ValueError):
        return default


class Client:
    """GET requests to the three services, politely."""

    def __init__(
        self,
        settings: Settings,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.sleep, self.clock = sleep, clock
        self._last_arxiv: float | None = None
        agent = f"juju-radar/{version('juju-radar')} (httpx {httpx.__version__})"
        if settings.contact_email:
            agent += f" mailto:{settings.contact_email}"
        self.http = public_client(
            settings.network, timeout=settings.timeout, headers={"User-Agent": agent}
        )

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(
        self, service: str, url: str, params: Mapping[str, Any] | None = None, accept: str = ""
    ) -> httpx.Response:
        """The response of a GET, retried on a network error, 429 or 5xx; redirects
        followed under the network rule."""
        headers = {"Accept": accept} if accept else {}
        address = str(httpx.URL(url).copy_merge_params(params) if params else url)
        attempt = 0
        unresolved: NameNotResolved | None = None

        def send(method: str, hop: str) -> httpx.Response:
            return self.http.request(method, hop, headers=headers)

        while True:
            if service == "arXiv":
                self._wait_for_arxiv()
            try:
                response = followed(send, "GET", address)[1]
                unresolved = None
            except httpx.TimeoutException:
                failure = _("{service} did not answer within {seconds:g} s ({url})").format(
                    service=service, seconds=self.settings.timeout, url=url
                )
                response = None
            except httpx.HTTPError as error:
                failure = _("cannot reach {service} ({url}): {error}").format(
                    service=service, url=url, error=_one_line(error)
                )
                response = None
                unresolved = error if isinstance(error, NameNotResolved) else None
            if response is not None:
                if response.status_code < 400:
                    return response
                failure = _("{service} answered HTTP {status} ({url})").format(
                    service=service, status=response.status_code, url=response.url
                )
                if response.status_code not in RETRIED_STATUS:
                    raise ServiceError(failure)
            if attempt >= self.settings.retries:
                offline = NetworkUnavailable([unresolved.host]) if unresolved else None
                raise ServiceError(failure, offline)
            self.sleep(self._delay(attempt, response))
            attempt += 1

    def _delay(self, attempt: int, response: httpx.Response | None) -> float:
        delay = self.settings.backoff * 2**attempt
        retry_after = response.headers.get("Retry-After") if response is not None else None
        if retry_after and retry_after.strip().isdigit():
            delay = max(delay, min(float(retry_after), MAX_RETRY_AFTER))
        return delay

    def _wait_for_arxiv(self) -> None:
        now = self.clock()
        if self._last_arxiv is not None and now - self._last_arxiv < ARXIV_INTERVAL:
            self.sleep(ARXIV_INTERVAL - (now - self._last_arxiv))
        self._last_arxiv = self.clock()


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__
