"""Archived copies of the sources: ``radar refs archive`` asks the Internet Archive's Save
Page Now API (SPN2) to capture each ``url`` and records the snapshot in the entry
(``archiveurl``, ``archivedate``), which pages then offer as "存档" beside the source.

The endpoint is ``RADAR_ARCHIVE_URL`` (``https://web.archive.org``); with
``RADAR_ARCHIVE_ACCESS_KEY`` and ``RADAR_ARCHIVE_SECRET_KEY`` (an archive.org account's
S3 keys) requests are authenticated. Each capture is asked ``RADAR_ARCHIVE_INTERVAL``
seconds (10) after the archive answered the one before, and its status polled every
``RADAR_ARCHIVE_POLL`` seconds (5), for at most ``RADAR_ARCHIVE_WAIT`` seconds (180).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import version

import httpx

from juju_radar.bib.archived import ARCHIVE_DATE_FIELD, ARCHIVE_URL_FIELD
from juju_radar.editors.lookup.client import env_seconds
from juju_radar.editors.public_net import (
    NameNotResolved,
    NetworkRule,
    NetworkUnavailable,
    public_client,
)
from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

DEFAULT_ARCHIVE_URL = "https://web.archive.org"


class ArchiveError(Exception):
    """The capture failed; the message is one line an editor can act on. ``offline``
    when the archive's host name could not be resolved (the network is unavailable)."""

    def __init__(self, message: str, offline: NetworkUnavailable | None = None) -> None:
        super().__init__(message)
        self.offline = offline


@dataclass(frozen=True)
class ArchiveSettings:
    base_url: str = DEFAULT_ARCHIVE_URL
    access_key: str = ""
    secret_key: str = ""
    interval: float = 10.0
    poll: float = 5.0
    wait: float = 180.0
    timeout: float = 60.0
    network: NetworkRule = NetworkRule()

    @classmethod
    def from_environment(
        cls, config: Mapping[str, object], environ: Mapping[str, str] | None = None
    ) -> ArchiveSettings:
        env = os.environ if environ is None else environ

        return cls(
            base_url=(env.get("RADAR_ARCHIVE_URL") or DEFAULT_ARCHIVE_URL).rstrip("/"),
            access_key=env.get("RADAR_ARCHIVE_ACCESS_KEY", ""),
            secret_key=env.get("RADAR_ARCHIVE_SECRET_KEY", ""),
            interval=env_seconds(env, "RADAR_ARCHIVE_INTERVAL", cls.interval),
            poll=env_seconds(env, "RADAR_ARCHIVE_POLL", cls.poll),
            wait=env_seconds(env, "RADAR_ARCHIVE_WAIT", cls.wait),
            network=NetworkRule.from_config(config, env),
        )


@dataclass(frozen=True)
class Snapshot:
    url: str
    date: str  # YYYY-MM-DD

    def fields(self) -> dict[str, str]:
        return {ARCHIVE_URL_FIELD: self.url, ARCHIVE_DATE_FIELD: self.date}


