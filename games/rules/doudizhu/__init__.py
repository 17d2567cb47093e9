"""歡樂斗地主 (seed 002): see docs/rules/doudizhu.md."""

from games.engine import registry
from games.rules.doudizhu.patterns import Pattern, beats, classify, legal_plays
from games.rules.doudizhu.ruleset import Config, DoudizhuRuleset, State

RULESET = registry.register(DoudizhuRuleset())

__all__ = ["Config", "DoudizhuRuleset", "Pattern", "RULESET", "State", "beats", "classify",
           "legal_plays"]
