"""The 大豐收 wheel: the 24-cell ring, its Config (the room's odds table), the spin and the RTP.

The ring (cell 0 at the top-left corner, clockwise), in the classic 水果機 arrangement themed as
a harvest: eight crops, each with big cells (full odds) and one small cell (``small_odds``),
and two luck cells (好運) that trigger a special.

Spin algorithm (documented so anyone can re-derive a round from its revealed seed), on
``Chance(seed, "spin")``:

1. ``r = below(W)`` with W the sum of the 24 cell weights; the cell is the first whose
   cumulative weight exceeds r.
2. On a luck cell: ``r = below(S)`` over the special weights (same cumulative rule) picks 大三元,
   小三元, 大四喜, 開火車 or 落空.
3. For 開火車: ``k = train_min + below(train_max − train_min + 1)`` cells light up, the k
   crop cells that follow the luck cell clockwise (luck cells are skipped).

Every lit crop cell pays its crop's stake × its odds (big: the crop's odds; small:
``small_odds``); a stake on a crop that is not lit is lost. The payout includes the stake.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any

from games.engine.chance import Chance

# the eight crops, low odds to high: (identifier, 中文)
OBJECTS: tuple[tuple[str, str], ...] = (
    ("apple", "蘋果"),
    ("orange", "橘子"),
    ("grape", "葡萄"),
    ("corn", "玉米"),
    ("watermelon", "西瓜"),
    ("peach", "蟠桃"),
    ("pumpkin", "南瓜"),
    ("rice", "稻穗"),
)
OBJECT_IDS = tuple(o for o, _zh in OBJECTS)
OBJECT_INDEX = {o: i for i, o in enumerate(OBJECT_IDS)}
OBJECT_NAMES_ZH = dict(OBJECTS)

BIG = "big"
SMALL = "small"
LUCK = "luck"

# (kind, crop or None) per cell, clockwise from the top-left corner
RING: tuple[tuple[str, str | None], ...] = (
    (BIG, "orange"),  # 0
    (BIG, "apple"),
    (SMALL, "rice"),
    (BIG, "rice"),
    (BIG, "apple"),
    (BIG, "grape"),  # 5
    (SMALL, "grape"),
    (LUCK, None),
    (BIG, "apple"),
    (SMALL, "corn"),
    (BIG, "corn"),  # 10
    (BIG, "orange"),
    (SMALL, "apple"),
    (SMALL, "watermelon"),
    (BIG, "watermelon"),
    (BIG, "apple"),  # 15
    (SMALL, "orange"),
    (SMALL, "pumpkin"),
    (BIG, "pumpkin"),
    (LUCK, None),
    (BIG, "grape"),  # 20
    (SMALL, "peach"),
    (BIG, "peach"),
    (BIG, "corn"),
)
LUCK_CELLS = tuple(i for i, (kind, _o) in enumerate(RING) if kind == LUCK)

# specials on a luck cell (identifier, 中文, fixed lit cells or None for the train)
DASANYUAN = "dasanyuan"  # 大三元: the big 西瓜, 蟠桃 and 南瓜
XIAOSANYUAN = "xiaosanyuan"  # 小三元: one big 橘子, 葡萄 and 玉米
DASIXI = "dasixi"  # 大四喜: all four big 蘋果
KAIHUOCHE = "kaihuoche"  # 開火車: a run of crop cells after the luck cell
MISS = "miss"  # 落空: nothing
SPECIALS: tuple[tuple[str, str], ...] = (
    (DASANYUAN, "大三元"),
    (XIAOSANYUAN, "小三元"),
    (DASIXI, "大四喜"),
    (KAIHUOCHE, "開火車"),
    (MISS, "落空"),
)
SPECIAL_IDS = tuple(s for s, _zh in SPECIALS)
SPECIAL_NAMES_ZH = dict(SPECIALS)
SPECIAL_CELLS: dict[str, tuple[int, ...]] = {
    DASANYUAN: (14, 22, 18),
    XIAOSANYUAN: (0, 5, 10),
    DASIXI: (1, 4, 8, 15),
    MISS: (),
}


@dataclass(frozen=True, slots=True)
class Config:
    """A room's wheel: odds table, cell weights, chips and limits (amounts in beans).

    * ``odds`` — each crop's big-cell odds, in :data:`OBJECTS` order (payout incl. the stake).
    * ``small_odds`` — the odds of every small cell.
    * ``big_weights`` / ``small_weights`` — the draw weight of each big / small cell of a crop.
    * ``luck_weight`` — the draw weight of each of the two luck cells.
    * ``special_weights`` — weights of 大三元, 小三元, 大四喜, 開火車, 落空 on a luck cell.
    * ``train_min`` / ``train_max`` — the length range of 開火車.
    * ``chips`` — the chip sizes a bet may be made in (one chip per bet action).
    * ``player_limit`` — the most one seat may stake in one round, all crops together.
    * ``round_limit`` — the most all seats together may stake in one round.

    The defaults give a return-to-player of about 0.956 on every crop (and for a bettor
    spreading evenly) (see
    :func:`expected_rtp`, bench/dafengshou_rtp.py).
    """

    odds: tuple[int, ...] = (5, 10, 15, 20, 20, 30, 40, 100)
    small_odds: int = 2
    big_weights: tuple[int, ...] = (326, 344, 216, 129, 371, 190, 171, 80)
    small_weights: tuple[int, ...] = (780, 780, 780, 780, 780, 780, 780, 780)
    luck_weight: int = 150
    special_weights: tuple[int, ...] = (1, 2, 2, 3, 2)
    train_min: int = 3
    train_max: int = 6
    chips: tuple[int, ...] = (10, 100, 1000, 10000)
    player_limit: int = 100_000
    round_limit: int = 10_000_000

    def __post_init__(self) -> None:
        n = len(OBJECTS)
        if len(self.odds) != n or len(self.big_weights) != n or len(self.small_weights) != n:
            raise ValueError(f"odds and weights need one value per crop ({n})")
        if len(self.special_weights) != len(SPECIALS):
            raise ValueError(f"special_weights needs {len(SPECIALS)} values")
        if min(self.odds) < 1 or self.small_odds < 1:
            raise ValueError("odds must be at least 1")
        weights = (*self.big_weights, *self.small_weights, self.luck_weight)
        if min(weights) < 0 or min(self.special_weights) < 0:
            raise ValueError("weights must not be negative")
        if sum(self.cell_weights()) == 0:
            raise ValueError("at least one cell needs a weight")
        if self.luck_weight and sum(self.special_weights) == 0:
            raise ValueError("luck cells need at least one special with a weight")
        if not 1 <= self.train_min <= self.train_max <= len(RING) - len(LUCK_CELLS):
            raise ValueError("bad train length range")
        if not self.chips or min(self.chips) < 1:
            raise ValueError("chips must be positive")
        if self.player_limit < min(self.chips) or self.round_limit < min(self.chips):
            raise ValueError("limits must allow at least one chip")

    def cell_weights(self) -> list[int]:
        """The draw weight of each of the 24 cells."""
        out = []
        for kind, crop in RING:
            if kind == LUCK:
                out.append(self.luck_weight)
            else:
                table = self.big_weights if kind == BIG else self.small_weights
                out.append(table[OBJECT_INDEX[crop or ""]])
        return out

    def cell_odds(self, cell: int) -> int:
        """What one bean on the cell's crop returns when the cell lights (0 for a luck cell)."""
        kind, crop = RING[cell]
        if kind == LUCK:
            return 0
        assert crop is not None
        return self.odds[OBJECT_INDEX[crop]] if kind == BIG else self.small_odds


