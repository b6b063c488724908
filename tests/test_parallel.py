"""Parallel reading and writing: forked readers send back only their pages, forked
writers resolve their pages and hand back what the build keeps."""

from __future__ import annotations

import base64
import gc
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import SEED_SITE, sphinx_build
from site_builds import EPOCH_ENV, clean_build, differences
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import docutils_namespace

from juju_radar.accel.sphinx_internals import shed_other_pages
from juju_radar.editors.synth import SynthOptions, write_synthetic_archive
from juju_radar.model.vocabulary import vocabulary_from_config
from juju_radar.sphinx_ext.bibliography import FORMATTED
from juju_radar.sphinx_ext.collector import RadarData
from juju_radar.store.cache import FOLDER_NAME, BuildCache

# Whole-site builds compared with each other: `make test` runs them, `make test-fast` not.
pytestmark = pytest.mark.slow

# A 1x1 transparent PNG.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def synthetic_site(tmp_path: Path, issues: int) -> Path:
    conf: dict = {}
    exec((SEED_SITE / "conf.py").read_text(encoding="utf-8"), conf)
    vocab = vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])
    srcdir = tmp_path / "src"
    write_synthetic_archive(SEED_SITE, srcdir, SynthOptions(issues=issues, draft_every=0), vocab)
    return srcdir


def add_page(srcdir: Path, name: str, body: str) -> None:
    # "zz-" sorts last: the main process writes only the first page itself.
    (srcdir / f"zz-{name}.md").write_text(f"---\norphan: true\n---\n# {name}\n\n{body}\n", "utf-8")


def test_warning_while_resolving_in_a_worker_fails_the_build(tmp_path: Path) -> None:
    srcdir = synthetic_site(tmp_path, 12)
    add_page(srcdir, "broken", "见[另一页](no-such-page.md)。")
    result = sphinx_build(srcdir, tmp_path / "html", "-j", "2", check=False)
    assert result.returncode != 0
    assert re.search(r"zz-broken\.md:\d+: WARNING: .*no-such-page", result.stderr), result.stderr


def retitle_every_entry(srcdir: Path) -> int:
    bib = srcdir / "references.bib"
    text, retitled = re.subn(r"title = \{", "title = {Retitled ", bib.read_text("utf-8"))
    bib.write_text(text, "utf-8")
    return retitled


def test_parallel_build_and_rebuild_equal_serial_ones_and_keep_what_workers_formatted(
    tmp_path: Path,
) -> None:
    srcdir = synthetic_site(tmp_path, 24)
    parallel = clean_build(srcdir, tmp_path / "parallel", "-j", "2")
    serial = clean_build(srcdir, tmp_path / "serial")  # this process's build is serial
    assert len(list((serial / "issues").glob("*/*.html"))) == 24
    # Each story's page and card: collected in the main process from what the workers wrote.
    stories = list((serial / "issues").glob("*/*/*.html"))
    assert stories and len(list((serial / "issues").glob("*/*/*.png"))) == len(stories)
    assert differences(serial, parallel) == []
    # The citing pages are rewritten, not re-read: their entries are formatted by
    # whichever process writes them, most of them forked writers.
    retitled = retitle_every_entry(srcdir)
    add_page(srcdir, "later", "后来加的一页。")
    sphinx_build(srcdir, parallel, "-j", "2", env=EPOCH_ENV)

    serial = clean_build(srcdir, tmp_path / "serial", "-j", "1")  # a process of its own
    assert differences(serial, parallel) == []
    cache = BuildCache(parallel.parent / f"{parallel.name}.doctrees" / FOLDER_NAME)
    formatted = [repr(value) for value in cache.store(FORMATTED).values()]
    assert retitled > 24
    assert len(formatted) == retitled
    assert all("Retitled" in value for value in formatted)


def test_a_reader_sends_back_only_the_pages_it_read() -> None:
    read, merged_before = "issues/2026/2026-09-09", "issues/2026/2026-09-08"
    radar = RadarData(
        issues={read: "issue read here", merged_before: "issue merged earlier"},  # type: ignore[dict-item]
        listing_docs={read: (("best", {}),), "index": (("front", {}),)},
        period_pages={"best/2026": ("best-year", {"year": "2026"})},
        formatted={read: {}, merged_before: {}},
        published_state={},
    )
    bibdata = object()
    env = SimpleNamespace(
        radar=radar,
        tocs={read: "toc", merged_before: "toc"},
        domaindata={"cite": {"bibdata": bibdata, "citation_refs": []}, "std": {}},
    )
    shed_other_pages(env, [read])  # type: ignore[arg-type]
    assert list(radar.issues) == list(radar.listing_docs) == list(radar.formatted) == [read]
    assert radar.period_pages == {} and radar.published_state is None
    assert list(env.tocs) == [read]
    assert env.domaindata == {"cite": {"bibdata": None, "citation_refs": []}, "std": {}}


def test_in_a_parallel_build_readers_send_only_their_pages_and_nothing_stays_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srcdir = synthetic_site(tmp_path, 30)
    sent: list[tuple[int, int, int]] = []  # per merged reader: pages read, issues, tocs
    merge = BuildEnvironment.merge_info_from

    def noting_merge(self: BuildEnvironment, docnames: Any, other: Any, app: Any) -> None:
        sent.append((len(docnames), len(other.radar.issues), len(other.tocs)))
        merge(self, docnames, other, app)

    monkeypatch.setattr(BuildEnvironment, "merge_info_from", noting_merge)
    with docutils_namespace():  # the builds other tests run in this process start afresh
        app = Sphinx(srcdir, srcdir, tmp_path / "html", tmp_path / "doctrees", "html",
                     status=None, warning=None, parallel=2)  # fmt: skip
        app.build()
    assert len(sent) > 2
    assert all(issues <= pages and tocs == pages for pages, issues, tocs in sent), sent
    assert sum(issues for _, issues, _ in sent) == 30
    assert gc.get_freeze_count() == 0
