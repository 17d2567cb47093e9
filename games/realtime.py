"""Fan-out through the channel layer: group names, the 'table changed' broadcast, publishing.

A broadcast says "table T is now at seq S" and, from the hot path (a move, a bot's or 托管's
move), carries the table's snapshot too (``selectors.table_snapshot`` form, serialised once
as JSON): each socket then renders its own viewer's view from it without touching the
database. The snapshot holds concealed cards, so it only ever travels between server
processes (the channel layer); a socket renders and sends only its own seat's view. A lost
message loses nothing: the next push or the client's resync (by seq) brings the seat up to
date, and a broadcast without a snapshot makes each process read the table once.

Publishing never blocks the caller on the channel layer. In an ASGI server process the
message is handed to the server's own event loop (registered by the first socket), whose
connection pool serves every send; elsewhere (the clock, a Celery worker) one background
loop per process does it. Before this, ``async_to_sync(group_send)`` held the process's
database thread for the round trip to Redis and, outside a server, opened a new event loop
and Redis connection per broadcast (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any

from channels.layers import get_channel_layer

logger = logging.getLogger("leyou.realtime")

# Every channel group of the platform is named here.
LOBBY_GROUP = "lobby"  # the lobby's live room list
# Past this size a snapshot is not put in the message (the sockets read the table instead).
SNAPSHOT_MAX_BYTES = 200_000

_server_loop: asyncio.AbstractEventLoop | None = None
_background_loop: asyncio.AbstractEventLoop | None = None
_background_lock = threading.Lock()


def table_group(table_id: int) -> str:
    """The sockets of one table (players and watchers)."""
    return f"table.{table_id}"


def dafengshou_group(room_id: int) -> str:
    """The sockets of one 大豐收 room (its room-wide round)."""
    return f"dafengshou.{room_id}"


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """The ASGI server's event loop: broadcasts from its worker threads are sent on it."""
    global _server_loop
    _server_loop = loop


def _loop_for_publishing() -> asyncio.AbstractEventLoop:
    global _background_loop
    if _server_loop is not None and _server_loop.is_running() and not _server_loop.is_closed():
        return _server_loop
    with _background_lock:
        if _background_loop is None or _background_loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="leyou-publish", daemon=True).start()
            _background_loop = loop
        return _background_loop


def _on_sent(future) -> None:
    error = future.exception()
    if error is not None:  # the action is saved; clients resync by seq
        logger.error("broadcast failed: %r", error)


def publish(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` without blocking the caller."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _loop_for_publishing()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:  # called on the loop itself: schedule it there
        loop.create_task(layer.group_send(group, message)).add_done_callback(_on_sent)
        return
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).add_done_callback(
        _on_sent
    )


def table_changed(
    table_id: int, seq: int, *, lobby: bool = False, snapshot: dict[str, Any] | None = None
) -> None:
    """Tell every socket of the table that it moved to ``seq`` (and the lobby, if seats changed)."""
    message: dict[str, Any] = {"type": "table.changed", "table_id": table_id, "seq": seq}
    if snapshot is not None:
        encoded = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
        if len(encoded) <= SNAPSHOT_MAX_BYTES:
            message["snapshot"] = encoded
    try:
        publish(table_group(table_id), message)
        if lobby:
            publish(LOBBY_GROUP, {"type": "lobby.changed"})
    except Exception:  # the action is saved; clients resync by seq
        logger.exception("broadcast failed for table %s seq %s", table_id, seq)


def balances_changed(table_id: int, balances: dict[str, int]) -> None:
    """Tell the table's sockets each player's bean balance as committed (user id → beans), so
    each player's page updates its top bar (#14 §5)."""
    try:
        publish(table_group(table_id), {"type": "table.balances", "balances": balances})
    except Exception:  # a lost top-bar update is repaired by the next page load
        logger.exception("balances broadcast failed for table %s", table_id)
