"""Sphinx configuration of the documentation of the Juju Radar archive (`make docs`).

This is not the archive: the archive's own configuration is the repository's conf.py,
whose build leaves this folder out (juju_radar/model/site_layout.py, NOT_SITE).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The local extension writing the tables of codes from juju_radar.model.codes; the
# repository root, so that the registry is found without installing the package.
sys.path[:0] = [str(HERE / "_ext"), str(HERE.parent)]

project = "Juju Radar archive"
author = "Juju Radar"
copyright = "2026, Juju Radar"
language = "en"

extensions = ["myst_parser", "radar_codes", "radar_accelerations"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]
# The pages link the repository's files by path in code spans; nothing else to resolve.
nitpicky = True

html_theme = "alabaster"
html_title = "Juju Radar archive: documentation"
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {"description": "How the archive is edited, built, run and kept."}

# The editors' pages are written in Chinese, the others in English (`language` above, for
# the theme's labels): each page's <html lang> says which, so that browsers and screen
# readers read it in its language and choose Chinese glyphs for it.
CHINESE_PAGES = ("editors/",)


def page_language(app, pagename, templatename, context, doctree):
    if pagename.startswith(CHINESE_PAGES):
        context["language"] = "zh-CN"


def setup(app):
    app.connect("html-page-context", page_language)
