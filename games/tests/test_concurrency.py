"""Two database connections at once on PostgreSQL: one writer per table, one payment per hand.

Each test runs real threads, each with its own connection, released together by a barrier.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections  # noqa: F401  (connection: read by the skipif strings)
from django.utils import timezone

from accounts.models import GameStat
from games import tasks
from games.engine import registry
from games.exceptions import DuplicateAction, StaleSeq
from games.models import Hand, HandEvent, HandSeat, Seat, Table
from games.services import settlement, tables
from ledger import services as ledger
from ledger.exceptions import InsufficientBeans
from ledger.models import Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "connection.vendor != 'postgresql'", reason="concurrent writers need PostgreSQL"
    ),
]

RULES = registry.get("doudizhu")


def _race(*calls: Callable[[], object]) -> list[tuple[str, object]]:
    """Run the calls at the same moment on separate connections; return ("ok"|"error", value)."""
    barrier = threading.Barrier(len(calls))
    results: list[tuple[str, object]] = [("none", None)] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = ("ok", call())
        except Exception as error:  # noqa: BLE001 — reported to the test
            results[i] = ("error", error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(t.is_alive() for t in threads), "a writer hung"
    return results


@pytest.fixture
def full_table(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table, {s.index: s.user for s in table.seats.select_related("user")}


def _state(table_id: int):
    hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
    return hand, RULES.state_from_json(hand.state)


def test_concurrent_moves_with_one_seq_one_wins_and_the_log_stays_contiguous(full_table):
    """Two connections act on one table against the same seq: exactly one is applied, the other
    gets stale_seq (or duplicate_action); the event log has no gap and no double, and replaying
    it from the seed gives the saved state."""
    table, users = full_table
    applied = 0
    for round_ in range(10):
        table.refresh_from_db()
        hand, st = _state(table.pk)
        if st.phase == "over":
            break
        to_act = sorted(RULES.to_act(st))
        seq = table.seq
        if len(to_act) >= 2:  # two seats deciding at once (start, 明牌 window)
            a, b = to_act[:2]
            moves = [
                (a, RULES.auto_action(st, a), f"x{round_}a"),
                (b, RULES.auto_action(st, b), f"x{round_}b"),
            ]
        elif round_ % 2:  # one player, two tabs, two different action ids
            a = to_act[0]
            action = RULES.auto_action(st, a)
            moves = [(a, action, f"x{round_}a"), (a, action, f"x{round_}b")]
        else:  # one player, the same action id sent on two connections
            a = to_act[0]
            action = RULES.auto_action(st, a)
            moves = [(a, action, f"x{round_}"), (a, action, f"x{round_}")]
        results = _race(
            *[
                (
                    lambda s=s, act=act, aid=aid, seq=seq: tables.move_submit(
                        table_id=table.pk,
                        user=users[s],
                        action=act,
                        expected_seq=seq,
                        action_id=aid,
                    )
                )
                for s, act, aid in moves
            ]
        )
        outcomes = sorted(kind for kind, _ in results)
        assert outcomes == ["error", "ok"], results
        error = next(value for kind, value in results if kind == "error")
        assert isinstance(error, (StaleSeq, DuplicateAction)), repr(error)
        applied += 1
        table.refresh_from_db()
        assert table.seq == seq + 1

    hand, st = _state(table.pk)
    events = list(HandEvent.objects.filter(hand=hand).order_by("seq"))
    assert len(events) == applied
    seqs = [e.seq for e in events]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert seqs[-1] == table.seq
    assert len({e.action_id for e in events}) == len(events)
    replay = RULES.new_game(RULES.config_from_params(hand.params), hand.seed, 3)
    for event in events:
        RULES.apply(replay, event.seat, event.action)
    assert RULES.state_to_json(replay) == hand.state


def test_two_concurrent_settlements_of_one_hand_pay_once(full_table, monkeypatch):
    """Two workers settle the same finished hand at the same moment: one pays, one does
    nothing; one transfer, one history row per seat, one score per player, beans conserved."""
    monkeypatch.setattr(tasks.hand_settle_task, "delay", lambda hand_id: None)  # no eager task
    table, users = full_table
    Seat.objects.filter(table=table).update(auto=True)
    for _ in range(400):
        hand, st = _state(table.pk)
        if hand.status != Hand.Status.PLAYING:
            break
        index = min(RULES.to_act(st))
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table.pk, seat_index=index)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is None
    before = [balance_for_user(users[s]) for s in range(3)]

    results = _race(
        lambda: settlement.hand_settle(hand.pk), lambda: settlement.hand_settle(hand.pk)
    )
    assert sorted(results) == [("ok", False), ("ok", True)], results

    hand.refresh_from_db()
    after = [balance_for_user(users[s]) for s in range(3)]
    assert [a - b for a, b in zip(after, before)] == hand.result["beans"]
    assert sum(after) - sum(before) == -hand.result["rake"]
    assert Transfer.objects.filter(idempotency_key=f"hand:{hand.pk}").count() == 1
    assert HandSeat.objects.filter(hand=hand).count() == 3
    assert [GameStat.objects.get(user=users[s], game="doudizhu").hands for s in range(3)] == [1] * 3
    assert ledger_drift() == []


def test_concurrent_transfers_never_overdraw_a_player(make_user):
    """Two transfers each taking 60 of a player's 100 beans at once: one is refused."""
    payer, a, b = make_user(beans=100), make_user(beans=0), make_user(beans=0)

    def take(to):
        return ledger.transfer_create(
            postings=[(ledger.account_for_user(payer), -60), (ledger.account_for_user(to), 60)],
            kind="stake",
        )

    results = _race(lambda: take(a), lambda: take(b))
    kinds = sorted(kind for kind, _ in results)
    assert kinds == ["error", "ok"], results
    assert isinstance(next(v for k, v in results if k == "error"), InsufficientBeans)
    assert balance_for_user(payer) == 40
    assert balance_for_user(a) + balance_for_user(b) == 60
    assert ledger_drift() == []


