"""The 歡樂三張 baseline player (issue #16 §2), the yardstick the bot is measured against.

Exactly what it does, at its turn:

1. If it has not looked, it 看牌 (looks) at once — it never plays blind.
2. With a hand that beats at least half of all 22,100 hands (``strength >= 0.5``, about a
   K-high and better) it 跟注 (calls) when it may; when it may not call (手數封頂 or it cannot
   cover the call) it 比牌 with the first live seat; it never raises.
3. With a weaker hand it 棄牌 (folds).

It reads only its own cards, has no randomness, and never raises: a plain "play the good half"
player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hands import strength

if TYPE_CHECKING:
    from games.engine.protocol import Ruleset

    from .state import State

THRESHOLD = 0.5


def choose(rules: Ruleset[Any, State], state: State, seat: int) -> dict[str, Any]:
    """Return the baseline's legal action for ``seat`` (which must be to act)."""
    legal = rules.legal_actions(state, seat)
    kinds = {a["type"] for a in legal}
    if not state.looked[seat]:
        return {"type": "look"}
    if strength(state.hands[seat]) >= THRESHOLD:
        if "call" in kinds:
            return {"type": "call"}
        compares = [a for a in legal if a["type"] == "compare"]
        if compares:
            return compares[0]
    return {"type": "fold"}


__all__ = ["THRESHOLD", "choose"]
