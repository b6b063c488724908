"""A built page read as a browser reads it (selectolax's HTML5 parser): its head's
``<meta name>`` values and its JSON-LD document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser


def parsed(path: Path) -> LexborHTMLParser:
    return LexborHTMLParser(path.read_text(encoding="utf-8"))


def head_meta(page: LexborHTMLParser, name: str) -> list[str]:
    return [
        str(node.attributes.get("content"))
        for node in page.css("head meta")
        if node.attributes.get("name") == name
    ]


def json_ld(page: LexborHTMLParser) -> dict[str, Any]:
    (script,) = page.css('script[type="application/ld+json"]')
    document: dict[str, Any] = json.loads(script.text())
    return document
