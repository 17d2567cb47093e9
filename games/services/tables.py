"""The live table: seats, hands, moves, clocks, 托管 and escape.

One writer per table: every write locks the table row (``select_for_update``) inside one
transaction; on SQLite the IMMEDIATE transaction mode serialises writers the same way. An
accepted action is appended to ``HandEvent`` and the engine state snapshot is saved in that
transaction; only after commit is anyone told (``realtime.table_changed``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import frames, realtime
from games.services import pot
from games.engine import registry
from games.engine.chance import new_seed, seed_commitment
from games.engine.errors import ErrorCode, IllegalAction
from games.exceptions import (
    BeansOutOfRange,
    DuplicateAction,
    NoHand,
    NotSeated,
    SeatUnavailable,
    StaleSeq,
    UnknownTable,
)
from games.models import Hand, HandEvent, Seat, Table
from ledger import selectors as ledger_selectors

logger = logging.getLogger("leyou.tables")

# Phases in which every seat decides at once and the clock is short (seconds).
SHORT_PHASE_SECONDS = {"start": 8, "dealing": 6}
DEAL_CARD_SECONDS = 0.12  # the deal animation: one card per seat every 0.12 s
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


# table id -> (seq, seats, hand): the rows this process's last move on the table committed.
# Every change of a table's seats or hand bumps its seq (the invariant the snapshots rely on
# too), so under the table lock an entry at the table's current seq is what a read would
# return. Only a move takes an entry (and puts the new rows back on commit); any other writer
# in this process drops it, and a writer elsewhere has moved the seq on.
_rows_after_move: dict[int, tuple[int, list[Seat], Hand]] = {}
_ROWS_AFTER_MOVE_MAX = 5000


def _lock_table(table_id: int, *, reuse_rows: bool = False) -> Table:
    # The row lock makes this transaction the table's only writer until it commits (SQLite has
    # no FOR UPDATE: its IMMEDIATE transactions serialise writers). A plain statement: the ORM's
    # query compilation was a tenth of a loaded server's CPU.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = next(iter(Table.objects.raw(
        f"SELECT * FROM {Table._meta.db_table} WHERE id = %s{lock}", [table_id])), None)
    rows = _rows_after_move.pop(table_id, None)
    if table is None:
        raise UnknownTable("沒有這張牌桌")
    if reuse_rows and rows is not None and rows[0] == table.seq:
        table._seats_locked, table._hand_playing = rows[1], rows[2]
    return table


def _rows_keep(table: Table, hand: Hand) -> None:
    """After commit, keep this move's rows for the table's next move in this process."""
    entry = (table.seq, table._seats_locked, hand)

    def keep() -> None:
        if len(_rows_after_move) >= _ROWS_AFTER_MOVE_MAX:
            _rows_after_move.clear()  # a bound, not a policy: the next moves simply read
        _rows_after_move[table.pk] = entry

    transaction.on_commit(keep)


def _seats_locked(table: Table) -> list[Seat]:
    """The table's seats with their users, read once per transaction of the hot path.

    ``_apply`` and what it calls change these objects in place and save them, so the snapshot
    built from them at the end is what the transaction commits.
    """
    seats = getattr(table, "_seats_locked", None)
    if seats is None:
        seats = list(table.seats.select_related("user").order_by("index"))
        table._seats_locked = seats
    return seats


def _current_hand(table: Table) -> Hand | None:
    hand = getattr(table, "_hand_playing", None)
    if hand is not None:
        return hand
    return table.hands.filter(status=Hand.Status.PLAYING).order_by("-number").first()


def _seat_for(table: Table, user) -> Seat | None:
    return next((s for s in _seats_locked(table) if s.user_id == user.pk), None)


def _seat_of(table: Table, user) -> Seat:
    seat = _seat_for(table, user)
    if seat is None:
        raise NotSeated("你不在這張牌桌")
    return seat


# --- tables and seats ---------------------------------------------------------------------------


def table_create(
    *, game: str, params: dict, seat_count: int, is_private: bool = False, owner=None,
    invite_code: str | None = None,
) -> Table:
    """Create a waiting table with empty seats."""
    with transaction.atomic():
        table = Table.objects.create(
            game=game, room_id=params.get("room_id"), params=params, seat_count=seat_count,
            is_private=is_private, owner=owner, invite_code=invite_code,
        )
        Seat.objects.bulk_create([Seat(table=table, index=i) for i in range(seat_count)])
    return table


def _check_beans(user, params: dict) -> None:
    beans = ledger_selectors.balance_for_user(user)
    low, high = params.get("min_beans") or 0, params.get("max_beans")
    if beans < low:
        raise BeansOutOfRange(f"歡樂豆不足：本場需要至少 {low}，你有 {beans}")
    if high is not None and beans > high:
        raise BeansOutOfRange(f"歡樂豆太多：本場上限 {high}，你有 {beans}，請去更高的場次")


def seat_take(*, table_id: int, user, index: int | None = None) -> Seat:
    """Sit the user at the table (a free seat, or the given one); start the hand when full."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.CLOSED:
            raise SeatUnavailable("牌桌已關閉")
        existing = table.seats.filter(user=user).first()
        if existing is not None:
            return existing
        if Seat.objects.filter(user=user).exists():
            raise SeatUnavailable("你已經在另一張牌桌上")
        _check_beans(user, table.params)
        free = table.seats.select_for_update().filter(user__isnull=True)
        if index is not None:
            free = free.filter(index=index)
        seat = free.order_by("index").first()
        if seat is None:
            raise SeatUnavailable("牌桌已滿")
        seat.user, seat.is_bot, seat.auto, seat.ready = user, bool(user.is_bot), False, True
        seat.timeouts, seat.disconnected_at = 0, None
        seat.save()
        _bump(table)
        if not table.is_private and table.fill_deadline is None and not user.is_bot:
            wait = table.params.get("bot_wait_seconds", 5)
            table.fill_deadline = timezone.now() + timedelta(seconds=wait)
        table.save()
        _maybe_start_hand(table)
        _notify(table, lobby=True)
    return seat