def test_concurrent_joins_for_the_last_seat_seat_one_player(room, make_user):
    """Two players take the last free seat of a private table at once: one sits, one is told the
    table is full; the hand starts once."""
    owner, friend = make_user(beans=5000), make_user(beans=5000)
    table = lobby_services.private_create(user=owner, room_id=room.pk)
    lobby_services.private_join(user=friend, code=table.invite_code)
    late = [make_user(beans=5000) for _ in range(2)]
    results = _race(
        *[(lambda u=u: lobby_services.private_join(user=u, code=table.invite_code)) for u in late]
    )
    assert sorted(kind for kind, _ in results) == ["error", "ok"], results
    assert Seat.objects.filter(table=table, user__isnull=False).count() == 3
    assert Hand.objects.filter(table=table).count() == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_snapshot_read_beside_a_writer_is_the_state_of_its_seq(full_table):
    """A socket's (re)connect reads the table without its lock while moves commit: every
    snapshot must hold the hand exactly as it was at the seq it names (a frame labelled with
    an older seq than its content makes the client act on a seq that has passed)."""
    from games.selectors import tables as table_selectors
    from games.tests.helpers import current_state, seat_user

    table, _users = full_table
    done = threading.Event()

    def play() -> None:
        try:
            for n in range(400):
                tbl, hand, state = current_state(table.pk)
                if hand is None:
                    return
                index = min(RULES.to_act(state))
                tables.move_submit(
                    table_id=table.pk,
                    user=seat_user(table.pk, index),
                    action=RULES.bot_action(state, index),
                    expected_seq=tbl.seq,
                    action_id=f"w-{n}",
                )
        finally:
            done.set()
            connections.close_all()

    writer = threading.Thread(target=play)
    writer.start()
    read: list[dict] = []
    while not done.is_set():
        read.append(table_selectors.table_snapshot(table.pk))
    writer.join(timeout=60)
    hand = Hand.objects.get(table=table)
    assert hand.status != Hand.Status.PLAYING and len(read) > 20
    states = {}  # seq -> the hand's state after the event at that seq, replayed from the log
    state = RULES.new_game(RULES.config_from_params(hand.params), hand.seed, 3)
    for event in HandEvent.objects.filter(hand=hand).order_by("seq"):
        RULES.apply(state, event.seat, event.action)
        states[event.seq] = RULES.state_to_json(state)
    checked = 0
    for snapshot in read:
        seq, stored = snapshot["table"]["seq"], snapshot["hand"]["state"]
        if seq in states and snapshot["hand"]["status"] == Hand.Status.PLAYING:
            assert stored == states[seq], f"the snapshot at seq {seq} holds another state"
            checked += 1
    assert checked > 20
