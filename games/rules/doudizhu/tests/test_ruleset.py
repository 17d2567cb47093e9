"""The hand flow: bidding, robbing, redeal, 明牌, 加倍, 悶抓/倒拉壘沃, play, scoring, escape."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine.errors import ErrorCode, IllegalAction
from games.engine.testing import check_game
from games.rules.doudizhu import RULESET, Config, State
from games.rules.doudizhu.patterns import RANKS, classify, sort_cards
from games.rules.doudizhu.scoring import escape_factor
from games.rules.doudizhu.tests.test_patterns import STACKED_KICKER, plane_heavy_deal

R = RULESET


def act(st: State, seat: int, action: dict) -> None:
    R.apply(st, seat, action)


def dump(st: State) -> str:
    return json.dumps(R.state_to_json(st), sort_keys=True, ensure_ascii=False)


def rejects(st: State, seat: int, action: dict, code: ErrorCode) -> None:
    before = dump(st)
    with pytest.raises(IllegalAction) as info:
        R.apply(st, seat, action)
    assert info.value.code == code, info.value
    assert dump(st) == before


def to_bidding(cfg: Config = Config(), seed: str = "seed-1", mingpai: dict | None = None) -> State:
    st = R.new_game(cfg, seed, 3)
    mingpai = mingpai or {}
    for s in range(3):
        act(st, s, {"type": "start", "mingpai": mingpai.get(s) == "start"})
    for s in list(mingpai) + [0, 1, 2]:
        if st.phase == "dealing" and s in R.to_act(st):
            if isinstance(mingpai.get(s), int):
                act(st, s, {"type": "mingpai", "dealt": mingpai[s]})
            else:
                act(st, s, {"type": "ready"})
    assert st.phase == "bidding"
    return st


def to_playing(
    cfg: Config = Config(seat_beans=(0, 0, 0), double_threshold=10), seed: str = "seed-1"
) -> State:
    """First bidder calls, nobody robs, nobody may double: the caller leads."""
    st = to_bidding(cfg, seed)
    caller = st.turn
    act(st, caller, {"type": "bid", "call": True})
    while st.phase == "robbing":
        act(st, st.turn, {"type": "rob", "rob": False})
    assert st.phase == "playing" and st.landlord == caller
    return st


# -- the kit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "laizi", "menzhua"])
def test_invariant_kit(variant: str) -> None:
    """Random playouts, JSON and replay round trips, no leak, out-of-turn and malformed actions."""
    check_game(R, Config(variant=variant), 3, [f"{variant}-{i}" for i in range(3)], use_bots=True)


# -- bidding, robbing, redeal -----------------------------------------------------------------


def test_first_bidder_is_seeded_and_redeal_when_nobody_calls() -> None:
    """The first bidder is drawn from the seed (the same seed gives the same bidder), and when
    all three decline to call (叫地主) the same 54 cards are dealt again."""
    st = to_bidding()
    first = st.first_bidder
    hands = list(st.hands)
    for i in range(3):
        act(st, (first + i) % 3, {"type": "bid", "call": False})
    assert st.deal_no == 1 and st.phase == "dealing" and st.hands != hands
    assert sorted("".join(st.hands) + st.dipai) == sorted(
        "".join(hands) + R.new_game(Config(), "seed-1", 3).dipai
    )
    again = to_bidding()
    assert again.first_bidder == first  # deterministic from the seed


def test_first_mingpai_player_bids_first_and_is_landlord_when_nobody_calls() -> None:
    """The first player to show his cards (明牌) bids first and becomes landlord with the 底牌
    when nobody calls; only the largest 明牌 multiplier counts (seat 2's ×4, not seat 1's ×3)."""
    st = to_bidding(mingpai={2: 5, 1: 12})
    assert st.mingpai == [0, 3, 4] and st.mingpai_order == [2, 1]
    assert st.first_bidder == 2
    for seat in (2, 0, 1):
        act(st, seat, {"type": "bid", "call": False})
    assert st.landlord == 2 and len(st.hands[2]) == 20
    parts = R.multiplier_view(st)
    assert parts["total"] == 4  # the largest 明牌 only


def test_mingpai_start_is_x5_and_shown_to_others() -> None:
    """明牌 at the start is ×5, makes that seat the first bidder, and shows his hand to the
    other players in 'shown' (he sees it as his own hand)."""
    st = to_bidding(mingpai={0: "start"})
    assert st.mingpai[0] == 5 and st.first_bidder == 0
    assert R.view(st, 1)["shown"] == {"0": st.hands[0]}
    assert "0" not in R.view(st, 0)["shown"] and R.view(st, 0)["hand"] == st.hands[0]
    assert R.multiplier_view(st)["total"] == 5


def test_dealing_mingpai_threshold() -> None:
    """發牌明牌 ×4 with at most 8 cards dealt, ×3 after (RULES-NOTES §2 #4)."""
    assert to_bidding(mingpai={0: 8}).mingpai[0] == 4
    assert to_bidding(mingpai={0: 9}).mingpai[0] == 3
    st = R.new_game(Config(), "x", 3)
    for s in range(3):
        act(st, s, {"type": "start", "mingpai": False})
    rejects(st, 0, {"type": "mingpai", "dealt": 18}, ErrorCode.MALFORMED)
    rejects(st, 0, {"type": "mingpai"}, ErrorCode.MALFORMED)


def test_robbing_order_and_multiplier() -> None:
    """After a 叫, each later seat may 搶 once; the caller has the last word; ×2 per 搶."""
    st = to_bidding()
    f = st.first_bidder
    a, b, c = f, (f + 1) % 3, (f + 2) % 3
    act(st, a, {"type": "bid", "call": False})
    act(st, b, {"type": "bid", "call": True})
    assert st.phase == "robbing" and st.turn == c  # seat a said 不叫: no 搶 for him
    act(st, c, {"type": "rob", "rob": True})
    assert st.turn == b  # the caller's last chance
    act(st, b, {"type": "rob", "rob": True})
    assert st.landlord == b and st.robbers == [c, b]
    assert R.multiplier_view(st)["total"] == 4
    assert st.bids[a] == "不叫" and st.bids[c] == "搶地主" and st.bids[b] == "搶地主"


def test_no_rob_caller_is_landlord_without_last_chance() -> None:
    """When the others decline to rob (搶地主) after a call, the caller is landlord at once (no
    last word), the game moves to doubling and the 底牌 is shown to all."""
    st = to_bidding()
    f = st.first_bidder
    act(st, f, {"type": "bid", "call": True})
    act(st, (f + 1) % 3, {"type": "rob", "rob": False})
    act(st, (f + 2) % 3, {"type": "rob", "rob": False})
    assert st.landlord == f and st.phase == "doubling"
    assert R.view(st, 0)["dipai"] == st.dipai


def test_rob_then_caller_declines() -> None:
    """When one player robs (搶地主) and the caller then declines, the robber is landlord and
    the one rob doubles the multiplier (×2)."""
    st = to_bidding()
    f = st.first_bidder
    act(st, f, {"type": "bid", "call": True})
    act(st, (f + 1) % 3, {"type": "rob", "rob": False})
    act(st, (f + 2) % 3, {"type": "rob", "rob": True})
    act(st, f, {"type": "rob", "rob": False})
    assert st.landlord == (f + 2) % 3 and R.multiplier_view(st)["total"] == 2


# -- 加倍 --------------------------------------------------------------------------------------


def _landlord_first(cfg: Config) -> State:
    st = to_bidding(cfg)
    f = st.first_bidder
    act(st, f, {"type": "bid", "call": True})
    act(st, (f + 1) % 3, {"type": "rob", "rob": False})
    act(st, (f + 2) % 3, {"type": "rob", "rob": False})
    return st


def test_double_eligibility() -> None:
    """Landlord: all three above the threshold; farmer: himself and the landlord (002 §六)."""
    st = to_bidding(Config())
    f = st.first_bidder
    beans = [500, 500, 500]
    poor = (f + 1) % 3
    beans[poor] = 50
    st = _landlord_first(Config(seat_beans=tuple(beans), double_threshold=100))
    assert st.double_eligible[f] is False
    assert st.double_eligible[poor] is False
    assert st.double_eligible[(f + 2) % 3] is True
    assert R.to_act(st) == frozenset([(f + 2) % 3])
    rejects(st, f, {"type": "double", "double": True}, ErrorCode.NOT_YOUR_TURN)
    beans = [500, 500, 500]
    beans[f] = 50
    st = _landlord_first(Config(seat_beans=tuple(beans), double_threshold=100))
    assert st.phase == "playing"  # a poor landlord: nobody may double


def test_double_per_pair_scoring() -> None:
    """Pair points = 底分 × 倍數 × own 加倍 × opponent 加倍 (RULES-NOTES §2 #5)."""
    st = _landlord_first(Config())
    landlord = st.landlord
    f1, f2 = [s for s in range(3) if s != landlord]
    act(st, landlord, {"type": "double", "double": True})
    act(st, f1, {"type": "double", "double": True})
    act(st, f2, {"type": "double", "double": False})
    assert st.phase == "playing"
    st.hands[landlord] = "34567"
    act(st, landlord, {"type": "play", "cards": "34567"})
    res = R.result(st)
    # 春天 ×2; pair with f1: 2 × 2 × 2 = 8; with f2: 2 × 2 × 1 = 4
    assert res.scores[landlord] == 12 and res.scores[f1] == -8 and res.scores[f2] == -4
    labels = [(ln.label, ln.value, ln.seat) for ln in res.lines]
    assert ("加倍", "×2", landlord) in labels and ("春天", "×2", None) in labels


# -- play -------------------------------------------------------------------------------------


def test_spring_and_anti_spring() -> None:
    """春天: the landlord goes out before any farmer plays, ×2; 反春: the landlord plays only
    his first lead and a farmer goes out, ×2 and the farmers win (landlord −4)."""
    st = to_playing()
    ll = st.landlord
    st.hands[ll] = "3456789"
    act(st, ll, {"type": "play", "cards": "3456789"})
    assert st.spring and R.result(st).extra["multiplier"] == 2
    st = to_playing()
    ll = st.landlord
    nxt = (ll + 1) % 3
    st.hands[ll] = "3KK"
    st.hands[nxt] = "5"
    act(st, ll, {"type": "play", "cards": "3"})
    act(st, nxt, {"type": "play", "cards": "5"})
    res = R.result(st)
    assert st.anti_spring and res.winners == tuple(s for s in range(3) if s != ll)
    assert ("反春", "×2", None) in [(ln.label, ln.value, ln.seat) for ln in res.lines]
    assert res.scores[ll] == -4


def test_trick_flow_and_bombs() -> None:
    """A trick: the lead and its name are shown, a follower may pass, a bomb and the rocket beat
    it, two passes end the trick and the last player leads; each bomb doubles, zero-sum score."""
    st = to_playing()
    ll = st.landlord
    a, b = (ll + 1) % 3, (ll + 2) % 3
    st.hands[ll] = "33KKK"
    st.hands[a] = "4444A"
    st.hands[b] = "BR5"
    act(st, ll, {"type": "play", "cards": "33"})
    view = R.view(st, a)
    assert view["lead"] == {"seat": ll, "cards": "33", "name": "對子", "as": "33"}
    assert view["options"] == [{"type": "pass"}] and view["can_play"] is True
    act(st, a, {"type": "play", "cards": "4444"})
    act(st, b, {"type": "play", "cards": "BR"})
    act(st, ll, {"type": "pass"})
    assert R.view(st, 0)["last"][ll] == "pass"
    act(st, a, {"type": "pass"})
    assert st.lead is None and st.turn == b and st.last == [None, None, None]
    act(st, b, {"type": "play", "cards": "5"})
    res = R.result(st)
    assert st.anti_spring  # the landlord played only his first lead
    assert res.extra["bombs"] == 2 and res.extra["multiplier"] == 8
    assert sum(res.scores) == 0 and res.scores[ll] == -16


def test_a_pass_records_the_play_passed_on() -> None:
    """Each pass is kept per seat as the play it passed on and who made it (public: every seat
    saw it), the 癩子 reading included; it survives state_to_json / state_from_json."""
    st = to_playing()
    ll = st.landlord
    a, b = (ll + 1) % 3, (ll + 2) % 3
    st.hands[ll] = "33KKK4"
    st.hands[a] = "4444A"
    st.hands[b] = "56"
    act(st, ll, {"type": "play", "cards": "33"})
    act(st, a, {"type": "pass"})
    act(st, b, {"type": "pass"})
    act(st, ll, {"type": "play", "cards": "KKK"})
    act(st, a, {"type": "pass"})
    assert st.passed_on[a] == [f"{ll}:33", f"{ll}:KKK"]
    assert st.passed_on[b] == [f"{ll}:33"] and st.passed_on[ll] == []
    again = R.state_from_json(json.loads(json.dumps(R.state_to_json(st))))
    assert again.passed_on == st.passed_on
    old = R.state_to_json(st)
    del old["passed_on"]  # a state stored before the field existed still loads
    assert R.state_from_json(old).passed_on == [[], [], []]


def test_the_trail_records_every_play_and_pass_in_order() -> None:
    """``State.trail`` keeps the play phase's moves as the table saw them, the seat and the
    cards (or ``pass``), in order; it survives state_to_json / state_from_json, and a state
    stored before the field existed still loads (with an empty trail)."""
    st = to_playing()
    ll = st.landlord
    a, b = (ll + 1) % 3, (ll + 2) % 3
    st.hands[ll] = "33KKK4"
    st.hands[a] = "4444A"
    st.hands[b] = "56"
    act(st, ll, {"type": "play", "cards": "33"})
    act(st, a, {"type": "play", "cards": "4444"})
    act(st, b, {"type": "pass"})
    assert st.trail == [f"{ll}:33", f"{a}:4444", f"{b}:pass"]
    again = R.state_from_json(json.loads(json.dumps(R.state_to_json(st))))
    assert again.trail == st.trail
    old = R.state_to_json(st)
    del old["trail"]
    assert R.state_from_json(old).trail == []


def test_bad_inputs_change_nothing() -> None:
    """Out of turn, not held, non-beating, pass when leading, another seat's action, bad types."""
    st = to_playing()
    ll = st.landlord
    a = (ll + 1) % 3
    st.hands[ll] = "3345"
    rejects(st, a, {"type": "play", "cards": "3"}, ErrorCode.NOT_YOUR_TURN)
    rejects(st, ll, {"type": "play", "cards": "2"}, ErrorCode.NOT_HELD)
    rejects(st, ll, {"type": "pass"}, ErrorCode.MUST_PLAY)
    rejects(st, ll, {"type": "play", "cards": "34"}, ErrorCode.BAD_PATTERN)
    rejects(st, ll, {"type": "play", "cards": "3X"}, ErrorCode.MALFORMED)
    rejects(st, ll, {"type": "play"}, ErrorCode.MALFORMED)
    rejects(st, ll, {"type": "play", "cards": "33", "as": "44"}, ErrorCode.NOT_ALLOWED)
    rejects(st, ll, {"type": "bid", "call": True}, ErrorCode.ILLEGAL)
    rejects(st, ll, {"type": "rob", "rob": True}, ErrorCode.ILLEGAL)
    rejects(st, a, {"type": "mingpai"}, ErrorCode.NOT_YOUR_TURN)
    rejects(st, ll, {"type": "explode"}, ErrorCode.MALFORMED)
    act(st, ll, {"type": "play", "cards": "5"})
    st.hands[a] = "4" + st.hands[a]
    rejects(st, a, {"type": "play", "cards": "4"}, ErrorCode.DOES_NOT_BEAT)
    rejects(st, ll, {"type": "pass"}, ErrorCode.NOT_YOUR_TURN)  # another seat's turn
    bid = to_bidding()
    other = (bid.first_bidder + 1) % 3
    rejects(bid, other, {"type": "bid", "call": True}, ErrorCode.NOT_YOUR_TURN)
    rejects(bid, bid.first_bidder, {"type": "bid", "call": "yes"}, ErrorCode.MALFORMED)
    rejects(bid, bid.first_bidder, {"type": "menzhua"}, ErrorCode.NOT_ALLOWED)


def test_landlord_mingpai_after_dipai() -> None:
    """明牌 ×2 by the landlord before his first play; not by a farmer, not twice."""
    st = to_playing()
    ll = st.landlord
    assert {"type": "mingpai"} in R.view(st, ll)["options"]
    act(st, ll, {"type": "mingpai"})
    assert st.mingpai[ll] == 2 and R.multiplier_view(st)["total"] == 2
    rejects(st, ll, {"type": "mingpai"}, ErrorCode.NOT_ALLOWED)
    assert R.view(st, (ll + 1) % 3)["shown"] == {str(ll): st.hands[ll]}


def test_view_keys_and_no_hidden_cards() -> None:
    """A seat's view carries every documented key; other seats' hands appear nowhere in it and a
    spectator sees no hand; before the deal the hand is empty."""
    st = to_playing()
    view = R.view(st, 0)
    for key in (
        "game",
        "variant",
        "phase",
        "seat",
        "to_act",
        "hand",
        "counts",
        "shown",
        "landlord",
        "dipai",
        "laizi",
        "bids",
        "last",
        "lead",
        "multiplier",
        "options",
        "can_play",
        "result",
    ):
        assert key in view
    spec = R.spectator_view(st)
    assert "hand" not in spec and spec["shown"] == {}
    text = json.dumps(view)
    for s in (1, 2):
        assert st.hands[s] not in text
    start = R.new_game(Config(), "q", 3)
    assert R.view(start, 0)["hand"] == "" and R.view(start, 0)["counts"] == [0, 0, 0]


# -- scoring and escape -----------------------------------------------------------------------


def test_seed_example_payments() -> None:
    """002 §十一: X = 6, N = 1000, landlord wins: 12000 to the landlord, 6000 from each farmer."""
    st = to_playing(Config(base_score=3, seat_beans=(0, 0, 0), double_threshold=10))
    ll = st.landlord
    st.robbers = [(ll + 1) % 3]  # one 搶地主: 倍數 2, X = 3 × 2 = 6 per farmer
    st.hands[ll] = "3"
    st.plays_count[(ll + 1) % 3] = 1  # not a 春天
    act(st, ll, {"type": "play", "cards": "3"})
    res = R.result(st)
    assert res.extra["multiplier"] == 2
    assert res.scores[ll] == 12
    n = 1000
    pays = {p["from"]: p["points"] * n for p in res.extra["payments"]}
    assert sorted(pays.values()) == [6000, 6000]
    assert sum(p["points"] for p in res.extra["payments"]) * n == 12000
    assert all(p["to"] == ll for p in res.extra["payments"])


def test_escape_boundary() -> None:
    """Below 10: landlord 20 ×, farmer 10 ×; at 10 and above: 4 × / 2 × the real points."""
    assert escape_factor(True, 9, 9) == 20 and escape_factor(False, 9, 9) == 10
    assert escape_factor(True, 10, 10) == 40 and escape_factor(False, 10, 10) == 20
    assert escape_factor(True, 11, 11) == 44 and escape_factor(False, 11, 11) == 22


def test_escape_counts_held_bombs() -> None:
    """Escape (逃跑) scoring counts the bombs still held: at multiplier ≥ 10 the escaper pays the
    multiplied score (4× landlord, 2× farmer), below 10 a fixed 10 × 底分 per opponent."""
    st = to_playing()
    ll = st.landlord
    a, b = (ll + 1) % 3, (ll + 2) % 3
    st.hands[ll] = "3"
    st.hands[a] = "44445555"
    st.hands[b] = "BR6666"
    st.mingpai[ll] = 2
    st.mingpai_order = [ll]
    # 明牌 ×2, bombs 4444, 5555, 6666, rocket: ×16 → 32 ≥ 10: landlord pays 4 × 32 each
    res = R.escape_result(st, ll)
    assert res.extra["bombs"] == 4 and res.extra["multiplier"] == 32
    assert res.scores[ll] == -256 and res.scores[a] == 128 and sum(res.scores) == 0
    st.hands[a], st.hands[b] = "45", "67"
    res = R.escape_result(st, a)  # 倍數 2 < 10: a farmer pays 10 × 底分 to the landlord
    assert res.scores == tuple(-10 if s == a else (10 if s == ll else 0) for s in range(3))
    assert res.extra["payments"] == [{"from": a, "to": ll, "points": 10}]
    st.mingpai[ll] = 5  # 5 exactly → 20 for the landlord
    assert R.escape_result(st, ll).scores[ll] == -40
    st.robbers = [a]  # 5 × 2 = 10 exactly: the real branch, 2 × 10 for a farmer
    assert R.escape_result(st, b).scores[b] == -20


def test_escape_before_deal() -> None:
    """A player who leaves before the deal pays each of the two others 10 (the escape rate
    below ×10), zero-sum."""
    st = R.new_game(Config(), "e", 3)
    res = R.escape_result(st, 1)
    assert res.scores == (10, -20, 10)


# -- 癩子場 ------------------------------------------------------------------------------------


def test_laizi_room_flow_and_multipliers() -> None:
    """In a 癩子 room a declared reading ('as') makes 333+癩子 a soft bomb (軟炸彈 ×2), a natural
    four beats it (硬炸彈 ×4), the rocket ×4, 反春 ×2: the multipliers multiply."""
    cfg = Config(variant="laizi", seat_beans=(0, 0, 0), double_threshold=10)
    st = to_playing(cfg, "lz")
    assert st.laizi is not None and R.view(st, 0)["laizi"] == st.laizi
    lz = st.laizi
    ll = st.landlord
    a, b = (ll + 1) % 3, (ll + 2) % 3
    n3 = "3" if lz != "3" else "4"
    n4 = "5" if lz != "5" else "6"
    st.hands[ll] = n3 * 3 + lz + "K"
    st.hands[a] = n4 * 4 + "Q"
    st.hands[b] = "BR9"
    # without 'as' 333+癩 is read naturally (三帶一); with it, the soft bomb
    act(st, ll, {"type": "play", "cards": n3 * 3 + lz, "as": n3 * 4})
    assert st.lead["name"] == "軟炸彈"
    act(st, a, {"type": "play", "cards": n4 * 4})  # hard beats soft
    assert st.lead["name"] == "炸彈"
    act(st, b, {"type": "play", "cards": "BR"})
    act(st, ll, {"type": "pass"})
    act(st, a, {"type": "pass"})
    act(st, b, {"type": "play", "cards": "9"})
    res = R.result(st)
    labels = [(ln.label, ln.value) for ln in res.lines]
    assert ("軟炸彈", "×2") in labels and ("硬炸彈", "×4") in labels and ("王炸", "×4") in labels
    assert res.extra["multiplier"] == 2 * 4 * 4 * 2  # soft, hard, rocket, 反春


def test_laizi_bad_reading() -> None:
    """A 癩子 play whose declared reading does not match the cards (a natural card read as
    another, a 癩子 read as a joker) is refused with BAD_PATTERN and changes nothing."""
    cfg = Config(variant="laizi", seat_beans=(0, 0, 0), double_threshold=10)
    st = to_playing(cfg, "lz2")
    lz = st.laizi
    ll = st.landlord
    n3 = "3" if lz != "3" else "4"
    st.hands[ll] = n3 * 3 + lz + "K"
    rejects(st, ll, {"type": "play", "cards": n3 * 3 + "K", "as": n3 * 4}, ErrorCode.BAD_PATTERN)
    rejects(
        st, ll, {"type": "play", "cards": n3 * 3 + lz, "as": n3 * 3 + "B"}, ErrorCode.BAD_PATTERN
    )


def test_laizi_cap() -> None:
    """In a 癩子 room the landlord's win is capped (封頂) at 10000 however many bombs were played,
    and the farmers pay it zero-sum."""
    cfg = Config(variant="laizi", base_score=1000, seat_beans=(0, 0, 0), double_threshold=10)
    st = to_playing(cfg, "cap")
    ll = st.landlord
    st.bombs = [{"seat": ll, "tier": 2}] * 3  # ×64
    st.hands[ll] = "3" if st.laizi != "3" else "4"
    st.plays_count[(ll + 1) % 3] = 1
    act(st, ll, {"type": "play", "cards": st.hands[ll]})
    res = R.result(st)
    assert res.scores[ll] == 10000 and sum(res.scores) == 0


# -- 悶抓場 ------------------------------------------------------------------------------------


def _menzhua_landlord(seed: str = "mz", blind: bool = False) -> State:
    st = R.new_game(Config(variant="menzhua"), seed, 3)
    assert st.phase == "bidding"
    f = st.turn
    assert R.view(st, f)["hand"] == ""  # cards unseen until 看牌
    if blind:
        act(st, f, {"type": "menzhua"})
    else:
        act(st, f, {"type": "look"})
        assert R.view(st, f)["hand"] == st.hands[f]
        act(st, f, {"type": "bid", "call": True})
    assert st.landlord == f and st.phase == "dou"
    return st


@pytest.mark.parametrize(
    "path,steps",
    [
        ([False], 0),
        ([True, False], 1),
        ([True, True, False], 2),
        ([True, True, True, False], 3),
        ([True, True, True, True], 4),
    ],
)
def test_dou_la_lei_wo_paths(path: list[bool], steps: int) -> None:
    """倒 → 拉 → 壘 → 沃, ×2 each, stopping at the first refusal, per farmer."""
    st = _menzhua_landlord(blind=True)
    ll = st.landlord
    f1, f2 = (ll + 1) % 3, (ll + 2) % 3
    act(st, f2, {"type": "dou", "dou": False})
    for i, yes in enumerate(path):
        if i % 2 == 0:
            act(st, f1, {"type": "dou", "dou": yes})
        else:
            act(st, ll, {"type": "dou", "farmer": f1, "dou": yes})
    assert st.dou[f1] == steps and st.phase == "playing"
    st.hands[ll] = "3"
    st.plays_count[f1] = 1
    act(st, ll, {"type": "play", "cards": "3"})
    res = R.result(st)
    # 悶抓 ×2; pair f1 × 2^steps, pair f2 × 1
    assert res.scores[f1] == -2 * 2**steps and res.scores[f2] == -2
    assert res.scores[ll] == 2 * 2**steps + 2
    assert sum(res.scores) == 0
    assert sum(p["points"] for p in res.extra["payments"]) == res.scores[ll]


def test_menzhua_bad_inputs() -> None:
    """In 悶抓 doubling, 倒 by the landlord before a farmer, 倒 after refusing, 拉 on a farmer who
    did not 倒, and 明牌 by a farmer are refused with their codes; the landlord's 明牌 is ×2."""
    st = _menzhua_landlord()
    ll = st.landlord
    f1, f2 = (ll + 1) % 3, (ll + 2) % 3
    rejects(
        st, ll, {"type": "dou", "farmer": f1, "dou": True}, ErrorCode.NOT_YOUR_TURN
    )  # 倒 by the landlord
    act(st, f1, {"type": "dou", "dou": False})
    rejects(st, f1, {"type": "dou", "dou": True}, ErrorCode.NOT_YOUR_TURN)  # 倒 after a refusal
    act(st, f2, {"type": "dou", "dou": True})
    rejects(st, ll, {"type": "dou", "farmer": f1, "dou": True}, ErrorCode.ILLEGAL)
    act(st, ll, {"type": "dou", "farmer": f2, "dou": False})
    assert st.phase == "playing"
    rejects(st, f1, {"type": "mingpai"}, ErrorCode.NOT_YOUR_TURN)  # a farmer cannot 明牌
    st.turn = f1  # even on his turn
    rejects(st, f1, {"type": "mingpai"}, ErrorCode.NOT_ALLOWED)
    st.turn = ll
    act(st, ll, {"type": "mingpai"})
    assert st.mingpai[ll] == 2


def test_menzhua_redeal_and_no_rob() -> None:
    """In 悶抓 a player who looked at his cards may no longer bid blind (悶抓, ILLEGAL); when all
    three look and decline, a new deal starts with no one having looked."""
    st = R.new_game(Config(variant="menzhua"), "mz-r", 3)
    f = st.turn
    for i in range(3):
        seat = (f + i) % 3
        act(st, seat, {"type": "look"})
        rejects(st, seat, {"type": "menzhua"}, ErrorCode.ILLEGAL)  # blind only before looking
        act(st, seat, {"type": "bid", "call": False})
    assert st.deal_no == 1 and st.phase == "bidding" and st.looked == [False] * 3
    assert R.new_game(Config(variant="menzhua"), "mz-r", 3).hands != st.hands


def test_laizi_generated_plays_are_accepted() -> None:
    """Every play legal_actions offers in a 癩子 room (from legal_plays, split at '/') is taken
    by apply, as the reading it names, leading and following; among the hands the 20-card
    飛機帶翅膀 whose 癩子 kicker once read as a fifth 8."""
    cfg = Config(variant="laizi", seat_beans=(0, 0, 0), double_threshold=10)
    base = to_playing(cfg, "lz-accept")
    rng = random.Random(5)
    hands = [STACKED_KICKER] + [plane_heavy_deal(rng) for _ in range(6)]
    for hand, laizi in hands:
        st = copy.deepcopy(base)
        st.laizi = laizi
        ll = st.landlord
        nxt = (ll + 1) % 3
        st.hands[ll] = hand
        follower = sort_cards("".join(rng.sample([c for c in RANKS for _ in range(4)][:52], 17)))
        st.hands[nxt] = follower
        leads = [a for a in R.legal_actions(st, ll) if a["type"] == "play"]
        assert leads
        picked = leads if hand == STACKED_KICKER[0] else rng.sample(leads, min(150, len(leads)))
        for action in picked:
            trial = copy.deepcopy(st)
            act(trial, ll, action)
            reading = action.get("as", action["cards"])
            assert trial.lead["reading"] == reading, action
            assert trial.lead["name"] == classify(f"{action['cards']}/{reading}", laizi).name
        # follow one lead with every reply the next seat is offered
        lead = rng.choice(leads)
        act(st, ll, lead)
        if st.phase != "playing":
            continue
        for action in R.legal_actions(st, nxt):
            if action["type"] != "play":
                continue
            trial = copy.deepcopy(st)
            act(trial, nxt, action)
            assert trial.lead["seat"] == nxt and trial.lead["reading"] == action.get(
                "as", action["cards"]
            )


def test_the_deal_clock_stamps_how_many_cards_a_mingpai_saw_never_fewer_than_it_says() -> None:
    """發牌明牌: the server's clock says how many cards were dealt (×4 up to 8); a seat that says
    more (the bot says 17: it decided on its whole hand) keeps its word and takes ×3; a seat
    that says fewer, or nothing, or junk, gets the clock's count."""
    st = R.new_game(Config(), "seed-stamp", 3)
    for s in range(3):
        act(st, s, {"type": "start", "mingpai": False})
    assert st.phase == "dealing"
    early = 0.12 * 5 + 0.01  # five cards dealt
    stamp = RULESET.action_stamp
    assert stamp(st, {"type": "mingpai", "dealt": 17}, early)["dealt"] == 17
    assert stamp(st, {"type": "mingpai", "dealt": 9}, early)["dealt"] == 9
    assert stamp(st, {"type": "mingpai", "dealt": 0}, early)["dealt"] == 5
    assert stamp(st, {"type": "mingpai"}, early)["dealt"] == 5
    assert stamp(st, {"type": "mingpai", "dealt": True}, early)["dealt"] == 5
    assert stamp(st, {"type": "mingpai", "dealt": 99}, early)["dealt"] == 5
    assert stamp(st, {"type": "mingpai", "dealt": 0}, 60.0)["dealt"] == 17
    act(st, 0, stamp(st, {"type": "mingpai", "dealt": 17}, early))
    act(st, 1, stamp(st, {"type": "mingpai", "dealt": 0}, early))
    assert st.mingpai[0] == 3 and st.mingpai[1] == 4