def _per_crop(value: Any, default: tuple[int, ...]) -> tuple[int, ...]:
    """Read a per-crop table given as a list (crop order) or a mapping crop id → value."""
    if isinstance(value, dict):
        return tuple(int(value.get(o, d)) for o, d in zip(OBJECT_IDS, default))
    return tuple(int(v) for v in value)


def config_from_params(params: dict[str, Any]) -> Config:
    """Build the Config from a room's parameters; unknown keys are ignored.

    ``odds``, ``big_weights`` and ``small_weights`` may be lists in crop order or mappings
    ``{"apple": 5, …}`` (missing crops keep their default); ``special_weights`` a list or a
    mapping ``{"dasanyuan": 1, …}``.
    """
    base = Config()
    values: dict[str, Any] = {}
    for key in ("odds", "big_weights", "small_weights"):
        if params.get(key) is not None:
            values[key] = _per_crop(params[key], getattr(base, key))
    if params.get("special_weights") is not None:
        raw = params["special_weights"]
        if isinstance(raw, dict):
            values["special_weights"] = tuple(
                int(raw.get(s, d)) for s, d in zip(SPECIAL_IDS, base.special_weights)
            )
        else:
            values["special_weights"] = tuple(int(v) for v in raw)
    for key in (
        "small_odds",
        "luck_weight",
        "train_min",
        "train_max",
        "player_limit",
        "round_limit",
    ):
        if params.get(key) is not None:
            values[key] = int(params[key])
    if params.get("chips") is not None:
        values["chips"] = tuple(sorted(int(v) for v in params["chips"]))
    return Config(**values)


# -- the spin ---------------------------------------------------------------------------------
Outcome = tuple[int, str | None, int]  # (cell, special or None, train length or 0)


def _pick(chance: Chance, cumulative: list[int]) -> int:
    return bisect_right(cumulative, chance.below(cumulative[-1]))


