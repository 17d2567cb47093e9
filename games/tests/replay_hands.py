"""Finished hands of every game, played through the tables service (for the replay tests)."""

from __future__ import annotations

from typing import Any

from games.engine import registry
from games.models import Hand, Seat
from games.tests.test_tables_service import _play_out
from lobby import services as lobby_services
from lobby.models import Room

# (game, variant, seats, room extra): 斗地主 ×3, 三張, 跑胡子 ×2, the three mahjongs
GAMES: list[tuple[str, str, int, dict[str, Any]]] = [
    ("doudizhu", "classic", 3, {}),
    ("doudizhu", "laizi", 3, {}),
    ("doudizhu", "menzhua", 3, {}),
    (
        "zhajinhua",
        "classic",
        3,
        {
            "ante": 10,
            "chip_levels": [10, 20, 50, 100],
            "unit_cap": 200,
            "round_cap": 3,
            "compare_from_round": 2,
            "min_players": 3,
        },
    ),
    ("paohuzi", "hunan", 3, {"variant": "hunan"}),
    ("paohuzi", "shuangwang", 3, {"variant": "shuangwang"}),
    ("mahjong_huanle", "dazhong", 4, {"room_kind": "dazhong"}),
    ("mahjong_yongzhou", "bao5", 4, {}),
    ("mahjong_yueqing", "wuhanhua", 4, {}),
]
IDS = [f"{g}-{v}" for g, v, _, _ in GAMES]


def room_for(game: str, variant: str, seats: int, extra: dict[str, Any]) -> Room:
    return Room.objects.create(
        name=f"{registry.get(game).title}回放場",
        game=game,
        variant=variant,
        seats=seats,
        base_score=1,
        factor=10,
        rake=0,
        min_beans=0,
        max_beans=None,
        double_threshold=100000,
        turn_seconds=20,
        bot_wait_seconds=0,
        extra=extra,
    )


def finished_hand(room: Room, users: list, capture) -> Hand:
    """Seat the users, let 托管 play the whole hand, settle it; the hand, finished."""
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    assert table is not None
    Seat.objects.filter(table=table).update(auto=True)
    with capture(execute=True):
        _play_out(table.pk, limit=2000)
    hand = Hand.objects.filter(table=table).order_by("number").first()
    assert hand is not None and hand.status != Hand.Status.PLAYING
    return hand
