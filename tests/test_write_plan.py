"""The writers' plan: heaviest pages first, one writer a core for a small build, and a
queue that hands each page out once however many writers take from it."""

from __future__ import annotations

import multiprocessing

from juju_radar.accel.write_plan import (
    ONE_WRITER_A_CORE_UP_TO,
    PageQueue,
    WritePlan,
    heaviest_first,
    write_plan,
)


def test_the_heaviest_pages_go_first_and_equal_weights_by_name():
    weights = {"issues/2026-09-08": 40_000, "stats": 300_000, "index": 40_000, "new": 0}
    ordered = heaviest_first(list(weights), weights.__getitem__)
    assert ordered == ["stats", "index", "issues/2026-09-08", "new"]


def test_a_small_build_forks_one_writer_a_core_and_a_large_one_writers_of_a_chunk():
    assert write_plan(37, 2, 13) == WritePlan(writers=2, pages_each=37)
    assert write_plan(1, 2, 1) == WritePlan(writers=1, pages_each=1)
    large = write_plan(3_843, 2, 138)
    assert large == WritePlan(writers=28, pages_each=138)
    assert large.writers * large.pages_each >= 3_843 > ONE_WRITER_A_CORE_UP_TO


def take_all(queue: PageQueue, taken) -> None:
    while (page := queue.take()) is not None:
        taken.put(page)


def test_forked_writers_take_every_page_once():
    pages = [f"issues/{number:04d}" for number in range(500)]
    queue = PageQueue(pages)
    fork = multiprocessing.get_context("fork")
    taken = fork.SimpleQueue()
    writers = [fork.Process(target=take_all, args=(queue, taken)) for _ in range(3)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    got = []
    while not taken.empty():
        got.append(taken.get())
    assert sorted(got) == pages
    assert queue.take() is None