def train_cells(luck_cell: int, length: int) -> tuple[int, ...]:
    """The ``length`` crop cells after ``luck_cell``, clockwise, luck cells skipped."""
    out: list[int] = []
    cell = luck_cell
    while len(out) < length:
        cell = (cell + 1) % len(RING)
        if RING[cell][0] != LUCK:
            out.append(cell)
    return tuple(out)


def lit_cells(outcome: Outcome) -> tuple[int, ...]:
    """The crop cells that pay for an outcome."""
    cell, special, train = outcome
    if special is None:
        return (cell,)
    if special == KAIHUOCHE:
        return train_cells(cell, train)
    return SPECIAL_CELLS[special]


class Spinner:
    """The spin of one Config, with the cumulative tables built once."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.cells = list(accumulate(config.cell_weights()))
        self.specials = list(accumulate(config.special_weights))

    def draw(self, chance: Chance) -> Outcome:
        """Draw one outcome by the documented algorithm."""
        cell = _pick(chance, self.cells)
        if RING[cell][0] != LUCK:
            return (cell, None, 0)
        special = SPECIAL_IDS[_pick(chance, self.specials)]
        if special != KAIHUOCHE:
            return (cell, special, 0)
        cfg = self.config
        return (cell, special, cfg.train_min + chance.below(cfg.train_max - cfg.train_min + 1))


def spin(config: Config, seed: str) -> Outcome:
    """The outcome of the round with this seed."""
    return Spinner(config).draw(Chance(seed, "spin"))


def payout(config: Config, bets: dict[str, int], outcome: Outcome) -> int:
    """Beans returned for ``bets`` (crop → stake) on an outcome, stakes included."""
    return sum(bets.get(RING[c][1] or "", 0) * config.cell_odds(c) for c in lit_cells(outcome))


# -- return to player -------------------------------------------------------------------------
def outcome_probabilities(config: Config) -> dict[Outcome, Fraction]:
    """Every outcome with its exact probability."""
    weights = config.cell_weights()
    total = sum(weights)
    specials_total = sum(config.special_weights)
    lengths = range(config.train_min, config.train_max + 1)
    out: dict[Outcome, Fraction] = {}
    for cell, weight in enumerate(weights):
        if not weight:
            continue
        p_cell = Fraction(weight, total)
        if RING[cell][0] != LUCK:
            out[(cell, None, 0)] = p_cell
            continue
        for special, sw in zip(SPECIAL_IDS, config.special_weights):
            if not sw:
                continue
            p_special = p_cell * Fraction(sw, specials_total)
            if special == KAIHUOCHE:
                for k in lengths:
                    out[(cell, special, k)] = p_special / len(lengths)
            else:
                out[(cell, special, 0)] = p_special
    return out


def object_rtp(config: Config) -> dict[str, float]:
    """Exact return-to-player of one bean staked on each crop alone."""
    probs = outcome_probabilities(config)
    out = {}
    for crop in OBJECT_IDS:
        ret = sum(p * payout(config, {crop: 1}, o) for o, p in probs.items())
        out[crop] = float(ret)
    return out


def expected_rtp(config: Config) -> float:
    """Exact return-to-player of a bettor staking one bean on every crop each round."""
    probs = outcome_probabilities(config)
    unit = dict.fromkeys(OBJECT_IDS, 1)
    ret = sum(p * payout(config, unit, o) for o, p in probs.items())
    return float(ret / len(OBJECT_IDS))


def simulate_rtp(config: Config, rounds: int, seed: str) -> float:
    """Measured return-to-player of ``rounds`` spins, one bean on every crop each round.

    Runs the game's own draw (:meth:`Spinner.draw`'s steps, inlined for speed) on one
    ``Chance(seed, "rtp")`` stream; plain cells are tallied in a list, luck outcomes in a
    Counter, and each distinct outcome's payout is computed once at the end.
    """
    spinner = Spinner(config)
    chance = Chance(seed, "rtp")
    below = chance.below
    cells = spinner.cells
    total = cells[-1]
    is_luck = [kind == LUCK for kind, _crop in RING]
    plain = [0] * len(RING)
    lucky: Counter[Outcome] = Counter()
    for _ in range(rounds):
        cell = bisect_right(cells, below(total))
        if is_luck[cell]:
            special = SPECIAL_IDS[_pick(chance, spinner.specials)]
            train = 0
            if special == KAIHUOCHE:
                train = config.train_min + below(config.train_max - config.train_min + 1)
            lucky[(cell, special, train)] += 1
        else:
            plain[cell] += 1
    unit = dict.fromkeys(OBJECT_IDS, 1)
    paid = sum(n * payout(config, unit, (cell, None, 0)) for cell, n in enumerate(plain) if n)
    paid += sum(n * payout(config, unit, outcome) for outcome, n in lucky.items())
    return paid / (rounds * len(OBJECT_IDS))
