"""Tile kinds as indices, for the counts arrays of :mod:`games.rules.mahjong.hands`.

Kinds 0–8 are W1–W9 (萬), 9–17 T1–T9 (條), 18–26 B1–B9 (餅), 27–30 F1–F4 (東南西北), 31–33
J1–J3 (中發白). Flowers H1–H8 are not kinds: they never enter a hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.tiles import FLOWERS, KINDS, tile_sort_key

N_KINDS = 34
KIND_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}
TERMINALS_HONOURS: tuple[int, ...] = (0, 8, 9, 17, 18, 26) + tuple(range(27, 34))
FLOWER_SET = frozenset(FLOWERS)
ALL_TILES = frozenset(KINDS) | FLOWER_SET


def is_suited_index(k: int) -> bool:
    return k < 27


def is_flower(tile: str) -> bool:
    return tile in FLOWER_SET


def counts_of(tiles: Iterable[str]) -> tuple[int, ...]:
    """The counts array of the given (non-flower) tiles."""
    counts = [0] * N_KINDS
    for t in tiles:
        counts[KIND_INDEX[t]] += 1
    return tuple(counts)


def sort_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=tile_sort_key)


# 001: "按照'东、南、西、北、红中、发财、白板'的顺序" — honours wrap in that order of seven.
_HONOUR_ORDER = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def next_kind(tile: str) -> str:
    """The kind after ``tile`` for 財神: 9 wraps to 1, 東南西北中發白 wrap as one cycle of seven."""
    if tile[0] in "WTB":
        n = int(tile[1:])
        return f"{tile[0]}{n % 9 + 1}"
    if tile in _HONOUR_ORDER:
        return _HONOUR_ORDER[(_HONOUR_ORDER.index(tile) + 1) % 7]
    raise ValueError(f"no next kind for {tile}")


def bird_number(tile: str) -> int:
    """鳥 value: the number of a suited tile, 東南西北中發白 = 1…7 (001)."""
    if tile[0] in "WTB":
        return int(tile[1:])
    return _HONOUR_ORDER.index(tile) + 1
