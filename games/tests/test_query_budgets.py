"""Query budgets on the hot paths (as Zulip pins its message-send path): a change that adds a
statement to one of them fails here, and the figure in docs/architecture.md is updated with it.

Every budget is the exact number of SQL statements Django sends on PostgreSQL for one call,
through the real services, with commits (so ``on_commit`` runs: a move keeps its rows for the
table's next move, as in production). The paths:

* ``move_submit`` — a hand's first move (the rows are read: the deal was another writer) and
  a steady move (the rows this process's previous move committed are reused);
* ``seat_take`` — a player sits at a table with room left, and the one who fills it (the deal);
* ``table_tick`` — the clock deals the next hand when ``next_hand_at`` is due;
* ``hand_settle`` — the settlement of a finished hand, and the retried task (a no-op);
* ``dafengshou.bet_place`` — a 大豐收 bet;
* a reconnect — the fresh snapshot a (re)connecting socket reads and renders.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import rendering, tasks
from games.engine import registry
from games.models import Hand, Seat, Table
from games.selectors import tables as selectors
from games.services import dafengshou, seating, settlement, tables
from games.tests.helpers import current_state, seat_user
from lobby import services as lobby_services
from lobby.models import Room

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: the real order

# the budgets (statements per call), as docs/architecture.md states them
MOVE_FIRST = 6
MOVE_STEADY = 4
SEAT_TAKE = 14
SEAT_TAKE_DEALS = 21  # the deal reads the seats once (the working set), its push the last move
TABLE_TICK_DEALS = 23  # the deal reads the seats once (the working set), its push the last move
# hand_settle: +1 the last move (games/fx.py), +5 the hall's standings and tasks, +1 the
# balances pushed to the top bars after commit
HAND_SETTLE = 39
HAND_SETTLE_FIRST = 51
HAND_SETTLE_AGAIN = 5
WHEEL_BET = 20
RECONNECT = 5  # +1: the fresh snapshot reads the hand's last move (games/fx.py)


@contextmanager
def _budget(expected: int, what: str) -> Iterator[CaptureQueriesContext]:
    """Assert that the block sends exactly ``expected`` statements (listed when it does not)."""
    with CaptureQueriesContext(connection) as captured:
        yield captured
    sql = [q["sql"] for q in captured.captured_queries]
    listing = "\n".join(f"{i + 1}. {s[:200]}" for i, s in enumerate(sql))
    assert len(sql) == expected, f"{what}: {len(sql)} statements, budget {expected}\n{listing}"


def _bot_move(table_id: int, n: int) -> Callable[[], Any]:
    """The move of the seat to act (the bot's choice), ready to submit as a player would."""
    table, hand, state = current_state(table_id)
    assert hand is not None
    ruleset = registry.get(hand.game)
    index = min(ruleset.to_act(state))
    user = seat_user(table_id, index)
    action = ruleset.bot_action(state, index)
    return lambda: tables.move_submit(
        table_id=table_id, user=user, action=action, expected_seq=table.seq, action_id=f"budget-{n}"
    )


def _full_table(room: Room, make_user: Any) -> int:
    table = None
    for _ in range(3):
        table = lobby_services.quick_join(user=make_user(beans=5000), room_id=room.pk)
    assert table is not None
    return table.pk


def _play_out(table_id: int, start: int = 0) -> None:
    n = start
    while current_state(table_id)[1] is not None:
        _bot_move(table_id, n)()
        n += 1
        assert n < start + 600


def test_move_submit_first_and_steady(room: Room, make_user: Any) -> None:
    """A hand's first move reads the seats and the hand; the next moves reuse the rows."""
    table_id = _full_table(room, make_user)
    move = _bot_move(table_id, 0)
    with _budget(MOVE_FIRST, "first move_submit"):
        move()
    for n in (1, 2, 3):
        move = _bot_move(table_id, n)
        with _budget(MOVE_STEADY, f"steady move_submit #{n}"):
            move()


def test_seat_take(room: Room, make_user: Any) -> None:
    """Sitting down at a table with room left, and filling it (the deal in the same call)."""
    users = [make_user(beans=5000) for _ in range(3)]
    table = lobby_services.quick_join(user=users[0], room_id=room.pk)
    with _budget(SEAT_TAKE, "seat_take"):
        seating.seat_take(table_id=table.pk, user=users[1])
    with _budget(SEAT_TAKE_DEALS, "seat_take that deals"):
        seating.seat_take(table_id=table.pk, user=users[2])
    assert Hand.objects.filter(table_id=table.pk).count() == 1


def _finished_unsettled_hand(
    room: Room, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, int]:
    """A table whose hand has ended; the settlement task is held back (returned unsent)."""
    held: list[int] = []
    monkeypatch.setattr(tasks.hand_settle_task, "delay", held.append)
    table_id = _full_table(room, make_user)
    _play_out(table_id)
    assert len(held) == 1
    return table_id, held[0]


def test_hand_settle(room: Room, make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settling a table's first hand (its players' stat rows and the rake account are made),
    a later hand (beans, scores, levels, history), then the retried task (a no-op)."""
    table_id, hand_id = _finished_unsettled_hand(room, make_user, monkeypatch)
    with _budget(HAND_SETTLE_FIRST, "hand_settle, first hand"):
        assert settlement.hand_settle(hand_id)
    held: list[int] = []
    monkeypatch.setattr(tasks.hand_settle_task, "delay", held.append)
    _next_hand(table_id)
    _play_out(table_id, 1000)
    with _budget(HAND_SETTLE, "hand_settle"):
        assert settlement.hand_settle(held[0])
    with _budget(HAND_SETTLE_AGAIN, "hand_settle again"):
        assert not settlement.hand_settle(held[0])


def _next_hand(table_id: int) -> None:
    """Make the next hand due with every player still connected, and let the clock deal it."""
    Seat.objects.filter(table_id=table_id).update(connections=1)
    Table.objects.filter(pk=table_id).update(next_hand_at=timezone.now() - timedelta(seconds=1))
    seating.table_tick(table_id=table_id)


def test_table_tick_deals_the_next_hand(
    room: Room, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock's step when next_hand_at is due, with every player still connected."""
    table_id, hand_id = _finished_unsettled_hand(room, make_user, monkeypatch)
    settlement.hand_settle(hand_id)
    Seat.objects.filter(table_id=table_id).update(connections=1)
    Table.objects.filter(pk=table_id).update(next_hand_at=timezone.now() - timedelta(seconds=1))
    with _budget(TABLE_TICK_DEALS, "table_tick dealing the next hand"):
        seating.table_tick(table_id=table_id)
    assert Hand.objects.filter(table_id=table_id).count() == 2


def test_reconnect_snapshot(room: Room, make_user: Any) -> None:
    """A (re)connecting socket's fresh snapshot and its seat's HTML."""
    table_id = _full_table(room, make_user)
    _bot_move(table_id, 0)()
    user = seat_user(table_id, 1)
    with _budget(RECONNECT, "reconnect snapshot"):
        snapshot = selectors.table_snapshot_cached(table_id, None)
        assert snapshot is not None
        rendering.render_html(snapshot, selectors.seat_in_snapshot(snapshot, user.pk), user)


def test_wheel_bet(make_user: Any) -> None:
    """One 大豐收 bet: the stake through the ledger and the bet row, under the round lock."""
    wheel = Room.objects.create(
        name="大豐收",
        game="dafengshou",
        variant="classic",
        seats=1,
        base_score=1,
        factor=1,
        min_beans=0,
        turn_seconds=15,
        extra={"bet_seconds": 15, "spin_seconds": 5, "chips": [10, 100, 1000]},
    )
    user = make_user(beans=5000)
    rnd = dafengshou.round_enter(room_id=wheel.pk)
    dafengshou.bet_place(
        room_id=wheel.pk,
        user=user,
        round_number=rnd.number,
        object="apple",
        amount=10,
        action_id=uuid.uuid4().hex,
    )
    with _budget(WHEEL_BET, "bet_place"):
        dafengshou.bet_place(
            room_id=wheel.pk,
            user=user,
            round_number=rnd.number,
            object="apple",
            amount=10,
            action_id=uuid.uuid4().hex,
        )
