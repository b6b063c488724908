"""The archive's licence on every page, when the editors state one (``radar_license``):
a ``<link rel="license">`` in the head and a line in the footer
(``theme/templates/extra-footer.html``). Unset, nothing is added.

The issue pages' citation metadata (``DC.rights``, JSON-LD ``license``) and the cite
downloads carry it too (``citation_meta``, ``downloads``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from juju_radar.model.license import configured_license

if TYPE_CHECKING:
    from sphinx.application import Sphinx

LICENSE_LINK = Markup('\n<link rel="license" href="{}" />')
FOOTER_CONTEXT = "radar_license"  # what the footer template reads


def add_license(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Every page, the 404 page too (whose context has no ``metatags`` of its own)."""
    license = configured_license(app.config.radar_license)
    if license is None:
        return
    context["metatags"] = context.get("metatags", "") + str(LICENSE_LINK.format(license.url))
    context[FOOTER_CONTEXT] = license