def bots_fill(*, table_id: int, by_user=None) -> int:
    """Fill every empty seat with a bot (the owner of a private table, or the clock)."""
    from games.services.bots import bot_user_for_seat

    with transaction.atomic():
        table = _lock_table(table_id)
        if by_user is not None and table.owner_id != by_user.pk:
            raise SeatUnavailable("只有房主可以加入機器人")
        if table.status == Table.Status.CLOSED:
            return 0
        if not table.seats.filter(user__isnull=False, is_bot=False).exists():
            table.fill_deadline = None
            table.save(update_fields=["fill_deadline"])
            return 0
        filled = 0
        free = table.seats.select_for_update().filter(user__isnull=True).order_by("index")
        if pot.is_pot_game(table.game) and by_user is None:
            free = free[: pot.bots_wanted(table, free.count())]  # 三張: to the players it aims for
        for seat in free:
            seat.user = bot_user_for_seat(table.params)
            seat.is_bot, seat.auto, seat.ready = True, False, True
            seat.save()
            filled += 1
        table.fill_deadline = None
        _bump(table)
        table.save()
        _maybe_start_hand(table)
        _notify(table, lobby=True)
    return filled


def seat_leave(*, table_id: int, user) -> bool:
    """Leave the table. Leaving during a hand is an escape (逃跑): returns True then."""
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = _seat_of(table, user)
        hand = _current_hand(table)
        escaped = False
        if hand is not None and pot.is_pot_game(hand.game):
            escaped = pot.escape(table, hand, seat)  # 三張: fold + penalty, the hand goes on
        elif hand is not None:
            _escape(table, hand, seat)
            escaped = True
        seat.user, seat.is_bot, seat.auto, seat.deadline = None, False, False, None
        seat.connections, seat.ready = 0, False
        seat.save()
        _bump(table)
        _maybe_close(table)
        table.save()
        _notify(table, lobby=True)
    return escaped


def _maybe_close(table: Table) -> None:
    """A table with no human left closes; its bots go home."""
    if table.seats.filter(user__isnull=False, is_bot=False).exists():
        return
    if _current_hand(table) is not None:
        return
    table.seats.update(user=None, is_bot=False, deadline=None, auto=False)
    table.status = Table.Status.CLOSED
    table.fill_deadline = None
    table.next_hand_at = None


