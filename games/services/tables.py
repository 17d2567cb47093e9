"""The live table's hand flow: locking, the deal, moves, turn clocks, 托管, the end and escape.

Seats are taken and left in ``seating``, presence (在線) is ``presence``, stakes that move
during play are ``stakes``, the 記牌器 is ``items``; they all write through the helpers here
(``table_lock``, ``seq_bump``, ``table_notify``, ``seat_vacate`` …) so that there is one way to
change a table. No game is named here: what differs between games (how seats are dealt,
whether stakes move during play, what an escape does, who deals next, how beans follow from
the result) is the ruleset's ``table_type`` (``games/engine/table_type.py``).

One writer per table: every write locks the table row (``select_for_update``) inside one
transaction; on SQLite the IMMEDIATE transaction mode serialises writers the same way. An
accepted action is appended to ``HandEvent`` and the engine state snapshot is saved in that
transaction; only after commit is anyone told (``realtime.table_changed``).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models.functions import Mod
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games import frames, realtime
from games.engine import registry
from games.engine.chance import new_seed, seed_commitment
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.table_type import Dealer, Escape, Seating, Settlement
from games.exceptions import DuplicateAction, NoHand, NotSeated, StaleSeq, UnknownTable
from games.models import Hand, HandEvent, Seat, Table
from games.services import stakes
from ledger import selectors as ledger_selectors

logger = logging.getLogger("leyou.tables")

BETWEEN_HANDS_SECONDS = 8
MAX_ACTION_ID = 64

# lobby registers a function room_id -> current params, so a new hand uses the room as it is now
_room_params_source = None


def room_params_source_set(func) -> None:
    """Let the lobby supply the live room params for each new hand (games never imports lobby)."""
    global _room_params_source
    _room_params_source = func


def _conf(name: str) -> Any:
    return settings.LEYOU[name]


@dataclass(frozen=True)
class MoveOutcome:
    seq: int
    hand_over: bool


# --- reading and locking ------------------------------------------------------------------------


# table id -> (seq, seats, hand, table): the rows this process's last move on the table committed.
# Every change of a table's seats or hand bumps its seq (the invariant the snapshots rely on
# too), so under the table lock an entry at the table's current seq is what a read would
# return. Only a move takes an entry (and puts the new rows back on commit); any other writer
# in this process drops it, and a writer elsewhere has moved the seq on.
_rows_after_move: dict[int, tuple[int, list[Seat], Hand, Table]] = {}
_ROWS_AFTER_MOVE_MAX = 5000


def table_lock(table_id: int, *, reuse_rows: bool = False) -> Table:
    # The row lock makes this transaction the table's only writer until it commits (SQLite has
    # no FOR UPDATE: its IMMEDIATE transactions serialise writers). A plain statement: the ORM's
    # query compilation was a tenth of a loaded server's CPU.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = next(
        iter(
            Table.objects.raw(
                f"SELECT * FROM {Table._meta.db_table} WHERE id = %s{lock}", [table_id]
            )
        ),
        None,
    )
    rows = _rows_after_move.pop(table_id, None)
    if table is None:
        raise UnknownTable(_("沒有這張牌桌"))
    if reuse_rows and rows is not None and rows[0] == table.seq:
        table._seats_locked, table._hand_playing = rows[1], rows[2]
    return table


def _rows_keep(table: Table, hand: Hand) -> None:
    """After commit, keep this move's rows for the table's next move in this process."""
    entry = (table.seq, table._seats_locked, hand, table)

    def keep() -> None:
        if len(_rows_after_move) >= _ROWS_AFTER_MOVE_MAX:
            _rows_after_move.clear()  # a bound, not a policy: the next moves simply read
        _rows_after_move[table.pk] = entry

    transaction.on_commit(keep)


def seats_locked(table: Table) -> list[Seat]:
    """The table's seats with their users, read once per transaction of the hot path.

    ``_apply`` and what it calls change these objects in place and save them, so the snapshot
    built from them at the end is what the transaction commits.
    """
    seats = getattr(table, "_seats_locked", None)
    if seats is None:
        seats = list(table.seats.select_related("user").order_by("index"))
        table._seats_locked = seats
    return seats


def hand_current(table: Table) -> Hand | None:
    hand = getattr(table, "_hand_playing", None)
    if hand is not None:
        return hand
    return table.hands.filter(status=Hand.Status.PLAYING).order_by("-number").first()


def seat_find(table: Table, user) -> Seat | None:
    return next((s for s in seats_locked(table) if s.user_id == user.pk), None)


def seat_get(table: Table, user) -> Seat:
    seat = seat_find(table, user)
    if seat is None:
        raise NotSeated(_("你不在這張牌桌"))
    return seat


# What an empty seat holds. Every path that empties a seat (leave, escape, standing up between
# hands, closing the table) or gives it to someone starts from this, so none leaves a field of
# the previous sitter behind (his 托管, missed turns, sockets, clock).
SEAT_EMPTY: dict[str, Any] = {
    "user": None,
    "is_bot": False,
    "auto": False,
    "ready": False,
    "timeouts": 0,
    "connections": 0,
    "disconnected_at": None,
    "deadline": None,
    "deadline_seq": None,
}


def seat_vacate(seat: Seat, *, user: Any = None) -> None:
    """Empty the seat (not saved), or, with ``user``, give it to him ready to play."""
    for name, value in SEAT_EMPTY.items():
        setattr(seat, name, value)
    if user is not None:
        seat.user, seat.is_bot, seat.ready = user, bool(user.is_bot), True


def table_close_if_empty(table: Table) -> None:
    """A table with no human left closes; its bots go home."""
    if table.seats.filter(user__isnull=False, is_bot=False).exists():
        return
    if hand_current(table) is not None:
        return
    table.seats.update(**SEAT_EMPTY)
    table.status = Table.Status.CLOSED
    table.fill_deadline = None
    table.next_hand_at = None


def auto_set(*, table_id: int, user, on: bool) -> None:
    """Switch 托管 on or off for the user's seat."""
    with transaction.atomic():
        table = table_lock(table_id)
        seat = seat_get(table, user)
        if seat.auto == bool(on) and not seat.timeouts:
            return  # a toggle that changes nothing costs nothing: no seq, no push
        seat.auto = on
        seat.timeouts = 0
        hand = hand_current(table)
        if hand is not None:
            state = registry.get(hand.game).state_from_json(hand.state)
            if seat.index in table_seats(hand, registry.get(hand.game).to_act(state)):
                seat.deadline = _deadline_for(seat, table, state)
        seat.save()
        seq_bump(table)
        table.save(update_fields=["seq"])
        table_notify(table)


