"""Peak memory of a process tree, summed over its processes (Linux ``/proc``).

``ru_maxrss`` gives the largest single process, which undercounts a ``-j`` build: its
forked readers and writers each hold memory of their own at the same time. This samples
the tree every ``interval`` seconds and keeps the largest sum of Rss (what each process
has resident, pages shared between them counted in each) and of Pss (shared pages split
between the processes sharing them, so the sum is what the tree takes from the machine).
A process that lives less than one interval can be missed.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

PROC = Path("/proc")


def children_of() -> dict[int, list[int]]:
    """Parent pid -> child pids, for every process now running."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir(PROC):
        if not entry.name.isdigit():
            continue
        try:
            stat = (PROC / entry.name / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # after "pid (comm) state"
        children.setdefault(parent, []).append(int(entry.name))
    return children


def tree(root: int) -> list[int]:
    children, found, todo = children_of(), [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def rss_pss_kib(pid: int) -> tuple[int, int]:
    """Rss and Pss of one process in KiB (0, 0 once it has ended)."""
    try:
        rollup = (PROC / str(pid) / "smaps_rollup").read_text()
    except OSError:
        return 0, 0
    values = {}
    for line in rollup.splitlines()[1:]:
        name, _, rest = line.partition(":")
        values[name] = int(rest.split()[0])
    return values.get("Rss", 0), values.get("Pss", 0)


@dataclass
class TreePeak:
    rss_mib: float = 0.0
    pss_mib: float = 0.0
    processes: int = 0  # the most processes seen at once


class TreeMemory:
    """``with TreeMemory(pid) as peak:`` samples the tree of ``pid`` until the block ends."""

    def __init__(self, root: int, interval: float = 0.2) -> None:
        self.root, self.interval = root, interval
        self.peak = TreePeak()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        pids = tree(self.root)
        sizes = [rss_pss_kib(pid) for pid in pids]
        rss, pss = sum(size[0] for size in sizes), sum(size[1] for size in sizes)
        self.peak.rss_mib = max(self.peak.rss_mib, rss / 1024)
        self.peak.pss_mib = max(self.peak.pss_mib, pss / 1024)
        self.peak.processes = max(self.peak.processes, sum(1 for size in sizes if size[0]))

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def __enter__(self) -> TreePeak:
        self.sample()
        self._thread.start()
        return self.peak

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
