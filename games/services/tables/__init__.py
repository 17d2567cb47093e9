"""The live table's hand flow, one stage of a hand's life per module.

Seats are taken and left in ``games.services.seating``, presence (在線) is
``games.services.presence``, stakes that move during play are ``games.services.stakes``, the
記牌器 is ``games.services.items``; they all write through this package (``table_lock``,
``seq_bump``, ``table_notify``, ``seat_vacate`` …) so that there is one way to change a table.
No game is named here: what differs between games (how seats are dealt, whether stakes move
during play, what an escape does, who deals next, how beans follow from the result) is the
ruleset's ``table_type`` (``games/engine/table_type.py``).

One writer per table: every write locks the table row (``select_for_update``) inside one
transaction; on SQLite the IMMEDIATE transaction mode serialises writers the same way. The
writer works on one value, the :class:`~.working.WorkingSet` that ``table_lock`` returns (the
table, its seats, the hand in play, the game's ruleset, the decoded engine state), built once
and passed down. An accepted action is appended to ``HandEvent`` and the engine state snapshot
is saved in that transaction; only after commit is anyone told (``realtime.table_changed``).

=============  ==========================================================================
``working``    the working set, the table lock, the rows a move keeps for the next one
``seatmap``    engine seat ↔ table seat; OPEN seating's minimum; the dealer's engine seat
``seats``      what an empty seat holds; closing a table nobody sits at
``clocks``     turn clocks (stored deadlines)
``deal``       a new hand when the seating allows it
``moves``      a player's move (``move_submit``), ``action_apply``, 托管 on / off
``persist``    a move's writes as plain statements (one on PostgreSQL)
``notify``     telling the sockets after commit, with the snapshot as committed
``finish``     the end of a hand and what carries to the next
``escape``     逃跑 from the hand in play
``due_read``   the clock's read of the seats whose clock ran out
``due_apply``  the clock's moves: a bot's, or 托管's
=============  ==========================================================================
"""

from games.services.tables.clocks import deadline_for
from games.services.tables.deal import hand_start_if_ready, room_params_source_set
from games.services.tables.due_apply import (
    DueApplied,
    answered_alongside,
    due_seat_act,
    due_seat_apply,
    due_seat_apply_unlocked,
)
from games.services.tables.due_read import DueSeat, due_seats_read
from games.services.tables.escape import hand_escape
from games.services.tables.finish import BETWEEN_HANDS_SECONDS, hand_end, result_json
from games.services.tables.moves import MAX_ACTION_ID, action_apply, auto_set, move_submit
from games.services.tables.notify import table_notify
from games.services.tables.seatmap import engine_seat, min_players, table_seat, table_seats
from games.services.tables.seats import SEAT_EMPTY, seat_vacate, table_close_if_empty
from games.services.tables.working import (
    MoveOutcome,
    TableMoved,
    WorkingSet,
    rows_after_move,
    seq_bump,
    table_lock,
)

__all__ = [
    "BETWEEN_HANDS_SECONDS",
    "MAX_ACTION_ID",
    "SEAT_EMPTY",
    "DueApplied",
    "DueSeat",
    "MoveOutcome",
    "TableMoved",
    "WorkingSet",
    "action_apply",
    "answered_alongside",
    "auto_set",
    "deadline_for",
    "due_seat_act",
    "due_seat_apply",
    "due_seat_apply_unlocked",
    "due_seats_read",
    "engine_seat",
    "hand_end",
    "hand_escape",
    "hand_start_if_ready",
    "min_players",
    "move_submit",
    "result_json",
    "room_params_source_set",
    "rows_after_move",
    "seat_vacate",
    "seq_bump",
    "table_close_if_empty",
    "table_lock",
    "table_notify",
    "table_seat",
    "table_seats",
]
