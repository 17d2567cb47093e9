"""Spectators (觀戰): a player's 允許觀戰 choice and the table's watcher count, broadcast.

Who may watch and what a watcher sees are reads (``games.selectors.spectating``); this module
writes the preference and tells the table's sockets (``table.watchers``,
``table.watch_closed``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import realtime
from games.models import Seat, WatchPreference
from games.selectors import spectating


def watching_set(*, user: Any, allow: bool) -> bool:
    """Set the user's 允許觀戰; return it. Turning it off while seated ends the watching of
    his table at once: its watchers' sockets are told (``table.watch_closed``) after commit."""
    with transaction.atomic():
        WatchPreference.objects.update_or_create(user=user, defaults={"allow_watching": allow})
        if not allow:
            for table_id in Seat.objects.filter(user=user).values_list("table_id", flat=True):
                group = realtime.table_group(table_id)
                # the watchers go only once the choice is durable
                transaction.on_commit(
                    lambda group=group: realtime.publish(group, {"type": "table.watch_closed"})
                )
    return allow


def watchers_announce(*, table_id: int) -> int:
    """Count the table's watchers and tell its sockets (``table.watchers``); return the count."""
    count = spectating.watchers_count(table_id)
    realtime.publish(realtime.table_group(table_id), {"type": "table.watchers", "count": count})
    return count
