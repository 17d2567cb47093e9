"""The hot path of a move: the rows a move reuses and the snapshot it broadcasts.

A move builds the snapshot it pushes from the rows it holds (no read per socket), and takes
the seats and hand its process's previous move on the table committed when the table's seq
has not moved since. Both must always equal what a fresh read of the database gives.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db.models import F

from games import realtime
from games.engine import registry
from games.models import Seat, Table
from games.selectors import tables as table_selectors
from games.services import tables
from games.tests.helpers import current_state, seat_user
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs: the real order


@pytest.fixture
def pushed(monkeypatch):
    """Every broadcast's (table id, seq, snapshot), as the sockets would receive it."""
    sent: list[tuple[int, int, dict | None]] = []
    monkeypatch.setattr(
        realtime,
        "table_changed",
        lambda table_id, seq, lobby=False, snapshot=None: sent.append((table_id, seq, snapshot)),
    )
    return sent


def _as_sent(snapshot: dict) -> dict:
    return json.loads(json.dumps(snapshot))  # as the broadcast encodes it


def _full_table(room, make_user) -> int:
    table = None
    for _ in range(3):
        table = lobby_services.quick_join(user=make_user(beans=5000), room_id=room.pk)
    return table.pk


def _move(table_id: int, n: int) -> bool:
    """The seat to act makes the bot's move through move_submit, as a player would."""
    table, hand, state = current_state(table_id)
    if hand is None:
        return False
    ruleset = registry.get(hand.game)
    index = min(ruleset.to_act(state))
    tables.move_submit(
        table_id=table_id,
        user=seat_user(table_id, index),
        action=ruleset.bot_action(state, index),
        expected_seq=table.seq,
        action_id=f"move-{n}",
    )
    return True


def test_every_pushed_snapshot_equals_a_fresh_read(room, make_user, pushed):
    """A whole hand of moves: each broadcast carries exactly what the database holds."""
    table_id = _full_table(room, make_user)
    n = 0
    while _move(table_id, n):
        n += 1
        _, seq, snapshot = pushed[-1]
        assert snapshot is not None and snapshot["table"]["seq"] == seq
        fresh = _as_sent(table_selectors.table_snapshot(table_id))
        if fresh["table"]["seq"] == seq + 1:  # the last move: the (eager) settlement followed
            assert fresh["hand"]["settled"] and not snapshot["hand"]["settled"]
            assert snapshot["hand"]["status"] == "finished" and snapshot["hand"]["seed"]
            continue
        assert _as_sent(snapshot) == fresh
        assert n < 400
    assert n > 10
    assert tables.rows_after_move.get(table_id) is None  # a finished hand keeps no rows


def test_rows_changed_by_another_writer_are_read_again(room, make_user, pushed):
    """Another process changes a seat (and, as every writer does, the seq): the next move
    reads the rows afresh instead of writing its stale copy back."""
    table_id = _full_table(room, make_user)
    assert _move(table_id, 0)
    assert tables.rows_after_move.get(table_id).table.seq == Table.objects.get(pk=table_id).seq
    table, hand, state = current_state(table_id)
    idle = max(set(range(3)) - set(registry.get(hand.game).to_act(state)))
    Seat.objects.filter(table_id=table_id, index=idle).update(auto=True)
    Table.objects.filter(pk=table_id).update(seq=F("seq") + 1)
    assert _move(table_id, 1)
    snapshot = pushed[-1][2]
    assert snapshot["seats"][idle]["auto"] is True
    assert _as_sent(snapshot) == _as_sent(table_selectors.table_snapshot(table_id))


def test_a_refused_move_keeps_no_rows(room, make_user, pushed):
    """An illegal move rolls back and leaves nothing for the next move to reuse."""
    from games.engine.errors import IllegalAction

    table_id = _full_table(room, make_user)
    assert _move(table_id, 0)
    table, hand, state = current_state(table_id)
    index = min(registry.get(hand.game).to_act(state))
    with pytest.raises(IllegalAction):
        tables.move_submit(
            table_id=table_id,
            user=seat_user(table_id, index),
            action={"type": "no-such-action"},
            expected_seq=table.seq,
            action_id="bad",
        )
    assert table_id not in tables.rows_after_move
    assert _move(table_id, 1)
    assert _as_sent(pushed[-1][2]) == _as_sent(table_selectors.table_snapshot(table_id))