def auto_set(*, table_id: int, user, on: bool) -> None:
    """Switch 托管 on or off for the user's seat."""
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = _seat_of(table, user)
        if seat.auto == bool(on) and not seat.timeouts:
            return  # a toggle that changes nothing costs nothing: no seq, no push
        seat.auto = on
        seat.timeouts = 0
        hand = _current_hand(table)
        if hand is not None:
            state = registry.get(hand.game).state_from_json(hand.state)
            if seat.index in pot.table_seats(hand, registry.get(hand.game).to_act(state)):
                seat.deadline = _deadline_for(seat, table, state)
        seat.save()
        _bump(table)
        table.save(update_fields=["seq"])
        _notify(table)



# --- hands --------------------------------------------------------------------------------------


def _bump(table: Table) -> None:
    table.seq += 1


def _notify(table: Table, *, lobby: bool = False, hand: Hand | None = None) -> None:
    """After commit, tell the table's sockets (and the lobby) with the snapshot as committed.

    On the hot path (a move) the snapshot is built from the rows this transaction holds and
    wrote (``_seats_locked`` and the hand); elsewhere it is read inside the transaction,
    under the table lock, so it is exactly what commits.
    """
    from games import selectors

    seq = table.seq
    seats = getattr(table, "_seats_locked", None)
    if seats is not None and hand is not None:
        snapshot = selectors.snapshot_build(table, seats, hand)
    else:
        snapshot = selectors.table_snapshot(table.pk)
    # Tell the sockets only once the change is durable.
    transaction.on_commit(
        lambda: realtime.table_changed(table.pk, seq, lobby=lobby, snapshot=snapshot)
    )


def _maybe_start_hand(table: Table) -> Hand | None:
    seats = list(table.seats.select_related("user").order_by("index"))
    if pot.is_pot_game(table.game):
        if not pot.ready_to_start(table, seats):  # 三張: 2–6 seats, the room's minimum
            return None
    elif any(seat.user_id is None for seat in seats):
        return None
    if _current_hand(table) is not None:
        return None
    if table.status == Table.Status.CLOSED:
        return None
    return _hand_start(table, seats)


def _hand_start(table: Table, seats: list[Seat]) -> Hand:
    ruleset = registry.get(table.game)
    if _room_params_source is not None and table.room_id:
        fresh = _room_params_source(table.room_id)
        if fresh:
            table.params = fresh
    seats = [seat for seat in seats if seat.user_id is not None]
    balances = ledger_selectors.balances_for_users([seat.user_id for seat in seats])
    dealer = table.dealer
    if pot.is_pot_game(table.game):
        # 三張: deal the seated players who can pay the 底注, packed in table order
        seats = pot.dealt_seats(seats, balances, ruleset.config_from_params(table.params).ante)
        if len(seats) < 2:
            return None
        dealer = pot.engine_dealer(seats, table.dealer)
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
        table=table, number=table.hands_played, game=table.game, seed=seed,
        seed_hash=seed_commitment(seed), params=params,
        players=[
            {"user_id": s.user_id, "name": str(s.user), "is_bot": s.is_bot,
             "avatar": s.user.avatar_seed, "table_seat": s.index}
            for s in seats
        ],
        state=ruleset.state_to_json(state),
    )
    table.status = Table.Status.PLAYING
    table.fill_deadline = None
    table.next_hand_at = None
    _bump(table)
    table.move_seq = table.seq  # a new deal
    table.save()
    if pot.is_pot_game(table.game):
        pot.antes_take(hand, state)  # 三張: the 底注 go into the pot at the deal
    _set_deadlines(table, hand, state, previous=frozenset(), actor=None)
    return hand


def _deadline_for(seat: Seat, table: Table, state: Any) -> Any:
    now = timezone.now()
    if seat.is_bot:
        return now + timedelta(seconds=_conf("BOT_THINK_SECONDS"))
    if seat.auto or (seat.connections == 0 and seat.disconnected_at is not None):
        return now + timedelta(seconds=_conf("AUTO_PLAY_SECONDS"))
    phase = getattr(state, "phase", "")
    seconds = SHORT_PHASE_SECONDS.get(phase, table.params.get("turn_seconds", 20))
    return now + timedelta(seconds=seconds)