# --- hands --------------------------------------------------------------------------------------


def seq_bump(table: Table) -> None:
    table.seq += 1


def table_notify(
    table: Table, *, lobby: bool = False, hand: Hand | None = None, state: Any = None
) -> None:
    """After commit, tell the table's sockets (and the lobby) with the snapshot as committed.

    On the hot path (a move) the snapshot is built from the rows this transaction holds and
    wrote (``_seats_locked`` and the hand); elsewhere it is read inside the transaction,
    under the table lock, so it is exactly what commits. ``state`` (a move's) is the engine
    state ``hand.state`` was just encoded from: this process's renders of the change use it
    instead of decoding the JSON again (the caller no longer touches it).
    """
    from games.selectors import tables as selectors

    seq = table.seq
    seats = getattr(table, "_seats_locked", None)
    if seats is not None and hand is not None:
        snapshot = selectors.snapshot_build(table, seats, hand)
    else:
        snapshot = selectors.table_snapshot(table.pk)

    def tell() -> None:
        if state is not None and hand is not None:
            selectors.engine_state_remember(hand.pk, seq, state)
        realtime.table_changed(table.pk, seq, lobby=lobby, snapshot=snapshot)

    # Tell the sockets only once the change is durable.
    transaction.on_commit(tell)


# --- the seat map: engine seat e ↔ table seat Hand.players[e]["table_seat"] ---------------
# With FIXED seating every seat is dealt in and e is the table seat; with OPEN seating a hand
# is dealt to the seated players only, packed in table order, and a player who sat down during
# the hand has no engine seat in it.


def min_players(table: Table) -> int:
    """OPEN seating: how many seated players a hand needs (the room's ``min_players``)."""
    least = registry.get(table.game).min_seats
    try:
        return max(least, int(table.params.get("min_players") or least))
    except (TypeError, ValueError):
        return least


def engine_seat(hand: Hand, seat: Seat) -> int | None:
    """The seat's index in the hand's engine state (None: not dealt in this hand)."""
    for e, player in enumerate(hand.players):
        if player.get("table_seat", e) == seat.index and player.get("user_id") == seat.user_id:
            return e
    return None


def table_seats(hand: Hand | dict[str, Any], engine_seats: Iterable[int]) -> frozenset[int]:
    """Engine seats → table seat indices."""
    players = hand["players"] if isinstance(hand, dict) else hand.players
    return frozenset(players[e].get("table_seat", e) for e in engine_seats)


def table_seat(hand: Hand, e: int) -> int:
    return int(hand.players[e].get("table_seat", e))


def _dealer_engine_seat(seats: list[Seat], table_dealer: int) -> int:
    """The engine index of the table's dealer seat, or of the last dealt seat before it."""
    before = [e for e, s in enumerate(seats) if s.index <= table_dealer]
    return before[-1] if before else len(seats) - 1


def hand_start_if_ready(table: Table) -> Hand | None:
    """Deal a hand if the table's seating allows it (``table_type.seating``)."""
    seats = list(table.seats.select_related("user").order_by("index"))
    seated = [seat for seat in seats if seat.user_id is not None]
    if registry.get(table.game).table_type.seating is Seating.OPEN:
        if len(seated) < min_players(table):
            return None
    elif len(seated) < len(seats):
        return None
    if hand_current(table) is not None:
        return None
    if table.status == Table.Status.CLOSED:
        return None
    return _hand_start(table, seats)


