"""Helpers for driving a table in service tests."""

from __future__ import annotations

from games.engine import registry
from games.models import Hand, Table


def current_state(table_id: int):
    table = Table.objects.get(pk=table_id)
    hand = table.hands.filter(status=Hand.Status.PLAYING).order_by("-number").first()
    if hand is None:
        return table, None, None
    ruleset = registry.get(hand.game)
    return table, hand, ruleset.state_from_json(hand.state)


def seat_user(table_id: int, index: int):
    return Table.objects.get(pk=table_id).seats.get(index=index).user
