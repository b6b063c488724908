"""The acceleration ``pagefind-service``: Pagefind's service indexes the record sites of
a build as its command line does, one process for each thread that indexes, ended with
the update; a failure names what went wrong and the next piece gets a new process."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import doctrees_of
from search_bundles import read_bundle, same_search, tree_bytes

from juju_radar.accel.pagefind_service import ServiceError, ServicePerThread, services
from juju_radar.outputs.search.jobs import pagefind
from juju_radar.outputs.search.records import pagefind_executable
from juju_radar.sphinx_ext.outputs.search import RECORD_SITE


def record_sites(built_site: Path) -> list[Path]:
    """The build's record sites that hold records (a period's group may have none)."""
    folders = (doctrees_of(built_site) / RECORD_SITE).iterdir()
    sites = sorted(folder for folder in folders if any(folder.rglob("*.html")))
    assert len(sites) >= 2, sites
    return sites


def test_the_service_indexes_each_record_site_as_the_command_line_does(built_seed_site, tmp_path):
    with services() as index:
        for site in record_sites(built_seed_site):
            by_command, by_service = tmp_path / f"{site.name}.cli", tmp_path / site.name
            pagefind(site, by_command)
            index(site, by_service)
            assert same_search(read_bundle(by_command), read_bundle(by_service)), site.name
            fragments = [tree_bytes(bundle / "fragment") for bundle in (by_command, by_service)]
            assert fragments[0] == fragments[1] and fragments[0], site.name


def test_each_thread_has_one_service_and_they_end_with_the_update(built_seed_site, tmp_path):
    sites = record_sites(built_seed_site)
    indexer = ServicePerThread(pagefind_executable())

    def index_all(thread: str) -> None:
        for site in sites:
            indexer(site, tmp_path / thread / site.name)

    threads = [threading.Thread(target=index_all, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(indexer.started) == 2
    assert all(service.process.poll() is None for service in indexer.started)
    indexer.close()
    assert [service.process.returncode for service in indexer.started] == [0, 0]
    for site in sites:
        assert same_search(
            read_bundle(tmp_path / "a" / site.name), read_bundle(tmp_path / "b" / site.name)
        )


def test_a_failure_says_what_went_wrong_and_the_next_piece_gets_a_new_service(
    built_seed_site, tmp_path
):
    site = record_sites(built_seed_site)[0]
    empty = tmp_path / "empty"
    empty.mkdir()
    with services() as index:
        with pytest.raises(ServiceError, match=f"pagefind found no page to index in {empty}"):
            index(empty, tmp_path / "nothing")
        index(site, tmp_path / "after-nothing")
        assert isinstance(index, ServicePerThread)
        index.started[-1].process.kill()
        with pytest.raises(ServiceError, match=r"the pagefind service ended \(exit -9\)"):
            index(site, tmp_path / "killed")
        index(site, tmp_path / "again")
        assert len(index.started) == 3
    assert (tmp_path / "again" / "pagefind-entry.json").is_file()