def _set_deadlines(
    table: Table, hand: Hand, state: Any, previous: frozenset[int], actor: int | None
) -> None:
    ruleset = registry.get(hand.game)
    to_act = pot.table_seats(hand, ruleset.to_act(state))
    changed = []
    for seat in _seats_locked(table):
        if seat.index in to_act:
            if seat.index in previous and seat.index != actor and seat.deadline is not None:
                continue  # still deciding; its clock keeps running
            seat.deadline, seat.deadline_seq = _deadline_for(seat, table, state), table.seq
        elif seat.deadline is None:
            continue
        else:
            seat.deadline, seat.deadline_seq = None, None
        changed.append(seat)
    _deadlines_save(changed)


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


def _apply(
    table: Table, hand: Hand, seat: Seat, action: dict, *, action_id: str | None, by: str
) -> MoveOutcome:
    """Apply one action under the table lock and record it. IllegalAction changes nothing."""
    ruleset = registry.get(hand.game)
    state = ruleset.state_from_json(hand.state)
    before = pot.table_seats(hand, ruleset.to_act(state))
    index = pot.engine_seat(hand, seat)
    if index is None:  # 三張: sat down during this hand
        raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "你這一局沒有參加，請等下一局")
    if action.get("type") == "mingpai" and getattr(state, "phase", "") == "dealing":
        # the server's clock, not the client, says how many cards had been dealt (明牌 ×4 / ×3)
        elapsed = (timezone.now() - hand.started_at).total_seconds()
        action = {**action, "dealt": min(17, int(elapsed / DEAL_CARD_SECONDS))}
    events = ruleset.apply(state, index, action)
    _bump(table)
    table.move_seq = table.seq  # the hand moved: moves made before this are stale
    _event_append(table, hand, index, action, action_id=action_id, by=by)
    pot.stakes_take(hand, events, table.seq)  # 三張: each stake into the pot as it is made
    hand.state = ruleset.state_to_json(state)
    over = ruleset.is_over(state)
    if over:
        result = ruleset.result(state)
        _finish(table, hand, result, escaped_seat=None)
        table.save()
    else:
        _set_deadlines(table, hand, state, previous=before, actor=seat.index)
        _hand_state_and_seq_save(table, hand)
        _rows_keep(table, hand)
    _notify(table, hand=hand)
    return MoveOutcome(seq=table.seq, hand_over=over)


# The three writes of every move, as plain statements: through the ORM they cost about 1.8 ms
# of a server's CPU per move (query compilation; bench/table_load.py --micro), like this 0.4.


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
            [table.pk, hand.pk, table.seq, seat, ops.adapt_json_value(action, None), action_id,
             by, ops.adapt_datetimefield_value(timezone.now())],
        )


