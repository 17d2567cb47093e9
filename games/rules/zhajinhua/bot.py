"""A simple strength-based bot for 歡樂三張.

It plays blind for one to three turns (drawn from the hand's seed, per seat), then 看牌 and
acts on its hand's strength (the share of all 22,100 hands it beats). It never reads a card it
has not looked at, nor any other seat's cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine.chance import Chance

from .hands import strength

if TYPE_CHECKING:
    from games.engine.protocol import Ruleset

    from .state import State

STRONG = 0.93  # about a pair of tens and better
GOOD = 0.75  # about a low pair and A-high
FAIR = 0.45  # about K-high


def choose(rules: Ruleset[Any, State], state: State, seat: int) -> dict[str, Any]:
    """Return a legal action for ``seat`` (which must be to act)."""
    legal = rules.legal_actions(state, seat)
    kinds = {a["type"] for a in legal}
    compares = [a for a in legal if a["type"] == "compare"]
    raises = [a for a in legal if a["type"] == "raise"]
    chance = Chance(state.seed, f"bot:{seat}")
    blind_turns = 1 + chance.below(3)

    if not state.looked[seat]:
        if "call" in kinds and state.turns[seat] < blind_turns:
            return {"type": "call"}
        return {"type": "look"}

    power = strength(state.hands[seat])
    # the other live seats' count decides how bold a compare is
    live = sum(1 for s in state.status if s == "in")
    if power >= STRONG:
        if raises and state.bets[seat] < 4:
            return raises[0]
        if "call" in kinds:
            return {"type": "call"}
        return compares[0] if compares else {"type": "fold"}
    if power >= GOOD:
        if compares and (state.turns[seat] >= 3 or live == 2 or "call" not in kinds):
            return compares[0]
        if "call" in kinds:
            return {"type": "call"}
        return compares[0] if compares else {"type": "fold"}
    if power >= FAIR:
        if compares and (live == 2 or state.turns[seat] >= 2 or "call" not in kinds):
            return compares[0]
        if "call" in kinds and state.unit <= 2 * state.config.ante:
            return {"type": "call"}
        return {"type": "fold"}
    return {"type": "fold"}
