"""托管 and bots are the same player, in every game with seats (issue #16 §3), at a real table.

One player sits down, the bots fill the other seats and the player is put in 托管 (託管). The
clock's step (``tables.due_seat_act``) then plays every seat on PostgreSQL through the table
service. Each move it makes for the 托管 seat must equal ``ruleset.bot_action`` on the stored
state before it (and the bots' moves likewise); the hand finishes and is settled once.

大豐收 is not here: it has no seat turns (its rounds are closed by ``dafengshou.due_rounds_run``,
never by ``due_seat_act``), so it has no 托管 to prove.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.engine import registry
from games.models import Hand, HandEvent, Seat, Table
from games.services import seating, tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from lobby.models import Room

pytestmark = pytest.mark.django_db

SEATED_GAMES = [g for g in registry.GAME_MODULES if g != "dafengshou"]


def _cases() -> list[Any]:
    cases = []
    for game_id in SEATED_GAMES:
        ruleset = registry.get(game_id)
        for variant in [v.id for v in ruleset.variants] or [""]:
            cases.append(pytest.param(game_id, variant, id=f"{game_id}-{variant}"))
    return cases


def test_every_game_but_dafengshou_has_seat_turns() -> None:
    """The list above is every registered game but 大豐收 (a new game is checked here too)."""
    assert set(SEATED_GAMES) | {"dafengshou"} == set(registry.GAME_MODULES)
    assert "dafengshou" in registry.GAME_MODULES


@pytest.mark.parametrize("game_id,variant", _cases())
def test_tuoguan_plays_the_bot_at_a_real_table(
    game_id: str, variant: str, make_user: Any, monkeypatch: Any, django_capture_on_commit_callbacks
) -> None:
    """Every 托管 move is ``bot_action`` on the stored state (not ``auto_action``: at least
    one of them differs from it), every bot move too, and the hand ends settled."""
    if game_id == "doudizhu":
        from games.rules.doudizhu import bot

        monkeypatch.setattr(bot, "SEARCH_CAP_MS", 1e7)  # the load-dependent cap: tested apart
    ruleset = registry.get(game_id)
    seats = min(ruleset.max_seats, 4) if game_id == "zhajinhua" else ruleset.min_seats
    room = Room.objects.create(
        name="托管測試",
        game=game_id,
        variant=variant,
        seats=seats,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        max_beans=None,
        turn_seconds=15,
        bot_wait_seconds=0,
        extra={"target_players": seats} if game_id == "zhajinhua" else {},
    )
    user = make_user(beans=100_000)
    with django_capture_on_commit_callbacks(execute=True):
        table = lobby_services.quick_join(user=user, room_id=room.pk)
        seating.bots_fill(table_id=table.pk)
    assert len(table.hands.get().players) == seats
    # connected (a player gone between hands stands up), in 托管
    Seat.objects.filter(table=table, user=user).update(auto=True, connections=1)
    auto_moves = bot_moves = auto_differs = hands = 0
    while hands < 8 and (hands < 1 or not auto_differs):
        moves = _hand_play(table.pk, user, ruleset, django_capture_on_commit_callbacks)
        hands += 1
        auto_moves += moves[0]
        bot_moves += moves[1]
        auto_differs += moves[2]
        Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            seating.table_tick(table_id=table.pk)
        Seat.objects.filter(table=table, user=user).update(auto=True)
    assert auto_moves >= 1 and bot_moves >= 1
    # were 托管 to play auto_action, some 托管 move would differ from the bot's
    assert auto_differs >= 1, f"{game_id}: no 托管 move told bot_action from auto_action"


def _hand_play(table_id: int, user: Any, ruleset: Any, capture: Any) -> tuple[int, int, int]:
    """Play the current hand by the clock's step; return (托管 moves, bot moves, 托管 moves
    where bot_action and auto_action differ). Every move is checked against bot_action."""
    auto_moves = bot_moves = auto_differs = 0
    table, hand, state = current_state(table_id)
    assert hand is not None, "no hand was dealt"
    for _ in range(2000):
        table, playing, state = current_state(table_id)
        if playing is None:
            break
        e = sorted(ruleset.to_act(state))[0]
        index = tables.table_seat(playing, e)
        seat = Seat.objects.get(table=table, index=index)
        expected = ruleset.bot_action(state, e)
        fallback = ruleset.auto_action(state, e)
        last_seq = playing.events.order_by("-seq").values_list("seq", flat=True).first() or 0
        Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now())
        with capture(execute=True):
            assert tables.due_seat_act(table_id=table_id, seat_index=index) is True
        event = HandEvent.objects.filter(hand=playing, seq__gt=last_seq).order_by("seq").first()
        assert event is not None and event.seat == e, (ruleset.game_id, e, event)
        assert event.action == expected, (ruleset.game_id, state, e, event.action, expected)
        if seat.user_id == user.pk:
            assert event.by == "auto"
            auto_moves += 1
            auto_differs += expected != fallback
        else:
            assert seat.is_bot and event.by == "bot"
            bot_moves += 1
    else:
        raise AssertionError(f"{ruleset.game_id}: the hand did not finish")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is not None
    return auto_moves, bot_moves, auto_differs
