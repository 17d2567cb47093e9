"""When the machine cannot decide every bot in full (issue #16 §3): the decision processes can
run at a lower priority than the moves (``BOT_DECISION_NICE``), and a decision stops in time to
be applied instead of finishing after the clock has given up on it."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from django.conf import settings

from games import bot_worker
from games.decisions import DecisionPool
from games.engine import budget, registry


def test_the_decision_processes_run_at_a_lower_priority(monkeypatch: Any) -> None:
    """The pool's worker processes are niced by ``BOT_DECISION_NICE`` (the clock and the
    database keep the CPU when there is not enough for both)."""
    monkeypatch.setitem(settings.LEYOU, "BOT_DECISION_NICE", 5)
    monkeypatch.setitem(settings.LEYOU, "BOT_DECISION_WORKERS", 1)
    pool = DecisionPool.from_settings()
    assert pool is not None
    try:
        pool.warm()
        pids = list(pool._procs._processes)
        assert pids
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        for pid in pids:
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + 5)
    finally:
        pool.stop()


def _landlord_lead(seed: str) -> tuple[dict[str, Any], int] | None:
    """A 斗地主 hand played by the bot's quick moves up to the landlord's first lead."""
    ruleset = registry.get("doudizhu")
    state = ruleset.new_game(ruleset.config_from_params({"variant": "classic"}), seed, 3)
    for _ in range(60):
        if state.phase == "playing":
            return ruleset.state_to_json(state), min(ruleset.to_act(state))
        seat = min(ruleset.to_act(state))
        ruleset.apply(state, seat, ruleset.bot_fallback_action(state, seat))
    return None


@pytest.fixture
def wall_clock(monkeypatch: Any) -> None:
    monkeypatch.setattr(budget, "WALL_CLOCK", time.perf_counter)


def test_a_decision_stops_in_time_for_the_clock(wall_clock: None) -> None:
    """A decision picked up by its worker when only a moment of its budget is left stops its
    search at once and comes back capped (applied as ``bot-cap``), a legal move, for a small
    part of the full decision's CPU — not a full search whose answer the clock would throw
    away for the fallback."""
    ruleset = registry.get("doudizhu")
    for n in range(40):
        found = _landlord_lead(f"overload-{n}")
        if found is None:
            continue
        state, seat = found
        full = bot_worker.decide("doudizhu", state, seat, time.time() + 60, 0.0)
        assert full is not None
        if full[2] < 0.003:  # a searched first lead costs 1-6 ms with the search in C
            continue  # a cheap decision (one candidate, a short search): try another deal
        late = bot_worker.decide(
            "doudizhu", state, seat, time.time() + bot_worker.RETURN_SECONDS / 2, 0.0
        )
        assert late is not None
        action, capped, cpu = late
        assert capped
        assert cpu < full[2] / 3, (cpu, full[2])
        ruleset.apply(ruleset.state_from_json(state), seat, action)  # legal
        assert budget.decision_end is None  # left unset for the next decision
        return
    pytest.fail("no deal gave a searched first lead")
