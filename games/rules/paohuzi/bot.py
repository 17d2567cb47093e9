"""A simple bot: hu whenever possible, claims that raise 胡息, keeps pairs and 坎, discards
isolated cards first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.rules.paohuzi.cards import BI, CHI, group_huxi, parse_card, parse_cards

if TYPE_CHECKING:
    from games.engine.protocol import Ruleset
    from games.rules.paohuzi.state import State

Action = dict[str, Any]


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
    options.sort(key=lambda item: (_isolation(hand, item[0]), item[0]))
    return options[0][1]


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
    best_gain = 0
    for action in legal:
        if action["type"] == "peng":
            gain = 3 if state.window and state.window["card"] >= 10 else 1
            if gain > best_gain:
                best, best_gain = action, gain
        elif action["type"] == "chi":
            groups = [parse_cards(g) for g in action["groups"]]
            gain = sum(group_huxi(CHI if i == 0 else BI, g) for i, g in enumerate(groups))
            if gain > best_gain:
                best, best_gain = action, gain
    if best is not None:
        return best
    for action in legal:
        if action["type"] in ("pass", "pao", "wei", "ti"):
            return action
    return legal[0]


__all__ = ["bot_action", "choose_discard"]
