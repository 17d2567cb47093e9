"""The shared invariant kit: properties every registered game must satisfy.

Call :func:`check_game` from each rules package's tests with a config and a few seeds. It plays
random legal games to the end and checks, at every step:

* every seat in ``to_act`` has at least one legal action, and the chosen one applies;
* an action by a seat that is not to act raises ``not_your_turn`` and changes nothing;
* a malformed action raises and changes nothing;
* the state survives a JSON round trip unchanged, and views are JSON-serialisable;
* cards/tiles are conserved (when the ruleset reports them);
* no leak: re-dealing everything hidden from a seat does not change that seat's view;
* replay: ``new_game`` + the recorded actions reproduce the final state exactly;
* the game ends within ``max_steps`` and ``result`` has one score per seat.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.protocol import Ruleset


def _dump(ruleset: Ruleset[Any, Any], state: Any) -> str:
    return json.dumps(ruleset.state_to_json(state), sort_keys=True, ensure_ascii=False)


def playout(
    ruleset: Ruleset[Any, Any],
    config: Any,
    seed: str,
    seats: int,
    *,
    use_bots: bool = False,
    max_steps: int = 5000,
    deep_checks: bool = True,
) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """Play one game with random legal actions (or bot actions); return (state, action log)."""
    state = ruleset.new_game(config, seed, seats)
    picker = Chance(seed, "playout")
    log: list[tuple[int, dict[str, Any]]] = []
    items_at_start = ruleset.all_items(state)
    for step in range(max_steps):
        if ruleset.is_over(state):
            break
        to_act = sorted(ruleset.to_act(state))
        assert to_act, f"step {step}: game not over but nobody is to act"
        if deep_checks:
            _check_step(ruleset, state, seats, to_act, seed, step)
        seat = to_act[picker.below(len(to_act))]
        legal = ruleset.legal_actions(state, seat)
        assert legal, f"step {step}: seat {seat} is to act but has no legal action"
        action = ruleset.bot_action(state, seat) if use_bots else picker.choice(legal)
        ruleset.apply(state, seat, action)
        log.append((seat, action))
        if items_at_start is not None:
            assert Counter(ruleset.all_items(state)) == Counter(items_at_start), "items changed"
    else:
        raise AssertionError(f"game did not end within {max_steps} steps")
    assert ruleset.to_act(state) == frozenset()
    result = ruleset.result(state)
    assert len(result.scores) == seats
    json.dumps([line.label for line in result.lines], ensure_ascii=False)
    # replay: seed + actions reproduce the final state
    replayed = ruleset.new_game(config, seed, seats)
    for seat, action in log:
        ruleset.apply(replayed, seat, json.loads(json.dumps(action)))
    assert _dump(ruleset, replayed) == _dump(ruleset, state), "replay differs"
    return state, log


def _check_step(
    ruleset: Ruleset[Any, Any], state: Any, seats: int, to_act: list[int], seed: str, step: int
) -> None:
    before = _dump(ruleset, state)
    # JSON round trip
    again = ruleset.state_from_json(json.loads(before))
    assert _dump(ruleset, again) == before, f"step {step}: JSON round trip differs"
    # out-of-turn and malformed actions change nothing
    idle = [s for s in range(seats) if s not in to_act]
    if idle:
        some_action = ruleset.legal_actions(state, to_act[0])[0]
        try:
            ruleset.apply(state, idle[0], some_action)
        except IllegalAction as error:
            assert error.code == ErrorCode.NOT_YOUR_TURN, error
        else:
            raise AssertionError(f"step {step}: seat {idle[0]} acted out of turn")
        assert _dump(ruleset, state) == before
    for bad in ({}, {"type": "no_such_action"}, {"type": 5}):
        try:
            ruleset.apply(state, to_act[0], bad)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"step {step}: malformed action {bad!r} accepted")
        assert _dump(ruleset, state) == before
    # views: serialisable, and no leak under a re-deal of what the seat cannot see
    for seat in range(seats):
        view = ruleset.view(state, seat)
        json.dumps(view, ensure_ascii=False)
        other = ruleset.resample_hidden(state, seat, f"{seed}:{step}:{seat}")
        assert ruleset.view(other, seat) == view, f"step {step}: seat {seat}'s view leaks"
    json.dumps(ruleset.spectator_view(state), ensure_ascii=False)
    assert _dump(ruleset, state) == before, "a query changed the state"


def check_game(
    ruleset: Ruleset[Any, Any],
    config: Any,
    seats: int,
    seeds: list[str],
    *,
    zero_sum: bool = True,
    use_bots: bool = False,
) -> None:
    """Run the invariant kit over several seeds (random play, then bot play on the first)."""
    for seed in seeds:
        state, _ = playout(ruleset, config, seed, seats)
        if zero_sum:
            assert sum(ruleset.result(state).scores) == 0, "scores do not sum to zero"
    if use_bots:
        playout(ruleset, config, seeds[0], seats, use_bots=True, deep_checks=False)
