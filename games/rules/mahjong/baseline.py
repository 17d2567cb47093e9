"""The mahjong baseline player (歡樂 / 永州 / 樂清; issue #16 §2), the bot's yardstick.

Exactly what it does:

1. 胡 whenever 胡 is legal (自摸, on a discard, 搶槓).
2. On its turn it discards the tile whose removal leaves the lowest shanten (向聽, the variant's
   own count: PyMahjongGB for 13-tile hands without wilds, else the counts search), ties to the
   first such tile in hand order; it never discards a wild (財神) while another tile keeps the
   same shanten; it never declares a 槓.
3. On another's discard it 碰 / 吃 only when the meld lowers its shanten; it never 明槓.

No randomness, no defence, no count of tiles left (ukeire): a plain shanten minimiser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.rules.mahjong.core import MahjongRuleset, State

Action = dict[str, Any]


def baseline_action(ruleset: MahjongRuleset, state: State, seat: int) -> Action:
    """Return the baseline's legal action for ``seat`` (which must be to act)."""
    legal = ruleset.legal_actions(state, seat)
    if not legal:
        raise ValueError("not to act")
    if {"type": "hu"} in legal:
        return {"type": "hu"}
    wild = ruleset.wild_kinds(state)
    hand = state.hands[seat]
    if state.phase == "turn":
        best: tuple[int, bool] | None = None
        choice: Action | None = None
        for a in legal:
            if a["type"] != "discard":
                continue
            rest = list(hand)
            rest.remove(a["tile"])
            key = (ruleset._shanten_of(state, seat, rest), a["tile"] in wild)
            if best is None or key < best:
                best, choice = key, a
        return choice if choice is not None else legal[0]
    if state.phase != "claim" or not state.claim:
        return {"type": "pass"} if {"type": "pass"} in legal else legal[0]
    now = ruleset._shanten_of(state, seat, hand)
    tile = state.claim["tile"]
    for a in legal:
        if a["type"] not in ("peng", "chi"):
            continue
        rest = list(hand)
        for t in a["tiles"] if a["type"] == "chi" else [tile, tile]:
            rest.remove(t)
        after = min(
            (
                ruleset._shanten_of(state, seat, rest[:i] + rest[i + 1 :], melds_extra=1)
                for i in range(len(rest))
            ),
            default=99,
        )
        if after < now:
            return a
    return {"type": "pass"}


__all__ = ["baseline_action"]