def _hand_state_and_seq_save(table: Table, hand: Hand) -> None:
    """Save the hand's engine state and the table's seq (a move changes nothing else)."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Hand._meta.db_table} SET state = %s WHERE id = %s",
                       [connection.ops.adapt_json_value(hand.state, None), hand.pk])
        cursor.execute(f"UPDATE {Table._meta.db_table} SET seq = %s, move_seq = %s WHERE id = %s",
                       [table.seq, table.move_seq, table.pk])


def _result_json(result) -> dict:
    return {
        "scores": list(result.scores),
        "winners": list(result.winners),
        "lines": [{"label": l.label, "value": l.value, "seat": l.seat} for l in result.lines],
        "extra": result.extra,
    }


def _finish(table: Table, hand: Hand, result, *, escaped_seat: int | None) -> None:
    from games import tasks

    hand.result = _result_json(result)
    pot.hand_finish(hand)  # 三張: the pot to the winner (a no-op for the other games)
    if escaped_seat is not None:
        hand.result["escaped_seat"] = escaped_seat
    hand.status = Hand.Status.ESCAPED if escaped_seat is not None else Hand.Status.FINISHED
    hand.finished_at = timezone.now()
    hand.save()
    ended = [s for s in _seats_locked(table) if s.deadline is not None or s.deadline_seq]
    for seat in ended:
        seat.deadline, seat.deadline_seq = None, None
    _deadlines_save(ended)
    table.next_hand_at = timezone.now() + timedelta(seconds=BETWEEN_HANDS_SECONDS)
    extra = result.extra or {}
    # what the engine hands on to the next hand (圈風, 牢莊, 荒莊 streak …) comes back in its params
    table.carry = {key[5:]: value for key, value in extra.items()
                   if key.startswith("next_") and key != "next_dealer"}
    if extra.get("next_dealer") is not None:
        table.dealer = int(extra["next_dealer"])  # the engine's own rotation (連莊, 荒莊 …)
    elif result.winners and registry.get(hand.game).winner_deals_next:
        table.dealer = pot.table_seat(hand, result.winners[0])
    hand_id = hand.pk
    # Settle only once the finished hand is durable; a lost task is re-sent by the clock.
    transaction.on_commit(lambda: tasks.hand_settle_task.delay(hand_id))


def _escape(table: Table, hand: Hand, seat: Seat) -> None:
    ruleset = registry.get(hand.game)
    state = ruleset.state_from_json(hand.state)
    result = ruleset.escape_result(state, seat.index)
    _bump(table)
    table.move_seq = table.seq
    HandEvent.objects.create(
        table=table, hand=hand, seq=table.seq, seat=seat.index, action={"type": "escape"},
        by="player",
    )
    _finish(table, hand, result, escaped_seat=seat.index)


def move_submit(
    *, table_id: int, user, action: dict, expected_seq: int | None, action_id: str | None,
) -> MoveOutcome:
    """Apply a player's action made against ``expected_seq``.

    Raises UnknownTable, NotSeated, DuplicateAction (same client id seen), StaleSeq (the table
    moved on), NoHand, or the engine's IllegalAction; in every case nothing changes.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str) \
            or not frames.json_storable(action):
        raise IllegalAction(ErrorCode.MALFORMED, "動作格式不正確")
    if action_id is not None and (not isinstance(action_id, str) or len(action_id) > MAX_ACTION_ID
                                  or not action_id.isprintable()):
        raise IllegalAction(ErrorCode.MALFORMED, "action_id 不正確")
    _refuse_if_surely_stale(table_id, user, expected_seq, action_id)
    try:
        with transaction.atomic():
            table = _lock_table(table_id, reuse_rows=True)
            seat = _seat_of(table, user)
            # A resent action normally arrives against the seq it was first sent at, which has
            # moved on: only then is the log asked whether the id was seen. An id reused at the
            # current seq is refused by the unique constraint below (the whole move rolls back).
            if expected_seq is None or expected_seq != table.seq:
                _refuse_if_already_sent(table_id, action_id)
            if expected_seq is not None and not table.move_seq <= expected_seq <= table.seq:
                # stale only if the hand moved since (another seat's 托管 / 在線 does not count)
                raise StaleSeq(f"牌桌已更新（{table.seq}），請重試", seq=table.seq)
            hand = _current_hand(table)
            if hand is None:
                raise NoHand("現在沒有進行中的牌局")
            if not seat.is_bot and (seat.auto or seat.timeouts):
                seat.auto, seat.timeouts = False, 0  # acting yourself ends 托管
                seat.save(update_fields=["auto", "timeouts"])
            return _apply(table, hand, seat, action, action_id=action_id, by="player")
    except IntegrityError as error:
        if "event_action_id_unique" in str(error):
            raise DuplicateAction("這個動作已經送出過了") from None
        raise



def _refuse_if_surely_stale(
    table_id: int, user, expected_seq: int | None, action_id: str | None
) -> None:
    """Refuse, without a transaction, a move made against a seq this process has seen passed.

    The seq only grows, so a snapshot of this process's newer than ``expected_seq`` proves the
    move stale (in the all-at-once phases two of three seats' moves are); the errors are the
    locked path's, in its order (not seated, already sent, stale).
    """
    from games import selectors

    if expected_seq is None:
        return
    snapshot = selectors.table_snapshot_in_cache(table_id, expected_seq + 1)
    if snapshot is None or not any(s["user_id"] == user.pk for s in snapshot["seats"]):
        return  # not known to be stale here: the locked path decides
    if snapshot["table"].get("move_seq", snapshot["table"]["seq"]) <= expected_seq:
        return  # only 托管 / 在線 / seats changed since: not stale
    _refuse_if_already_sent(table_id, action_id)
    seq = snapshot["table"]["seq"]
    raise StaleSeq(f"牌桌已更新（{seq}），請重試", seq=seq)


