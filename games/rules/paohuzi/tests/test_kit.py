"""The shared invariant kit on both variants: random and bot playouts reach the end."""

from __future__ import annotations

from games.engine import registry
from games.engine.testing import check_game
from games.rules.paohuzi import RULESET, Config


def test_registered() -> None:
    """跑胡子 is registered under 'paohuzi' with its Chinese title."""
    assert registry.get("paohuzi") is RULESET
    assert RULESET.title == "跑胡子"


def test_kit_hunan() -> None:
    """The shared ruleset kit check_game passes for 跑胡子 in the 湖南 rules with bots."""
    check_game(RULESET, Config(), 3, ["k1", "k2", "k3", "k4"], use_bots=True)


def test_kit_shuangwang() -> None:
    """The shared kit check_game passes for 雙王扯胡子 with 放炮 (win on a discard) allowed."""
    cfg = RULESET.config_from_params({"variant": "shuangwang", "fangpao": True})
    check_game(RULESET, cfg, 3, ["s1", "s2", "s3", "s4"], use_bots=True)


def test_kit_other_dealer() -> None:
    """The shared kit check_game passes for 雙王扯胡子 with seat 2 dealing and 加底 on."""
    cfg = RULESET.config_from_params({"variant": "shuangwang", "dealer": 2, "jiadi": 1})
    check_game(RULESET, cfg, 3, ["d1", "d2"], use_bots=True)


def test_view_in_a_claim_window_hides_who_may_claim() -> None:
    """A claim window: the claimant sees its choices; others see the card, not who is asked."""
    from games.rules.paohuzi.tests.helpers import act, deal

    hands = {0: "x2 x9 d9", 1: "x1 x2 x2 x3 x3 x4 d2 d2 x6 x6 x8 x8 d5 d5 d6 d8 d8 d9 x10 x10"}
    state = deal(Config(), hands, "d10", "x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    mine = RULESET.view(state, 1)
    theirs = RULESET.view(state, 2)
    assert mine["to_act"] == [1] and mine["claim_options"]["peng"] is True
    assert mine["claim_options"]["default"] == "pass" and mine["claim_options"]["chi"]
    assert theirs["to_act"] == [] and theirs["legal_actions"] == []
    assert theirs["current"] == {"card": "x2", "source": "discard", "from": 0, "shown": True}
    assert "hand" not in theirs["seats"][1] and theirs["seats"][1]["hand_count"] == 20
    assert theirs["liang"] == "d10" and theirs["wall_count"] == 19
    spectator = RULESET.spectator_view(state)
    assert "hand" not in spectator and spectator["to_act"] == []


def test_bot_takes_hu_and_huxi_claims_and_discards_isolated() -> None:
    """The bot (and the timeout action) takes a hu when offered, discards an isolated card
    before paired or connected ones, and takes a 吃 that is worth 胡息."""
    from games.rules.paohuzi.tests.helpers import act, deal
    from games.rules.paohuzi.tests.test_flow import H0, H1, H2

    state = deal(Config(), {0: H0, 1: H1, 2: H2}, "d5", "x9")
    act(state, 0, {"type": "discard", "card": "d1"})
    while state.window is not None and state.window["card"] != 8:
        seat = sorted(RULESET.to_act(state))[0]
        act(state, seat, {"type": "pass"})
    assert RULESET.bot_action(state, 1) == {"type": "hu"}
    assert RULESET.auto_action(state, 1) == {"type": "hu"}
    # a discard: the dealer's isolated d1 goes before paired or connected cards
    state = deal(Config(), {0: H0, 1: H1, 2: H2}, "d5", "x9")
    assert RULESET.bot_action(state, 0) == {"type": "discard", "card": "d1"}
    assert RULESET.auto_action(state, 0)["type"] == "discard"
    # a 吃 worth 胡息 is taken
    hands = {0: "x2 x9 d9", 1: "x1 x3 x6 x6 x8 x8 d5 d5 d6 d8 d8 d9 x10 x10 d4 d4 x5 d1 d1 x4"}
    state = deal(Config(), hands, "d4", "x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    choice = RULESET.bot_action(state, 1)
    assert choice["type"] == "chi" and choice["groups"][0] == ["x1", "x2", "x3"]