class SavePageNow:
    """Captures, one at a time and ``interval`` seconds apart."""

    def __init__(
        self,
        settings: ArchiveSettings,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings, self.sleep, self.clock = settings, sleep, clock
        headers = {
            "Accept": "application/json",
            "User-Agent": f"juju-radar/{version('juju-radar')} (httpx {httpx.__version__})",
        }
        if settings.access_key and settings.secret_key:
            headers["Authorization"] = f"LOW {settings.access_key}:{settings.secret_key}"
        self.http = public_client(settings.network, timeout=settings.timeout, headers=headers)
        self._last: float | None = None

    def close(self) -> None:
        self.http.close()

    def capture(self, url: str) -> Snapshot:
        self._pace()
        try:
            job = self._json("POST", "/save", data={"url": url})
        finally:  # counted from the answer: the archive sees requests at least that far apart
            self._last = self.clock()
        job_id = job.get("job_id")
        if not isinstance(job_id, str) or not job_id:
            raise ArchiveError(
                _("the archive took no capture of {url}: {reason}").format(
                    url=url, reason=job.get("message", job)
                )
            )
        deadline = self.clock() + self.settings.wait
        while True:
            status = self._json("GET", f"/save/status/{job_id}")
            state = status.get("status")
            if state == "success":
                return snapshot_of(self.settings.base_url, status, url)
            if state != "pending":
                reason = status.get("message") or status.get("status_ext") or state
                raise ArchiveError(
                    _("the archive could not capture {url}: {reason}").format(
                        url=url, reason=reason
                    )
                )
            if self.clock() >= deadline:
                raise ArchiveError(
                    _("the capture of {url} was still pending after the wait").format(url=url)
                )
            self.sleep(self.settings.poll)

    def _pace(self) -> None:
        now = self.clock()
        if self._last is not None and now - self._last < self.settings.interval:
            self.sleep(self.settings.interval - (now - self._last))

    def _json(self, method: str, path: str, **options: object) -> dict:
        address = f"{self.settings.base_url}{path}"
        try:
            response = self.http.request(method, address, **options)  # type: ignore[arg-type]
        except httpx.HTTPError as error:
            unresolved = error.host if isinstance(error, NameNotResolved) else None
            offline = NetworkUnavailable([unresolved]) if unresolved else None
            raise ArchiveError(
                _("cannot reach the archive ({address}): {error}").format(
                    address=address, error=error
                ),
                offline,
            ) from error
        if response.status_code >= 400:
            raise ArchiveError(
                _("the archive answered HTTP {status} ({address})").format(
                    status=response.status_code, address=address
                )
            )
        try:
            answer = response.json()
        except ValueError as error:
            raise ArchiveError(
                _("the archive's answer is not JSON ({address})").format(address=address)
            ) from error
        if not isinstance(answer, dict):
            raise ArchiveError(
                _("the archive's answer is not an object ({address})").format(address=address)
            )
        return answer


def snapshot_of(base_url: str, status: Mapping[str, object], url: str) -> Snapshot:
    """``{base}/web/TIMESTAMP/ORIGINAL`` and its day, from a successful status."""
    timestamp = str(status.get("timestamp", ""))
    original = str(status.get("original_url") or url)
    try:
        day = dt.datetime.strptime(timestamp[:8], "%Y%m%d").date()
    except ValueError as error:
        raise ArchiveError(
            _("the archive gave no capture time for {url}").format(url=url)
        ) from error
    return Snapshot(f"{base_url}/web/{timestamp}/{original}", day.isoformat())


def entries_to_archive(text: str, keys: list[str]) -> list[tuple[str, int, str]]:
    """``(key, line, url)`` of each entry named, or with no keys, of every entry with a
    ``url`` and no archived copy yet."""
    from juju_radar.bib.edit import EditError, find_entry
    from juju_radar.bib.file_entries import citable_entries
    from juju_radar.bib.identifiers import web_url

    chosen = []
    if keys:
        entries = []
        for key in keys:
            try:
                entries.append(find_entry(text, key))
            except EditError as error:
                raise ArchiveError(str(error)) from error
    else:
        entries = citable_entries(text)
    for entry in entries:
        fields = {bib_field.name: bib_field for bib_field in entry.fields}
        url = web_url(fields["url"].value) if "url" in fields else None
        if url is None:
            if keys:
                raise ArchiveError(
                    _("entry '{key}' has no http(s) url to archive").format(key=entry.key)
                )
            continue
        if keys or ARCHIVE_URL_FIELD not in fields:
            chosen.append((entry.key or "", fields["url"].line, url))
    return chosen


def run_archive(args: argparse.Namespace) -> int:
    from juju_radar.editors.exit_status import EXIT_OFFLINE, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE
    from juju_radar.editors.refs_entry import fail, read_bib, write_entry
    from juju_radar.editors.site_files import open_site

    if bool(args.keys) == bool(args.all):
        return fail(_("name the entries to archive, or --all"), EXIT_USAGE)
    site = open_site(args.root)
    text, _bom = read_bib(site)
    try:
        chosen = entries_to_archive(text, args.keys)
    except ArchiveError as error:
        return fail(str(error), EXIT_USAGE)
    name, failed = site.bibfiles[0], 0
    archive = SavePageNow(ArchiveSettings.from_environment(site.config))
    try:
        for key, line, url in chosen:
            try:
                snapshot = archive.capture(url)
            except ArchiveError as error:
                if error.offline is not None:  # no capture can be asked: stop
                    return fail(error.offline.line(), EXIT_OFFLINE)
                failed += 1
                failure = Problem(name, line, "error", "archive-failed", f"{key}: {error}")
                print(failure.format(), file=sys.stderr)
                continue
            if write_entry(site, key, snapshot.fields(), None, None) != EXIT_OK:
                failed += 1
    finally:
        archive.close()
    summary = _("{archived} archived, {failed} failed").format(
        archived=len(chosen) - failed, failed=failed
    )
    print(summary, file=sys.stderr)
    return EXIT_PROBLEMS if failed else EXIT_OK
