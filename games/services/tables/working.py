"""The working set of one writer of a table: its rows, its game and its hand's state, once.

A writer (a move, a clock step, a seat change) takes the table's lock with :func:`table_lock`
and gets a :class:`WorkingSet`: the table row, its seats with their users, the hand in play,
the game's ruleset and the hand's decoded engine state. Each is read or decoded at most once
and passed down; nothing below re-derives the ruleset or the state from strings. After a
move commits, its working set is kept for the table's next move in this process
(:data:`rows_after_move`): every change of a table's seats or hand moves its seq, so under
the lock a kept set at the table's current seq is what a read would return.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from games.caches import ProcessCache
from games.engine import registry
from games.exceptions import NotSeated, UnknownTable
from games.models import Hand, Seat, Table

_UNREAD: Any = object()  # a row not read yet (None is a read that found nothing)


@dataclass(frozen=True)
class MoveOutcome:
    seq: int
    hand_over: bool


class TableMoved(Exception):
    """``action_apply`` without the lock: the table's seq moved since its rows were read, or
    the move needs the lock (it ends the hand or moves stakes); nothing was written."""


class WorkingSet:
    """The table under one writer: rows, ruleset and engine state, each derived once.

    ``seats`` (index order, users loaded) and ``hand`` (the hand in play, or None) are read on
    first use unless given; ``state`` is decoded from ``hand.state`` on first use and is the
    object the move applies to (the engine changes it in place). ``last_move`` is the move
    just made (for the pushed snapshot's effects); ``moves_since`` is (the table's move_seq
    when these rows were read, ((move_seq, engine seat) of each move made on them since)), so
    a clock decision can tell whether every move since its read answered the same question.
    """

    __slots__ = ("table", "_seats", "_hand", "_ruleset", "_state", "last_move", "moves_since")

    def __init__(
        self,
        table: Table,
        *,
        seats: list[Seat] | None = None,
        hand: Hand | None = _UNREAD,
        moves_since: tuple[int, tuple[tuple[int, int], ...]] | None = None,
    ) -> None:
        self.table = table
        self._seats = seats
        self._hand = hand
        self._ruleset: Any = None
        self._state: Any = _UNREAD
        self.last_move: dict[str, Any] | None = None
        self.moves_since = moves_since

    # --- rows -----------------------------------------------------------------------------

    @property
    def seats(self) -> list[Seat]:
        """The table's seats with their users; writers change these objects in place, so the
        snapshot built from them at the end is what the transaction commits."""
        if self._seats is None:
            self._seats = list(self.table.seats.select_related("user").order_by("index"))
        return self._seats

    def seats_set(self, seats: list[Seat]) -> None:
        self._seats = seats

    @property
    def hand(self) -> Hand | None:
        """The hand in play (None between hands)."""
        if self._hand is _UNREAD:
            self._hand = (
                self.table.hands.filter(status=Hand.Status.PLAYING).order_by("-number").first()
            )
        hand = self._hand
        return hand if hand is None or hand.status == Hand.Status.PLAYING else None

    @property
    def hand_last(self) -> Hand | None:
        """The hand this writer holds: in play, or just ended by it (the snapshot's newest)."""
        self.hand  # noqa: B018 — read it if not yet read
        return self._hand

    def hand_set(self, hand: Hand | None, state: Any = _UNREAD) -> None:
        self._hand, self._state = hand, state

    @property
    def has_rows(self) -> bool:
        """Whether the seats and the hand were handed over (not read by this writer)."""
        return self._seats is not None and self._hand is not _UNREAD

    # --- derived once ----------------------------------------------------------------------

    @property
    def ruleset(self) -> Any:
        if self._ruleset is None:
            self._ruleset = registry.get(self.table.game)
        return self._ruleset

    @property
    def state(self) -> Any:
        """The hand's engine state, decoded once."""
        if self._state is _UNREAD:
            hand = self.hand_last
            self._state = None if hand is None else self.ruleset.state_from_json(hand.state)
        return self._state

    # --- seats -----------------------------------------------------------------------------

    def seat_find(self, user: Any) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user.pk), None)

    def seat_get(self, user: Any) -> Seat:
        seat = self.seat_find(user)
        if seat is None:
            raise NotSeated(_("你不在這張牌桌"))
        return seat

    def seat_at(self, index: int) -> Seat | None:
        return next((s for s in self.seats if s.index == index), None)

    def copy(self) -> WorkingSet:
        """Copies of the rows (a move changes its rows in place), without the decoded state:
        the state of a kept set may already be in this process's renders, which must not see
        it change."""
        return WorkingSet(
            row_copy(self.table),
            seats=None if self._seats is None else [row_copy(s) for s in self._seats],
            hand=self._hand if self._hand in (_UNREAD, None) else row_copy(self._hand),
            moves_since=self.moves_since,
        )


def row_copy(row: Any) -> Any:
    """A shallow copy of a model instance, as ``copy.copy`` makes it (its own field values and
    state, related objects shared) without the pickling protocol's detour, which was a tenth of
    a loaded clock's CPU per move."""
    twin = object.__new__(type(row))
    twin.__dict__.update(row.__dict__)
    state = copy.copy(row._state)
    state.fields_cache = dict(row._state.fields_cache)
    twin._state = state
    return twin


# table id -> the working set this process's last move on the table committed (its rows at
# the table's seq then). Only a move takes an entry (and puts its own back on commit); any
# other writer in this process drops it, and a writer elsewhere has moved the seq on.
rows_after_move: ProcessCache[int, WorkingSet] = ProcessCache("rows_after_move", 5000)


def table_lock(table_id: int, *, reuse_rows: bool = False) -> WorkingSet:
    """Lock the table row for this transaction (its one writer until commit) and return the
    working set; with ``reuse_rows``, the rows this process's last move committed when the
    table has not moved since. Raises UnknownTable."""
    # SQLite has no FOR UPDATE: its IMMEDIATE transactions serialise writers. A plain
    # statement: the ORM's query compilation was a tenth of a loaded server's CPU.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = next(
        iter(
            Table.objects.raw(
                f"SELECT * FROM {Table._meta.db_table} WHERE id = %s{lock}", [table_id]
            )
        ),
        None,
    )
    kept = rows_after_move.pop(table_id)
    if table is None:
        raise UnknownTable(_("沒有這張牌桌"))
    if reuse_rows and kept is not None and kept.table.seq == table.seq:
        return WorkingSet(table, seats=kept.seats, hand=kept.hand, moves_since=kept.moves_since)
    return WorkingSet(table)


def rows_keep(work: WorkingSet) -> None:
    """After commit, keep this move's rows for the table's next move in this process."""
    kept = WorkingSet(work.table, seats=work.seats, hand=work.hand, moves_since=work.moves_since)
    transaction.on_commit(lambda: rows_after_move.put(work.table.pk, kept))


def seq_bump(table: Table) -> None:
    table.seq += 1
