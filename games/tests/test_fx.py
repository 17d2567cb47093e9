"""Boards name their last move's effects (``data-fx``): from the pushed snapshot, per viewer.

Every game is played through the tables service; each pushed snapshot is rendered for each
seat as the socket would, and the effects named must follow the move just made (and only the
public part of it); a board read afresh names the same effects under the same key.
"""

from __future__ import annotations

import re

import pytest

from games import realtime, rendering
from games.fx import board_fx
from games.models import Seat
from games.selectors import tables as selectors
from games.tests.replay_hands import GAMES, IDS, room_for
from games.tests.test_tables_service import _play_out
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: the real order

EXPECTED = {  # effects each game's hands are sure to show at some push
    "doudizhu": {"play", "pass", "deal"},
    "zhajinhua": {"deal"},  # then chips, a look, a fold or a compare: which depends on the deal
    "paohuzi": {"deal"},  # a hand may be won before anyone discards (天胡 on the 亮張)
    "mahjong_huanle": {"discard", "deal"},
    "mahjong_yongzhou": {"discard", "deal"},
    "mahjong_yueqing": {"discard", "deal"},
}
FX = re.compile(r'id="board"[^>]*data-fx="([^"]*)" data-fx-key="([^"]*)"')


@pytest.fixture
def pushed(monkeypatch):
    sent: list[dict | None] = []
    monkeypatch.setattr(
        realtime,
        "table_changed",
        lambda table_id, seq, lobby=False, snapshot=None: sent.append(snapshot),
    )
    return sent


@pytest.mark.parametrize(("game", "variant", "seats", "extra"), GAMES, ids=IDS)
def test_pushed_boards_name_the_moves_effects(game, variant, seats, extra, make_user, pushed):
    """A whole hand: each push's board names its move's effects; the final one win / lose, or
    draw when nobody won (荒莊 / 流局)."""
    room = room_for(game, variant, seats, extra)
    users = [make_user(beans=100000) for _ in range(seats)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    Seat.objects.filter(table=table).update(auto=True)
    _play_out(table.pk, limit=2000)
    seen: set[str] = set()
    keys: list[str] = []
    over: list[str] = []
    won: list[bool] = []
    for snapshot in pushed:
        if snapshot is None or snapshot["hand"] is None:
            continue
        html = rendering.render_html(snapshot, 0, users[0])
        names, key = FX.search(html).groups()
        seen.update(names.split())
        keys.append(key)
        if snapshot["hand"]["status"] != "playing" and snapshot["hand"]["last"]:
            over.append(names)
            result = snapshot["hand"].get("result") or {}
            won.append(bool(result.get("winners") or result.get("winner") is not None))
    assert EXPECTED[game] <= seen and len(seen) >= 2, seen
    if game == "zhajinhua":  # every 三張 hand bets, looks, folds or compares before it ends
        assert seen & {"chips", "look", "fold", "compare"}, seen
    assert over, "the hand never ended"
    outcome = set(over[0].split()) & {"win", "lose", "draw"}
    assert outcome in ({"win"}, {"lose"}) if won[0] else outcome == {"draw"}, (over, won)
    # a fresh read names the same effects under the same key as the last push
    fresh = rendering.render_html(selectors.table_snapshot(table.pk), 0, users[0])
    assert FX.search(fresh).groups()[1] == keys[-1]


def test_the_bomb_rocket_airplane_and_spring_names():
    """斗地主's named plays, the 春天 line, and the viewer's own outcome."""
    lead = {"seat": 1, "cards": "3333", "name": "炸彈"}
    play = {"seat": 1, "action": {"type": "play", "cards": "3333"}}
    assert board_fx("doudizhu", {"phase": "playing", "lead": lead}, 0, play) == "bomb"
    lead["name"] = "王炸"
    assert board_fx("doudizhu", {"phase": "playing", "lead": lead}, 0, play) == "rocket"
    lead["name"] = "飛機帶翅膀"
    assert board_fx("doudizhu", {"phase": "playing", "lead": lead}, 0, play) == "airplane"
    over = {
        "phase": "over",
        "seat": 1,
        "lead": {"seat": 1, "name": "單張"},
        "result": {"winners": [1], "lines": [{"label": "春天", "value": "×2"}]},
    }
    assert board_fx("doudizhu", over, 1, play) == "play spring win"
    assert board_fx("doudizhu", {**over, "seat": 0}, 0, play) == "play spring lose"
    assert board_fx("doudizhu", {"phase": "start"}, 0, None) == "deal"
    assert board_fx("doudizhu", None, 0, play) == ""


def test_a_concealed_kong_is_only_a_kong_and_a_self_drawn_win_is_zimo():
    """The names carry nothing concealed: 暗槓 → gang (its tile is not named)."""
    angang = {"seat": 2, "action": {"type": "angang", "tile": "W5"}}
    assert board_fx("mahjong_huanle", {"phase": "turn"}, 0, angang) == "gang"
    hu = {"seat": 2, "action": {"type": "hu"}}
    won = {"phase": "over", "seat": 0, "result": {"winners": [2], "extra": {"self_drawn": True}}}
    assert board_fx("mahjong_yueqing", won, 0, hu) == "zimo lose"
    won["result"]["extra"]["self_drawn"] = False
    assert board_fx("paohuzi", won, 0, hu) == "hu lose"


def test_a_hand_nobody_won_ends_in_draw_even_when_its_last_move_names_nothing():
    """荒莊 / 流局: the last 過 names no effect of its own; the board still says the hand is over
    (draw), and tells nobody he lost."""
    guo = {"seat": 1, "action": {"type": "pass"}}
    huang = {"phase": "over", "seat": 0, "result": {"winners": [], "lines": []}}
    assert board_fx("paohuzi", huang, 0, guo) == "draw"
    discard = {"seat": 3, "action": {"type": "discard", "tile": "T9"}}
    assert board_fx("mahjong_huanle", huang, 0, discard) == "discard draw"
    assert board_fx("paohuzi", {"phase": "play", "seat": 0}, 0, guo) == ""