def _refuse_if_already_sent(table_id: int, action_id: str | None) -> None:
    if action_id and HandEvent.objects.filter(table_id=table_id, action_id=action_id).exists():
        raise DuplicateAction("這個動作已經送出過了")


# --- the clock ----------------------------------------------------------------------------------


def due_seat_act(*, table_id: int, seat_index: int) -> bool:
    """The clock's step for one due seat: a bot moves, a timed-out player gets 托管's move."""
    with transaction.atomic():
        table = _lock_table(table_id, reuse_rows=True)
        seat = next((s for s in _seats_locked(table) if s.index == seat_index), None)
        if seat is None or seat.deadline is None or seat.deadline > timezone.now():
            return False  # someone acted first, or the clock moved
        hand = _current_hand(table)
        if hand is None:
            seat.deadline = None
            seat.save(update_fields=["deadline"])
            return False
        ruleset = registry.get(hand.game)
        state = ruleset.state_from_json(hand.state)
        index = pot.engine_seat(hand, seat)
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
        _apply(table, hand, seat, action, action_id=None, by=by)
        return True


def table_tick(*, table_id: int) -> None:
    """The clock's step for a table: fill with bots, start the next hand, or close it."""
    now = timezone.now()
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    if table.fill_deadline and table.fill_deadline <= now:
        bots_fill(table_id=table_id)
        return
    if table.next_hand_at and table.next_hand_at <= now:
        with transaction.atomic():
            table = _lock_table(table_id)
            if not table.next_hand_at or table.next_hand_at > now:
                return
            table.next_hand_at = None
            for seat in table.seats.select_related("user").filter(user__isnull=False):
                gone = seat.connections == 0 and not seat.is_bot
                if gone or not _beans_ok(seat, table.params):
                    # a player who left after a hand (or can no longer afford the room) stands up
                    seat.user, seat.is_bot, seat.auto, seat.ready = None, False, False, False
                    seat.disconnected_at = None
                    seat.save()
            _bump(table)
            if table.seats.filter(user__isnull=True).exists():
                table.status = Table.Status.WAITING
                if table.seats.filter(user__isnull=False, is_bot=False).exists():
                    wait = table.params.get("bot_wait_seconds", 5)
                    table.fill_deadline = now + timedelta(seconds=wait)
                _maybe_close(table)
            table.save()
            _maybe_start_hand(table)
            table.save()
            _notify(table, lobby=True)


def _beans_ok(seat: Seat, params: dict) -> bool:
    if seat.is_bot:
        from games.services.bots import bot_topup

        bot_topup(seat.user, params)
        return True
    try:
        _check_beans(seat.user, params)
    except BeansOutOfRange:
        return False
    return True



def counter_buy(*, table_id: int, user) -> None:
    """Buy the 記牌器 for this hand through the ledger (once per seat and hand)."""
    from ledger import services as ledger
    from ledger.exceptions import InsufficientBeans
    from ledger.models import Transfer

    with transaction.atomic():
        table = _lock_table(table_id)
        seat = _seat_of(table, user)
        hand = _current_hand(table)
        if hand is None:
            raise NoHand("現在沒有進行中的牌局")
        price = int(hand.params.get("counter_price") or 0)
        if price <= 0:
            raise SeatUnavailable("本場記牌器免費", code="not_for_sale")
        if seat.index in hand.counter_seats:
            raise DuplicateAction("這一局已經買過記牌器了")
        try:
            ledger.transfer_create(
                postings=[(ledger.account_for_user(user), -price),
                          (ledger.system_account(ledger.SHOP), price)],
                kind=Transfer.Kind.PURCHASE, reason=f"記牌器 牌局 #{hand.pk}",
                idempotency_key=f"counter:{hand.pk}:{seat.index}",
            )
        except InsufficientBeans:
            raise BeansOutOfRange(f"歡樂豆不足，記牌器要 {price} 豆") from None
        hand.counter_seats = [*hand.counter_seats, seat.index]
        hand.save(update_fields=["counter_seats"])
        _bump(table)
        table.save(update_fields=["seq"])
        _notify(table)
