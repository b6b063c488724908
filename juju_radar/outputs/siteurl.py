"""The public address of the archive: where it is deployed, not a constant of the code.

The address comes from the ``RADAR_SITE_URL`` environment variable (the deploy workflow
sets it from GitHub Pages), else from ``-D radar_site_url=…``, else from ``conf.py``.
A build with ``RADAR_DEPLOY=1`` refuses to run without one. Feeds, the export and the
pages work without it (their links are relative); the sitemap, ``robots.txt``, social
cards and absolute URLs in feeds, cite-this and the export need it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from juju_radar.model.messages import _, choose_language

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

SITE_URL_ENV = "RADAR_SITE_URL"
DEPLOY_ENV = "RADAR_DEPLOY"
EXIT_NO_SITE_URL = 2


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


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the site's address, or None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return _("the site's address must be an http(s) URL with a host, not {url!r}").format(
            url=url
        )
    if parts.query or parts.fragment:
        return _("the site's address cannot have a query or fragment: {url!r}").format(url=url)
    return None


def apply_environment(app: Sphinx) -> None:
    """``RADAR_SITE_URL`` wins over ``-D`` and ``conf.py``; a bad or (under
    ``RADAR_DEPLOY=1``) missing address stops the build with one line (in the form of the build's
    other errors).

    Called from the extension's setup, before anything reads the address: the other
    extensions' setup (sphinxext-opengraph is loaded only with an address) already
    sees it. SystemExit, because Sphinx turns any exception into a crash report."""
    from_environment = os.environ.get(SITE_URL_ENV, "").strip()
    if from_environment:
        app.config.radar_site_url = from_environment
    site = SiteUrl.from_config(app.config)
    # Before config-inited, where the build chooses it (sphinx_ext.config), with conf.py's
    # setting already readable: this line is said in the language of the build's others.
    configured = getattr(app.config, "radar_messages_language", None)
    choose_language(None, lambda: configured)
    problem, subtype = (url_problem(site.base) if site else None), "bad-site-url"
    if not site and os.environ.get(DEPLOY_ENV, "") not in ("", "0"):
        problem = _(
            "{deploy}=1 but the site's address is unknown: set {variable}, "
            "-D radar_site_url=… or radar_site_url in conf.py"
        ).format(deploy=DEPLOY_ENV, variable=SITE_URL_ENV)
        subtype = "no-site-url"
    if problem:
        conf = Path(app.confdir, "conf.py")
        print(f"{conf}: ERROR: {problem} [radar.{subtype}]", file=sys.stderr)
        raise SystemExit(EXIT_NO_SITE_URL)
