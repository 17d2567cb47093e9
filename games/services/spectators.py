"""Spectators (觀戰): a player's 允許觀戰 choice and the table's watcher count, broadcast.

Who may watch and what a watcher sees are reads (``games.selectors.spectating``); this module
writes the preference and tells the table's sockets (``table.watchers``,
``table.watch_closed``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games import realtime
from games.exceptions import BadWatchChoice
from games.models import Seat, WatchPreference
from games.selectors import spectating


def watching_set(*, user: Any, allow: Any) -> bool:
    """Set the user's 允許觀戰; return it. Turning it off while seated ends the watching of
    his table at once: its watchers' sockets are told (``table.watch_closed``) after commit,
    and the lobby's watch list drops (or, turned on, lists again) his table.

    ``allow`` must be a bool: anything else raises BadWatchChoice and changes nothing.
    """
    if not isinstance(allow, bool):
        raise BadWatchChoice(_("沒有這個觀戰選項"))
    with transaction.atomic():
        WatchPreference.objects.update_or_create(user=user, defaults={"allow_watching": allow})
        seated = list(Seat.objects.filter(user=user).values_list("table_id", flat=True))
        if not allow:
            for table_id in seated:
                group = realtime.table_group(table_id)
                # the watchers go only once the choice is durable
                transaction.on_commit(
                    lambda group=group: realtime.publish(group, {"type": "table.watch_closed"})
                )
        if seated:  # the lobby's watch list, once the choice is durable
            transaction.on_commit(
                lambda: realtime.publish(realtime.LOBBY_GROUP, {"type": "lobby.changed"})
            )
    return allow


def watchers_announce(*, table_id: int) -> int:
    """Count the table's watchers and tell its sockets (``table.watchers``); return the count."""
    count = spectating.watchers_count(table_id)
    realtime.publish(realtime.table_group(table_id), {"type": "table.watchers", "count": count})
    # the lobby's watch list shows the count (and friends' lists show who is watching)
    realtime.publish(realtime.LOBBY_GROUP, {"type": "lobby.changed"})
    return count