def _hand_start(table: Table, seats: list[Seat]) -> Hand | None:
    ruleset = registry.get(table.game)
    if _room_params_source is not None and table.room_id:
        fresh = _room_params_source(table.room_id)
        if fresh:
            table.params = fresh
    seats = [seat for seat in seats if seat.user_id is not None]
    balances = ledger_selectors.balances_for_users([seat.user_id for seat in seats])
    # deal the seated players who can pay the game's minimum (0 for most), in table order
    least = ruleset.deal_minimum(ruleset.config_from_params(table.params))
    seats = [seat for seat in seats if balances.get(seat.user_id, 0) >= least]
    if len(seats) < ruleset.min_seats:
        return None
    dealer = _dealer_engine_seat(seats, table.dealer)
    params = {
        **table.params,
        **table.carry,
        "seat_beans": [balances[seat.user_id] for seat in seats],
        "dealer": dealer,
    }
    config = ruleset.config_from_params(params)
    seed = new_seed()
    state = ruleset.new_game(config, seed, len(seats))
    table.hands_played += 1
    hand = Hand.objects.create(
        table=table,
        number=table.hands_played,
        game=table.game,
        seed=seed,
        seed_hash=seed_commitment(seed),
        params=params,
        players=[
            {
                "user_id": s.user_id,
                "name": str(s.user),
                "is_bot": s.is_bot,
                "avatar": s.user.avatar_seed,
                "table_seat": s.index,
            }
            for s in seats
        ],
        state=ruleset.state_to_json(state),
        engine_version=ruleset.engine_version,
    )
    table.status = Table.Status.PLAYING
    table.fill_deadline = None
    table.next_hand_at = None
    seq_bump(table)
    table.move_seq = table.seq  # a new deal
    table.save()
    if ruleset.table_type.stakes_in_play:
        stakes.opening_take(hand, ruleset.opening_stakes(state))  # e.g. the 底注, at the deal
    _set_deadlines(table, hand, state, previous=frozenset(), actor=None)
    return hand


def _deadline_for(seat: Seat, table: Table, state: Any) -> Any:
    now = timezone.now()
    if seat.is_bot:
        return now + timedelta(seconds=_conf("BOT_THINK_SECONDS"))
    if seat.auto or (seat.connections == 0 and seat.disconnected_at is not None):
        return now + timedelta(seconds=_conf("AUTO_PLAY_SECONDS"))
    # the game's own clock for this moment (e.g. a short all-at-once phase), else the room's
    seconds = registry.get(table.game).turn_seconds(state) or table.params.get("turn_seconds", 20)
    return now + timedelta(seconds=seconds)


def _set_deadlines(
    table: Table, hand: Hand, state: Any, previous: frozenset[int], actor: int | None
) -> None:
    _deadlines_save(_deadlines_changed(table, hand, state, previous, actor))


def _deadlines_changed(
    table: Table, hand: Hand, state: Any, previous: frozenset[int], actor: int | None
) -> list[Seat]:
    """Set the turn clocks of the seats to act in ``state`` (not saved); return the seats whose
    clock changed."""
    ruleset = registry.get(hand.game)
    to_act = table_seats(hand, ruleset.to_act(state))
    changed = []
    for seat in seats_locked(table):
        if seat.index in to_act:
            if seat.index in previous and seat.index != actor and seat.deadline is not None:
                continue  # still deciding; its clock keeps running
            seat.deadline, seat.deadline_seq = _deadline_for(seat, table, state), table.seq
        elif seat.deadline is None:
            continue
        else:
            seat.deadline, seat.deadline_seq = None, None
        changed.append(seat)
    return changed


def _deadlines_save(seats: list[Seat]) -> None:
    """Write the seats' turn clocks in one round trip (psycopg pipelines ``executemany``).

    ``bulk_update`` built a CASE expression per field through the ORM: 8–11 % of a loaded
    server's samples for what is one UPDATE per seat by primary key.
    """
    if not seats:
        return
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {Seat._meta.db_table} SET deadline = %s, deadline_seq = %s WHERE id = %s",
            [(adapt(seat.deadline), seat.deadline_seq, seat.pk) for seat in seats],
        )


class TableMoved(Exception):
    """``action_apply`` without the lock: the table's seq moved since its rows were read, or
    the move needs the lock (it ends the hand or moves stakes); nothing was written."""


