"""Seeded 歡樂麻將 wins with 0–4 財神, played through the engine, with what really happened.

Each scenario deals a table with the physical tile counts kept (four of a kind, one 財神 kind),
gives seat 0 a winning hand with some of its tiles replaced by 財神, and plays the event that
wins it through ``HuanleRuleset.apply``: 自摸 of a natural tile or of a 財神, a discard (a 財神
discarded included, natural for the win), a robbed 加槓, the replacement after a 暗槓, the last
tile of the wall. Some tables show the other copies of the winning kind (和絕張) or of the kind a
drawn 財神 would stand for. The scenario records the facts for the oracle itself
(:class:`huanle_oracle.Win`); nothing is read back from the engine's own helpers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engine.errors import IllegalAction
from games.rules.mahjong.tests.helpers import huanle, make_state
from games.rules.mahjong.tests.huanle_oracle import KINDS, ORPHANS, SUITS, Win

EVENTS = ("tsumo", "tsumo_wild", "ron", "ron_caishen", "robkong", "kong_bloom")
HONOURS = KINDS[27:]
GREEN = "T2 T3 T4 T6 T8 J2".split()


@dataclass
class Played:
    """A scenario after the engine has seen it: the facts, the engine's answer (or None when
    it refused the win) and labels for counting what was covered."""

    win: Win
    engine: dict[str, Any] | None
    event: str
    labels: tuple[str, ...]
    state: Any
    replaced: tuple[str, ...] = ()  # what the 財神 replaced in the dealt hand (one reading)


class Retry(Exception):
    """The dealt tiles cannot make this scenario; deal another."""


def _groups(rng: random.Random, sets: int) -> list[tuple[str, str]]:
    """``sets`` groups (pung / chow) and a pair, leaning to one suit or to honours."""
    style = rng.choice(["mixed", "mixed", "one_suit", "honours", "green", "pungs"])
    suit = rng.choice(SUITS)
    out: list[tuple[str, str]] = []
    for _ in range(sets):
        if style == "green":
            if rng.random() < 0.3:
                out.append(("chow", "T2"))
            else:
                out.append(("pung", rng.choice(GREEN)))
            continue
        if style == "honours" and rng.random() < 0.5:
            out.append(("pung", rng.choice(HONOURS)))
            continue
        if style != "one_suit" and rng.random() < 0.3:
            suit = rng.choice(SUITS)
        if style == "pungs" or rng.random() < 0.35:
            pool = [f"{suit}{n}" for n in range(1, 10)] + (
                list(HONOURS) if style != "one_suit" else []
            )
            out.append(("pung", rng.choice(pool)))
        else:
            out.append(("chow", f"{suit}{rng.randint(1, 7)}"))
    if style == "green":
        out.append(("pair", rng.choice(GREEN)))
    elif style == "one_suit":
        out.append(("pair", f"{suit}{rng.randint(1, 9)}"))
    else:
        out.append(("pair", rng.choice(KINDS)))
    return out


def _tiles_of(group: tuple[str, str]) -> list[str]:
    kind, tile = group
    if kind == "chow":
        n = int(tile[1])
        return [f"{tile[0]}{n + i}" for i in range(3)]
    return [tile] * (3 if kind == "pung" else 2)


def _special(rng: random.Random) -> list[str]:
    """七對 / 十三幺 / 全不靠 / 組合龍 / 九蓮 tiles (14, the last the winning tile)."""
    shape = rng.choice(["pairs", "orphans", "knitted", "straight", "gates"])
    if shape == "pairs":
        kinds = rng.sample(KINDS, 7)
        if rng.random() < 0.2:
            kinds[1] = kinds[0]  # four of a kind as two pairs
        tiles = [k for k in kinds for _ in range(2)]
    elif shape == "orphans":
        tiles = sorted(ORPHANS) + [rng.choice(sorted(ORPHANS))]
    elif shape in ("knitted", "straight"):
        order = rng.sample(SUITS, 3)
        knit = [f"{s}{n}" for s, a in zip(order, (1, 2, 3)) for n in (a, a + 3, a + 6)]
        if shape == "knitted":
            tiles = rng.sample(knit + list(HONOURS), 14)
        else:
            rest = _tiles_of(("chow", f"{rng.choice(SUITS)}{rng.randint(1, 7)}"))
            if rng.random() < 0.5:
                rest = [rng.choice(KINDS)] * 3
            tiles = knit + rest + [rng.choice(KINDS)] * 2
    else:
        suit = rng.choice(SUITS)
        tiles = [f"{suit}{n}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
        tiles.append(f"{suit}{rng.randint(1, 9)}")
    rng.shuffle(tiles)
    return tiles


def deal(rng: random.Random, *, wilds: int, event: str, trial: int) -> Played:
    """One scenario (raises :class:`Retry` when these tiles cannot make it)."""
    labels: list[str] = [event]
    melds: list[dict[str, Any]] = []
    meld_tiles: list[str] = []
    packs: list[tuple[str, str, int]] = []
    special = event in ("tsumo", "tsumo_wild", "ron") and rng.random() < 0.2
    if special:
        concealed = _special(rng)
        labels.append("special shape")
    else:
        n_melds = 0 if event == "kong_bloom" else rng.choice([0, 0, 0, 1, 1, 2])
        groups = _groups(rng, 4)
        concealed = []
        for i, group in enumerate(groups):
            tiles = _tiles_of(group)
            if i < n_melds and group[0] != "pair":
                src = rng.choice([1, 2, 3])
                if group[0] == "chow":
                    src = 3  # 上家 of seat 0 (play goes 0 → 1 → 2 → 3)
                    claimed = rng.choice(tiles)
                    melds.append({"kind": "chi", "tiles": tiles, "from": 3, "claimed": claimed})
                    packs.append(("CHI", tiles[1], tiles.index(claimed) + 1))
                elif rng.random() < 0.25:
                    melds.append(
                        {"kind": "angang", "tiles": [tiles[0]] * 4, "from": None, "claimed": None}
                    )
                    packs.append(("GANG", tiles[0], 0))
                    tiles = [tiles[0]] * 4
                else:
                    melds.append({"kind": "peng", "tiles": tiles, "from": src, "claimed": tiles[0]})
                    packs.append(("PENG", tiles[0], (0 - src) % 4))
                meld_tiles += tiles
            else:
                concealed += tiles
        rng.shuffle(concealed)
        if melds:
            labels.append("melds")
    if max(Counter(concealed + meld_tiles).values()) > 4:
        raise Retry  # the dealt reading itself must keep to four of a kind
    win_index = len(concealed) - 1  # the last tile is the winning one
    win_kind = concealed[win_index]
    # the 財神 kind: anything but what the melds hold; for a discarded 財神, the winning kind
    if event == "ron_caishen":
        wild = win_kind
    else:
        wild = rng.choice([k for k in KINDS if k not in meld_tiles])
        own = [k for k in concealed if k not in meld_tiles]
        if own and rng.random() < 0.15:  # a 財神 kind the hand itself holds (for itself)
            wild = rng.choice(own)
    if wild in meld_tiles:
        raise Retry
    # which concealed tiles are 財神: every tile of the 財神 kind, and ``wilds`` in all
    is_wild = [t == wild for t in concealed]
    if event == "ron_caishen":
        is_wild[win_index] = False  # the discarded 財神 is natural
    if event == "tsumo_wild" or (event == "kong_bloom" and rng.random() < 0.4):
        is_wild[win_index] = True
    elif event not in ("ron_caishen", "kong_bloom") and is_wild[win_index]:
        raise Retry  # the drawn tile would be a 財神: that is the other event
    if event == "robkong":
        # the robbed seat holds the other three: the winner has no other natural of the kind
        if win_kind == wild:
            raise Retry
        for i, t in enumerate(concealed):
            if t == win_kind and i != win_index:
                is_wild[i] = True
        if any(t == win_kind and w for t, w in zip(concealed, is_wild)):
            labels.append("搶槓 with a 財神 as the robbed kind")
    bloom_kind = None
    if event == "kong_bloom":
        pungs = [k for k, n in Counter(concealed).items() if n >= 3 and k != wild and k != win_kind]
        if not pungs:
            raise Retry
        bloom_kind = rng.choice(pungs)
        bloom_kind_positions = [i for i, t in enumerate(concealed) if t == bloom_kind][:3]
    else:
        bloom_kind_positions = []
    free = [
        i
        for i, w in enumerate(is_wild)
        if not w and i != win_index and i not in bloom_kind_positions
    ]
    need = wilds - sum(is_wild)
    if need < 0 or need > len(free):
        raise Retry
    for i in rng.sample(free, need):
        is_wild[i] = True
    if sum(is_wild) != wilds:
        raise Retry
    hand = [wild if w else t for t, w in zip(concealed, is_wild)]
    naturals = [t for t, w in zip(hand, is_wild) if not w]
    # the physical tiles: four of each kind; the 財神 kind counts its 財神 and natural copies
    pool = Counter(dict.fromkeys(KINDS, 4))
    pool.subtract(hand)
    pool.subtract(meld_tiles)
    if bloom_kind:
        pool[bloom_kind] -= 1  # the fourth, drawn before the 暗槓
    if any(n < 0 for n in pool.values()):
        raise Retry
    discards: list[list[str]] = [[], [], [], []]
    other_melds: list[list[dict[str, Any]]] = [[], [], [], []]
    winner_kind_on_table = False
    src = rng.choice([1, 2, 3])
    if event == "robkong":
        if pool[win_kind] != 3:
            raise Retry  # the winner holds only the robbed copy, seat src the other three
        pool[win_kind] -= 3
        other_melds[src].append(
            {"kind": "peng", "tiles": [win_kind] * 3, "from": (src + 1) % 4, "claimed": win_kind}
        )
    show = rng.random() < 0.35
    if any(w and t == win_kind for t, w in zip(concealed, is_wild)) and event != "robkong":
        show = True  # a 財神 stands for the winning kind: show its other copies (和絕張?)
    if show and event in ("tsumo", "ron", "ron_caishen", "kong_bloom"):
        # the other copies of the real winning tile face up (和絕張 when that makes three)
        for _ in range(pool[win_kind]):
            discards[rng.choice([1, 2, 3])].append(win_kind)
        pool[win_kind] = 0
        winner_kind_on_table = True
    if show and event == "tsumo_wild":
        # the kinds the drawn 財神 might stand for: the one it replaced, shown
        replaced = concealed[win_index]
        if replaced != wild:
            for _ in range(pool[replaced]):
                discards[rng.choice([1, 2, 3])].append(replaced)
            pool[replaced] = 0
            labels.append("drawn 財神's kind face up")
    # the others' hands and rivers, the wall
    bag = [k for k, n in pool.items() for _ in range(n)]
    rng.shuffle(bag)
    others = [bag[13 * i : 13 * i + 13] for i in range(3)]
    bag = bag[39:]
    for s in (1, 2, 3):
        for _ in range(rng.randint(0, 4)):
            if bag:
                discards[s].append(bag.pop())
    wall_last = rng.random() < 0.15 and event in ("tsumo", "tsumo_wild", "ron", "ron_caishen")
    wall = [] if wall_last else bag[: rng.randint(1, 8)]
    if wall_last:
        labels.append("last tile of the wall")
    flowers = [[f"H{i}" for i in rng.sample(range(1, 9), rng.choice([0, 0, 1, 2]))], [], [], []]
    dealer = rng.randrange(4)
    prevalent = rng.randrange(4)
    hands_text: list[str]
    win_tile = hand[win_index]
    rest = hand[:win_index] + hand[win_index + 1 :]
    all_melds = [melds] + other_melds[1:]
    if event in ("tsumo", "tsumo_wild"):
        hands_text = [" ".join(rest + [win_tile])] + [" ".join(h) for h in others]
        current = 0
    elif event == "kong_bloom":
        hands_text = [" ".join(rest + [bloom_kind])] + [" ".join(h) for h in others]
        current = 0
        wall = wall + [win_tile]  # the replacement, from the back
    else:
        if event == "robkong":  # ten beside the 碰, and the fourth drawn
            others[src - 1] = others[src - 1][:10]
        others[src - 1] = others[src - 1] + [win_tile]  # the discarder's (or 加槓's) tile
        hands_text = [" ".join(rest)] + [" ".join(h) for h in others]
        current = src
    state = make_state(
        hands_text,
        current=current,
        dealer=dealer,
        wall=wall,
        wild=wild,
        melds=[[dict(m) for m in seat] for seat in all_melds],
        flowers=flowers,
        discards=discards,
        prevalent_wind=prevalent,
    )
    if wall_last and event in ("ron", "ron_caishen"):
        state.last_wall_tile = None
    # what lies face up besides the winning tile itself, before the event
    face_up = sum(d.count(win_tile) for d in discards) + sum(
        m["tiles"].count(win_tile) for seat in all_melds for m in seat if m["kind"] != "angang"
    )
    natural_win = not (event == "tsumo_wild" or (event == "kong_bloom" and is_wild[win_index]))
    if event == "kong_bloom":
        labels.append("槓上開花" + (" on a 財神" if not natural_win else ""))
        if not wall[:-1]:
            labels.append("last tile of the wall")
    if natural_win and face_up == 3 and event != "robkong":
        labels.append("和絕張")
        if any(w and t == win_tile for t, w in zip(concealed, is_wild)):
            labels.append("和絕張 with a 財神 as the winning kind")
    if winner_kind_on_table:
        labels.append("winning kind shown")
    if event == "kong_bloom":
        # the 暗槓 takes the three held and the fourth drawn: the concealed naturals lose three
        naturals_after = list(naturals)
        for _ in range(3):
            naturals_after.remove(bloom_kind)
        packs_after = tuple(packs) + (("GANG", bloom_kind, 0),)
        meld_after = tuple(meld_tiles) + (bloom_kind,) * 4
    else:
        naturals_after = naturals
        packs_after = tuple(packs)
        meld_after = tuple(meld_tiles)
    win = Win(
        naturals=tuple(naturals_after),
        wilds=wilds,
        win_tile=win_tile if natural_win else None,
        packs=packs_after,
        meld_tiles=meld_after,
        wild_kind=wild,
        self_drawn=event in ("tsumo", "tsumo_wild", "kong_bloom"),
        after_kong=event == "kong_bloom",
        wall_last=wall_last or (event == "kong_bloom" and not wall[:-1]),
        rob_kong=event == "robkong",
        face_up=face_up,
        seat_wind=(0 - dealer) % 4,
        prevalent_wind=prevalent,
        flowers=len(flowers[0]),
    )
    engine = play(state, event, src, win_tile, bloom_kind)
    labels.append(f"{wilds} 財神")
    del trial
    replaced = tuple(t for t, w in zip(concealed, is_wild) if w)
    return Played(
        win=win, engine=engine, event=event, labels=tuple(labels), state=state, replaced=replaced
    )


def play(state: Any, event: str, src: int, tile: str, bloom_kind: str | None) -> dict | None:
    """Play the winning event through the engine; its evaluation of seat 0, or None when the
    engine does not let seat 0 win."""
    ruleset = huanle()
    try:
        if event == "kong_bloom":
            ruleset.apply(state, 0, {"type": "angang", "tile": bloom_kind})
            if state.current != 0 or state.phase != "turn":
                raise Retry  # a flower came off the back (no 槓上開花 then)
        if event in ("tsumo", "tsumo_wild", "kong_bloom"):
            ruleset.apply(state, 0, {"type": "hu"})
        else:
            kind = "jiagang" if event == "robkong" else "discard"
            ruleset.apply(state, src, {"type": kind, "tile": tile})
            if 0 not in ruleset.to_act(state):
                return None
            ruleset.apply(state, 0, {"type": "hu"})
            for s in sorted(ruleset.to_act(state)):
                ruleset.apply(state, s, {"type": "pass"})
    except IllegalAction:
        return None
    out = state.outcome or {}
    assert out.get("type") == "win" and out["winners"] == [0], out
    assert out["rob_kong"] == (event == "robkong")
    ev: dict = out["evals"][0]
    return ev


def scenarios(seed: str, count: int, wild_weights: dict[int, int]) -> list[Played]:
    """``count`` played scenarios, the number of 財神 drawn by ``wild_weights``."""
    rng = random.Random(seed)
    out: list[Played] = []
    numbers = [n for n, w in sorted(wild_weights.items()) for _ in range(w)]
    trial = 0
    while len(out) < count:
        trial += 1
        wilds = numbers[len(out) % len(numbers)]
        event = EVENTS[(len(out) + trial) % len(EVENTS)]
        if event == "tsumo_wild" and wilds == 0:
            event = "tsumo"
        try:
            out.append(deal(rng, wilds=wilds, event=event, trial=trial))
        except Retry:
            continue
    return out
