"""What a build freezes for the cycle collector it thaws again when it ends."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace

from juju_radar.accel.frozen_objects import freeze_before_writers, freeze_survivors, thaw


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector can free it


def collectable(obj: object) -> bool:
    return any(candidate is obj for candidate in gc.get_objects())


def test_survivors_are_frozen_until_the_build_ends():
    survivor = Node()
    freeze_survivors(None)
    try:
        assert not collectable(survivor)
    finally:
        thaw(None, None)
    assert gc.get_freeze_count() == 0
    assert collectable(survivor)


def test_garbage_is_collected_before_freezing():
    node = Node()
    gone = weakref.ref(node)
    del node
    freeze_survivors(None)
    try:
        assert gone() is None
    finally:
        thaw(None, None)


def test_a_serial_build_does_not_freeze_the_doctrees_it_holds_for_writing():
    survivor = Node()
    freeze_before_writers(SimpleNamespace(parallel=1), None)
    assert collectable(survivor)
    freeze_before_writers(SimpleNamespace(parallel=2), None)
    try:
        assert not collectable(survivor)
    finally:
        thaw(None, None)
