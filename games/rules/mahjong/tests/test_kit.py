"""The shared invariant kit for 歡樂麻將 in each room kind and with the core options."""

from __future__ import annotations

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.engine.testing import check_game


def test_registered() -> None:
    """The package registers 歡樂麻將 under its game id."""
    ruleset = registry.get("mahjong_huanle")
    assert ruleset.title == "歡樂麻將"
    assert "mahjong_huanle" in registry.available()


def test_kit_dazhong_with_bots() -> None:
    """Random playouts (and one bot playout) keep every invariant in a 大眾場."""
    ruleset = registry.get("mahjong_huanle")
    config = ruleset.config_from_params({"room_kind": "大眾場"})
    check_game(ruleset, config, 4, ["kit-1", "kit-2", "kit-5", "kit-6"], use_bots=True)


def test_kit_bafan_multi_win_lou_hu() -> None:
    """An 8番場 with 一炮多響 and 漏胡 on, dealer seat 2, 南 round."""
    ruleset = registry.get("mahjong_huanle")
    config = ruleset.config_from_params(
        {
            "room_kind": "bafan",
            "multi_win": True,
            "lou_hu": "1",
            "dealer": 2,
            "prevalent_wind": 1,
            "unknown_key": 5,
        }
    )
    assert config.room_kind == "bafan" and config.multi_win and config.lou_hu
    check_game(ruleset, config, 4, ["kit-3"], use_bots=True)


def test_kit_wufan() -> None:
    """The shared ruleset kit (check_game) passes for 歡樂麻將 in the 五番 room kind."""
    ruleset = registry.get("mahjong_huanle")
    config = ruleset.config_from_params({"room_kind": "wufan"})
    check_game(ruleset, config, 4, ["kit-4"])
