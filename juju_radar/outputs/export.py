"""The archive as data: ``data/items.json``, ``data/items.csv`` and their JSON Schema.

One record per published item, newest issue first and in issue order within an
issue, with the identifiers of every reference it cites (from ``references.bib``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from juju_radar.model.archive import Archive, ItemRef
from juju_radar.model.issue_records import format_score
from juju_radar.model.vocabulary import Vocabulary
from juju_radar.outputs.siteurl import SiteUrl

DATA_DIR = "data"
JSON_FILE = "items.json"
CSV_FILE = "items.csv"
SCHEMA_FILE = "items.schema.json"
LIST_SEPARATOR = "; "

CSV_COLUMNS = (
    "issue_date",
    "issue_title",
    "item_id",
    "url",
    "path",
    "title",
    "emoji",
    "topic",
    "topic_label",
    "tags",
    "score",
    "verdict",
    "verdict_label",
    "citation_keys",
    "citation_identifiers",
)

# docname -> output file name (``issues/2026/2026-09-08.html``)
TargetUri = Callable[[str], str]


@dataclass(frozen=True)
class ExportContext:
    archive: Archive
    vocabulary: Vocabulary
    site: SiteUrl
    target_uri: TargetUri
    identifiers: Mapping[str, Mapping[str, str]]  # citation key -> {field: value}


def json_number(score: float) -> int | float:
    return int(score) if float(score).is_integer() else score


def item_record(context: ExportContext, ref: ItemRef) -> dict[str, Any]:
    item = ref.item
    path = context.target_uri(ref.docname) + f"#{item.id}"
    return {
        "issue_date": ref.date,
        "issue_title": ref.issue.title,
        "item_id": item.id,
        "url": context.site.url(path) if context.site else None,
        "path": path,
        "title": item.title,
        "emoji": item.emoji,
        "topic": item.topic,
        "topic_label": context.vocabulary.topic_by_key(item.topic).label,
        "tags": list(item.tags),
        "score": json_number(item.score),
        "verdict": item.verdict,
        "verdict_label": context.vocabulary.verdict_by_key(item.verdict).label,
        "citations": [
            {"key": key, "identifiers": dict(context.identifiers.get(key, {}))}
            for key in dict.fromkeys(item.citation_keys)
        ],
    }


def item_records(context: ExportContext) -> list[dict[str, Any]]:
    return [item_record(context, ref) for ref in context.archive.items()]


def items_json(records: list[dict[str, Any]]) -> str:
    """The document, one item a line: an indented dump goes through json's pure-Python
    encoder (1.5 s at 3,650 issues), a dump of each item through its C one."""
    items = ",\n".join(f"    {json.dumps(record, ensure_ascii=False)}" for record in records)
    head = {"$schema": SCHEMA_FILE, "count": len(records)}
    fields = "".join(
        f"  {json.dumps(name)}: {json.dumps(value)},\n" for name, value in head.items()
    )
    return "{\n" + fields + '  "items": [' + (f"\n{items}\n  " if items else "") + "]\n}\n"


# OWASP's CSV injection rule: a spreadsheet runs a cell starting with one of these as a
# formula (=HYPERLINK(...), @SUM(...)); a leading ' makes it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralised(cell: str) -> str:
    return f"'{cell}" if cell.startswith(FORMULA_STARTS) else cell


def csv_row(record: Mapping[str, Any]) -> dict[str, str]:
    return {name: neutralised(value) for name, value in csv_cells(record).items()}


def csv_cells(record: Mapping[str, Any]) -> dict[str, str]:
    citations = record["citations"]
    identifiers = {entry["key"]: entry["identifiers"] for entry in citations}
    return {
        **{name: str(record[name] or "") for name in CSV_COLUMNS if name in record},
        "tags": LIST_SEPARATOR.join(record["tags"]),
        "score": format_score(record["score"]),
        "citation_keys": LIST_SEPARATOR.join(entry["key"] for entry in citations),
        "citation_identifiers": json.dumps(identifiers, ensure_ascii=False, sort_keys=True),
    }


def items_csv(records: Iterable[Mapping[str, Any]]) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(csv_row(record) for record in records)
    return buffer.getvalue()


def items_schema(vocabulary: Vocabulary, schema_id: str = "") -> dict[str, Any]:
    """JSON Schema (2020-12) of ``items.json``; topics and verdicts from ``conf.py``."""
    text = {"type": "string"}
    item: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "issue_date": {**text, "format": "date", "description": "The issue's date."},
            "issue_title": {**text, "description": "The issue's title."},
            "item_id": {
                **text,
                "pattern": "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$",
                "description": "The item's id: unique in the archive, its anchor on the page.",
            },
            "url": {
                "type": ["string", "null"],
                "format": "uri",
                "description": "Absolute URL of the item (null when no site URL is set).",
            },
            "path": {**text, "description": "The item's page and anchor, from the site root."},
            "title": {**text, "description": "The item's title, without its emoji."},
            "emoji": {**text, "description": "The emoji before the title, or ''."},
            "topic": {"enum": [topic.key for topic in vocabulary.topics]},
            "topic_label": {**text, "description": "The topic's Chinese label."},
            "tags": {"type": "array", "items": text},
            "score": {"type": "number", "minimum": 0, "maximum": 10, "multipleOf": 0.5},
            "verdict": {"enum": [verdict.key for verdict in vocabulary.verdicts]},
            "verdict_label": {**text, "description": "The verdict's Chinese label."},
            "citations": {
                "type": "array",
                "description": "The references the item cites, in the order it cites them.",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["key", "identifiers"],
                    "properties": {
                        "key": {**text, "description": "Citation key in references.bib."},
                        "identifiers": {
                            "type": "object",
                            "description": "Identifier fields of the entry "
                            "(doi, url, eprint, archiveprefix, isbn, issn, note).",
                            "additionalProperties": text,
                        },
                    },
                },
            },
        },
    }
    item["required"] = list(item["properties"])  # every field is always present
    schema: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if schema_id:
        schema["$id"] = schema_id
    return schema | {
        "title": "Juju Radar items",
        "description": "Every published item of the Juju Radar archive, newest issue first.",
        "type": "object",
        "required": ["count", "items"],
        "properties": {
            "$schema": text,
            "count": {"type": "integer", "minimum": 0},
            "items": {"type": "array", "items": item},
        },
    }


def schema_id(site: SiteUrl) -> str:
    return site.url(f"{DATA_DIR}/{SCHEMA_FILE}") if site else ""


def export_complete(outdir: Path) -> bool:
    return all((outdir / DATA_DIR / name).is_file() for name in (JSON_FILE, CSV_FILE, SCHEMA_FILE))


def write_export(context: ExportContext, outdir: Path) -> list[Path]:
    records = item_records(context)
    files = {
        JSON_FILE: items_json(records),
        CSV_FILE: items_csv(records),
        SCHEMA_FILE: json.dumps(
            items_schema(context.vocabulary, schema_id(context.site)), ensure_ascii=False, indent=2
        )
        + "\n",
    }
    target_dir = outdir / DATA_DIR
    target_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        target = target_dir / name
        target.write_text(text, encoding="utf-8", newline="")
        written.append(target)
    return written
