"""Guobiao (國標) fans through PyMahjongGB, with the input checks it does not make itself.

RULES-NOTES (歡樂麻將 details settled): PyMahjongGB does not check tile counts (it scores five of
a kind), corrects some win flags on its own and accepts malformed melds silently — so every input
is validated here before the call, and a bad input raises ``ValueError`` (a bug, not a move).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import MahjongGB as _GB

from games.engine.tiles import KINDS

Pack = tuple[str, str, int]  # ("CHI"/"PENG"/"GANG", tile, offer); CHI names the middle tile
Fan = tuple[str, str, int, int]  # (name, English name, points each, count)

_KIND_SET = frozenset(KINDS)

LAST_TILE: Fan = ("和绝张", "Last Tile", 4, 1)
ROBBING_THE_KONG: Fan = ("抢杠和", "Robbing The Kong", 8, 1)
CHICKEN_HAND: Fan = ("无番和", "Chicken Hand", 8, 1)


def validate(
    packs: tuple[Pack, ...],
    hand: tuple[str, ...],
    win_tile: str,
    seat_wind: int,
    prevalent_wind: int,
) -> None:
    """Raise ValueError unless the call describes a real hand of 14 (+ kongs) tiles."""
    if len(hand) + 3 * len(packs) != 13:
        raise ValueError(f"{len(hand)} standing tiles beside {len(packs)} packs is not 13")
    if not 0 <= seat_wind <= 3 or not 0 <= prevalent_wind <= 3:
        raise ValueError("winds are 0..3")
    tiles: list[str] = list(hand) + [win_tile]
    for kind, tile, offer in packs:
        if tile not in _KIND_SET:
            raise ValueError(f"bad pack tile {tile!r}")
        if kind == "CHI":
            if tile[0] not in "WTB" or not 2 <= int(tile[1:]) <= 8 or offer not in (1, 2, 3):
                raise ValueError(f"bad chow {tile!r}/{offer}")
            n = int(tile[1:])
            tiles += [f"{tile[0]}{n - 1}", tile, f"{tile[0]}{n + 1}"]
        elif kind == "PENG":
            if offer not in (1, 2, 3):
                raise ValueError("a pung is claimed from seat offset 1..3")
            tiles += [tile] * 3
        elif kind == "GANG":
            if offer not in (0, 1, 2, 3):
                raise ValueError("a kong offer is 0 (concealed) or 1..3")
            tiles += [tile] * 4
        else:
            raise ValueError(f"bad pack kind {kind!r}")
    for t in tiles:
        if t not in _KIND_SET:
            raise ValueError(f"bad tile {t!r}")
    over = [t for t, n in Counter(tiles).items() if n > 4]
    if over:
        raise ValueError(f"more than four of {over}")


def gb_fans(
    packs: tuple[Pack, ...],
    hand: tuple[str, ...],
    win_tile: str,
    *,
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
    seat_wind: int,
    prevalent_wind: int,
) -> tuple[Fan, ...] | None:
    """The GB fans of a concrete hand (no flowers counted), or None when it is not a win."""
    validate(packs, hand, win_tile, seat_wind, prevalent_wind)
    return gb_fans_unchecked(
        packs,
        hand,
        win_tile,
        self_drawn,
        fourth_tile,
        about_kong,
        wall_last,
        seat_wind,
        prevalent_wind,
    )


@lru_cache(maxsize=1 << 16)
def gb_fans_unchecked(
    packs: tuple[Pack, ...],
    hand: tuple[str, ...],
    win_tile: str,
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
    seat_wind: int,
    prevalent_wind: int,
) -> tuple[Fan, ...] | None:
    """:func:`gb_fans` without :func:`validate`, for a caller that has checked the same packs
    and winds once and builds hands that keep to four of a kind (the 財神 search)."""
    try:
        raw = _GB.MahjongFanCalculator(
            packs,
            hand,
            win_tile,
            0,
            self_drawn,
            fourth_tile,
            about_kong,
            wall_last,
            seat_wind,
            prevalent_wind,
            verbose=True,
        )
    except TypeError as error:
        if "NOT_WIN" in str(error):
            return None
        raise ValueError(f"PyMahjongGB refused {packs} {hand} {win_tile}: {error}") from error
    return tuple([(name, name_en, points, count) for points, count, name, name_en in raw])


def with_situational(fans: tuple[Fan, ...], *, last_tile: bool, rob_kong: bool) -> tuple[Fan, ...]:
    """GB fans scored without the 和絕張 / 搶槓和 flags, with those two from what happened.

    RULES-NOTES (歡樂麻將 details settled): "和絕張 needs the winning tile itself to be the last
    unseen copy (never a 財神 standing in), 搶槓和 … follow[s] the real events". PyMahjongGB
    infers both from the tiles it is given (it drops them when the hand holds the winning kind,
    and adds 和絕張 when the winning tile is the fourth beside the winner's own 碰), which a 財神
    substitution falsifies; so the caller passes neither flag and states them here. 搶槓和
    excludes 和絕張 (GB); 無番和 stands only when no other fan does.
    """
    out = [f for f in fans if f[0] not in (LAST_TILE[0], ROBBING_THE_KONG[0], CHICKEN_HAND[0])]
    if rob_kong:
        out.append(ROBBING_THE_KONG)
    elif last_tile:
        out.append(LAST_TILE)
    if not out:
        out.append(CHICKEN_HAND)
    out.sort(key=lambda f: -f[2])  # PyMahjongGB's order: the biggest fan first (stable)
    return tuple(out)
