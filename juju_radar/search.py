"""Search: the Pagefind index of the built site and its reader interface."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup(app: Sphinx) -> None:
    """Wire the search; filled in by the search work."""
