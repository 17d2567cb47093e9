"""The words a player reads on the 斗地主 board (#14 §7), rendered from real tables."""

from __future__ import annotations

from games import rendering
from games.boards import doudizhu as board
from games.engine import registry
from games.selectors import tables as selectors
from games.services import seating, tables
from games.templatetags.table_extras import action_label
from games.tests.helpers import current_state
from lobby import services as lobby_services
from lobby.models import Room


def _room(**extra) -> Room:
    spec = {
        "name": "悶抓場",
        "game": "doudizhu",
        "variant": "menzhua",
        "seats": 3,
        "base_score": 1,
        "factor": 10,
        "rake": 5,
        "min_beans": 0,
        "max_beans": None,
        "double_threshold": 2000,
        "turn_seconds": 30,
        "bot_wait_seconds": 0,
    }
    spec.update(extra)
    return Room.objects.create(**spec)


def _seated(room, user, capture) -> int:
    with capture(execute=True):
        table = lobby_services.quick_join(user=user, room_id=room.pk)
        seating.bots_fill(table_id=table.pk)
    return table.pk


def _html(table_id: int, user=None) -> str:
    seat = selectors.seat_index_for_user(table_id, user) if user is not None else None
    return rendering.render_html(selectors.table_snapshot(table_id), seat, user)


def _to_seat(table_id: int, seat: int, capture, until=None) -> None:
    """Let the other seats make 托管's moves until ``seat`` is to act."""
    from accounts.models import User

    with capture(execute=True):
        for _ in range(200):
            _, hand, state = current_state(table_id)
            ruleset = registry.get(hand.game)
            acting = sorted(ruleset.to_act(state))
            if seat in acting and (until is None or until(ruleset.view(state, seat))):
                return
            mover = acting[0]
            action = ruleset.auto_action(state, mover)
            tables.move_submit(
                table_id=table_id,
                action=action,
                expected_seq=None,
                action_id=None,
                user=User.objects.get(pk=hand.players[mover]["user_id"]),
            )
    raise AssertionError("the seat never came to act")


def test_the_menzhua_bid_reads_in_chinese_and_the_header_names_the_room_once(
    make_user, django_capture_on_commit_callbacks
):
    """悶抓場: the blind bid button reads 悶抓 (not "menzhua"); a room named 悶抓場 does not
    say 悶抓場 twice in the header."""
    assert action_label({"type": "menzhua"}) == "悶抓"
    user = make_user(beans=5000)
    table_id = _seated(_room(), user, django_capture_on_commit_callbacks)
    seat = selectors.seat_index_for_user(table_id, user)
    _to_seat(
        table_id, seat, django_capture_on_commit_callbacks, until=lambda v: v["phase"] == "bidding"
    )
    html = _html(table_id, user)
    assert ">悶抓</button>" in html and "menzhua</button>" not in html
    header = html[html.index('<header class="board-top">') : html.index("</header>")]
    assert header.count("悶抓場") == 1


def test_la_and_wo_name_the_farmer_by_nickname():
    """The landlord's 拉 / 沃 buttons name the farmer he answers by his nickname."""
    view = {
        "phase": "dou",
        "dou": [1, 0, 0],
        "options": [
            {"type": "dou", "farmer": 0, "dou": True},
            {"type": "dou", "farmer": 0, "dou": False},
        ],
    }
    buttons = board.extras(view, 1)["buttons"]
    assert [b["label"] for b in buttons] == ["拉", "不拉"]
    assert [b["target"] for b in buttons] == [0, 0]


def test_a_free_counter_offers_no_purchase(make_user, django_capture_on_commit_callbacks):
    """記牌器 free in the room (price 0): the board never offers to buy it for 0 beans — not
    even in 悶抓場 before the player has looked at his cards (no counter to show yet)."""
    user = make_user(beans=5000)
    table_id = _seated(_room(extra={"counter_price": 0}), user, django_capture_on_commit_callbacks)
    html = _html(table_id, user)
    assert 'id="counter"' in html and "悶抓：尚未看牌" in html
    assert "購買記牌器" not in html


def test_a_finished_table_revisited_names_its_players(
    make_user, django_capture_on_commit_callbacks
):
    """After the hand and everyone's leaving, the settlement still names who played (no
    "None")."""
    user = make_user(beans=5000, name="回訪者")
    table_id = _seated(
        _room(name="經典場", variant="classic"), user, django_capture_on_commit_callbacks
    )
    with django_capture_on_commit_callbacks(execute=True):
        _, hand, _ = current_state(table_id)
        seating.seat_leave(table_id=table_id, user=user)  # an escape: the hand ends, settles
    html = _html(table_id, None)
    settlement = html[html.index('id="settlement"') :]
    assert "None" not in settlement and "回訪者" in settlement
    for player in hand.players:
        assert player["name"] in settlement
