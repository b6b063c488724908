"""In which order the forked writers take the pages, and how many writers are forked.

A clean build writes thousands of pages of about the same cost; adding an issue writes a
few dozen, a handful of which (the archive listing, the statistics) cost as much as all
the others. Sphinx gives each forked writer a fixed chunk of the pages, in name order:
adding an issue made three chunks of thirteen, and one writer waited seconds for the
other. Here the pages go heaviest first into one queue, and each writer takes the next
page when it is done with one, so the writers finish together; a small build forks one
writer a core for all its pages (a fork of the main process costs more than a small page).
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Up to this many pages, one writer a core writes them all.
ONE_WRITER_A_CORE_UP_TO = 200


def heaviest_first(docnames: Sequence[str], weight: Callable[[str], float]) -> list[str]:
    """``docnames`` by ``weight`` (a guess at what writing the page costs), heaviest
    first, then by name."""
    return sorted(docnames, key=lambda docname: (-weight(docname), docname))


@dataclass(frozen=True)
class WritePlan:
    writers: int  # processes forked over the whole write, ``cores`` at a time
    pages_each: int  # the most pages one of them takes


def write_plan(pages: int, cores: int, chunk_size: int) -> WritePlan:
    """For a large build, writers of ``chunk_size`` pages (Sphinx's chunks), so progress
    is reported and memory a writer gathers is freed as the build goes."""
    if pages <= ONE_WRITER_A_CORE_UP_TO:
        return WritePlan(max(1, min(cores, pages)), pages)
    return WritePlan(math.ceil(pages / chunk_size), chunk_size)


class PageQueue:
    """Pages handed out one at a time to forked writers: a counter in shared memory,
    created before the writers are forked."""

    def __init__(self, docnames: Sequence[str]) -> None:
        self.docnames = list(docnames)
        self._next = multiprocessing.get_context("fork").Value("q", 0)

    def take(self) -> str | None:
        with self._next.get_lock():
            index = self._next.value
            if index >= len(self.docnames):
                return None
            self._next.value = index + 1
        return self.docnames[index]
