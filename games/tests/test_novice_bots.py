"""新手場 in every game with a bot (room parameter ``bot_level`` = novice, 機器人強度).

The room form's own test (lobby/tests/test_room_form.py) proves the setting is saved and
reaches the hand's config and a hand played by 托管 on PostgreSQL. Here, on the engines: with
the setting, every decision of ``ruleset.bot_action`` (the bots' and 托管's one entry point) is
the game's baseline player's, over whole seeded hands; without it the full bot plays, and it
differs from the baseline somewhere on the same hands, so the setting changes how the table
plays. 斗地主's 新手場 (its heuristic without the search) has its own test
(games/rules/doudizhu/tests/test_bot_search.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine import registry
from games.engine.params import BOT_LEVEL, NOVICE, ParamError
from games.rules.mahjong.baseline import baseline_action as mahjong_baseline
from games.rules.paohuzi.baseline import baseline_action as paohuzi_baseline
from games.rules.zhajinhua.baseline import choose as zhajinhua_baseline

Baseline = Callable[[Any, Any, int], dict[str, Any]]

# (game, room params, seats, the game's baseline player, hands)
CASES: list[tuple[str, dict[str, Any], int, Baseline, int]] = [
    ("paohuzi", {"variant": "hunan"}, 3, paohuzi_baseline, 4),
    ("paohuzi", {"variant": "shuangwang"}, 3, paohuzi_baseline, 4),
    ("mahjong_huanle", {}, 4, mahjong_baseline, 2),
    ("mahjong_yongzhou", {}, 4, mahjong_baseline, 2),
    ("mahjong_yueqing", {}, 4, mahjong_baseline, 2),
    ("zhajinhua", {}, 5, zhajinhua_baseline, 6),
]
IDS = [f"{game}-{params.get('variant', '')}" for game, params, *_ in CASES]


def _decisions(game: str, params: dict[str, Any], seats: int, hands: int, seed: str):
    """Every (ruleset, state, seat) at which a seat decides, over ``hands`` seeded hands played
    by ``ruleset.bot_action`` at every seat (yielded before the action is applied)."""
    ruleset = registry.get(game)
    config = ruleset.config_from_params(params)
    for h in range(hands):
        state = ruleset.new_game(config, f"{seed}-{h}", seats)
        for _ in range(5000):
            if ruleset.is_over(state):
                break
            seat = min(ruleset.to_act(state))
            yield ruleset, state, seat
            ruleset.apply(state, seat, ruleset.bot_action(state, seat))
        assert ruleset.is_over(state), f"{game} hand {h} did not end"


@pytest.mark.parametrize(("game", "params", "seats", "baseline", "hands"), CASES, ids=IDS)
def test_a_novice_room_plays_the_baseline_player(
    game: str, params: dict[str, Any], seats: int, baseline: Baseline, hands: int
) -> None:
    """With ``bot_level`` novice every decision over whole hands is the baseline's."""
    novice = {**params, "bot_level": NOVICE}
    count = 0
    for ruleset, state, seat in _decisions(game, novice, seats, hands, "novice"):
        assert ruleset.bot_action(state, seat) == baseline(ruleset, state, seat)
        count += 1
    assert count > 20 * hands


@pytest.mark.parametrize(("game", "params", "seats", "baseline", "hands"), CASES, ids=IDS)
def test_a_normal_room_plays_the_full_bot(
    game: str, params: dict[str, Any], seats: int, baseline: Baseline, hands: int
) -> None:
    """Without the setting (its default, 標準) the full bot plays: on the same seeded hands it
    makes a decision the baseline would not."""
    for ruleset, state, seat in _decisions(game, params, seats, hands, "novice"):
        if ruleset.bot_action(state, seat) != baseline(ruleset, state, seat):
            return
    pytest.fail(f"{game}: the full bot played exactly as the baseline")


@pytest.mark.parametrize(
    "game",
    ["doudizhu", "paohuzi", "mahjong_huanle", "mahjong_yongzhou", "mahjong_yueqing", "zhajinhua"],
)
def test_every_game_with_a_bot_offers_the_setting(game: str) -> None:
    """The room form offers 機器人強度 (標準 / 新手場) and the engine refuses any other value on
    its field; 大豐收, whose bets are not a bot's turns, does not."""
    ruleset = registry.get(game)
    spec = {p.name: p for p in ruleset.room_params}["bot_level"]
    assert spec.choices == BOT_LEVEL.choices and spec.default == "normal"
    assert ruleset.room_params_parse({"bot_level": NOVICE})["bot_level"] == NOVICE
    with pytest.raises(ParamError) as refused:
        ruleset.config_from_params({"bot_level": "expert"})
    assert refused.value.name == "bot_level"
    assert "bot_level" not in {p.name for p in registry.get("dafengshou").room_params}
