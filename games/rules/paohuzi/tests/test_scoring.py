"""The 名堂 / 番 tables, 底數, 囤, 省, the 荒莊 王 penalty, 封頂, escape and the dealer rotation."""

from __future__ import annotations

from games.rules.paohuzi import RULESET, Config, find_hu, next_dealer
from games.rules.paohuzi.cards import TI, WANG, counts_of, parse_card, parse_cards
from games.rules.paohuzi.scoring import hunan_dishu, hunan_fans, shuangwang_score
from games.rules.paohuzi.tests.helpers import act, deal, pass_others

H = Config()
SW = Config(variant="shuangwang", base=1)


def test_hunan_dishu() -> None:
    """003: 底數 = (息−12)÷3 (integer part), 自摸 +1, 天胡 (息×2−12)÷3."""
    assert hunan_dishu(15, False, False) == 1
    assert hunan_dishu(17, False, False) == 1
    assert hunan_dishu(21, True, False) == 4
    assert hunan_dishu(18, False, True) == 8
    assert hunan_dishu(18, True, True) == 9


def test_hunan_mingtang_table() -> None:
    """RULES-NOTES §7 defaults, added together; 平胡 = 1; 海底 +1 on 平胡, +2 on a 名堂胡."""
    fan = lambda red, big=10, small=11, dd=False, haidi=False: hunan_fans(  # noqa: E731
        red, big, small, dd, haidi, H
    )[0]
    assert fan(5) == 1  # 平胡
    assert fan(10) == fan(12) == 2  # 紅胡
    assert fan(13) == fan(16) == 4  # 紅烏, flat
    assert fan(1) == 3  # 點胡
    assert fan(0) == 5  # 烏胡
    assert fan(5, dd=True) == 4  # 對對胡
    assert fan(5, big=18, small=3) == 6 and fan(5, big=20, small=1) == 8  # 大字胡 +1 per extra
    assert fan(5, big=4, small=16) == 8 and fan(5, big=3, small=18) == 10  # 小字胡
    assert fan(0, dd=True) == 9  # 烏胡 + 對對胡 added
    assert fan(5, haidi=True) == 2 and fan(0, haidi=True) == 7  # 海底
    custom = Config(fan_wu=8)
    assert hunan_fans(0, 10, 11, False, False, custom)[0] == 8


def test_shuangwang_fan_table() -> None:
    """000 三: colour × 胡法 — 紅胡王釣 8 (16 王闖), 黑胡王釣 16 (32), 點鉤王釣 12 (24)."""

    def fan(red: int, shape: str = "", self_drawn: bool = True) -> int:
        return shuangwang_score(15, red, self_drawn=self_drawn, shape=shape, xing=0, cfg=SW).fan

    assert fan(10, "wangdiao") == 8 and fan(10, "wangchuang") == 16
    assert fan(0, "wangdiao") == 16 and fan(0, "wangchuang") == 32
    assert fan(1, "wangdiao") == 12 and fan(1, "wangchuang") == 24
    assert fan(5, "wangdiaowang") == 8
    assert fan(10, self_drawn=False) == 2 and fan(1, self_drawn=False) == 3
    assert fan(0, self_drawn=False) == 4 and fan(5) == 2 and fan(5, self_drawn=False) == 1


def test_tun_formula() -> None:
    """囤 = ⌊(息−15)/3⌋ + 1 (+1 加底) + 省: the seed's 21 胡, 三省 → 6 子, 加底 → 7."""
    assert shuangwang_score(21, 5, self_drawn=False, shape="", xing=3, cfg=SW).base_value == 6
    jiadi = Config(variant="shuangwang", base=1, jiadi=True)
    assert shuangwang_score(21, 5, self_drawn=False, shape="", xing=3, cfg=jiadi).base_value == 7


REST16 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6"


def test_wang_diao() -> None:
    """王釣: a 王 pairs with the winning card as the 將 (needs a 跑/提 laid down): 30 息, 4 番,
    底數 6; without a 跑/提 there is no 將 and no 王釣."""
    hand = counts_of(parse_cards((REST16 + " W").split()))
    hu = find_hu(hand, [(TI, ["d9"] * 4)], "x8", self_drawn=True, config=SW)
    assert hu is not None and hu.shape == "wangdiao" and hu.huxi == 30
    assert ("jiang", (7, 21 + 7)) in hu.groups
    assert hu.score.fan == 4 and hu.score.base_value == 6
    # without a 跑/提 there is no 將, so no 王釣
    hand2 = counts_of(parse_cards((REST16 + " d4 d5 d6 W").split()))
    hu2 = find_hu(hand2, [], "x8", self_drawn=True, config=SW)
    assert hu2 is None or hu2.shape != "wangdiao"


