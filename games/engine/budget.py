"""The one door from the rules to the wall clock: a cap on a bot's search time.

Engines and rules never read the clock (games/tests/test_engine_purity.py). A bot that searches
(斗地主's ``bot_search``) may still stop early on an overloaded machine, so that a table never
waits past the room's think time plus the decision budget. The platform sets ``WALL_CLOCK`` at
start-up (``games.apps.GamesConfig.ready``); in pure use (the engine tests, the benchmarks unless
they set it) it stays ``None`` and a search runs to its work bound, fully determined by the
hand's seed.
"""

from __future__ import annotations

from collections.abc import Callable

WALL_CLOCK: Callable[[], float] | None = None
# how many times a search's cap has fired in this process: a decision that saw it move may
# differ from its replay (the clock's decision worker records such a move as ``bot-cap``)
caps_hit = 0
# ``WALL_CLOCK`` time past which the decision in progress is of no use (the clock applies its
# fallback instead): a decision worker sets it per decision, so a search stops there too and
# its capped answer comes back in time, instead of a full answer that would be thrown away
decision_end: float | None = None


def deadline_after(ms: float) -> Callable[[], bool]:
    """A test "is the time up?" for a search of at most ``ms`` milliseconds of wall time, and
    never past ``decision_end`` when it is set (never true when no clock is set); each "yes"
    counts in ``caps_hit``."""
    clock = WALL_CLOCK
    if clock is None:
        return lambda: False
    end = clock() + ms / 1000
    if decision_end is not None:
        end = min(end, decision_end)

    def time_up() -> bool:
        global caps_hit
        if clock() > end:
            caps_hit += 1
            return True
        return False

    return time_up
