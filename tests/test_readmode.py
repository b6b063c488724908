"""A few changed pages are read in the main process; writing keeps its parallelism."""

from __future__ import annotations

from types import SimpleNamespace

from juju_radar.build.readmode import SERIAL_READ_BELOW, read_few_pages_serially, restore_parallel


def test_a_small_read_is_serial_and_the_setting_comes_back_for_writing():
    app = SimpleNamespace(parallel=2)
    read_few_pages_serially(app, None, ["issues/2026/2026-09-09"])
    assert app.parallel == 1, "Sphinx reads in parallel only when app.parallel > 1"
    restore_parallel(app, None)
    assert app.parallel == 2


def test_a_large_read_stays_parallel():
    app = SimpleNamespace(parallel=2)
    read_few_pages_serially(app, None, [f"page{n}" for n in range(SERIAL_READ_BELOW)])
    assert app.parallel == 2
    restore_parallel(app, None)
    assert app.parallel == 2
