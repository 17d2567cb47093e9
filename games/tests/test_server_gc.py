"""The ASGI server's collector: start-up's objects are frozen once, at the first connection."""

from __future__ import annotations

import asyncio
import gc

import pytest

from games import realtime


@pytest.fixture
def fresh_server(monkeypatch):
    """A process that has not served a connection yet; the collector as it was afterwards."""
    monkeypatch.setattr(realtime, "_server_loop", None)
    monkeypatch.setattr(realtime, "_gc_settled", False)
    frozen = gc.get_freeze_count()
    yield
    if gc.get_freeze_count() != frozen:
        gc.unfreeze()  # the test run's own objects go back to the collector


def test_the_first_connection_freezes_start_up_objects_once(fresh_server):
    """The first registration of the server's loop freezes what is loaded; later ones do not
    freeze again (a connection's own objects stay collectable)."""
    loop = asyncio.new_event_loop()
    try:
        realtime.server_loop_register(loop)
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # Django, the apps, the templates loaded by now
        made_later = [[i] for i in range(1000)]  # a connection's objects, after start-up
        realtime.server_loop_register(loop)
        assert gc.get_freeze_count() == frozen  # not frozen: collected as before
        del made_later
    finally:
        loop.close()


def test_the_freeze_can_be_switched_off(fresh_server, settings):
    """``LEYOU["SERVER_GC_FREEZE"]`` off: the stock collector, nothing frozen."""
    settings.LEYOU = {**settings.LEYOU, "SERVER_GC_FREEZE": False}
    before = gc.get_freeze_count()
    loop = asyncio.new_event_loop()
    try:
        realtime.server_loop_register(loop)
    finally:
        loop.close()
    assert gc.get_freeze_count() == before
