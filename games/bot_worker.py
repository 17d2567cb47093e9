"""What runs in a bot decision process (``games.decisions``): state in, action out.

Pure on purpose: a worker process imports only the engine and the rules (no Django, no
database), so it starts fast and a decision is ``ruleset.bot_action`` on the stored state and
nothing else, exactly what the clock's serial path computes.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from games.engine import budget, registry

# seconds a capped decision keeps for its way back to the clock (result queue, apply thread)
RETURN_SECONDS = 0.02


def worker_init(nice: int = 0) -> None:
    """Set up a decision process: the wall clock for a search's cap (as ``games.apps`` does in
    the platform's own processes), its scheduling priority lowered by ``nice`` and every game
    imported once, before the first decision.

    ``nice``: when the machine cannot both decide every bot in full and apply every move in
    time, the moves (the clock and the database, at normal priority) keep the CPU and the
    decisions wait — those past the budget get the game's fallback — so no table waits longer
    than its think time plus the budget; with CPU to spare a niced worker runs at once."""
    budget.WALL_CLOCK = time.perf_counter
    if nice:
        os.nice(nice)
    for game_id in registry.GAME_MODULES:
        registry.get(game_id)
    threading.Thread(
        target=exit_with_parent, args=(os.getppid(),), name="parent-watch", daemon=True
    ).start()


def exit_with_parent(parent_pid: int, interval: float = 1.0) -> None:
    """End this decision process within ``interval`` seconds of its parent's death.

    A clock or server killed with ``kill -9`` cannot stop its pool, and a pool worker blocked on
    its task queue would otherwise live on as an orphan (re-parented, so ``getppid`` changes).
    """
    while os.getppid() == parent_pid:
        time.sleep(interval)
    os._exit(0)


def warm() -> int:
    """Nothing: a first task that makes the pool start its processes before a decision waits."""
    return 0


def decide_stamped(*args: Any) -> tuple[tuple[dict[str, Any], bool, float] | None, float, float]:
    """``decide`` and the wall clock (``time.time()``) when it started and ended in this process,
    for the pool's timings (where a decision's round trip goes)."""
    started = time.time()
    result = decide(*args)
    return result, started, time.time()


def decide(
    game_id: str, state: dict[str, Any], seat: int, hard_deadline: float, delay: float
) -> tuple[dict[str, Any], bool, float] | None:
    """The game's bot decision for engine seat ``seat`` on the stored ``state``, whether a
    search stopped at its wall-clock cap on the way (then a replay may choose otherwise), and
    the CPU seconds the decision took in this process (``time.process_time``: the budget's
    "per decision" measure, fair under load where the wall clock is not).

    ``hard_deadline`` is ``time.time()`` when the clock applies the fallback instead: a decision
    picked up after it is not computed (None), so a queue of late ones costs no CPU. ``delay``
    (test-only, ``BOT_DECISION_TEST_DELAY``) makes the decision that much slower.
    """
    if time.time() >= hard_deadline:
        return None
    if delay:
        time.sleep(delay)
    cpu = time.process_time()
    ruleset = registry.get(game_id)
    caps = budget.caps_hit
    # a search stops in time for its answer to be applied (then it says ``cap``), rather than
    # finish after the clock has applied the fallback; unset, nothing is capped but at its own
    # wall-clock cap (the serial clock, the tests)
    budget.decision_end = time.perf_counter() + hard_deadline - time.time() - RETURN_SECONDS
    try:
        action = ruleset.bot_action(ruleset.state_from_json(state), seat)
    finally:
        budget.decision_end = None
    return action, budget.caps_hit != caps, time.process_time() - cpu
