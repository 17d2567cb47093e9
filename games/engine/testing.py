"""The shared invariant kit: properties every registered game must satisfy.

``games/tests/test_contract_all_games.py`` runs it over every game of the registry (and each of
its 玩法), as OpenSpiel's ``games_sim_test.py`` walks its registered games; the rules packages
also call :func:`check_game` with their own configs. It plays random legal games to the end
and checks, at every step:

* every seat in ``to_act`` has at least one legal action, and the chosen one applies;
* 托管 is legal: ``auto_action`` of every seat to act applies (to a copy);
* the shared guards of :meth:`Ruleset.apply`: an action of a seat that is not to act raises
  ``not_your_turn`` (or the game's more precise code) and changes nothing; a malformed action,
  or a seat outside the hand, raises ``malformed`` and changes nothing; ``legal_actions`` of a
  seat that is not to act holds only the game's :attr:`free_actions`;
* the state survives a JSON round trip unchanged, and views are JSON-serialisable;
* cards/tiles are conserved (when the ruleset reports them);
* no leak: re-dealing everything hidden from a seat does not change that seat's view;
* the spectator view does not change when every concealed card is re-dealt (hidden from each
  seat in turn, so that every seat's own cards are re-dealt too);
* with a FOLD escape (``table_type.escape``) each seat's ``escape_action`` is None or applies;
* every escape result (逃跑 of each seat now) has one score per seat, sums to zero where the
  game is zero-sum (an escape that lets the hand go on, ``extra["hand_continues"]`` — 三張's
  fold, whose stakes stay in the pot — scores the escaper alone), and leaves the state as it
  was;

and at the end: the hand is over with nobody to act, every seat's ``legal_actions`` is empty, an
action is refused (``game_over`` or the game's code) and ``result`` has one score per seat
(summing to zero where the game is zero-sum); replay: ``new_game`` + the recorded actions
reproduce the final state exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.protocol import Ruleset
from games.engine.table_type import Escape

MALFORMED_ACTIONS: tuple[Any, ...] = ({}, {"type": "no_such_action"}, {"type": 5}, "pass", None)
OUT_OF_TURN = {ErrorCode.NOT_YOUR_TURN, ErrorCode.WINDOW_CLOSED, ErrorCode.LOWER_PRIORITY}


def _dump(ruleset: Ruleset[Any, Any], state: Any) -> str:
    return json.dumps(ruleset.state_to_json(state), sort_keys=True, ensure_ascii=False)


def _copy(ruleset: Ruleset[Any, Any], state: Any) -> Any:
    return ruleset.state_from_json(json.loads(_dump(ruleset, state)))


def _refused(
    ruleset: Ruleset[Any, Any],
    state: Any,
    seat: Any,
    action: Any,
    codes: set[ErrorCode] | None,
    what: str,
) -> None:
    """Assert that applying raises IllegalAction (with one of ``codes``) and changes nothing."""
    before = _dump(ruleset, state)
    try:
        ruleset.apply(state, seat, action)
    except IllegalAction as error:
        assert codes is None or error.code in codes, f"{what}: {error}"
    else:
        raise AssertionError(f"{what}: accepted")
    assert _dump(ruleset, state) == before, f"{what}: the refused action changed the state"


def playout(
    ruleset: Ruleset[Any, Any],
    config: Any,
    seed: str,
    seats: int,
    *,
    use_bots: bool = False,
    max_steps: int = 5000,
    deep_checks: bool = True,
    zero_sum: bool | None = None,
) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """Play one game with random legal actions (or bot actions); return (state, action log).

    ``zero_sum`` (default: the ruleset's :attr:`~Ruleset.zero_sum`) asserts that the result and
    every escape result sum to zero."""
    zero = ruleset.zero_sum if zero_sum is None else zero_sum
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
            _check_step(ruleset, state, to_act, seed, step, zero)
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
    _check_over(ruleset, state, log)
    result = ruleset.result(state)
    assert len(result.scores) == seats
    if zero:
        assert sum(result.scores) == 0, f"scores {result.scores} do not sum to zero"
    json.dumps([line.label for line in result.lines], ensure_ascii=False)
    # replay: seed + actions reproduce the final state
    replayed = ruleset.new_game(config, seed, seats)
    for seat, action in log:
        ruleset.apply(replayed, seat, json.loads(json.dumps(action)))
    assert _dump(ruleset, replayed) == _dump(ruleset, state), "replay differs"
    return state, log


def _check_over(
    ruleset: Ruleset[Any, Any], state: Any, log: list[tuple[int, dict[str, Any]]]
) -> None:
    """A finished hand: no seat has a legal action, and any action is refused."""
    for seat in ruleset.seat_ids(state):
        assert ruleset.legal_actions(state, seat) == [], f"seat {seat} may act after the end"
    if log:
        seat, action = log[-1]
        _refused(ruleset, state, seat, action, None, "an action after the end")


def _check_step(
    ruleset: Ruleset[Any, Any], state: Any, to_act: list[int], seed: str, step: int, zero: bool
) -> None:
    before = _dump(ruleset, state)
    seat_ids = ruleset.seat_ids(state)
    # JSON round trip
    again = ruleset.state_from_json(json.loads(before))
    assert _dump(ruleset, again) == before, f"step {step}: JSON round trip differs"
    # 托管 is legal for every seat to act
    for seat in to_act:
        auto = ruleset.auto_action(state, seat)
        try:
            ruleset.apply(_copy(ruleset, state), seat, json.loads(json.dumps(auto)))
        except IllegalAction as error:
            raise AssertionError(
                f"step {step}: 托管 of seat {seat} is illegal: {auto} ({error})"
            ) from error
    # the shared guards: out-of-turn, malformed and seat-range actions change nothing
    idle = [s for s in seat_ids if s not in to_act]
    turn_only = [
        a for a in ruleset.legal_actions(state, to_act[0]) if a["type"] not in ruleset.free_actions
    ]
    for seat in idle:
        free = {a["type"] for a in ruleset.legal_actions(state, seat)}
        assert free <= ruleset.free_actions, f"step {step}: idle seat {seat} may {free}"
    if idle and turn_only:
        # a game may name the refusal more precisely (a claim after its window)
        _refused(ruleset, state, idle[0], turn_only[0], OUT_OF_TURN, f"step {step}: out of turn")
    for bad in MALFORMED_ACTIONS:
        _refused(
            ruleset,
            state,
            to_act[0],
            bad,
            {ErrorCode.MALFORMED},
            f"step {step}: malformed action {bad!r}",
        )
    some = ruleset.legal_actions(state, to_act[0])[0]
    bad_seats: tuple[Any, ...] = (seat_ids.stop, seat_ids.start - 1, True, "0", None)
    for seat in bad_seats:
        _refused(ruleset, state, seat, some, {ErrorCode.MALFORMED}, f"step {step}: seat {seat!r}")
        assert ruleset.legal_actions(state, seat) == [], f"step {step}: seat {seat!r} may act"
    # views: serialisable, and no leak under a re-deal of what the seat cannot see
    players = [s for s in seat_ids if s >= 0]
    for seat in players:
        view = ruleset.view(state, seat)
        json.dumps(view, ensure_ascii=False)
        other = ruleset.resample_hidden(state, seat, f"{seed}:{step}:{seat}")
        assert ruleset.view(other, seat) == view, f"step {step}: seat {seat}'s view leaks"
    # the spectator sees no concealed card: re-deal what each seat in turn cannot see
    spectator = ruleset.spectator_view(state)
    json.dumps(spectator, ensure_ascii=False)
    redealt = state
    for seat in players:
        redealt = ruleset.resample_hidden(redealt, seat, f"{seed}:{step}:spectator:{seat}")
        assert ruleset.spectator_view(redealt) == spectator, (
            f"step {step}: the spectator view changes when seat {seat}'s hidden cards are re-dealt"
        )
    # escape (逃跑) of each seat now: with a FOLD escape the leaver's action is legal off turn
    if ruleset.table_type.escape is Escape.FOLD:
        for seat in players:
            leave = ruleset.escape_action(state, seat)
            if leave is not None:
                try:
                    ruleset.apply(_copy(ruleset, state), seat, json.loads(json.dumps(leave)))
                except IllegalAction as error:
                    raise AssertionError(
                        f"step {step}: the escape action of seat {seat} is illegal: {leave}"
                    ) from error
    # and its result: one score per seat, zero-sum where the game is
    for seat in players:
        try:
            escape = ruleset.escape_result(state, seat)
        except NotImplementedError:
            break
        assert len(escape.scores) == len(players), f"step {step}: escape of {seat}"
        if escape.extra.get("hand_continues"):
            # 三張: the seat folds and the hand goes on; its stakes stay in the pot for the
            # winner (settled with the hand), so only the escaper scores now
            assert escape.scores[seat] <= 0 and not any(
                score for s, score in enumerate(escape.scores) if s != seat
            ), f"step {step}: escape of seat {seat} that continues the hand: {escape.scores}"
        elif zero:
            assert sum(escape.scores) == 0, (
                f"step {step}: escape of seat {seat} is not zero-sum: {escape.scores}"
            )
    assert _dump(ruleset, state) == before, "a query changed the state"


def check_game(
    ruleset: Ruleset[Any, Any],
    config: Any,
    seats: int,
    seeds: list[str],
    *,
    zero_sum: bool | None = None,
    use_bots: bool = False,
) -> None:
    """Run the invariant kit over several seeds (random play, then bot play on the first).

    ``zero_sum`` defaults to the ruleset's :attr:`~Ruleset.zero_sum`."""
    for seed in seeds:
        playout(ruleset, config, seed, seats, zero_sum=zero_sum)
    if use_bots:
        playout(
            ruleset, config, seeds[0], seats, use_bots=True, deep_checks=False, zero_sum=zero_sum
        )
