"""The 跑胡子 bot (both variants; issue #16 §2).

胡 whenever possible; forced 跑 / 偎 / 提 as offered; 碰 always (sure 胡息). A 吃 is taken when
the hand's shape value (:func:`games.rules.paohuzi.bot_eval.shape_value`: 門子, pairs, partial
門子 and their 胡息) with the new 門子 laid out is higher than without; the discard is the card
whose removal keeps the most shape value, ties to the most isolated card. No randomness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.rules.paohuzi.bot_eval import HUXI_WEIGHT, shape_value
from games.rules.paohuzi.cards import BI, CHI, group_huxi, parse_card, parse_cards

if TYPE_CHECKING:
    from games.engine.protocol import Ruleset
    from games.rules.paohuzi.state import State

Action = dict[str, Any]
CHI_MARGIN = 0.5  # a 吃 must win this much shape value


def _isolation(hand: list[int], kind: int) -> float:
    """Lower is a better discard: how much the card connects with the rest of the hand."""
    value = kind % 10
    size = kind - value
    score = 0.0
    if hand[kind] >= 2:
        score += 4.0
    for d in (-2, -1, 1, 2):
        v = value + d
        if 0 <= v <= 9 and hand[size + v]:
            score += 2.0 if abs(d) == 1 else 1.0
    other = (kind + 10) % 20
    if hand[other]:
        score += 1.5 * hand[other]
    if value + 1 in (2, 7, 10):
        score += sum(0.8 for r in (1, 6, 9) if r != value and hand[size + r])
    if value <= 2:
        score += 0.3
    return score


def choose_discard(state: State, seat: int, legal: list[Action]) -> Action:
    hand = state.hands[seat]
    options = [(parse_card(a["card"]), a) for a in legal if a["type"] == "discard"]

    def after(kind: int) -> float:
        rest = list(hand)
        rest[kind] -= 1
        return shape_value(rest)

    options.sort(key=lambda item: (-after(item[0]), _isolation(hand, item[0]), item[0]))
    return options[0][1]


def chi_gain(state: State, seat: int, action: Action) -> float:
    """Shape value won by a 吃: its 門子 laid out (3 each plus weighted 胡息) minus the cards."""
    hand = list(state.hands[seat])
    taken = state.window["card"] if state.window else None
    groups = [parse_cards(g) for g in action["groups"]]
    used = [c for g in groups for c in g]
    if taken is not None and taken in used:
        used.remove(taken)
    for c in used:
        if hand[c] <= 0:
            return -99.0
        hand[c] -= 1
    laid = sum(3 + HUXI_WEIGHT * group_huxi(CHI if i == 0 else BI, g) for i, g in enumerate(groups))
    return laid + shape_value(hand) - shape_value(state.hands[seat])


def bot_action(ruleset: Ruleset[Any, State], state: State, seat: int) -> Action:
    legal = ruleset.legal_actions(state, seat)
    if not legal:
        raise ValueError("not to act")
    for action in legal:
        if action["type"] == "hu":
            return action
    if legal[0]["type"] == "discard":
        return choose_discard(state, seat, legal)
    best: Action | None = None
    best_gain = 0.0
    for action in legal:
        if action["type"] == "peng":
            gain: float = 3.0 if state.window and state.window["card"] >= 10 else 1.0
            if gain > best_gain:
                best, best_gain = action, gain
        elif action["type"] == "chi":
            gain = chi_gain(state, seat, action) - CHI_MARGIN
            if gain > best_gain:
                best, best_gain = action, gain
    if best is not None:
        return best
    for action in legal:
        if action["type"] in ("pass", "pao", "wei", "ti"):
            return action
    return legal[0]


__all__ = ["bot_action", "choose_discard"]
