"""What a player reads at the table: how a mahjong hand was won, card names in refusals."""

from __future__ import annotations

import re

import pytest

from games.engine import registry
from games.tests.test_huanle_board import snapshot


def _finished(game: str, self_drawn: bool):
    """A whole hand of ``game`` played by the bots from the first seed that ends the wanted way."""
    ruleset = registry.get(game)
    config = ruleset.config_from_params({})
    for n in range(400):
        state = ruleset.new_game(config, f"words-{game}-{n}", 4)
        for _step in range(2000):
            if ruleset.is_over(state):
                break
            seat = min(ruleset.to_act(state))
            ruleset.apply(state, seat, ruleset.bot_action(state, seat))
        out = state.outcome or {}
        if out.get("type") == "win" and bool(out.get("self_drawn")) == self_drawn:
            if not out.get("rob_kong"):
                return ruleset, state
    raise AssertionError(f"no {game} hand ended {'自摸' if self_drawn else 'on a discard'}")


def _how(ruleset, state, game: str) -> str:
    from games import caches
    from games.rendering import render_html

    snap = snapshot(ruleset, state, 0, beans=[10, -10, 0, 0])
    snap["table"]["game"] = game
    caches.clear_all()
    html = render_html(snap, 0, None)
    found = re.search(r'<span class="mj-how">(.*?)</span>', html, re.S)
    assert found, "the settlement has a line saying how the hand was won"
    return found.group(1)


@pytest.mark.parametrize("game", ["mahjong_huanle", "mahjong_yongzhou", "mahjong_yueqing"])
def test_every_mahjong_settlement_says_zimo_or_who_discarded(game):
    """The settlement's summary of every mahjong says 自摸 for a self-drawn win and names the
    player who discarded the winning tile (「X 點炮」) for a win on a discard."""
    ruleset, state = _finished(game, self_drawn=True)
    assert "自摸" in _how(ruleset, state, game)
    ruleset, state = _finished(game, self_drawn=False)
    loser = state.outcome["from"]
    assert f"玩家{loser} 點炮" in _how(ruleset, state, game)


@pytest.mark.parametrize(
    ("code", "params", "shown", "raw"),
    [
        ("bad_pattern", {"cards": "4R"}, "4 大王 不是有效的牌型", "4R"),
        ("does_not_beat", {"cards": "TTB"}, "10 10 小王 大不過上家的牌", "TTB"),
        ("not_held", {"tile": "W5"}, "你手上沒有 五萬", "W5"),
        ("not_held", {"tile": "J1"}, "你手上沒有 紅中", "J1"),
        ("not_held", {"card": "d5"}, "你手上沒有 伍", "d5"),
        ("not_held", {"card": "x10"}, "你手上沒有 十", "x10"),
    ],
)
def test_a_refusal_names_the_cards_never_their_codes(code, params, shown, raw):
    """A refusal names the cards as the player sees them (「4 大王 不是有效的牌型」, 五萬, 伍),
    never the notation's codes (「4R」, W5, d5); in English the names are glossed, not coded."""
    from django.utils import translation

    from games.engine.errors import IllegalAction
    from games.error_messages import illegal_text

    error = IllegalAction(code, "developer detail", params)
    with translation.override("zh-hant"):
        text = illegal_text(error)
    assert text == shown and raw not in text
    with translation.override("en"):
        english = illegal_text(error)
    assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(raw)}(?![A-Za-z0-9])", english), english


def test_the_laizi_rank_is_named_never_coded():
    """A 癩子場 board names a 10 drawn as the 癩子 「10」, never the notation's 「T」."""
    from games import caches
    from games.rendering import render_html

    ruleset = registry.get("doudizhu")
    state = ruleset.new_game(ruleset.config_from_params({"variant": "laizi"}), "laizi-words", 3)
    state.laizi = "T"
    snap = snapshot(ruleset, state, 0)
    snap["table"]["game"] = "doudizhu"
    snap["seats"] = snap["seats"][:3]
    snap["hand"]["params"] = {"variant": "laizi"}
    caches.clear_all()
    html = render_html(snap, 0, None)
    found = re.search(r'<span class="laizi">(.*?)</span>', html, re.S)
    assert found and "<b>10</b>" in found.group(1), found and found.group(1)
