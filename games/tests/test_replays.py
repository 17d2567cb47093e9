"""Replays of every game: its own board, every hand open, names, Chinese labels, the seed check."""

from __future__ import annotations

import re

import pytest

from games.models import HandEvent
from games.templatetags.tiles import _S2T
from games.tests.replay_hands import GAMES, IDS, finished_hand, room_for

pytestmark = pytest.mark.django_db

CARD_AS_TEXT = re.compile(r"\b([WTBFJH]\d|x\d+|d\d+)\s*[♠♥♣♦]")  # "W6 ♠", "x1 ♠": the old bug
BOARD_CLASS = {
    "doudizhu": "board-doudizhu",
    "zhajinhua": "board-zhajinhua",
    "paohuzi": "board-paohuzi",
    "mahjong_huanle": "board-mahjong",
    "mahjong_yongzhou": "board-mahjong",
    "mahjong_yueqing": "board-mahjong",
}
PIECE = {
    "doudizhu": 'class="card',
    "zhajinhua": 'class="card',
    "paohuzi": 'class="zp ',
    "mahjong_huanle": 'class="tile',
    "mahjong_yongzhou": 'class="tile',
    "mahjong_yueqing": 'class="tile',
}


@pytest.mark.parametrize(("game", "variant", "seats", "extra"), GAMES, ids=IDS)
def test_every_step_is_the_games_own_board_with_every_hand_open(
    game, variant, seats, extra, make_user, client, django_capture_on_commit_callbacks
):
    """Each step of a finished hand renders the live board of its game in replay mode: the
    game's pieces (not "W6 ♠"), every seat's concealed cards, nicknames, Chinese labels, no
    buttons; the last step carries the settlement; the seed check passes."""
    room = room_for(game, variant, seats, extra)
    users = [make_user(beans=100000) for _ in range(seats)]
    hand = finished_hand(room, users, django_capture_on_commit_callbacks)
    client.force_login(users[1])
    page = client.get(f"/games/replay/{hand.pk}/").content.decode()
    from games import replays

    # one step per logged move (跑胡子: and per draw from the 墩 inside a move)
    steps = replays.replay_build(hand).last
    assert steps >= HandEvent.objects.filter(hand=hand).count()
    assert f'data-last="{steps}"' in page
    assert 'id="check-hash" class' not in page and 'class="ok" id="check-hash"' in page
    assert 'class="ok" id="check-replay"' in page
    assert hand.seed in page
    names = [p["name"] for p in hand.players]
    for step in range(steps + 1):
        html = client.get(f"/games/replay/{hand.pk}/step/{step}/").content.decode()
        assert BOARD_CLASS[game] in html and PIECE[game] in html, step
        assert not CARD_AS_TEXT.search(html), step
        assert "ws-send" not in html, (step, "a replay has no buttons")
        caption = html[html.index('id="replay-caption"') : html.index("</p>")]
        assert not re.search(r"座\s*\d", caption), caption
        label = re.search(r'class="replay-label">([^<]*)<', caption).group(1)
        assert re.search(r"[\u4e00-\u9fff]", label), (step, label)
        if step:
            assert any(n in caption for n in names), caption
    assert 'id="settlement"' in html, "the last step shows the settlement"
    settlement = html[html.index('id="settlement"') :]
    simplified = {chr(k) for k, v in _S2T.items() if chr(k) != v}
    assert not simplified & set(settlement), "fan names in Traditional, as on the table"
    assert 'id="settlement"' not in client.get(f"/games/replay/{hand.pk}/step/0/").content.decode()


def test_every_hand_is_open_in_the_replay_and_only_there(
    make_user, client, django_capture_on_commit_callbacks
):
    """At the deal every seat's 斗地主 hand and the 底牌 are drawn face up in the replay
    (17 + 17 + 17 + 3 cards); a stranger gets 404 for the page and for every step."""
    room = room_for(*GAMES[0])
    users = [make_user(beans=100000) for _ in range(3)]
    hand = finished_hand(room, users, django_capture_on_commit_callbacks)
    client.force_login(users[0])
    html = client.get(f"/games/replay/{hand.pk}/step/0/").content.decode()
    board = html[html.index('id="board"') :]
    assert board.count('class="card') >= 54
    stranger = make_user()
    client.force_login(stranger)
    assert client.get(f"/games/replay/{hand.pk}/step/0/").status_code == 404
    assert client.get(f"/games/replay/{hand.pk}/").status_code == 404


def test_an_escaped_hand_replays_to_the_escape_and_its_settlement(
    make_user, client, django_capture_on_commit_callbacks
):
    """A hand ended by 逃跑 replays to the escape: the last caption names who left, and the
    settlement says a player escaped; the seed check still passes."""
    from games.models import Hand
    from games.services import seating
    from lobby import services as lobby_services

    room = room_for(*GAMES[0])
    users = [make_user(beans=100000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert seating.seat_leave(table_id=table.pk, user=users[2]) is True
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.ESCAPED
    client.force_login(users[0])
    page = client.get(f"/games/replay/{hand.pk}/").content.decode()
    assert 'class="ok" id="check-replay"' in page
    last = HandEvent.objects.filter(hand=hand).count()
    html = client.get(f"/games/replay/{hand.pk}/step/{last}/").content.decode()
    assert "逃跑" in html[html.index('id="replay-caption"') : html.index("</p>")]
    assert users[2].nickname in html and "有玩家逃跑" in html
