"""Scripted 歡樂麻將 states for the tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.rules.mahjong.core import MahjongRuleset, State

FILLER = "B2 B3 T2 T3 W2 W3 B6 T6 W6 B8 T8 W8 F2 F3 J1 W7 T7 B7".split()


@contextmanager
def tuned(*game_ids: str, **options: Any) -> Iterator[None]:
    """The bot of ``game_ids`` with ``options`` over its ``play.TUNING`` (a test's changes to
    the tuning too are undone after)."""
    from games.rules.mahjong import play

    saved = {g: dict(play.TUNING.get(g, {})) for g in game_ids}
    for g in game_ids:
        play.TUNING[g] = {**saved[g], **options}
    try:
        yield
    finally:
        play.TUNING.update(saved)


def huanle():
    return registry.get("mahjong_huanle")


def make_state(
    hands: list[str],
    *,
    current: int = 0,
    dealer: int = 0,
    wall: list[str] | None = None,
    wild: str | None = None,
    melds: list[list[dict[str, Any]]] | None = None,
    flowers: list[list[str]] | None = None,
    discards: list[list[str]] | None = None,
    **params: Any,
) -> State:
    """A turn of ``current`` with the given hands (space-separated; its last tile is drawn)."""
    ruleset = huanle()
    config = ruleset.config_from_params({"dealer": dealer, **params})
    state = ruleset.new_game(config, "scripted", 4)
    state.hands = [h.split() for h in hands]
    state.wall = list(wall if wall is not None else FILLER)
    state.vars["wild"] = [wild] if wild else []
    state.melds = melds or [[] for _ in range(4)]
    state.flowers = flowers or [[] for _ in range(4)]
    state.discards = discards or [[] for _ in range(4)]
    state.drawn = [None] * 4
    state.drawn[current] = state.hands[current][-1]
    state.current = current
    state.phase = "turn"
    state.claim = None
    state.outcome = None
    state.must_discard = False
    state.after_kong = False
    return state


def dump(state: State) -> str:
    return json.dumps(huanle().state_to_json(state), sort_keys=True, ensure_ascii=False)


def peng(tile: str, src: int) -> dict[str, Any]:
    return {"kind": "peng", "tiles": [tile] * 3, "from": src, "claimed": tile}


def turn(game_id: str, hand: str, seed: str = "turn") -> tuple[MahjongRuleset, State]:
    """A fresh hand of ``game_id`` with seat 0 (the dealer) to discard from ``hand`` (the last
    tile the one drawn), nothing on the table."""
    r = registry.get(game_id)
    assert isinstance(r, MahjongRuleset)
    state = r.new_game(r.config_from_params({}), seed, 4)
    state.hands[0] = hand.split()
    dealer_to_discard(state)
    return r, state


def dealer_to_discard(state: State) -> None:
    """Clear the table of ``state`` (no melds, no rivers, no claim) with seat 0 to discard,
    the last tile of its hand the one drawn."""
    state.melds = [[] for _ in range(4)]
    state.discards = [[] for _ in range(4)]
    state.current = 0
    state.drawn = [state.hands[0][-1], None, None, None]
    state.phase = "turn"
    state.claim = None


def yongzhou_turn(hand: str, seed: str = "turn") -> tuple[MahjongRuleset, State]:
    """A fresh 永州 hand with seat 0 (the dealer) to discard from ``hand`` (14 tiles, the last
    one drawn), nothing on the table."""
    return turn("mahjong_yongzhou", hand, seed)
