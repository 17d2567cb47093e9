"""Emptying and filling seats: one list of what an empty seat holds."""

from __future__ import annotations

from typing import Any

from games.models import Seat, Table
from games.services.tables.working import WorkingSet

# What an empty seat holds. Every path that empties a seat (leave, escape, standing up between
# hands, closing the table) or gives it to someone starts from this, so none leaves a field of
# the previous sitter behind (his 托管, missed turns, sockets, clock).
SEAT_EMPTY: dict[str, Any] = {
    "user": None,
    "is_bot": False,
    "auto": False,
    "ready": False,
    "timeouts": 0,
    "hands_unanswered": 0,
    "connections": 0,
    "disconnected_at": None,
    "deadline": None,
    "deadline_seq": None,
}


def seat_vacate(seat: Seat, *, user: Any = None) -> None:
    """Empty the seat (not saved), or, with ``user``, give it to him ready to play."""
    for name, value in SEAT_EMPTY.items():
        setattr(seat, name, value)
    if user is not None:
        seat.user, seat.is_bot, seat.ready = user, bool(user.is_bot), True


def table_close_if_empty(work: WorkingSet) -> None:
    """A table with no human left closes; its bots go home."""
    table = work.table
    if table.seats.filter(user__isnull=False, is_bot=False).exists():
        return
    if work.hand is not None:
        return
    table.seats.update(**SEAT_EMPTY)
    table.status = Table.Status.CLOSED
    table.fill_deadline = None
    table.next_hand_at = None
