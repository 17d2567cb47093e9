"""The 大豐收 wheel: layout, the documented spin, payouts and the return-to-player."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from fractions import Fraction
from itertools import accumulate

from games.engine.chance import Chance
from games.rules.dafengshou import (
    OBJECTS,
    RING,
    Config,
    config_from_params,
    expected_rtp,
    lit_cells,
    object_rtp,
    outcome_probabilities,
    payout,
    simulate_rtp,
    spin,
)
from games.rules.dafengshou.wheel import LUCK_CELLS, SPECIAL_CELLS, Spinner


def test_ring_layout() -> None:
    """24 cells: eight crops with big cells and one small cell each, and two luck cells."""
    assert len(RING) == 24
    assert LUCK_CELLS == (7, 19)
    counts = Counter(RING)
    big = {crop: counts[("big", crop)] for crop, _zh in OBJECTS}
    assert big == {
        "apple": 4,
        "orange": 2,
        "grape": 2,
        "corn": 2,
        "watermelon": 1,
        "peach": 1,
        "pumpkin": 1,
        "rice": 1,
    }
    assert all(counts[("small", crop)] == 1 for crop, _zh in OBJECTS)
    assert [RING[c][1] for c in SPECIAL_CELLS["dasanyuan"]] == ["watermelon", "peach", "pumpkin"]
    assert [RING[c][1] for c in SPECIAL_CELLS["xiaosanyuan"]] == ["orange", "grape", "corn"]
    assert {RING[c] for c in SPECIAL_CELLS["dasixi"]} == {("big", "apple")}
    assert len(SPECIAL_CELLS["dasixi"]) == 4


def test_payouts_of_every_kind_of_outcome() -> None:
    """Payout is stake × odds (stake included) for a big or small crop cell, 0 on an unstaked
    cell, and each 好運 special (大三元, 小三元, 大四喜, 開火車, miss) pays its lit cells;
    the 開火車 train wraps past cell 23 and skips the luck cell."""
    config = Config()
    bets = {"apple": 10, "corn": 100, "watermelon": 10, "peach": 10, "pumpkin": 10, "rice": 1}
    assert payout(config, bets, (1, None, 0)) == 50  # big 蘋果 ×5, stake included
    assert payout(config, bets, (12, None, 0)) == 20  # small 蘋果 ×2
    assert payout(config, bets, (3, None, 0)) == 100  # big 稻穗 ×100
    assert payout(config, bets, (5, None, 0)) == 0  # 葡萄: nothing staked on it
    assert payout(config, bets, (7, "dasanyuan", 0)) == 200 + 300 + 400
    assert payout(config, bets, (7, "xiaosanyuan", 0)) == 100 * 20
    assert payout(config, bets, (19, "dasixi", 0)) == 4 * 50
    assert payout(config, bets, (19, "miss", 0)) == 0
    # 開火車 from cell 7: 8 big 蘋果, 9 small 玉米, 10 big 玉米
    assert lit_cells((7, "kaihuoche", 3)) == (8, 9, 10)
    assert payout(config, bets, (7, "kaihuoche", 3)) == 50 + 200 + 2000
    # the train wraps past cell 23 and skips the luck cell
    assert lit_cells((19, "kaihuoche", 6)) == (20, 21, 22, 23, 0, 1)
    assert lit_cells((7, "kaihuoche", 12)) == (8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20)


def test_spin_follows_the_documented_algorithm() -> None:
    """below(W) picks the cell by cumulative weights; on a luck cell a second draw the special."""
    config = Config()
    cumulative = list(accumulate(config.cell_weights()))
    specials = list(accumulate(config.special_weights))
    seen = set()
    for i in range(400):
        seed = f"{i:064x}"
        chance = Chance(seed, "spin")
        cell = bisect_right(cumulative, chance.below(cumulative[-1]))
        outcome = spin(config, seed)
        assert outcome[0] == cell
        if cell in LUCK_CELLS:
            special = ("dasanyuan", "xiaosanyuan", "dasixi", "kaihuoche", "miss")[
                bisect_right(specials, chance.below(specials[-1]))
            ]
            assert outcome[1] == special
            if special == "kaihuoche":
                assert outcome[2] == 3 + chance.below(4)
        seen.add(RING[cell][0])
        assert spin(config, seed) == outcome  # deterministic
    assert seen == {"big", "small", "luck"}


def test_expected_rtp_is_exact() -> None:
    """Probabilities sum to one; a wheel with no luck cells has the RTP of its cell weights."""
    config = Config()
    assert sum(outcome_probabilities(config).values()) == 1
    plain = Config(luck_weight=0, big_weights=(1,) * 8, small_weights=(1,) * 8)
    # 22 equally likely cells; one bean on each crop returns the lit cell's odds
    returns = [plain.cell_odds(c) for c in range(24) if c not in LUCK_CELLS]
    assert expected_rtp(plain) == float(Fraction(sum(returns), 22 * 8))
    rtp = object_rtp(plain)
    assert math.isclose(rtp["rice"], (100 + 2) / 22)
    assert math.isclose(rtp["apple"], (4 * 5 + 2) / 22)
    assert math.isclose(expected_rtp(plain), sum(rtp.values()) / 8)


def test_default_rtp_is_below_one_on_every_crop() -> None:
    """With the default odds and weights the expected return to player is between 94 % and 97 %
    overall and on each crop, and raising a crop's odds raises that crop's return."""
    assert 0.94 < expected_rtp(Config()) < 0.97
    for crop, rtp in object_rtp(Config()).items():
        assert 0.94 < rtp < 0.97, crop
    richer = config_from_params({"odds": {"rice": 200}})
    assert object_rtp(richer)["rice"] > object_rtp(Config())["rice"] + 0.5


def test_simulation_runs_the_game_draw_and_matches_expectation() -> None:
    """simulate_rtp uses the game's own Spinner draw (same seed, same payout) and over 100 000
    rounds lands within 0.03 of the exact expected_rtp."""
    config = Config()
    rounds = 3000
    spinner = Spinner(config)
    chance = Chance("sim", "rtp")
    unit = {crop: 1 for crop, _zh in OBJECTS}
    paid = sum(payout(config, unit, spinner.draw(chance)) for _ in range(rounds))
    assert simulate_rtp(config, rounds, "sim") == paid / (rounds * 8)
    measured = simulate_rtp(config, 100_000, "check")
    assert abs(measured - expected_rtp(config)) < 0.03  # about 6 σ at this many rounds


def test_config_from_params() -> None:
    """Room parameters map onto Config: odds list, small odds, chips sorted, limits, partial
    special and big weights over the defaults; unknown keys are ignored; luck cells have odds 0."""
    config = config_from_params(
        {
            "odds": [6, 10, 15, 20, 20, 30, 40, 90],
            "small_odds": 3,
            "chips": [100, 10],
            "player_limit": 500,
            "round_limit": 5000,
            "special_weights": {"miss": 0},
            "big_weights": {"apple": 300},
            "other": 1,
        }
    )
    assert config.odds[0] == 6 and config.odds[-1] == 90 and config.small_odds == 3
    assert config.chips == (10, 100)
    assert config.special_weights == (1, 2, 2, 3, 0)
    assert config.big_weights[0] == 300 and config.big_weights[1] == Config().big_weights[1]
    assert config.cell_odds(12) == 3 and config.cell_odds(7) == 0
