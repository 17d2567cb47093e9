"""大豐收: the room-wide harvest wheel (seed 000: one sentence; RULES-NOTES decision 7 and §3).

Seed: 大豐收游戲中包含各類押注對象，對象押注的金幣數量越多，獲得金幣的收益越大。 Everything
else is our decision, written down in docs/rules/dafengshou.md:

* A 百人 wheel in the style of the classic 水果機, themed as a harvest: 24 cells on a ring —
  eight crops (蘋果 5, 橘子 10, 葡萄 15, 玉米 20, 西瓜 20, 蟠桃 30, 南瓜 40, 稻穗 100 by
  default) with big cells at the crop's odds and one small cell each at ×2, and two luck cells.
* One State is one round: a betting window for every bettor slot at once (bets in chip sizes
  on any crops, within a per-player and a per-round limit), closed by the house (seat −1, the
  service's clock), then one spin from ``Chance(seed, "spin")`` and the payout.
* A luck cell draws a special: 大三元 (the big 西瓜, 蟠桃, 南瓜 all pay), 小三元 (one big 橘子,
  葡萄, 玉米), 大四喜 (all four big 蘋果), 開火車 (3–6 crop cells after the luck cell), 落空.
* Odds, cell weights and special weights are the room's Config, so operators set the
  return-to-player; :func:`expected_rtp` gives it exactly and :func:`simulate_rtp` measures it.

Glossary (中文 ↔ identifier):

=============  ==========================================
押注對象 (作物) ``object`` (crop ids in :data:`OBJECTS`)
蘋果 橘子 葡萄 玉米  ``apple orange grape corn``
西瓜 蟠桃 南瓜 稻穗  ``watermelon peach pumpkin rice``
大格 / 小格    ``big`` / ``small`` cell
好運格         ``luck`` cell
大三元 小三元 大四喜 開火車 落空  ``dasanyuan xiaosanyuan dasixi kaihuoche miss``
倍率           ``odds`` / ``small_odds``
籌碼           ``chips``
每人每局上限   ``player_limit``
每局總上限     ``round_limit``
押注 / 停止押注 ``bet`` / ``done``
封盤 (開獎)    ``close`` (by the house, seat −1)
返獎率         return-to-player, ``expected_rtp`` / ``simulate_rtp``
=============  ==========================================
"""

from games.engine import registry

from .ruleset import HOUSE, DafengshouRuleset, State
from .wheel import (
    OBJECTS,
    RING,
    SPECIALS,
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

RULESET = registry.register(DafengshouRuleset())

__all__ = [
    "HOUSE",
    "OBJECTS",
    "RING",
    "RULESET",
    "SPECIALS",
    "Config",
    "DafengshouRuleset",
    "State",
    "config_from_params",
    "expected_rtp",
    "lit_cells",
    "object_rtp",
    "outcome_probabilities",
    "payout",
    "simulate_rtp",
    "spin",
]
