"""The 跑胡子 baseline player (both variants; issue #16 §2), the bot's yardstick.

Exactly what it does:

1. 胡 whenever 胡 is legal.
2. A forced 跑 / 偎 / 提 is taken when it is offered (they are the rule, not a choice).
3. 碰 whenever it is offered (a 碰 is always 胡息: 1 for 小, 3 for 大); it never 吃.
4. Otherwise it passes.
5. To discard it throws the kind it holds the fewest of (a single before a pair), ties to the
   lowest card id (小 一 … 十 before 大 壹 … 拾). It never looks at neighbours or 二七十.

No randomness and no reading of hidden cards: a "keep pairs, take sure 胡息" player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.rules.paohuzi.cards import parse_card

if TYPE_CHECKING:
    from games.engine.protocol import Ruleset
    from games.rules.paohuzi.state import State

Action = dict[str, Any]


def baseline_action(ruleset: Ruleset[Any, State], state: State, seat: int) -> Action:
    """Return the baseline's legal action for ``seat`` (which must be to act)."""
    legal = ruleset.legal_actions(state, seat)
    if not legal:
        raise ValueError("not to act")
    kinds = {a["type"]: a for a in legal}
    for kind in ("hu", "pao", "wei", "ti", "peng"):
        if kind in kinds:
            return kinds[kind]
    if legal[0]["type"] == "discard":
        hand = state.hands[seat]
        options = [
            (hand[parse_card(a["card"])], parse_card(a["card"]), a)
            for a in legal
            if a["type"] == "discard"
        ]
        options.sort(key=lambda item: (item[0], item[1]))
        return options[0][2]
    if "pass" in kinds:
        return kinds["pass"]
    return legal[0]


__all__ = ["baseline_action"]
