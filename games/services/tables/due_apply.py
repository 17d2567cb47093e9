"""The clock's moves: a bot's, or 托管's for a player whose turn clock ran out.

``due_seat_act`` decides under the lock (a single missed turn, or the simple path);
``due_seat_apply`` applies a decision the clock's bot pool made off the lock on a
``DueSeat``'s state, first without the lock from the rows this process holds.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from games.engine.errors import IllegalAction
from games.models import HandEvent, Seat
from games.services.tables.due_read import DueSeat
from games.services.tables.moves import action_apply
from games.services.tables.seatmap import engine_seat
from games.services.tables.working import (
    TableMoved,
    WorkingSet,
    rows_after_move,
    table_lock,
)


def due_seat_act(*, table_id: int, seat_index: int) -> bool:
    """The clock's step for one due seat: a bot moves, a timed-out player gets 托管's move."""
    with transaction.atomic():
        work = table_lock(table_id, reuse_rows=True)
        seat = work.seat_at(seat_index)
        if seat is None or seat.deadline is None or seat.deadline > timezone.now():
            return False  # someone acted first, or the clock moved
        hand = work.hand
        if hand is None:
            seat.deadline = None
            seat.save(update_fields=["deadline"])
            return False
        ruleset, state = work.ruleset, work.state
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
            # a missed short prompt (the game's own clock: 斗地主's 開始, 明牌 during the deal)
            # takes its default and nothing more; only a missed turn clock counts toward 托管
            if not ruleset.turn_seconds(state):
                seat.timeouts += 1
                if seat.timeouts >= 2:
                    seat.auto = True  # two missed turns in a row: 托管 until the player acts
                seat.save(update_fields=["timeouts", "auto"])
        action_apply(work, seat, action, action_id=None, by=by)
        return True


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
    was another seat's answer to the same all-at-once question (``answered_alongside``), and
    this answer is still legal: then it is applied as ``…-sim``. So a late decision, or a
    second one for the same turn, is never applied. ``how`` is recorded after the event's
    ``by`` (``bot`` or ``auto``): ``cap`` (a search stopped at its wall-clock cap) or ``fb``
    (the decision ran past the clock's budget: the ruleset's ``bot_fallback_action``), so a
    replay that re-derives the bot's choices knows which moves were not its full decision.

    On PostgreSQL the move is first tried without the lock, from the rows this process holds
    (``due_seat_apply_unlocked``: one statement, which writes only if the table's seq has not
    moved since they were read); whatever that does not settle is decided under the lock.
    """
    if connection.vendor == "postgresql":
        applied = due_seat_apply_unlocked(due, action, how)
        if applied is not None:
            return applied
    with transaction.atomic():
        work = table_lock(due.table_id, reuse_rows=True)
        if not work.has_rows and due.rows is not None and work.table.seq == due.seq:
            # the rows the clock read are the table's while its seq has not moved: copies,
            # since the due seats of one table share them and a move changes its rows
            rows = due.rows.copy()
            work = WorkingSet(work.table, seats=rows.seats, hand=rows.hand_last)
        table = work.table
        seat = work.seat_at(due.seat_index)
        if not _seat_still_due(seat, due):
            return DueApplied.STALE
        hand = work.hand
        if hand is None or hand.pk != due.hand_id:
            return DueApplied.STALE
        by = "bot" if seat.is_bot else "auto"
        if table.move_seq == due.move_seq:
            action_apply(work, seat, action, action_id=None, by=f"{by}-{how}" if how else by)
            return DueApplied.APPLIED
        if not answered_alongside(work, due):
            return DueApplied.MOVED
        try:
            with transaction.atomic():  # a savepoint: an answer no longer legal changes nothing
                action_apply(work, seat, action, action_id=None, by=f"{by}-{how or 'sim'}")
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


def _rows_take(due: DueSeat) -> WorkingSet | None:
    """Without a lock: copies of the newest rows this process holds for ``due``'s table (its
    last move's, else the clock's read); None if it holds none. They are current only if the
    table's seq has not moved since; the write checks that (``persist.move_save``)."""
    kept = rows_after_move.pop(due.table_id)
    if kept is not None and due.seq is not None and kept.table.seq >= due.seq:
        return kept.copy()
    if due.rows is not None:
        return due.rows.copy()
    return None


def due_seat_apply_unlocked(due: DueSeat, action: dict, how: str) -> str | None:
    """Apply the decision from the rows this process holds, in one statement and no lock
    (``action_apply`` with ``unlocked_at``): APPLIED, or None when the rows say the seat is not
    simply due to this decision (stale, or the hand moved: the locked path decides which) or
    the write found the seq moved, or the move needs the lock (it ends the hand). The checks
    are ``due_seat_apply``'s, on rows that are the table's as long as its seq is theirs, and
    the statement writes nothing once it is not."""
    work = _rows_take(due)
    if work is None:
        return None
    seat = work.seat_at(due.seat_index)
    hand = work.hand
    if not _seat_still_due(seat, due) or hand is None or hand.pk != due.hand_id:
        return None
    by = "bot" if seat.is_bot else "auto"
    if work.table.move_seq != due.move_seq:
        # another seat's answer to the same all-at-once question came first: the decision
        # stands, as under the lock, if every move since was one (known from the moves this
        # process made since the rows were read) and it is still legal
        if not answered_alongside_known(work, due):
            return None
        how = how or "sim"
    try:
        action_apply(
            work,
            seat,
            action,
            action_id=None,
            by=f"{by}-{how}" if how else by,
            unlocked_at=work.table.seq,
        )
    except (TableMoved, IllegalAction):
        return None  # nothing written: the locked path decides
    return DueApplied.APPLIED


def _window(work: WorkingSet, due: DueSeat) -> set[int]:
    """The other engine seats that were to act in the state ``due`` was read at."""
    ruleset = work.ruleset
    return set(ruleset.to_act(ruleset.state_from_json(due.state or {}))) - {due.engine_seat}


def answered_alongside_known(work: WorkingSet, due: DueSeat) -> bool:
    """``answered_alongside`` without the event log: from the hand's moves this process has
    made since its rows were read (``work.moves_since``); False when they do not reach back to
    ``due``'s read."""
    since, moves = work.moves_since or (None, ())
    if since is None or due.move_seq is None or since > due.move_seq:
        return False
    window = _window(work, due)
    return all(seat in window for seq, seat in moves if seq > due.move_seq)


def answered_alongside(work: WorkingSet, due: DueSeat) -> bool:
    """Whether every move since ``due``'s read was made by another seat that was to act in
    that same state (an all-at-once window: 開始, 加倍, a claim on a discard …).

    Then the seat's decision answered the same question as theirs, on the same state, as a
    player at the table does, and it still stands (if still legal): recorded as ``…-sim``.
    """
    window = _window(work, due)
    since = HandEvent.objects.filter(hand=work.hand, seq__gt=due.move_seq).values_list(
        "seat", flat=True
    )
    return all(seat in window for seat in since)
