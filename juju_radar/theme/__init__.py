"""The extension's templates, stylesheets and scripts, laid over sphinx-book-theme."""

from __future__ import annotations

from pathlib import Path

THEME_DIR = Path(__file__).parent
TEMPLATES_DIR = THEME_DIR / "templates"
STATIC_DIR = THEME_DIR / "static"