def action_apply(
    table: Table,
    hand: Hand,
    seat: Seat,
    action: dict,
    *,
    action_id: str | None,
    by: str,
    unlocked_at: int | None = None,
) -> MoveOutcome:
    """Apply one action under the table lock and record it. IllegalAction changes nothing.

    ``unlocked_at`` (PostgreSQL only): the caller holds no lock and no transaction; ``table``,
    ``hand`` and the seats are rows read at that table seq. The move is then written by one
    statement that first moves the table's seq on from ``unlocked_at`` — its row lock makes it
    the table's one writer, and it writes nothing if the seq has moved (``_move_save``), when
    TableMoved is raised; so is it, before anything is written, for a move that ends the hand or
    moves stakes (those take the lock).
    """
    ruleset = registry.get(hand.game)
    if unlocked_at is not None and ruleset.table_type.stakes_in_play:
        raise TableMoved("stakes move in play: under the lock")
    state = ruleset.state_from_json(hand.state)
    before = table_seats(hand, ruleset.to_act(state))
    index = engine_seat(hand, seat)
    if index is None:  # OPEN seating: sat down during this hand
        raise IllegalAction(
            ErrorCode.NOT_YOUR_TURN, "not dealt in this hand", {"reason": "not_dealt_in"}
        )
    # what the server's clock says goes into the action here (the engine never reads a clock)
    action = ruleset.action_stamp(state, action, (timezone.now() - hand.started_at).total_seconds())
    events = ruleset.apply(state, index, action)
    over = ruleset.is_over(state)
    if unlocked_at is not None and over:
        raise TableMoved("the hand ends: under the lock")
    moved_from = table.move_seq
    seq_bump(table)
    table.move_seq = table.seq  # the hand moved: moves made before this are stale
    hand.last_move = {"seat": index, "action": action}  # for the pushed snapshot (games/fx.py)
    if ruleset.table_type.stakes_in_play:
        stakes.stakes_take(hand, events, table.seq)  # each stake into the pot as it is made
    hand.state = ruleset.state_to_json(state)
    if over:
        _event_append(table, hand, index, action, action_id=action_id, by=by)
        result = ruleset.result(state)
        hand_end(table, hand, result, escaped_seat=None)
        table.save()
    else:
        changed = _deadlines_changed(table, hand, state, previous=before, actor=seat.index)
        if not _move_save(
            table,
            hand,
            changed,
            (index, action, action_id, by),
            seq_was=table.seq - 1 if unlocked_at is None else unlocked_at,
        ):
            raise TableMoved("the table moved since its rows were read")
        # the hand's moves since its rows were read, kept with them (_moves_since_known)
        since, moves = getattr(hand, "_moves_since", (moved_from, ()))
        hand._moves_since = (since, (*moves, (table.move_seq, index)))
        _rows_keep(table, hand)
    table_notify(table, hand=hand, state=state)
    return MoveOutcome(seq=table.seq, hand_over=over)


# A move's writes as plain statements: through the ORM they cost about 1.8 ms of a server's CPU
# per move (query compilation; bench/table_load.py --micro), like this 0.4.


def _event_append(
    table: Table, hand: Hand, seat: int, action: dict, *, action_id: str | None, by: str
) -> None:
    """Append the move to the event log (``HandEvent``) at the table's new seq."""
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {HandEvent._meta.db_table} "
            f"(table_id, hand_id, seq, seat, action, action_id, {ops.quote_name('by')}, "
            "created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                table.pk,
                hand.pk,
                table.seq,
                seat,
                ops.adapt_json_value(action, None),
                action_id,
                by,
                ops.adapt_datetimefield_value(timezone.now()),
            ],
        )


def _move_save(
    table: Table,
    hand: Hand,
    seats: list[Seat],
    event: tuple[int, dict, str | None, str],
    *,
    seq_was: int,
) -> bool:
    """Write a move that goes on: its event (engine seat, action, action id, by), the seats'
    turn clocks, the hand's state and the table's seq; return False (nothing written) if the
    table's seq was no longer ``seq_was``.

    On PostgreSQL one statement does it all (data-modifying CTEs, each joined to the table's
    row as updated, so none writes unless the seq moved from ``seq_was`` to ``table.seq``; the
    UPDATE's row lock orders it with every other writer of the table, as ``table_lock`` does).
    A move was seven round trips before (BEGIN, lock, event, clocks, hand, table, COMMIT) and
    each one, in a loaded clock process, waits for the GIL again. Elsewhere (SQLite, whose
    writers the IMMEDIATE transaction already serialises) the statements one by one.
    """
    seat, action, action_id, by = event
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    if connection.vendor != "postgresql":
        _event_append(table, hand, seat, action, action_id=action_id, by=by)
        _deadlines_save(seats)
        _hand_state_and_seq_save(table, hand)
        return True
    params: list[Any] = [table.seq, table.move_seq, table.pk, seq_was]
    params += [table.pk, hand.pk, table.seq, seat, ops.adapt_json_value(action, None)]
    params += [action_id, by, now, ops.adapt_json_value(hand.state, None), hand.pk]
    clocks = ""
    if seats:
        rows = ", ".join(["(%s::bigint, %s::timestamptz, %s::bigint)"] * len(seats))
        clocks = (
            f", c AS (UPDATE {Seat._meta.db_table} s SET deadline = v.deadline, "
            "deadline_seq = v.deadline_seq FROM t, (VALUES "
            f"{rows}) AS v(id, deadline, deadline_seq) WHERE s.id = v.id)"
        )
        for row in seats:
            params += [row.pk, ops.adapt_datetimefield_value(row.deadline), row.deadline_seq]
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH t AS (UPDATE {Table._meta.db_table} SET seq = %s, move_seq = %s "
            "WHERE id = %s AND seq = %s RETURNING id), "
            f"e AS (INSERT INTO {HandEvent._meta.db_table} "
            f"(table_id, hand_id, seq, seat, action, action_id, {ops.quote_name('by')}, "
            "created_at) SELECT %s, %s, %s, %s, %s, %s, %s, %s FROM t), "
            f"h AS (UPDATE {Hand._meta.db_table} SET state = %s FROM t "
            f"WHERE {Hand._meta.db_table}.id = %s){clocks} "
            "SELECT count(*) FROM t",
            params,
        )
        return bool(cursor.fetchone()[0])


