"""Parts of the build benchmark: peak memory summed over the process tree (forked
children too), and the preview step taken from ``bench/preview_bench.py`` when there."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

sys.path[:0] = [str(ROOT / "bench")]

from build_bench import measure_preview, measure_rows  # noqa: E402
from tree_memory import TreeMemory  # noqa: E402

# A parent holding 60 MiB forks two children that each allocate 60 MiB more of their own.
FORKING = """
import os, time
held = bytearray(60 * 2**20)
children = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        own = bytearray(60 * 2**20)
        time.sleep(1.5)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
"""


def test_peak_memory_counts_forked_children():
    process = subprocess.Popen([sys.executable, "-c", FORKING])
    with TreeMemory(process.pid, interval=0.1) as peak:
        process.wait()
    assert peak.processes == 3
    # Pss: 60 MiB (shared by three) + 2 x 60 MiB own; the largest single process has 120.
    assert 175 < peak.pss_mib < 260
    assert peak.rss_mib > peak.pss_mib + 100  # each child's Rss counts the shared 60 MiB too


RUN = {"wall": 1.0, "cpu": 1.0, "rss_mib": 1, "pss_mib": 1, "processes": 2, "read": 1, "written": 3}


def test_the_preview_step_runs_preview_bench_when_it_is_there(tmp_path):
    missing = measure_preview(tmp_path, tmp_path / "preview_bench.py")
    assert missing == {"note": "bench/preview_bench.py is not there yet"}
    module = tmp_path / "preview_bench.py"
    module.write_text(
        "def preview_seconds(srcdir):\n"
        "    return {'save_to_page': 1.25, 'site': srcdir.name, 'skipped': True}\n"
    )
    measured = measure_preview(tmp_path / "site", module)
    assert measured == {"save_to_page": 1.25, "site": "site", "skipped": True}
    rows = measure_rows({"issues": 3, "edit_sentence": RUN, "edit_preview": measured})
    assert rows["edit a sentence of the newest issue: preview"] == "save_to_page 1.25 s"
    rows = measure_rows({"issues": 3, "edit_sentence": RUN, "edit_preview": missing})
    assert rows["edit a sentence of the newest issue: preview"] == (
        "not measured: bench/preview_bench.py is not there yet"
    )
