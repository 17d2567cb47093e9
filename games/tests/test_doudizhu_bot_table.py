"""托管 and bots are the same player at a real table (issue #16 §3), on the real database.

A lone player with two bots: the clock plays the bots' seats and, once 托管 is on, the player's
seat; every one of those moves is the game's bot (``ruleset.bot_action``) on the stored state,
and a bot's turn is due the room's bot think time after the move before it.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.engine import registry
from games.models import HandEvent, Seat
from games.services import seating, tables
from games.tests.helpers import current_state
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db
# the bot's decision budget (p99 200 ms, search capped at 150 ms) plus the step's database work
STEP_BUDGET = 1.0


def test_auto_and_bot_seats_play_the_bot_and_bots_wait_only_think_time(
    room, make_user, monkeypatch
):
    """One player joins, bots fill the other seats, the player is put in 托管; the whole hand
    is played by the clock. Each move by a bot (by='bot') or by 托管 (by='auto') equals the
    game's bot decision on the state before it (one code path), each bot's deadline is the
    think time after the previous move, and no clock step takes longer than the decision budget
    plus its database work."""
    from games.rules.doudizhu import bot

    monkeypatch.setattr(bot, "SEARCH_CAP_MS", 1e7)  # the load-dependent cap: tested on its own
    user = make_user(beans=5000)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    Seat.objects.filter(table=table, user=user).update(auto=True)
    think = settings.LEYOU["BOT_THINK_SECONDS"]
    by_seen: set[str] = set()
    steps = 0
    for _ in range(400):
        table, hand, state = current_state(table.pk)
        if hand is None:
            break
        ruleset = registry.get(hand.game)
        index = min(ruleset.to_act(state))
        seat = Seat.objects.get(table=table, index=index)
        if seat.is_bot and seat.deadline is not None:
            last = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
            since = last.created_at if last else hand.started_at
            if since is not None:
                assert seat.deadline - since <= timedelta(seconds=think + 0.5)
        expected = ruleset.bot_action(state, index)
        Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now())
        t0 = time.perf_counter()
        assert tables.due_seat_act(table_id=table.pk, seat_index=index) is True
        assert time.perf_counter() - t0 < think + STEP_BUDGET
        event = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
        assert event is not None and event.seat == index
        by_seen.add(event.by)
        assert event.by == ("bot" if seat.is_bot else "auto")
        if state.phase == "playing":
            assert event.action["type"] == expected["type"]
            assert event.action.get("cards") == expected.get("cards")
        steps += 1
    assert by_seen == {"bot", "auto"} and steps > 10