def test_wang_diao_wang_and_wang_chuang() -> None:
    """王釣王 (a 王 drawn onto a held 王) scores 8 番 (16 when read as 紅胡); 王闖 (two 王 make a
    坎 with the winning card) scores 8 番 and 21 息."""
    hand = counts_of(parse_cards((REST16 + " W").split()))
    hu = find_hu(hand, [(TI, ["d9"] * 4)], "W", self_drawn=True, config=SW)
    assert hu is not None and hu.shape == "wangdiaowang"
    assert hu.score.fan in (8, 16)  # 紅胡 when the 王 pair is read as a red pair
    hand = counts_of(parse_cards((REST16 + " d4 d5 d6 W W").split()))
    hu = find_hu(hand, [], "x9", self_drawn=True, config=SW)
    assert hu is not None and hu.shape == "wangchuang" and hu.huxi == 21
    assert ("kan", (8, 21 + 8, 21 + 8)) in hu.groups and hu.score.fan == 8


def test_wang_holder_wins_only_on_own_draw() -> None:
    """A hand that needs its 王 to win may win only on its own draw, never on another
    seat's card."""
    hand = counts_of(parse_cards((REST16 + " d4 d5 d6 W W").split()))
    assert find_hu(hand, [], "x9", self_drawn=False, config=SW) is None


def _sw_state(fangpao: bool = False):
    h0 = "x1 x1 x3 x3 x4 x4 x6 x6 x9 x8 d1 d3 d4 d4 d6 d6 d8 d8 W W"
    h1 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 x9 d9"
    h2 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x5 x6 x7 d5 d6 d7 x8 x10"
    cfg = Config(variant="shuangwang", base=2, fangpao=fangpao)
    return deal(cfg, {0: h0, 1: h1, 2: h2}, "d5", "d8 d10")


def test_xing_wrap_and_wang() -> None:
    """省: the next 墩 card's next rank, 十→一, 拾→壹; a 王 is flipped past; each 王 counts."""
    state = _sw_state()
    state.wall = [WANG, parse_card("x10"), parse_card("d3")]
    flipped, xing = RULESET._xing(state, 0, None)
    assert flipped == parse_card("x10")
    assert xing == state.hands[0][parse_card("x1")] + 2  # two x1 + both 王 = 4
    assert xing == 4
    state.wall = [parse_card("d10")]
    assert RULESET._xing(state, 1, None) == (parse_card("d10"), 1)  # 壹 once in seat 1
    state.wall = [WANG]
    assert RULESET._xing(state, 0, None) == (None, 0)  # an empty 墩 (after the 王): no 省


def test_dealt_wang_hidden_and_never_discarded() -> None:
    """A 王 dealt into a hand stays hidden from the other seats (not counted as shown, no hand
    in their view) and discarding it is refused with ILLEGAL."""
    state = _sw_state()
    assert state.phase == "discard" and state.turn == 0
    from games.engine.errors import ErrorCode, IllegalAction

    try:
        act(state, 0, {"type": "discard", "card": "W"})
    except IllegalAction as error:
        assert error.code == ErrorCode.ILLEGAL
    else:
        raise AssertionError("a 王 was discarded")
    view = RULESET.view(state, 1)
    assert view["seats"][0]["wang_shown"] == 0 and "hand" not in view["seats"][0]
    assert "W" not in str(view["seats"][0])


def test_drawn_wang_is_shown() -> None:
    """A 王 drawn from the 墩 is shown: the drawer's wang_shown count is 1 in every seat's view."""
    cfg = Config(variant="shuangwang", base=1)
    state = deal(cfg, {0: "x9 d9"}, "x5", "W")
    act(state, 0, {"type": "discard", "card": "x9"})
    pass_others(state)
    assert state.wang_shown[1] == 1 and state.hands[1][WANG] >= 1
    assert RULESET.view(state, 2)["seats"][1]["wang_shown"] == 1


