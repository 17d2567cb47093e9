"""The mahjong bot's turn choice (歡樂 / 永州 / 樂清; issue #16 §2): shanten, then ukeire.

On its turn the bot discards, among the tiles whose removal leaves the lowest shanten (向聽),
the one that leaves the most useful tiles unseen (ukeire: copies not in its hand, any discard
pile or any meld, of each kind that lowers the shanten when drawn; the kinds tried are those
held or within two of a held suited tile; above 一向聽 a cheap stand-in: the unseen copies of
those kinds, for the decision budget), then the one worth least to keep (isolated honours
first); never a wild (財神) while another tile keeps the same figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.rules.mahjong.bot import regular_shanten, useful_kinds
from games.rules.mahjong.tiles import counts_of

if TYPE_CHECKING:
    from games.rules.mahjong.core import MahjongRuleset, State

Action = dict[str, Any]
EXACT_AT = 1  # the exact ukeire from this shanten down; the cheap stand-in above it


def _regular(ruleset: MahjongRuleset, state: State, seat: int, tiles: list[str]) -> int:
    wild = ruleset.wild_kinds(state)
    naturals = [t for t in tiles if t not in wild]
    return regular_shanten(counts_of(naturals), len(tiles) - len(naturals),
                           ruleset.sets_needed(state, seat))


def ukeire(ruleset: MahjongRuleset, state: State, seat: int, rest: list[str]) -> int:
    """Unseen copies of the kinds that lower the (regular-shape) shanten of ``rest`` if drawn."""
    wild = ruleset.wild_kinds(state)
    now = _regular(ruleset, state, seat, rest)
    total = 0
    for kind in useful_kinds([t for t in rest if t not in wild]):
        left = 4 - ruleset.visible_count(state, kind) - rest.count(kind)
        if left <= 0:
            continue
        if _regular(ruleset, state, seat, rest + [kind]) < now:
            total += left
    return total


def reach(ruleset: MahjongRuleset, state: State, rest: list[str]) -> int:
    """A cheap ukeire stand-in: unseen copies of every kind held or within two of a held tile."""
    wild = ruleset.wild_kinds(state)
    return sum(max(0, 4 - ruleset.visible_count(state, k) - rest.count(k))
               for k in useful_kinds([t for t in rest if t not in wild]))


def choose_discard(ruleset: MahjongRuleset, state: State, seat: int, legal: list[Action],
                   keep_value: Any) -> Action:
    """The discard of the bot's turn (see the module docstring)."""
    wild = ruleset.wild_kinds(state)
    hand = state.hands[seat]
    scored: list[tuple[int, bool, str, Action, list[str]]] = []
    seen: set[str] = set()
    for a in legal:
        if a["type"] != "discard" or a["tile"] in seen:
            continue
        seen.add(a["tile"])
        rest = list(hand)
        rest.remove(a["tile"])
        scored.append((ruleset._shanten_of(state, seat, rest), a["tile"] in wild, a["tile"], a,
                       rest))
    low = min(s[0] for s in scored)
    best: tuple[Any, ...] | None = None
    choice = scored[0][3]
    for sh, is_wild, tile, a, rest in scored:
        if sh != low:
            continue
        width = ukeire(ruleset, state, seat, rest) if low <= EXACT_AT else reach(ruleset, state,
                                                                                  rest)
        key = (is_wild, -width, keep_value(tile, rest))
        if best is None or key < best:
            best, choice = key, a
    return choice


__all__ = ["choose_discard", "ukeire"]
