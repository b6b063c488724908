"""The data export: what a researcher downloads, checked against the model and the bib."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest
from publishing_site import DRAFT_DATE, item_url, published_issues, vocabulary


@pytest.fixture(scope="module")
def site(published_site: tuple[Path, Path]) -> tuple[Path, Path]:
    return published_site


def load_json(outdir: Path, name: str) -> dict:
    return json.loads((outdir / "data" / name).read_text(encoding="utf-8"))


def expected_rows(srcdir: Path) -> list[tuple]:
    return [(issue, item) for issue in published_issues(srcdir) for item in issue.items]


# What references.bib states for each cited entry: none has a DOI, URL or arXiv id yet,
# so the note (where the source says what it is and when it appeared) is all there is.
CITED_IDENTIFIERS = {
    "taubench2026paper": {"note": "进入 2026-09-07 的 arXiv 公告"},
    "rise2026paper": {"note": "从模型当前版本与较早版本的训练变化中外推构造老师的训练方法"},
    "taubench2026code": {"note": "代码库于 2026-09-04 公开"},
    "worldsculpt2026paper": {"note": "基于 Pixal3D 的多视角逐物体 3D 场景生成"},
    "worldsculpt2026code": {"note": "仓库含推理代码及权重入口；README 于 2026-09-07 更新"},
    "rentosertib2026natbiotech": {
        "note": "英矽智能候选药 rentosertib；12 周二期早期试验中 42 名患者的血液蛋白数据；"
        "2026-09-07 发表"
    },
    "spc2026release": {"note": "2026-09-07 发布"},
    "spc2026opinion": {"note": "《意见》全文，2026-09-07 发布"},
}


def test_items_json_follows_its_schema(site):
    _, outdir = site
    schema = load_json(outdir, "items.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    document = load_json(outdir, "items.json")
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
    assert document["count"] == len(document["items"])
    assert schema["$id"] == "https://example.org/archive/data/items.schema.json"
    assert schema["properties"]["items"]["items"]["properties"]["topic"]["enum"] == [
        topic.key for topic in vocabulary().topics
    ]


def test_the_schema_rejects_a_record_that_breaks_it(site):
    _, outdir = site
    schema = load_json(outdir, "items.schema.json")
    document = load_json(outdir, "items.json")
    document["items"][0]["score"] = 11
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)


def test_items_json_has_every_published_item_as_the_model_reads_it(site):
    srcdir, outdir = site
    records = load_json(outdir, "items.json")["items"]
    rows = expected_rows(srcdir)
    assert [record["item_id"] for record in records] == [item.id for _, item in rows]
    for record, (issue, item) in zip(records, rows, strict=True):
        assert record["issue_date"] == issue.date.isoformat()
        assert record["issue_title"] == issue.title
        assert record["url"] == item_url(issue, item.id)
        assert record["title"] == item.title
        assert record["emoji"] == item.emoji
        assert record["topic"] == item.topic
        assert record["tags"] == list(item.tags)
        assert record["score"] == item.score
        assert record["verdict"] == item.verdict
        assert [c["key"] for c in record["citations"]] == list(dict.fromkeys(item.citation_keys))
        for citation in record["citations"]:
            assert citation["identifiers"] == CITED_IDENTIFIERS[citation["key"]]


def test_a_cited_reference_carries_its_identifiers(site):
    _, outdir = site
    records = {r["item_id"]: r for r in load_json(outdir, "items.json")["items"]}
    first = records["tau-bench-customer-service"]["citations"][0]
    assert first == {
        "key": "taubench2026paper",
        "identifiers": {"note": "进入 2026-09-07 的 arXiv 公告"},
    }
    assert records["tau-bench-customer-service"]["topic_label"] == "Agent"
    assert records["spc-ai-disputes-opinion"]["verdict_label"] == "建议阅读原文"


def test_drafts_are_not_exported(site):
    _, outdir = site
    for name in ("items.json", "items.csv"):
        text = (outdir / "data" / name).read_text(encoding="utf-8")
        assert DRAFT_DATE not in text and "draft-only-item" not in text, name


def test_items_csv_has_the_same_rows_as_items_json(site):
    _, outdir = site
    records = load_json(outdir, "items.json")["items"]
    text = (outdir / "data" / "items.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert len(rows) == len(records)
    assert text.splitlines()[0] == (
        "issue_date,issue_title,item_id,url,path,title,emoji,topic,topic_label,tags,score,"
        "verdict,verdict_label,citation_keys,citation_identifiers"
    )
    for row, record in zip(rows, records, strict=True):
        assert row["item_id"] == record["item_id"]
        assert row["url"] == record["url"]
        assert row["title"] == record["title"]
        assert row["emoji"] == record["emoji"]
        assert (row["tags"].split("; ") if row["tags"] else []) == record["tags"]
        assert row["citation_keys"].split("; ") == [c["key"] for c in record["citations"]]
        identifiers = json.loads(row["citation_identifiers"])
        assert identifiers == {c["key"]: c["identifiers"] for c in record["citations"]}
    assert [row["score"] for row in rows] == ["7.5", "9.5", "9", "8.5", "8.5", "8.5", "8.5"]
    second = next(row for row in rows if row["item_id"] == "taubench-failure-replication")
    assert second["tags"] == "Coding Agent; 评测"
    assert second["score"] == "7.5"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(start):
    from juju_radar.outputs.export import CSV_COLUMNS, items_csv

    record = {name: f'{start}HYPERLINK("https://evil.example")' for name in CSV_COLUMNS}
    record.update(tags=[f"{start}SUM(1)", "安全"], score=9.0, citations=[], url=None)
    rows = list(csv.DictReader(io.StringIO(items_csv([record]), newline="")))
    for name, cell in rows[0].items():
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (name, cell)
    assert rows[0]["title"] == f'\'{start}HYPERLINK("https://evil.example")'
    assert rows[0]["tags"] == f"'{start}SUM(1); 安全"
    assert rows[0]["score"] == "9"
