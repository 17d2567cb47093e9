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


def doudizhu_room(name: str = "測試場", *, bot_wait_seconds: int = 0, **extra):
    """A classic 斗地主 room (底分 1, N = 10, A = 5, at least 100 beans) with ``extra`` room
    options: the room the table tests sit at."""
    from lobby.models import Room

    return Room.objects.create(
        name=name,
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=10,
        rake=5,
        min_beans=100,
        max_beans=None,
        double_threshold=1000,
        turn_seconds=20,
        bot_wait_seconds=bot_wait_seconds,
        extra=extra,
    )
