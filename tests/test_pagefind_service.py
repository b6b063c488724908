"""The acceleration ``pagefind-service``: Pagefind's service indexes the record sites of
a build as its command line does; the process keeps one service for each piece indexed
at once, for its later builds; a failure names what went wrong, and a service that
ended is replaced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import doctrees_of
from search_bundles import read_bundle, same_search, tree_bytes

from juju_radar.accel.pagefind_service import (
    ServiceError,
    ServicePool,
    process_services,
    write_bundle,
)
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
    index = process_services()
    for site in record_sites(built_seed_site):
        by_command, by_service = tmp_path / f"{site.name}.cli", tmp_path / site.name
        pagefind(site, by_command)
        index(site, by_service)
        assert same_search(read_bundle(by_command), read_bundle(by_service)), site.name
        fragments = [tree_bytes(bundle / "fragment") for bundle in (by_command, by_service)]
        assert fragments[0] == fragments[1] and fragments[0], site.name


def test_a_bundle_is_written_from_the_answer_and_only_inside_itself(tmp_path):
    """The service's answer holds the files (``GetFiles``): its own writes could land
    after it answered (an empty ``pagefind-entry.json``, 13 times in 300 here)."""
    bundle = tmp_path / "bundle"
    write_bundle(bundle, [{"path": "fragment/a.pf_fragment", "content": "AAE="}])
    assert (bundle / "fragment" / "a.pf_fragment").read_bytes() == b"\x00\x01"
    answer = [{"path": "kept.js", "content": "AAE="}, {"path": "../escaped.js", "content": "AAE="}]
    with pytest.raises(ServiceError, match="outside its bundle"):
        write_bundle(tmp_path / "refused", answer)
    assert not (tmp_path / "escaped.js").exists()
    assert not (tmp_path / "refused").exists(), "nothing of a refused answer is written"


def test_pieces_indexed_at_once_take_a_service_each_and_keep_them(built_seed_site, tmp_path):
    sites = record_sites(built_seed_site)
    pool = ServicePool(pagefind_executable())
    barrier = threading.Barrier(2)

    def index_all(thread: str) -> None:
        for site in sites:
            barrier.wait()  # both threads index at once
            pool(site, tmp_path / thread / site.name)

    for _ in range(2):  # two updates: the second starts no service
        threads = [threading.Thread(target=index_all, args=(name,)) for name in ("a", "b")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(pool.started) == 2 and len(pool.idle) == 2
    started = list(pool.started)
    assert all(service.process.poll() is None for service in started)
    pool.close()
    assert [service.process.returncode for service in started] == [0, 0]
    for site in sites:
        left, right = (read_bundle(tmp_path / thread / site.name) for thread in "ab")
        assert same_search(left, right)


def test_a_failure_says_what_went_wrong_and_an_ended_service_is_replaced(built_seed_site, tmp_path):
    site = record_sites(built_seed_site)[0]
    empty = tmp_path / "empty"
    empty.mkdir()
    pool = ServicePool(pagefind_executable())
    with pytest.raises(ServiceError, match=f"pagefind found no page to index in {empty}"):
        pool(empty, tmp_path / "nothing")
    pool(site, tmp_path / "after-nothing")
    assert len(pool.started) == 1, "a page-less site does not end the service"
    (first,) = pool.started
    first.process.kill()
    first.process.wait()
    pool(site, tmp_path / "after-an-idle-one-ended")
    (second,) = pool.started
    assert second is not first
    os.kill(second.process.pid, signal.SIGKILL)
    with pytest.raises(ServiceError, match=r"the pagefind service ended \(exit -9\)"):
        second.index(site, tmp_path / "killed")
    pool(site, tmp_path / "again")
    assert pool.started == pool.idle and second not in pool.started
    pool.close()
    for bundle in ("after-an-idle-one-ended", "again"):
        assert (tmp_path / bundle / "pagefind-entry.json").is_file()


def test_the_services_end_with_the_process(built_seed_site, tmp_path):
    """And a forked child does not use its parent's."""
    site = record_sites(built_seed_site)[0]
    script = f"""
import os
from pathlib import Path
from juju_radar.accel.pagefind_service import process_services
index = process_services()
index(Path({str(site)!r}), Path({str(tmp_path / "parent")!r}))
pid = os.fork()
if pid == 0:
    os._exit(0 if process_services() is not index else 1)
_, status = os.waitpid(pid, 0)
assert os.waitstatus_to_exitcode(status) == 0, "the child used its parent's services"
print(index.started[0].process.pid)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    service_pid = int(result.stdout)
    with pytest.raises(ProcessLookupError):
        os.kill(service_pid, 0)
