"""A player's move: checked, applied by the engine, recorded, told — under the table's lock.

``move_submit`` checks the seat, the client's action id, the seq the move was made against,
then ``action_apply`` runs the engine on the working state and writes the event, the turn
clocks, the hand's state and the table's seq in one statement (``persist.move_save``); only
after commit are the sockets told (``notify.move_notify``).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games import frames
from games.engine.errors import ErrorCode, IllegalAction
from games.exceptions import DuplicateAction, NoHand, StaleSeq
from games.models import HandEvent, Seat
from games.selectors import tables as selectors
from games.services import stakes
from games.services.tables.clocks import deadline_for, deadlines_changed
from games.services.tables.finish import hand_end
from games.services.tables.notify import move_notify, table_notify
from games.services.tables.persist import event_append, move_save
from games.services.tables.seatmap import engine_seat, table_seats
from games.services.tables.working import (
    MoveOutcome,
    TableMoved,
    WorkingSet,
    rows_keep,
    seq_bump,
    table_lock,
)

MAX_ACTION_ID = 64


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
            work = table_lock(table_id, reuse_rows=True)
            table = work.table
            seat = work.seat_get(user)
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
            if work.hand is None:
                raise NoHand(_("現在沒有進行中的牌局"))
            if not seat.is_bot and (seat.auto or seat.timeouts or seat.hands_unanswered):
                # acting yourself ends 托管, and shows you are here (not idle between hands)
                seat.auto, seat.timeouts, seat.hands_unanswered = False, 0, 0
                seat.save(update_fields=["auto", "timeouts", "hands_unanswered"])
            return action_apply(work, seat, action, action_id=action_id, by="player")
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


def action_apply(
    work: WorkingSet,
    seat: Seat,
    action: dict,
    *,
    action_id: str | None,
    by: str,
    unlocked_at: int | None = None,
) -> MoveOutcome:
    """Apply one action to the working set's hand and record it. IllegalAction changes nothing.

    ``unlocked_at`` (PostgreSQL only): the caller holds no lock and no transaction; the working
    set's rows were read at that table seq. The move is then written by one statement that
    first moves the table's seq on from ``unlocked_at`` — its row lock makes it the table's one
    writer, and it writes nothing if the seq has moved (``persist.move_save``), when
    TableMoved is raised; so is it, before anything is written, for a move that ends the hand
    or moves stakes (those take the lock).
    """
    table, hand, ruleset = work.table, work.hand, work.ruleset
    assert hand is not None
    if unlocked_at is not None and ruleset.table_type.stakes_in_play:
        raise TableMoved("stakes move in play: under the lock")
    state = work.state
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
    work.last_move = {"seat": index, "action": action}  # for the pushed snapshot (games/fx.py)
    if ruleset.table_type.stakes_in_play:
        stakes.stakes_take(hand, events, table.seq)  # each stake into the pot as it is made
    hand.state = ruleset.state_to_json(state)
    if over:
        event_append(table, hand, index, action, action_id=action_id, by=by)
        hand_end(work, ruleset.result(state), escaped_seat=None)
        table.save()
    else:
        changed = deadlines_changed(work, previous=before, actor=seat.index)
        if not move_save(
            table,
            hand,
            changed,
            (index, action, action_id, by),
            seq_was=table.seq - 1 if unlocked_at is None else unlocked_at,
        ):
            raise TableMoved("the table moved since its rows were read")
        # the hand's moves since its rows were read, kept with them (due_apply's check)
        since, moves = work.moves_since or (moved_from, ())
        work.moves_since = (since, (*moves, (table.move_seq, index)))
        rows_keep(work)
    move_notify(work)
    return MoveOutcome(seq=table.seq, hand_over=over)


def auto_set(*, table_id: int, user, on: bool) -> None:
    """Switch 托管 on or off for the user's seat."""
    with transaction.atomic():
        work = table_lock(table_id)
        table = work.table
        seat = work.seat_get(user)
        if seat.auto == bool(on) and not seat.timeouts:
            return  # a toggle that changes nothing costs nothing: no seq, no push
        seat.auto = on
        seat.timeouts = 0
        hand = work.hand
        if hand is not None:
            state = work.state
            if seat.index in table_seats(hand, work.ruleset.to_act(state)):
                seat.deadline = deadline_for(seat, work, state)
        seat.save()
        seq_bump(table)
        table.save(update_fields=["seq"])
        table_notify(table)
