"""逃跑: leaving the hand in play, as the game's ``table_type.escape`` says."""

from __future__ import annotations

from games.engine.table_type import Escape
from games.models import HandEvent, Seat
from games.services import stakes
from games.services.tables.finish import hand_end
from games.services.tables.moves import action_apply
from games.services.tables.seatmap import engine_seat
from games.services.tables.working import WorkingSet, seq_bump


def hand_escape(work: WorkingSet, seat: Seat) -> bool:
    """逃跑 from the hand in play; True if it was one.

    END_HAND: the hand ends with the ruleset's ``escape_result`` (its penalty rule). FOLD: the
    leaver pays the room's ``escape_penalty`` and his seat plays the ruleset's
    ``escape_action``; the hand goes on. A seat not dealt in (or, FOLD, already out) leaves
    freely: nothing is taken.
    """
    table, hand, ruleset = work.table, work.hand, work.ruleset
    if hand is None:
        return False
    e = engine_seat(hand, seat)
    if e is None:
        return False
    state = work.state
    if ruleset.table_type.escape is Escape.FOLD:
        action = ruleset.escape_action(state, e)
        if action is None:
            return False
        penalty = stakes.escape_penalty_take(hand, seat.user, e)
        action_apply(work, seat, {**action, "penalty": penalty}, action_id=None, by="escape")
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
    hand_end(work, result, escaped_seat=e)
    return True