def test_fangpao_discarder_pays_alone() -> None:
    """With 放炮 on, a win on a discard is offered and the discarder alone pays the winner; the
    third seat pays nothing."""
    state = _sw_state(fangpao=True)
    act(state, 0, {"type": "discard", "card": "x9"})
    assert {"type": "hu"} in RULESET.legal_actions(state, 1)
    act(state, 1, {"type": "hu"})
    result = RULESET.result(state)
    assert [p["from"] for p in result.extra["payments"]] == [0]
    assert result.scores[2] == 0 and result.scores[1] == -result.scores[0] > 0


def test_no_fangpao_no_hu_on_discard() -> None:
    """With 放炮 off, nobody is offered a hu on a discarded card."""
    state = _sw_state(fangpao=False)
    act(state, 0, {"type": "discard", "card": "x9"})
    assert all(a["type"] != "hu" for s in (1, 2) for a in RULESET.legal_actions(state, s))


def test_huangzhuang_wang_penalty() -> None:
    """Decision 1: at 荒莊 each 王 held pays 5 × 底注 to each player holding none."""
    state = _sw_state()
    state.phase, state.huang, state.window = "over", True, None
    result = RULESET.result(state)
    assert result.scores == (-20 * 2, 10 * 2, 10 * 2)  # seat 0 holds both 王, 底注 2
    state.hands[0][WANG] = 1
    state.hands[1][WANG] = 1
    result = RULESET.result(state)
    assert result.scores == (-10, -10, 20)
    hunan = deal(Config(), {}, "x5", "")
    hunan.phase, hunan.huang = "over", True
    assert RULESET.result(hunan).scores == (0, 0, 0)


def test_cap() -> None:
    """雙王 scoring: 囤 = ⌊(息 − 15) ÷ 3⌋ + 1 + 省 (60 息, 6 省 → 22) times the 番 (王闖 ×32)
    per loser; at the table the room cap (封頂 5) limits what the discarder pays."""
    score = shuangwang_score(
        60,
        0,
        self_drawn=True,
        shape="wangchuang",
        xing=6,
        cfg=Config(variant="shuangwang", base=1, cap=100),
    )
    assert score.per_loser == (15 + 1 + 6) * 32
    state = _sw_state(fangpao=True)
    capped = Config(variant="shuangwang", base=2, fangpao=True, cap=5)
    state.config = capped
    act(state, 0, {"type": "discard", "card": "x9"})
    act(state, 1, {"type": "hu"})
    assert RULESET.result(state).extra["payments"][0]["points"] == 5


def test_escape_formula() -> None:
    """003 逃跑: ((其他玩家當前總息數 − 12) ÷ 3 + 8) × d, computed by the engine."""
    h1 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 x9 d9"
    state = deal(Config(), {1: h1}, "d5", "")
    result = RULESET.escape_result(state, 0)
    others = result.extra["others_huxi"]
    assert others[1] == 18
    total = others[1] + others[2]
    expected = (max(0, (total - 12) // 3) + 8) * 3
    assert -result.scores[0] == expected and sum(result.scores) == 0


def test_next_dealer() -> None:
    """003 定莊: the winner deals; 荒莊 keeps the dealer; three 荒莊 in a row → 下家."""
    assert next_dealer("hunan", 0, 2, 1) == (2, 0)
    assert next_dealer("hunan", 0, None, 0) == (0, 1)
    assert next_dealer("hunan", 0, None, 1) == (0, 2)
    assert next_dealer("shuangwang", 2, None, 2) == (0, 0)


def test_config_from_params() -> None:
    """Room parameters map onto Config (variant, cap as text, 加底, unknown keys ignored, 底 3 by
    default) and a bad variant, dealer seat or negative 底 raises ValueError."""
    cfg = RULESET.config_from_params(
        {"variant": "shuangwang", "cap": "600", "jiadi": 1, "unknown": 5}
    )
    assert cfg.variant == "shuangwang" and cfg.cap == 600 and cfg.jiadi and cfg.base == 1
    assert RULESET.config_from_params({}).base == 3
    for bad in ({"variant": "x"}, {"dealer": 3}, {"base": -1}):
        try:
            RULESET.config_from_params(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
