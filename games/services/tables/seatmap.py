"""The seat map: engine seat e ↔ table seat ``Hand.players[e]["table_seat"]``.

With FIXED seating every seat is dealt in and e is the table seat; with OPEN seating a hand is
dealt to the seated players only, packed in table order, and a player who sat down during the
hand has no engine seat in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine import registry
from games.models import Hand, Seat, Table


def min_players(table: Table) -> int:
    """OPEN seating: how many seated players a hand needs (the room's ``min_players``)."""
    least = registry.get(table.game).min_seats
    try:
        return max(least, int(table.params.get("min_players") or least))
    except (TypeError, ValueError):
        return least


def engine_seat(hand: Hand, seat: Seat) -> int | None:
    """The seat's index in the hand's engine state (None: not dealt in this hand)."""
    for e, player in enumerate(hand.players):
        if player.get("table_seat", e) == seat.index and player.get("user_id") == seat.user_id:
            return e
    return None


def table_seats(hand: Hand | dict[str, Any], engine_seats: Iterable[int]) -> frozenset[int]:
    """Engine seats → table seat indices."""
    players = hand["players"] if isinstance(hand, dict) else hand.players
    return frozenset(players[e].get("table_seat", e) for e in engine_seats)


def table_seat(hand: Hand, e: int) -> int:
    return int(hand.players[e].get("table_seat", e))


def dealer_engine_seat(seats: list[Seat], table_dealer: int) -> int:
    """The engine index of the table's dealer seat, or of the last dealt seat before it."""
    before = [e for e, s in enumerate(seats) if s.index <= table_dealer]
    return before[-1] if before else len(seats) - 1
