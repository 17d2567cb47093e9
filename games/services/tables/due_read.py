"""The clock's read of the seats whose turn clock ran out, with the rows to move from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models.functions import Mod

from games.models import Hand, Seat, Table
from games.services.tables.working import WorkingSet


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
    # the table's row, seats (with users) and hand as read after ``seq`` was (shared by the
    # table's due seats: a writer takes copies)
    rows: WorkingSet | None = field(default=None, compare=False, repr=False)


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
    works: dict[int, WorkingSet] = {}
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
        if table_id not in works:
            works[table_id] = WorkingSet(table, seats=seat_rows.get(table_id, []), hand=hand)
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
                rows=works[table_id],
            )
        )
    return due
