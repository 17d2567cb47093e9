"""Fan-out through the channel layer: group names and the 'table changed' broadcast.

A broadcast only says "table T is now at seq S"; each socket then renders its own viewer's view
from the database (``selectors.table_snapshot``), so a lost message loses nothing — the next
push or the client's resync brings the seat up to date.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger("leyou.realtime")

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def table_changed(table_id: int, seq: int, *, lobby: bool = False) -> None:
    """Tell every socket of the table that it moved to ``seq`` (and the lobby, if seats changed)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            table_group(table_id), {"type": "table.changed", "table_id": table_id, "seq": seq}
        )
        if lobby:
            async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.changed"})
    except Exception:  # the action is saved; clients resync by seq
        logger.exception("broadcast failed for table %s seq %s", table_id, seq)
