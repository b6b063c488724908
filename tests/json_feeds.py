"""What a JSON Feed is checked against (tests/test_feeds.py, tests/test_entities_site.py)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema

JSON_FEED_SCHEMA = json.loads((Path(__file__).parent / "jsonfeed-1.1.schema.json").read_text())


def validate_json_feed(document: dict[str, Any]) -> None:
    """The schema, and its dates as RFC 3339 (jsonschema checks "date-time" only with a
    package the tests do not install)."""
    jsonschema.validate(document, JSON_FEED_SCHEMA)
    for item in document["items"]:
        for field in ("date_published", "date_modified"):
            assert dt.datetime.fromisoformat(item[field]).tzinfo is not None, item[field]
