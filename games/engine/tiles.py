"""Mahjong tile notation shared by the mahjong variants (DESIGN.md §2, PyMahjongGB's notation).

``W1–W9`` 萬, ``T1–T9`` 條, ``B1–B9`` 餅, ``F1–F4`` 東南西北, ``J1–J3`` 中發白, ``H1–H8`` flowers.
"""

from __future__ import annotations

SUITED = [f"{suit}{n}" for suit in "WTB" for n in range(1, 10)]
WINDS = [f"F{n}" for n in range(1, 5)]
DRAGONS = [f"J{n}" for n in range(1, 4)]
HONOURS = WINDS + DRAGONS
FLOWERS = [f"H{n}" for n in range(1, 9)]
KINDS = SUITED + HONOURS  # the 34 kinds of playing tile


def standard_wall(with_flowers: bool) -> list[str]:
    """136 tiles (four of each kind), plus the eight flowers when asked: 144."""
    tiles = [kind for kind in KINDS for _ in range(4)]
    return tiles + (list(FLOWERS) if with_flowers else [])


def tile_sort_key(tile: str) -> tuple[int, int]:
    """Order tiles 萬 條 餅 風 箭 花, then by number."""
    return ("WTBFJH".index(tile[0]), int(tile[1:]))
