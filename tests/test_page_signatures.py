"""Page signatures: worked out by forked processes, they are the ones one process finds."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import SEED_SITE, seed_vocabulary
from pybtex.database import parse_file

from juju_radar.accel import parallel_signatures
from juju_radar.editors.synth import SynthOptions, write_synthetic_archive
from juju_radar.model.archive import Archive
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import is_issue_path, plain_text
from juju_radar.model.listing_views import ViewSettings, front_page
from juju_radar.model.vocabulary import vocabulary_from_config
from juju_radar.sphinx_ext.bibliography import _load
from juju_radar.sphinx_ext.collector import RadarData, page_digests
from juju_radar.store.cache import BuildCache

SETTINGS = ViewSettings(front_page_issues=10, topics=())


def synthetic_data(tmp_path: Path) -> tuple[RadarData, Archive, object]:
    conf: dict = {}
    exec((SEED_SITE / "conf.py").read_text(encoding="utf-8"), conf)
    vocab = vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])
    srcdir = tmp_path / "src"
    write_synthetic_archive(
        SEED_SITE, srcdir, SynthOptions(issues=60, draft_every=7, text="seed"), vocab
    )
    data = RadarData()
    for path in sorted((srcdir / "issues").rglob("*.md")):
        relative = path.relative_to(srcdir).as_posix()
        if not is_issue_path(relative):
            continue
        issue, _ = parse_issue(path.read_text(encoding="utf-8"), relative, vocab)
        assert issue is not None
        data.set_issue(issue.docname, issue)
    months = sorted({f"{issue.date:%Y-%m}" for issue in data.issues.values()})
    for month in months:
        data.period_pages[f"references/{month}"] = ("references", {"selector": month})
    data.period_pages["references"] = ("references-index", {})
    year = months[0][:4]
    data.period_pages[f"best/{year}"] = ("best-year", {"year": year})
    topic = vocab.topics[0].key
    data.period_pages[f"topics/{topic}/{year}"] = ("topic-year", {"topic": topic, "year": year})
    data.listing_docs["index"] = (("front", {}),)
    data.listing_docs[f"topics/{topic}"] = (("topic-list", {"topic": topic}),)
    data.listing_docs["stats"] = (("stats", {}),)
    bib = srcdir / "references.bib"
    files = ((str(bib), bib.stat().st_mtime),)
    bibliography = _load(parse_file(str(bib)), files, BuildCache(tmp_path / "cache"))
    return data, data.archive(), bibliography


@pytest.mark.site
def test_signatures_shared_among_processes_equal_those_of_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, archive, bibliography = synthetic_data(tmp_path)
    alone = page_digests(data, archive, bibliography, SETTINGS)  # type: ignore[arg-type]
    assert len(alone) == len(data.issues) + len(data.period_pages) + len(data.listing_docs)
    assert len(set(alone.values())) > len(alone) / 2  # pages show different things
    monkeypatch.setattr(parallel_signatures, "PARALLEL_SIGNATURES_FROM", 10)
    for processes in (2, 3):

        def share(digests, docnames, archive, processes=processes):  # as the event handler
            found = parallel_signatures.share_digests(None, digests, docnames, archive, processes)
            assert found is not None, "computed in forked processes"
            return found

        shared = page_digests(data, archive, bibliography, SETTINGS, share)  # type: ignore[arg-type]
        assert list(shared.items()) == list(alone.items())


def test_a_listing_page_changes_only_when_what_it_shows_does(tmp_path: Path) -> None:
    """A new issue whose stories are all of one topic changes the front page, that
    topic's page and the statistics; not another topic's page."""
    data, archive, bibliography = synthetic_data(tmp_path)
    first, second = (topic.key for topic in seed_vocabulary().topics[:2])
    data.listing_docs[f"topics/{second}"] = (("topic-list", {"topic": second}),)
    before = page_digests(data, archive, bibliography, SETTINGS)  # type: ignore[arg-type]
    newest = archive.published[0]
    date = newest.date + dt.timedelta(days=1)
    added = replace(
        newest,
        date=date,
        path=f"issues/{date:%Y}/{date}.md",
        items=tuple(replace(item, topic=first, id=f"{item.id}-b") for item in newest.items),
    )
    data.set_issue(added.docname, added)
    after = page_digests(data, data.archive(), bibliography, SETTINGS)  # type: ignore[arg-type]
    changed = {name for name in data.listing_docs if before[name] != after[name]}
    assert changed == {"index", f"topics/{first}", "stats"}


def test_the_front_page_shows_the_newest_issue_whole_and_the_earlier_ones_as_cards(
    tmp_path: Path,
) -> None:
    _, archive, _ = synthetic_data(tmp_path)
    topics = tuple(topic.key for topic in seed_vocabulary().topics)
    view = front_page(archive, ViewSettings(2, topics))
    newest, *earlier = archive.published[:3]
    assert view.latest is not None and view.latest.link.docname == newest.docname
    assert view.latest.lead == (plain_text(newest.lead[0]),)
    assert [line.item_id for line in view.latest.items] == [item.id for item in newest.items]
    assert [card.link.docname for card in view.recent] == [issue.docname for issue in earlier]
    assert [card.stories for card in view.recent] == [len(issue.items) for issue in earlier]
    assert all(
        card.lead and plain_text(issue.lead[0]).startswith(card.lead)
        for card, issue in zip(view.recent, earlier, strict=True)
    )
    assert view.topics == tuple((topic, len(archive.topic_items(topic))) for topic in topics)
