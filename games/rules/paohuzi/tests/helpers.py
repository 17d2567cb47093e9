"""Scripted deals for the engine tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.rules.paohuzi import RULESET, Config
from games.rules.paohuzi.cards import card_name, deck, parse_card
from games.rules.paohuzi.state import State


def deal(
    cfg: Config, hands: dict[int, str], liang: str, wall: str = "", fill_wall_first: bool = False
) -> State:
    """Deal with the given cards; the rest is spread round-robin (so no 坎 arises), then the
    墩 is ``wall`` followed by what is left."""
    given = {s: h.split() for s, h in hands.items()}
    used = Counter(c for h in given.values() for c in h) + Counter([liang]) + Counter(wall.split())
    rest = Counter(card_name(c) for c in deck(cfg.wangs)) - used
    assert not (used - Counter(card_name(c) for c in deck(cfg.wangs))), "more than four"
    pool = sorted(rest.elements(), key=parse_card)
    full = {s: list(given.get(s, [])) for s in range(3)}
    wall_cards = wall.split()
    wall_size = 80 + cfg.wangs - 61
    seat = 0
    spare: list[str] = []
    for card in pool:
        placed = False
        if not fill_wall_first:
            for step in range(3):
                s = (seat + step) % 3
                if len(full[s]) < 20 and full[s].count(card) < 2:
                    full[s].append(card)
                    seat = (s + 1) % 3
                    placed = True
                    break
        if not placed:
            spare.append(card)
    need = wall_size - len(wall_cards)
    for card in list(spare):
        if need <= 0:
            break
        wall_cards.append(card)
        spare.remove(card)
        need -= 1
    for card in spare:
        s = min((x for x in range(3) if full[x].count(card) < 2), key=lambda x: len(full[x]))
        full[s].append(card)
    spare = []
    wall_cards += spare
    assert all(len(full[s]) == 20 for s in range(3)), {s: len(h) for s, h in full.items()}
    assert len(wall_cards) == wall_size
    return RULESET.new_game_from_cards(cfg, [full[0], full[1], full[2]], liang, wall_cards)


def act(state: State, seat: int, action: dict[str, Any]) -> None:
    RULESET.apply(state, seat, action)


def pass_others(state: State, keep: set[int] | None = None) -> None:
    """Every seat waiting in a claim window except ``keep`` takes its default choice."""
    window = state.window
    while state.phase == "claim" and state.window is window:
        seats = [s for s in sorted(RULESET.to_act(state)) if not keep or s not in keep]
        if not seats:
            return
        legal = RULESET.legal_actions(state, seats[0])
        default = next(a for a in legal if a["type"] in ("pass", "pao", "wei", "ti"))
        RULESET.apply(state, seats[0], default)


def hand(state: State, seat: int) -> list[str]:
    return [card_name(k) for k in range(21) for _ in range(state.hands[seat][k])]


def melds(state: State, seat: int) -> list[tuple[str, str]]:
    return [(m["t"], " ".join(card_name(c) for c in m["c"])) for m in state.melds[seat]]