def _hand_state_and_seq_save(table: Table, hand: Hand) -> None:
    """Save the hand's engine state and the table's seq (a move changes nothing else)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Hand._meta.db_table} SET state = %s WHERE id = %s",
            [connection.ops.adapt_json_value(hand.state, None), hand.pk],
        )
        cursor.execute(
            f"UPDATE {Table._meta.db_table} SET seq = %s, move_seq = %s WHERE id = %s",
            [table.seq, table.move_seq, table.pk],
        )


def result_json(result) -> dict:
    return {
        "scores": list(result.scores),
        "winners": list(result.winners),
        "lines": [{"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in result.lines],
        "extra": result.extra,
    }


def hand_end(table: Table, hand: Hand, result, *, escaped_seat: int | None) -> None:
    from games import tasks

    hand.result = result_json(result)
    table_type = registry.get(hand.game).table_type
    if table_type.settlement is Settlement.POT:
        stakes.pot_pay(hand)  # the pot to the winner, in the transaction that ends the hand
    if escaped_seat is not None:
        hand.result["escaped_seat"] = escaped_seat
    hand.status = Hand.Status.ESCAPED if escaped_seat is not None else Hand.Status.FINISHED
    hand.finished_at = timezone.now()
    hand.save()
    ended = [s for s in seats_locked(table) if s.deadline is not None or s.deadline_seq]
    for seat in ended:
        seat.deadline, seat.deadline_seq = None, None
    _deadlines_save(ended)
    table.next_hand_at = timezone.now() + timedelta(seconds=BETWEEN_HANDS_SECONDS)
    extra = result.extra or {}
    # what the engine hands on to the next hand (圈風, 牢莊, 荒莊 streak …) comes back in its params
    table.carry = {
        key[5:]: value
        for key, value in extra.items()
        if key.startswith("next_") and key != "next_dealer"
    }
    if extra.get("next_dealer") is not None:
        table.dealer = int(extra["next_dealer"])  # the engine's own rotation (連莊, 荒莊 …)
    elif result.winners and table_type.dealer is Dealer.WINNER:
        table.dealer = table_seat(hand, result.winners[0])
    hand_id = hand.pk
    # Settle only once the finished hand is durable; a lost task is re-sent by the clock.
    transaction.on_commit(lambda: tasks.hand_settle_task.delay(hand_id))


def hand_escape(table: Table, hand: Hand, seat: Seat) -> bool:
    """逃跑 from the hand in play, as the game's ``table_type.escape`` says; True if it was one.

    END_HAND: the hand ends with the ruleset's ``escape_result`` (its penalty rule). FOLD: the
    leaver pays the room's ``escape_penalty`` and his seat plays the ruleset's
    ``escape_action``; the hand goes on. A seat not dealt in (or, FOLD, already out) leaves
    freely: nothing is taken.
    """
    ruleset = registry.get(hand.game)
    e = engine_seat(hand, seat)
    if e is None:
        return False
    state = ruleset.state_from_json(hand.state)
    if ruleset.table_type.escape is Escape.FOLD:
        action = ruleset.escape_action(state, e)
        if action is None:
            return False
        penalty = stakes.escape_penalty_take(hand, seat.user, e)
        action_apply(table, hand, seat, {**action, "penalty": penalty}, action_id=None, by="escape")
        return True
    result = ruleset.escape_result(state, e)
    seq_bump(table)
    table.move_seq = table.seq
    HandEvent.objects.create(
        table=table,
        hand=hand,
        seq=table.seq,
        seat=e,
        action={"type": "escape"},
        by="player",
    )
    hand_end(table, hand, result, escaped_seat=e)
    return True


def move_submit(
    *,
    table_id: int,
    user,
    action: dict,
    expected_seq: int | None,
    action_id: str | None,
) -> MoveOutcome:
    """Apply a player's action made against ``expected_seq``.

    Raises UnknownTable, NotSeated, DuplicateAction (same client id seen), StaleSeq (the table
    moved on), NoHand, or the engine's IllegalAction; in every case nothing changes.
    """
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or not frames.json_storable(action)
    ):
        raise IllegalAction(ErrorCode.MALFORMED, "the action is not an object")
    if action_id is not None and (
        not isinstance(action_id, str)
        or len(action_id) > MAX_ACTION_ID
        or not action_id.isprintable()
    ):
        raise IllegalAction(ErrorCode.MALFORMED, "bad action_id")
    _refuse_if_surely_stale(table_id, user, expected_seq, action_id)
    try:
        with transaction.atomic():
            table = table_lock(table_id, reuse_rows=True)
            seat = seat_get(table, user)
            # A resent action normally arrives against the seq it was first sent at, which has
            # moved on: only then is the log asked whether the id was seen. An id reused at the
            # current seq is refused by the unique constraint below (the whole move rolls back).
            if expected_seq is None or expected_seq != table.seq:
                _refuse_if_already_sent(table_id, action_id)
            if expected_seq is not None and not table.move_seq <= expected_seq <= table.seq:
                # stale only if the hand moved since (another seat's 托管 / 在線 does not count)
                raise StaleSeq(
                    format_lazy(_("牌桌已更新（{seq}），請重試"), seq=table.seq), seq=table.seq
                )
            hand = hand_current(table)
            if hand is None:
                raise NoHand(_("現在沒有進行中的牌局"))
            if not seat.is_bot and (seat.auto or seat.timeouts):
                seat.auto, seat.timeouts = False, 0  # acting yourself ends 托管
                seat.save(update_fields=["auto", "timeouts"])
            return action_apply(table, hand, seat, action, action_id=action_id, by="player")
    except IntegrityError as error:
        if "event_action_id_unique" in str(error):
            raise DuplicateAction(_("這個動作已經送出過了")) from None
        raise


def _refuse_if_surely_stale(
    table_id: int, user, expected_seq: int | None, action_id: str | None
) -> None:
    """Refuse, without a transaction, a move made against a seq this process has seen passed.

    The seq only grows, so a snapshot of this process's newer than ``expected_seq`` proves the
    move stale (in the all-at-once phases two of three seats' moves are); the errors are the
    locked path's, in its order (not seated, already sent, stale).
    """
    from games.selectors import tables as selectors

    if expected_seq is None:
        return
    snapshot = selectors.table_snapshot_in_cache(table_id, expected_seq + 1)
    if snapshot is None or not any(s["user_id"] == user.pk for s in snapshot["seats"]):
        return  # not known to be stale here: the locked path decides
    if snapshot["table"].get("move_seq", snapshot["table"]["seq"]) <= expected_seq:
        return  # only 托管 / 在線 / seats changed since: not stale
    _refuse_if_already_sent(table_id, action_id)
    seq = snapshot["table"]["seq"]
    raise StaleSeq(format_lazy(_("牌桌已更新（{seq}），請重試"), seq=seq), seq=seq)


def _refuse_if_already_sent(table_id: int, action_id: str | None) -> None:
    if action_id and HandEvent.objects.filter(table_id=table_id, action_id=action_id).exists():
        raise DuplicateAction(_("這個動作已經送出過了"))


# --- the clock ----------------------------------------------------------------------------------


def due_seat_act(*, table_id: int, seat_index: int) -> bool:
    """The clock's step for one due seat: a bot moves, a timed-out player gets 托管's move."""
    with transaction.atomic():
        table = table_lock(table_id, reuse_rows=True)
        seat = next((s for s in seats_locked(table) if s.index == seat_index), None)
        if seat is None or seat.deadline is None or seat.deadline > timezone.now():
            return False  # someone acted first, or the clock moved
        hand = hand_current(table)
        if hand is None:
            seat.deadline = None
            seat.save(update_fields=["deadline"])
            return False
        ruleset = registry.get(hand.game)
        state = ruleset.state_from_json(hand.state)
        index = engine_seat(hand, seat)
        if index is None or index not in ruleset.to_act(state):
            seat.deadline = None
            seat.save(update_fields=["deadline"])
            return False
        if seat.is_bot:
            action, by = ruleset.bot_action(state, index), "bot"
        elif seat.auto:
            # 托管 switched on (by the player, two missed turns or a disconnect): the bot plays
            # the seat; a single missed turn only gets the cautious auto_action below.
            action, by = ruleset.bot_action(state, index), "auto"
        else:
            action, by = ruleset.auto_action(state, index), "auto"
            seat.timeouts += 1
            if seat.timeouts >= 2:
                seat.auto = True  # two missed turns in a row: 托管 until the player acts
            seat.save(update_fields=["timeouts", "auto"])
        action_apply(table, hand, seat, action, action_id=None, by=by)
        return True


@dataclass(frozen=True)
class DueSeat:
    """A due seat as the clock read it, without the lock: what its decision is made on.

    ``kind`` is ``bot`` (a bot's seat), ``auto`` (托管: the bot plays it) or ``timeout`` (a
    single missed turn, or no hand: ``due_seat_act`` decides under the lock). ``move_seq`` is
    the table's at the read: the stored hand state is the one the decision sees as long as it
    has not moved (every change of the hand's state moves it).
    """

    table_id: int
    seat_index: int
    user_id: int | None
    kind: str
    hand_id: int | None = None
    move_seq: int | None = None
    game: str = ""
    engine_seat: int | None = None
    state: dict[str, Any] | None = None
    deadline: Any = None  # the turn clock that made it due (the bench's wait is measured from it)
    seq: int | None = None  # the table's seq at the read: ``rows`` are current while it holds
    # the table's seats (with users), hand and table row as read after ``seq`` was
    rows: tuple[list[Seat], Hand, Table] | None = field(default=None, compare=False, repr=False)


def due_seats_read(
    *,
    now: Any,
    limit: int = 500,
    skip: Iterable[tuple[int, int]] = (),
    only: tuple[int, int] | None = None,
    shard: tuple[int, int] = (0, 1),
) -> list[DueSeat]:
    """The seats whose deadline has passed, with their tables, hands and the tables' seats, in
    four reads; not the seats in ``skip``, or only the seat ``only`` ((table id, seat index)
    both); with ``shard`` (index, count), only the tables whose id is ``index`` modulo ``count``.

    The table rows (their ``move_seq`` and ``seq``) are read before the hands and the seats,
    so a write committed in between leaves an older ``move_seq`` / ``seq`` than the rows:
    ``due_seat_apply`` then refuses the decision (never applies one made on a state other than
    the one it checks) and never writes from the stale rows (the seq it expects has moved).
    """
    rows = Seat.objects.filter(deadline__lte=now)
    if shard[1] > 1:  # one of several clock processes: the tables whose id is ``index`` mod n
        rows = rows.annotate(clock_shard=Mod("table_id", shard[1])).filter(clock_shard=shard[0])
    if only is not None:
        rows = rows.filter(table_id=only[0], index=only[1])
    seats = list(
        rows.order_by("deadline").values_list(
            "table_id", "index", "user_id", "is_bot", "auto", "deadline"
        )[:limit]
    )
    skipped = set(skip)
    seats = [row for row in seats if (row[0], row[1]) not in skipped]
    if not seats:
        return []
    table_ids = {row[0] for row in seats}
    # the whole rows a move writes from, so that it need not read them again: the tables first
    tables = {table.pk: table for table in Table.objects.filter(pk__in=table_ids)}
    hands = {
        hand.table_id: hand
        for hand in Hand.objects.filter(table_id__in=table_ids, status=Hand.Status.PLAYING)
    }
    seat_rows: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("user")
        .order_by("table_id", "index")
    ):
        seat_rows.setdefault(seat.table_id, []).append(seat)
    due = []
    for table_id, index, user_id, is_bot, auto, deadline in seats:
        hand = hands.get(table_id)
        table = tables.get(table_id)
        kind = "bot" if is_bot else "auto" if auto else "timeout"
        e = None
        if hand is not None and table is not None:
            e = next(
                (
                    e
                    for e, player in enumerate(hand.players)
                    if player.get("table_seat", e) == index and player.get("user_id") == user_id
                ),
                None,
            )
        if hand is None or table is None or e is None or kind == "timeout":
            due.append(DueSeat(table_id, index, user_id, "timeout", deadline=deadline))
            continue
        due.append(
            DueSeat(
                table_id,
                index,
                user_id,
                kind,
                hand.pk,
                table.move_seq,
                table.game,
                e,
                hand.state,
                deadline=deadline,
                seq=table.seq,
                rows=(seat_rows.get(table_id, []), hand, table),
            )
        )
    return due


def _due_rows_use(table: Table, due: DueSeat) -> None:
    """Under the lock, write from the rows the clock read with ``due`` if the table's seq has
    not moved since (every change of its seats or hand moves it), instead of reading them
    again; copies, since the due seats of one table share them and a move changes its rows."""
    if getattr(table, "_seats_locked", None) is not None or due.rows is None:
        return  # this process's last move on the table left its rows: newer, or the same
    if table.seq != due.seq:
        return
    seats, hand, _table = due.rows
    table._seats_locked = [_row_copy(seat) for seat in seats]
    table._hand_playing = _row_copy(hand)


def _due_rows_take(due: DueSeat) -> Table | None:
    """Without a lock: copies of the newest rows this process holds for ``due``'s table (its
    last move's, else the clock's read), as a table with ``_seats_locked`` / ``_hand_playing``;
    None if it holds none. They are current only if the table's seq has not moved since; the
    write checks that (``_move_save``)."""
    entry = _rows_after_move.pop(due.table_id, None)
    if entry is not None and due.seq is not None and entry[0] >= due.seq:
        _seq, seats, hand, table = entry
    elif due.rows is not None:
        seats, hand, table = due.rows
    else:
        return None
    table = _row_copy(table)
    table._seats_locked = [_row_copy(seat) for seat in seats]
    table._hand_playing = _row_copy(hand)
    return table


def _row_copy(row: Any) -> Any:
    """A shallow copy of a model instance, as ``copy.copy`` makes it (its own field values and
    state, related objects shared) without the pickling protocol's detour, which was a tenth of
    a loaded clock's CPU per move."""
    twin = object.__new__(type(row))
    twin.__dict__.update(row.__dict__)
    state = copy.copy(row._state)
    state.fields_cache = dict(row._state.fields_cache)
    twin._state = state
    return twin


class DueApplied:
    """What ``due_seat_apply`` did with a decision (string values, for the clock's counts)."""

    APPLIED = "applied"
    STALE = "stale"  # the seat is no longer due (it moved, or its turn passed): dropped
    MOVED = "moved"  # the hand moved but the seat is still due: decide again on the new state


def due_seat_apply(*, due: DueSeat, action: dict, how: str = "") -> str:
    """Apply a bot decision made off the lock on ``due``'s state (a ``DueApplied`` value).

    Under the table lock the seat must still be due, held by the same user and played by the
    bot (a bot's seat or 托管 on), else STALE: nothing changes. The hand must not have moved
    since the read (``move_seq``), else MOVED: nothing changes either (in an all-at-once
    phase another seat's answer came first; the caller decides again) — unless every move since
    was another seat's answer to the same all-at-once question (``_answered_alongside``), and
    this answer is still legal: then it is applied as ``…-sim``. So a late decision, or a
    second one for the same turn, is never applied. ``how`` is recorded after the event's
    ``by`` (``bot`` or ``auto``): ``cap`` (a search stopped at its wall-clock cap) or ``fb``
    (the decision ran past the clock's budget: the ruleset's ``bot_fallback_action``), so a
    replay that re-derives the bot's choices knows which moves were not its full decision.

    On PostgreSQL the move is first tried without the lock, from the rows this process holds
    (``_due_seat_apply_unlocked``: one statement, which writes only if the table's seq has not
    moved since they were read); whatever that does not settle is decided under the lock.
    """
    if connection.vendor == "postgresql":
        applied = _due_seat_apply_unlocked(due, action, how)
        if applied is not None:
            return applied
    with transaction.atomic():
        table = table_lock(due.table_id, reuse_rows=True)
        _due_rows_use(table, due)
        seat = next((s for s in seats_locked(table) if s.index == due.seat_index), None)
        if not _seat_still_due(seat, due):
            return DueApplied.STALE
        hand = hand_current(table)
        if hand is None or hand.pk != due.hand_id:
            return DueApplied.STALE
        by = "bot" if seat.is_bot else "auto"
        if table.move_seq == due.move_seq:
            action_apply(table, hand, seat, action, action_id=None, by=f"{by}-{how}" if how else by)
            return DueApplied.APPLIED
        if not _answered_alongside(hand, due):
            return DueApplied.MOVED
        try:
            with transaction.atomic():  # a savepoint: an answer no longer legal changes nothing
                action_apply(table, hand, seat, action, action_id=None, by=f"{by}-{how or 'sim'}")
        except IllegalAction:
            return DueApplied.MOVED
        return DueApplied.APPLIED


def _seat_still_due(seat: Seat | None, due: DueSeat) -> bool:
    """The seat is still the one the clock found due: same player, its clock run out, played by
    the bot or 托管."""
    return (
        seat is not None
        and seat.user_id == due.user_id
        and seat.deadline is not None
        and seat.deadline <= timezone.now()
        and (seat.is_bot or seat.auto)
    )


def _due_seat_apply_unlocked(due: DueSeat, action: dict, how: str) -> str | None:
    """Apply the decision from the rows this process holds, in one statement and no lock
    (``action_apply`` with ``unlocked_at``): APPLIED, or None when the rows say the seat is not
    simply due to this decision (stale, or the hand moved: the locked path decides which) or
    the write found the seq moved, or the move needs the lock (it ends the hand). The checks
    are ``due_seat_apply``'s, on rows that are the table's as long as its seq is theirs, and
    the statement writes nothing once it is not."""
    table = _due_rows_take(due)
    if table is None:
        return None
    seat = next((s for s in table._seats_locked if s.index == due.seat_index), None)
    hand = table._hand_playing
    if not _seat_still_due(seat, due) or hand is None or hand.pk != due.hand_id:
        return None
    by = "bot" if seat.is_bot else "auto"
    if table.move_seq != due.move_seq:
        # another seat's answer to the same all-at-once question came first: the decision
        # stands, as under the lock, if every move since was one (known from the moves this
        # process made since the rows were read) and it is still legal
        if not _answered_alongside_known(hand, due):
            return None
        how = how or "sim"
    try:
        action_apply(
            table,
            hand,
            seat,
            action,
            action_id=None,
            by=f"{by}-{how}" if how else by,
            unlocked_at=table.seq,
        )
    except (TableMoved, IllegalAction):
        return None  # nothing written: the locked path decides
    return DueApplied.APPLIED


def _answered_alongside_known(hand: Hand, due: DueSeat) -> bool:
    """``_answered_alongside`` without the event log: from the hand's moves this process has
    made since its rows were read (``hand._moves_since``: the table's ``move_seq`` at the read
    and each move's (``move_seq``, engine seat) after it); False when they do not reach back to
    ``due``'s read."""
    since, moves = getattr(hand, "_moves_since", (None, ()))
    if since is None or due.move_seq is None or since > due.move_seq:
        return False
    ruleset = registry.get(hand.game)
    window = set(ruleset.to_act(ruleset.state_from_json(due.state or {}))) - {due.engine_seat}
    return all(seat in window for seq, seat in moves if seq > due.move_seq)


def _answered_alongside(hand: Hand, due: DueSeat) -> bool:
    """Whether every move since ``due``'s read was made by another seat that was to act in
    that same state (an all-at-once window: 開始, 加倍, a claim on a discard …).

    Then the seat's decision answered the same question as theirs, on the same state, as a
    player at the table does, and it still stands (if still legal): recorded as ``…-sim``.
    """
    ruleset = registry.get(hand.game)
    window = set(ruleset.to_act(ruleset.state_from_json(due.state or {}))) - {due.engine_seat}
    since = HandEvent.objects.filter(hand=hand, seq__gt=due.move_seq).values_list("seat", flat=True)
    return all(seat in window for seat in since)
