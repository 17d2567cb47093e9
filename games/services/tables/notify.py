"""Telling the table's sockets, after commit, with the snapshot exactly as committed."""

from __future__ import annotations

from django.db import transaction

from games import realtime
from games.models import Table
from games.selectors import tables as selectors
from games.services.tables.working import WorkingSet


def table_notify(table: Table, *, lobby: bool = False) -> None:
    """After commit, tell the table's sockets (and the lobby) with the snapshot as committed:
    read inside the transaction, under the table lock, so it is exactly what commits."""
    seq = table.seq
    snapshot = selectors.table_snapshot(table.pk)
    transaction.on_commit(
        lambda: realtime.table_changed(table.pk, seq, lobby=lobby, snapshot=snapshot)
    )


def move_notify(work: WorkingSet) -> None:
    """After a move commits, tell the sockets with the snapshot built from the rows this
    transaction holds and wrote (no read); this process's renders of the change use the
    working state instead of decoding the hand's JSON again (the move no longer touches it)."""
    table, hand, state = work.table, work.hand_last, work.state
    seq = table.seq
    snapshot = selectors.snapshot_build(table, work.seats, hand, work.last_move)

    def tell() -> None:
        if state is not None and hand is not None:
            selectors.engine_state_remember(hand.pk, seq, state)
        realtime.table_changed(table.pk, seq, snapshot=snapshot)

    transaction.on_commit(tell)
