#!/usr/bin/env python3
"""Re-deal a Leyou hand, or re-spin a 大豐收 round, from its revealed seed — nothing but Python.

A player who does not want to trust the server, nor the page's own script, copies the line the
replay page (or the 大豐收 驗證 page) shows under 「自己驗證」 and runs::

    python3 verify_deal.py '{"game": "doudizhu", "seed": "…"}' --hash <the hash shown at the deal>

It prints whether sha256(seed) is the hash committed at the deal, then the deal as JSON (every
seat's hand, the 底牌 / 亮張 / 墩 / wall, 補花, 財神 indicator, dice) or the wheel's result, to be
compared with what the table showed. The file stands alone: the standard library only, no
Django, no part of Leyou imported, so it can be read in a few minutes and run anywhere.

The algorithm (the same as ``games/engine/chance.py`` and ``static/js/verify_deal.js``):

* The commitment is ``sha256(seed)`` in hex (the seed is 64 hex digits).
* A stream named ``label`` is the blocks ``sha256(f"{seed}:{label}:{i}")`` for i = 0, 1, …,
  each read as four 8-byte big-endian unsigned words, in order.
* ``below(n)`` takes words until one is below the largest multiple of n under 2**64 and returns
  it modulo n (no bias).
* ``shuffle`` is Fisher–Yates: for i from the last index down to 1, swap i with ``below(i + 1)``.

Each game's deal from its shuffled deck is written out in its function below.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from bisect import bisect_right
from typing import Any

WORD = 1 << 64


def commitment(seed: str) -> str:
    """The hash published at the deal: sha256 of the seed's ASCII text, in hex."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class Chance:
    """The stream of one (seed, label)."""

    def __init__(self, seed: str, label: str) -> None:
        self.seed, self.label, self.block, self.words = seed, label, 0, []  # type: ignore[var-annotated]

    def word(self) -> int:
        if not self.words:
            data = f"{self.seed}:{self.label}:{self.block}".encode()
            digest = hashlib.sha256(data).digest()
            self.block += 1
            self.words = [int.from_bytes(digest[i : i + 8], "big") for i in (0, 8, 16, 24)]
        return self.words.pop(0)

    def below(self, n: int) -> int:
        limit = WORD - WORD % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffled(self, items: list[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


# -- 斗地主 ------------------------------------------------------------------------------------
RANKS = "3456789TJQKA2BR"  # B small joker, R big joker


def deal_doudizhu(inp: dict[str, Any]) -> dict[str, Any]:
    """54 cards (four of 3…2, then B, R) shuffled on "deal"; card i of the first 51 goes to seat
    i mod 3, the last 3 are the 底牌; each hand is listed from 3 up to R."""
    deck = Chance(inp["seed"], "deal").shuffled(
        [r for r in RANKS[:13] for _ in range(4)] + ["B", "R"]
    )

    def ordered(cards: list[str]) -> str:
        return "".join(sorted(cards, key=RANKS.index))

    return {"hands": [ordered(deck[s:51:3]) for s in range(3)], "dipai": ordered(deck[51:])}


# -- 歡樂三張 ----------------------------------------------------------------------------------
def deal_zhajinhua(inp: dict[str, Any]) -> dict[str, Any]:
    """52 cards (each rank 3…A, 2 in suits s h d c) shuffled on "deal"; seat s gets cards
    3s, 3s+1, 3s+2."""
    deck = Chance(inp["seed"], "deal").shuffled([r + s for r in RANKS[:13] for s in "shdc"])
    return {"hands": [deck[3 * s : 3 * s + 3] for s in range(int(inp["seats"]))]}


# -- 跑胡子 / 雙王扯胡子 -----------------------------------------------------------------------
def zipai_name(card: int) -> str:
    """0–9 small 一…十 (x1…x10), 10–19 big 壹…拾 (d1…d10), 20 the 王 (W)."""
    if card == 20:
        return "W"
    return ("d" if card >= 10 else "x") + str(card % 10 + 1)


def deal_paohuzi(inp: dict[str, Any]) -> dict[str, Any]:
    """80 cards (four of x1…x10, d1…d10) plus ``wangs`` 王 shuffled on "deal"; 20 each from the
    front to the dealer, his 下家, his 上家; the 61st is the dealer's 亮張 (his 21st card); the
    rest is the 墩, drawn from the front. Hands are listed x1…x10, d1…d10, W."""
    deck = [k for k in range(20) for _ in range(4)] + [20] * int(inp["wangs"])
    cards = Chance(inp["seed"], "deal").shuffled(deck)
    dealer = int(inp["dealer"])
    hands: list[list[int]] = [[], [], []]
    for i in range(3):
        hands[(dealer + i) % 3] = list(cards[20 * i : 20 * i + 20])
    hands[dealer].append(cards[60])
    return {
        "hands": [[zipai_name(c) for c in sorted(h)] for h in hands],
        "liang": zipai_name(cards[60]),
        "wall": [zipai_name(c) for c in cards[61:]],
    }


# -- 麻將 (歡樂 / 永州 / 樂清) ------------------------------------------------------------------
KINDS = (
    [f"{s}{n}" for s in "WTB" for n in range(1, 10)]
    + [f"F{n}" for n in range(1, 5)]
    + [f"J{n}" for n in range(1, 4)]
)
HONOUR_CYCLE = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def next_kind(tile: str) -> str:
    """The 財神 after an indicator: 9 wraps to 1; 東南西北中發白 is one cycle of seven."""
    if tile[0] in "WTB":
        return f"{tile[0]}{int(tile[1:]) % 9 + 1}"
    return HONOUR_CYCLE[(HONOUR_CYCLE.index(tile) + 1) % 7]


def deal_mahjong(inp: dict[str, Any]) -> dict[str, Any]:
    """The wall (136 tiles; 歡樂: + 8 flowers H1…H8) shuffled on "deal".

    樂清 first throws two pairs of dice on "dice" and opens the wall at the 墩 they count to.
    13 tiles each (樂清 16) from the front, dealer first in the order of play, then one more to
    the dealer (his draw). 歡樂 flips the 財神 indicator from the front (flowers set aside);
    樂清 takes it from the back, and its flowers are the indicator's kind and 白板 (中 when
    白 is the indicator or the 財神). Then from the dealer on, each seat lays out its flowers and
    replaces them from the back, round after round until no hand holds one; the dealer's drawn
    tile stays last in his hand.
    """
    game, seed, dealer = inp["game"], inp["seed"], int(inp["dealer"])
    tiles = [k for k in KINDS for _ in range(4)]
    if game == "mahjong_huanle":
        tiles += [f"H{n}" for n in range(1, 9)]
    wall = Chance(seed, "deal").shuffled(tiles)
    out: dict[str, Any] = {}
    size, reserve = 13, 0
    if game == "mahjong_yueqing":
        size, reserve = 16, 16
        dice = Chance(seed, "dice")
        first = [dice.below(6) + 1, dice.below(6) + 1]
        thrower = (dealer + sum(first) - 1) % 4
        second = [dice.below(6) + 1, dice.below(6) + 1]
        stacks = len(wall) // 2
        start = (((dealer - thrower) % 4) * (stacks // 4) + sum(first) + sum(second)) % stacks
        wall = wall[2 * start :] + wall[: 2 * start]
        out["dice"] = {"first": first, "thrower": thrower, "second": second, "open": start}
    hands: list[list[str]] = [[] for _ in range(4)]
    for i in range(4):
        hands[(dealer + i) % 4] = wall[:size]
        del wall[:size]
    hands[dealer].append(wall.pop(0))
    drawn = hands[dealer][-1]
    flower_kinds: set[str] = set()
    if game == "mahjong_huanle":
        while True:
            indicator = wall.pop(0)
            if not indicator.startswith("H"):
                break
        out["indicator"] = indicator
    elif game == "mahjong_yueqing":
        indicator = wall.pop()
        out["indicator"] = indicator
        flower_kinds = {indicator, "J1" if "J3" in (indicator, next_kind(indicator)) else "J3"}

    def is_flower(tile: str) -> bool:
        return tile in flower_kinds if flower_kinds else tile.startswith("H")

    flowers: list[list[str]] = [[] for _ in range(4)]
    over, changed = False, True
    while changed and not over:
        changed = False
        for i in range(4):
            s = (dealer + i) % 4
            while not over:
                found = [t for t in hands[s] if is_flower(t)]
                if not found:
                    break
                changed = True
                for t in found:
                    hands[s].remove(t)
                    flowers[s].append(t)
                    if len(wall) <= reserve:  # no tile to replace it: the hand is drawn
                        over = True
                        break
                    hands[s].append(wall.pop())
    if not over and drawn in hands[dealer]:
        hands[dealer].remove(drawn)
        hands[dealer].append(drawn)
    return {"hands": hands, "flowers": flowers, "wall": wall, **out}


# -- 大豐收 ------------------------------------------------------------------------------------
LUCK_CELLS = (7, 19)  # the two 好運 cells of the 24-cell ring (cell 0 top-left, clockwise)
SPECIALS = ("dasanyuan", "xiaosanyuan", "dasixi", "kaihuoche", "miss")
SPECIAL_CELLS = {
    "dasanyuan": [14, 22, 18],
    "xiaosanyuan": [0, 5, 10],
    "dasixi": [1, 4, 8, 15],
    "miss": [],
}


def _pick(chance: Chance, weights: list[int]) -> int:
    cumulative, total = [], 0
    for w in weights:
        total += w
        cumulative.append(total)
    return bisect_right(cumulative, chance.below(total))


def spin_dafengshou(inp: dict[str, Any]) -> dict[str, Any]:
    """On "spin": a cell by the room's 24 cell weights (r = below(sum); the first cell whose
    running total exceeds r); on a 好運 cell a special by its weights; for 開火車 a length
    train_min + below(train_max − train_min + 1): that many crop cells after the luck cell
    light, clockwise, luck cells skipped."""
    chance = Chance(inp["seed"], "spin")
    cell = _pick(chance, [int(w) for w in inp["cell_weights"]])
    special, train, lit = None, 0, [cell]
    if cell in LUCK_CELLS:
        special = SPECIALS[_pick(chance, [int(w) for w in inp["special_weights"]])]
        if special == "kaihuoche":
            low, high = int(inp["train_min"]), int(inp["train_max"])
            train = low + chance.below(high - low + 1)
            lit, c = [], cell
            while len(lit) < train:
                c = (c + 1) % 24
                if c not in LUCK_CELLS:
                    lit.append(c)
        else:
            lit = list(SPECIAL_CELLS[special])
    return {"cell": cell, "special": special, "train": train, "lit": lit}


DEALS = {
    "doudizhu": deal_doudizhu,
    "zhajinhua": deal_zhajinhua,
    "paohuzi": deal_paohuzi,
    "mahjong_huanle": deal_mahjong,
    "mahjong_yongzhou": deal_mahjong,
    "mahjong_yueqing": deal_mahjong,
    "dafengshou": spin_dafengshou,
}


def deal(inp: dict[str, Any]) -> dict[str, Any]:
    """The deal (or spin) of the input the page shows: ``{"game", "seed", …the game's options}``."""
    if inp.get("game") not in DEALS:
        raise ValueError(f"unknown game {inp.get('game')!r}; one of {', '.join(DEALS)}")
    return DEALS[inp["game"]](inp)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="the JSON shown on the page, e.g. '{\"game\": …}'")
    parser.add_argument("--hash", help="the seed hash shown at the deal, to check")
    args = parser.parse_args(argv)
    try:
        inp = json.loads(args.input)
        record = deal(inp)
    except (ValueError, KeyError, TypeError) as error:
        print(f"cannot re-deal: {error}", file=sys.stderr)
        return 2
    ok = True
    if args.hash:
        ok = commitment(inp["seed"]) == args.hash.strip().lower()
        print(f"sha256(seed) {'equals' if ok else 'DIFFERS FROM'} the hash shown at the deal")
    print(json.dumps(record, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
