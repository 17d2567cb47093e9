"""An engine's refusal reaches each player's socket worded in that player's language."""

from __future__ import annotations

import json

import pytest

from accounts import services as accounts
from games.engine import registry
from games.models import HandEvent, Seat, Table
from games.services import tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from tests.live.conftest import login_cookie, recv_json, ws_connect

pytestmark = [pytest.mark.live]
RULES = registry.get("doudizhu")
# what each language's catalog says (locale/*/LC_MESSAGES/django.po)
WORDS = {
    "en": {"bad_pattern": "{cards} is not a valid play", "not_your_turn": "It is not your turn"},
    "zh-hans": {"bad_pattern": "{cards} 不是有效的牌型", "not_your_turn": "还没轮到你"},
    "zh-hant": {"bad_pattern": "{cards} 不是有效的牌型", "not_your_turn": "還沒輪到你"},
}


def _error(ws) -> dict:
    """The next error frame (table pushes may come first)."""
    while True:
        frame = recv_json(ws)
        if frame["type"] != "table":
            return frame


def _no_pattern(hand: str) -> str:
    """Two cards of the hand that make no 斗地主 play (two singles of different ranks, not the
    two jokers)."""
    low = hand[0]
    high = next(c for c in reversed(hand) if c != low and {c, low} != {"B", "R"})
    return low + high


def test_a_bad_play_is_worded_in_each_players_language(servers, room, make_user):
    """Seat by seat, in English (stored on the user), 简体中文 (the switch's cookie) and
    繁體中文 (the default): the leader's play of two unrelated cards gets ``bad_pattern``
    worded "<cards> is not a valid play" in his language, the others' plays ``not_your_turn``
    in theirs; no frame carries the engine's English developer text; nothing is recorded."""
    port = servers.daphne("web")
    users = [make_user(beans=5000, name=f"lang{i}") for i in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    accounts.user_language_set(user=users[0], language="en")
    languages = {users[0].pk: "en", users[1].pk: "zh-hans", users[2].pk: "zh-hant"}
    cookies = {users[0].pk: "", users[1].pk: "; django_language=zh-hans", users[2].pk: ""}
    seat_user = {s.index: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    for step in range(60):  # the bidding, in process, up to the first play
        _t, _hand, st = current_state(table.pk)
        if st.phase == "playing":
            break
        seat = min(RULES.to_act(st))
        action = (
            {"type": "start", "mingpai": False}
            if st.phase == "start"
            else RULES.bot_action(st, seat)
        )
        tables.move_submit(
            table_id=table.pk,
            user=seat_user[seat],
            action=action,
            expected_seq=Table.objects.get(pk=table.pk).seq,
            action_id=f"b{step}",
        )
    else:
        raise AssertionError("no play phase")
    leader = min(RULES.to_act(st))
    before = Table.objects.get(pk=table.pk).seq
    moved = Table.objects.get(pk=table.pk).move_seq
    for seat, user in seat_user.items():
        ws = ws_connect(port, table.pk, login_cookie(user) + cookies[user.pk])
        assert recv_json(ws)["type"] == "table"
        view = RULES.view(st, seat)
        cards = _no_pattern(view["hand"])
        ws.send(
            json.dumps(
                {
                    "kind": "move",
                    "action": {"type": "play", "cards": cards},
                    "seq": before,
                    "action_id": f"bad-{seat}",
                }
            )
        )
        frame = _error(ws)
        ws.close()
        language = languages[user.pk]
        if seat == leader:
            from django.utils import translation

            from games.engine.cards import RANK_NAMES_ZH
            from games.terms import term

            with translation.override(language):  # the cards by their names, never "4R"
                named = " ".join(term(RANK_NAMES_ZH.get(c, c)) for c in cards)
            want = ("bad_pattern", WORDS[language]["bad_pattern"].format(cards=named))
        else:
            want = ("not_your_turn", WORDS[language]["not_your_turn"])
        assert (frame["code"], frame["message"]) == want, (seat, language, frame)
        assert "card type" not in frame["message"] and "not to act" not in frame["message"]
    # a refused play changes nothing (presence moves Table.seq; a move would move move_seq)
    assert Table.objects.get(pk=table.pk).move_seq == moved
    assert not HandEvent.objects.filter(action_id__startswith="bad-").exists()
