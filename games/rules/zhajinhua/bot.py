"""The 歡樂三張 bot (issue #16 §2): hand strength, players left and pot odds.

It 看牌 (looks) on its first turn — blind play saves half a bet but decides nothing — and then
acts on its hand's strength s (the share of all 22,100 hands it beats) against the seats still
in. A seat that has looked and has put in at least one seen bet is read as holding the better
half of hands (its strength uniform on [0.5, 1]); a seat still blind is read as any hand. The
chance of beating one seat is then ``(s − 0.5) / 0.5`` or ``s``, and the equity e is the product
over the live seats. It:

* raises to build the pot when e ≥ 0.6 (to the top level when e ≥ 0.8), up to 4 bets;
* calls while the hand is better than its share of the pot, e ≥ 1 / (live seats) (against
  seats that keep calling to the end this is where continuing pays), and while the price is
  small beside the pot (pot odds: call cost ≤ e · (pot + cost));
* compares (比牌) when it may not call, or heads-up when its chance against that seat is at
  least 0.5 and the call would cost at least what the comparison does; else folds.

It reads only its own cards (once looked) and the public record; no randomness, so it is
deterministic from the hand's seed. 托管 plays :func:`choose` too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hands import strength

if TYPE_CHECKING:
    from games.engine.protocol import Ruleset

    from .state import State

RAISE_EQUITY = 0.6
TOP_RAISE_EQUITY = 0.8
MAX_BETS_TO_RAISE = 4


def _beats(state: State, seat: int, other: int, power: float) -> float:
    """The chance this hand beats ``other``'s, read from what ``other`` did in public."""
    if state.looked[other] and state.bets[other] > 0:
        return max(0.0, min(1.0, (power - 0.5) / 0.5))
    return power


def choose(rules: Ruleset[Any, State], state: State, seat: int) -> dict[str, Any]:
    """Return a legal action for ``seat`` (which must be to act)."""
    legal = rules.legal_actions(state, seat)
    kinds = {a["type"] for a in legal}
    if not state.looked[seat]:
        return {"type": "look"}
    compares = [a for a in legal if a["type"] == "compare"]
    raises = [a for a in legal if a["type"] == "raise"]
    power = strength(state.hands[seat])
    others = [s for s in range(state.seats) if s != seat and state.status[s] == "in"]
    equity = 1.0
    for other in others:
        equity *= _beats(state, seat, other, power)
    pot = sum(state.stakes)
    cost = state.unit * 2
    fair = 1.0 / (len(others) + 1)
    if "call" in kinds:
        if raises and equity >= RAISE_EQUITY and state.bets[seat] < MAX_BETS_TO_RAISE:
            return raises[-1] if equity >= TOP_RAISE_EQUITY else raises[0]
        if compares and len(others) == 1:
            p = _beats(state, seat, others[0], power)
            if 0.5 <= p < RAISE_EQUITY and state.bets[seat] >= 2:
                return compares[0]
        if equity >= fair or cost <= equity * (pot + cost) * 0.5:
            return {"type": "call"}
        return {"type": "fold"}
    if compares:
        target = max(compares, key=lambda a: _beats(state, seat, a["target"], power))
        p = _beats(state, seat, target["target"], power)
        fee = 2 * cost
        if p * (pot + fee) >= fee:
            return target
    return {"type": "fold"}


__all__ = ["choose"]
