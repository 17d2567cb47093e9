"""The shared invariant kit on both variants: random and bot playouts reach the end."""

from __future__ import annotations

from games.engine import registry
from games.engine.testing import check_game
from games.rules.paohuzi import RULESET, Config


def test_registered() -> None:
    assert registry.get("paohuzi") is RULESET
    assert RULESET.title == "跑胡子"


def test_kit_hunan() -> None:
    check_game(RULESET, Config(), 3, ["k1", "k2", "k3", "k4"], use_bots=True)


def test_kit_shuangwang() -> None:
    cfg = RULESET.config_from_params({"variant": "shuangwang", "fangpao": True})
    check_game(RULESET, cfg, 3, ["s1", "s2", "s3", "s4"], use_bots=True)


def test_kit_other_dealer() -> None:
    cfg = RULESET.config_from_params({"variant": "shuangwang", "dealer": 2, "jiadi": 1})
    check_game(RULESET, cfg, 3, ["d1", "d2"], use_bots=True)