def test_a_move_this_process_knows_is_stale_is_refused_without_a_transaction(
    room, make_user, pushed, django_assert_num_queries
):
    """The process has seen the table past the move's seq: refused at once, same errors."""
    from games.exceptions import DuplicateAction, NotSeated, StaleSeq

    table_id = _full_table(room, make_user)
    assert _move(table_id, 0)
    old_seq = Table.objects.get(pk=table_id).seq
    assert _move(table_id, 1)
    table_selectors.table_snapshot_cached(table_id, None)  # as a push to this process would
    table, hand, state = current_state(table_id)
    index = min(registry.get(hand.game).to_act(state))
    user = seat_user(table_id, index)
    action = registry.get(hand.game).bot_action(state, index)
    with django_assert_num_queries(0), pytest.raises(StaleSeq) as stale:
        tables.move_submit(
            table_id=table_id, user=user, action=action, expected_seq=old_seq, action_id=None
        )
    assert stale.value.seq == table.seq
    with pytest.raises(DuplicateAction):  # a resent move keeps its own error
        tables.move_submit(
            table_id=table_id,
            user=seat_user(table_id, 0),
            action=action,
            expected_seq=old_seq,
            action_id="move-0",
        )
    with pytest.raises(NotSeated):  # a stranger is not told about the table's seq
        tables.move_submit(
            table_id=table_id,
            user=make_user(beans=5000),
            action=action,
            expected_seq=old_seq,
            action_id=None,
        )
    assert Table.objects.get(pk=table_id).seq == table.seq


def _board(snapshot: dict, seat: int, user) -> str:
    from games import rendering

    html = rendering.render_html(snapshot, seat, user)
    return re.sub(r' data-now="[^"]*"', "", html)  # the server's clock, not the board


def test_a_move_hands_its_engine_state_to_this_process_renders(
    room, make_user, pushed, monkeypatch
):
    """The renders of a move made in this process decode no engine state: the writer's own
    state is used, every seat's board is the one a fresh decode of the pushed JSON gives, one
    state is kept per hand (the newest seq's), and the next move changes neither the state
    handed over before it nor the boards of that earlier seq."""
    table_id = _full_table(room, make_user)
    users = {s.index: s.user for s in Seat.objects.filter(table_id=table_id).select_related("user")}
    ruleset = registry.get("doudizhu")
    decode = type(ruleset).state_from_json
    decodes = []

    def counting(self, data):
        decodes.append(1)
        return decode(self, data)

    previous = None
    n = 0
    while _move(table_id, n) and n < 400:
        n += 1
        _, seq, snapshot = pushed[-1]
        sent = _as_sent(snapshot)
        hand_id = sent["hand"]["id"]
        handed = table_selectors.engine_state_get(hand_id, seq)
        assert handed is not None
        assert table_selectors.engine_states.get(hand_id)[0] == seq  # the newest only
        decodes.clear()
        monkeypatch.setattr(type(ruleset), "state_from_json", counting)
        boards = {i: _board(sent, i, users[i]) for i in range(3)}
        monkeypatch.setattr(type(ruleset), "state_from_json", decode)
        assert decodes == []  # no decode: the writer's state
        assert _as_sent(ruleset.state_to_json(handed)) == sent["hand"]["state"]
        table_selectors.engine_states.pop(hand_id)
        assert boards == {i: _board(sent, i, users[i]) for i in range(3)}  # a fresh decode
        table_selectors.engine_states.put(hand_id, (seq, handed))
        if previous is not None:
            old, old_state, old_boards = previous
            assert _as_sent(ruleset.state_to_json(old_state)) == old["hand"]["state"]
            assert {i: _board(old, i, users[i]) for i in range(3)} == old_boards
            assert table_selectors.engine_states.get(hand_id)[1] is handed  # not replaced
        previous = sent, handed, boards
    assert n > 10
