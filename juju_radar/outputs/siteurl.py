"""The public address of the archive: one configured URL, ``radar_site_url``.

Feeds, the sitemap, social cards and the data export need absolute URLs; the pages
themselves never do (they link relatively and work under any sub-path).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from sphinx.config import Config


@dataclass(frozen=True)
class SiteUrl:
    """``radar_site_url`` with exactly one trailing slash, or "" when it is unset."""

    base: str

    @classmethod
    def from_config(cls, config: Config) -> SiteUrl:
        configured = str(config.radar_site_url or "").strip()
        return cls(configured.rstrip("/") + "/" if configured else "")

    def __bool__(self) -> bool:
        return bool(self.base)

    @property
    def path(self) -> str:
        """The URL's path, e.g. ``/radar/``: where the site lives on its server."""
        path = urlsplit(self.base).path if self.base else "/"
        return path if path.endswith("/") else f"{path}/"

    def url(self, target: str, anchor: str = "") -> str:
        """The absolute URL of an output file (``issues/2026/2026-09-08.html``)."""
        url = f"{self.base}{target.lstrip('/')}"
        return f"{url}#{anchor}" if anchor else url
