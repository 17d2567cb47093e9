"""跑胡子 (Hunan, seed 003) and 雙王扯胡子 (seed 000) — see docs/rules/paohuzi.md."""

from games.engine import registry
from games.rules.paohuzi.hu import Hu, best_partial_huxi, find_hu
from games.rules.paohuzi.params import Config, next_dealer
from games.rules.paohuzi.ruleset import PaohuziRuleset

RULESET = registry.register(PaohuziRuleset())

__all__ = ["Config", "Hu", "PaohuziRuleset", "RULESET", "best_partial_huxi", "find_hu",
           "next_dealer"]
