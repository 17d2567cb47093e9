"""樂清麻將: the 財神 items where two readings of seed 004 meet.

* 逼胡 with four 財神: 「僅三財神、四財神可以翻」 — three 財神 make 三財神, four make 四財神; a hand
  holding four never counts 三財神 beside its 四財神 (RULES-NOTES §8 #11), also when three of the
  four form one set (三財神刻, which 逼胡 does not count).
* 財神做牛: 「財神一對作將，不包含單吊和雙歸位」 — a pair of two 財神 is 做牛 whatever kind the pair
  stands for (RULES-NOTES §8 #10 lets it stand for a kind, here 南 completing 四風齊).

Both are checked on the 台 items, on the result lines the settlement panel lists, and once
through the board's rendering.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from games.rules.mahjong.core import State
from games.rules.mahjong.tests.test_yueqing import JUNK, chi, evaluate, keys, meld, mk, yq
from games.rules.mahjong.variants.yueqing_scoring import BIG_TAI, bi_hu_limit

# -- 逼胡 with three and four 財神 ----------------------------------------------------------------

# 明牌 T3 → 財神 T4. Seat 1 holds the four 財神 and four 吃 from seat 0 and wins on seat 0's B2;
# seat 2 shows three 杠頭 (明牌三杠頭) first, so 逼胡 is in force for seat 1.
FOUR_CHI = [chi("B7 B8 B9", 0), chi("T6 T7 T8", 0), chi("B1 B2 B3", 0), chi("T7 T8 T9", 0)]


def four_caishen_discard_win(winner_flowers: list[str]) -> State:
    r = yq()
    state = mk(
        [JUNK + " B2", "T4 T4 T4 T4", None, None],
        current=0,
        indicator="T3",
        melds={1: FOUR_CHI},
        flowers={1: winner_flowers, 2: ["T3", "T3", "T3"]},
    )
    r._update_ming(state)
    assert state.vars["bihu"] == 2 and state.vars["ming"][2]["state"] == "sangangtou"
    r.apply(state, 0, {"type": "discard", "tile": "B2"})
    assert {"type": "hu"} in r.legal_actions(state, 1)
    return state


@pytest.mark.parametrize(
    "flowers,one_tai,total",
    [
        # the case: 自風位 (the three 財神 read as a 南 pung) + one 白板 → (2 + 45) × 2
        (["J3"], Counter({"zifeng": 1, "baiban": 1}), (2 + 45) * 2),
        # the same without the 白板 flower → (1 + 45) × 2
        ([], Counter({"zifeng": 1}), (1 + 45) * 2),
    ],
)
def test_bihu_four_caishen_counts_sicaishen_alone(
    flowers: list[str], one_tai: Counter[str], total: int
) -> None:
    """Under 逼胡 a hand with four 財神, three of them in one set, scores 四財神 alone: not
    三財神 15 + 四財神 45 (which made 124 of the issue's 94), and not 三財神刻."""
    r = yq()
    state = four_caishen_discard_win(flowers)
    ev = r.evaluate_win(state, r.win_context(state, 1))
    assert ev is not None and ev["bihu"]
    assert keys(ev) == one_tai + Counter({"sicaishen": 1}), ev["items"]
    assert (ev["n"], ev["m"], ev["total"]) == (sum(one_tai.values()), 45, total)


def test_bihu_four_caishen_lines_on_the_settlement() -> None:
    """The settlement lines of that hand: 四財神 45台, the 逼胡 line, 臺數 … → 94台; no 三財神."""
    r = yq()
    state = four_caishen_discard_win(["J3"])
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    lines = [(ln.label, ln.value, ln.seat) for ln in res.lines]
    assert ("四財神", "45台", 1) in lines
    assert ("逼胡", "座2 明牌", 1) in lines
    assert ("臺數", "N=2 M=45 → 94台", 1) in lines
    assert not any(label in ("三財神", "三財神刻") for label, _, _ in lines)
    assert res.extra["tai"][0]["total"] == 94


def test_bihu_three_caishen_still_counts_sancaishen() -> None:
    """With exactly three 財神 逼胡 keeps 三財神 (15): spread over three groups, and when they
    form one set (三財神刻, counted as its 三財神 only)."""
    r = yq()
    kw: dict[str, Any] = {"flowers": {0: ["B9", "B9", "B9"]}}  # seat 0: 明牌三杠頭
    for hand, expected, total in (
        # 財神 B1 in T5 T6 _, B3 B4 _ and the W9 pair
        (
            "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 B1 B3 B4 B1 W9 B1",
            Counter({"sancaishen": 1}),
            30,
        ),
        # three free 財神: read as a 南 pung (自風位 1) + 三財神 15
        (
            "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 W9 W9 B1 B1 B1",
            Counter({"zifeng": 1, "sancaishen": 1}),
            (1 + 15) * 2,
        ),
    ):
        state = mk([None, hand, None, None], current=1, **kw)
        r._update_ming(state)
        ev = r.evaluate_win(state, r.win_context(state, 1))
        assert ev is not None and ev["bihu"]
        assert keys(ev) == expected, ev["items"]
        assert ev["total"] == total


def test_bi_hu_limit_keeps_one_caishen_item() -> None:
    """``bi_hu_limit`` on the items alone: 三財神刻 + 四財神 → 四財神; 三財神刻 → 三財神; the
    one-台 items stay (at most 5) and every other 翻 hand is dropped."""

    def item(key: str) -> tuple[str, str, int]:
        return (key, *BIG_TAI[key])

    zifeng = ("zifeng", "自風位", 1)
    kept, n, m = bi_hu_limit([zifeng, item("sancaishen_ke"), item("sicaishen"), item("duidui")])
    assert (kept, n, m) == ([zifeng, item("sicaishen")], 1, 45)
    kept, n, m = bi_hu_limit([zifeng, item("sancaishen_ke"), item("duidui")])
    assert (kept, n, m) == ([zifeng, item("sancaishen")], 1, 15)
    kept, n, m = bi_hu_limit([item("sicaishen"), item("guiwei2")])
    assert (kept, n, m) == ([item("sicaishen")], 0, 45)


def test_four_caishen_without_bihu_keeps_sancaishen_ke() -> None:
    """Outside 逼胡 nothing changes: the same four-財神 hand counts 三財神刻 and 四財神 (both
    45), never 三財神 (that is for exactly three)."""
    r = yq()
    state = mk(
        [JUNK + " B2", "T4 T4 T4 T4", None, None],
        current=0,
        indicator="T3",
        melds={1: FOUR_CHI},
    )
    r.apply(state, 0, {"type": "discard", "tile": "B2"})
    ev = r.evaluate_win(state, r.win_context(state, 1))
    assert ev is not None and not ev["bihu"]
    assert {"sancaishen_ke", "sicaishen"} <= set(keys(ev)) and "sancaishen" not in keys(ev)


# -- 財神做牛 when the 財神 pair stands for a kind ------------------------------------------------

# 明牌 W1 → 財神 W2. The dealer (seat 0, 東) holds W2 W2 F4 F4 and self-draws F4, with 明杠 中,
# 碰 東, 明杠 西, 碰 發: the W2 pair stands for 南 and completes 四風齊 (and 全字).
ZUONIU_MELDS = [
    meld("minggang", "J1", 2),
    meld("peng", "F1", 2),
    meld("minggang", "F3", 3),
    meld("peng", "J2", 1),
]
ZUONIU_BIG = Counter({"quanzi": 1, "sifengqi": 1, "zuoniu": 1})


def zuoniu_win(flowers: list[str]) -> State:
    return mk(
        ["W2 W2 F4 F4 F4", None, None, None],
        current=0,
        indicator="W1",
        melds={0: ZUONIU_MELDS},
        flowers={0: flowers},
    )


@pytest.mark.parametrize(
    "flowers,one_tai,total",
    [
        # 紅中刻, 發財刻, 雙財神 → (3 + 200 + 45 + 15) × 2
        ([], Counter({"zhongke": 1, "fake": 1, "shuangcaishen": 1}), (3 + 260) * 2),
        # the 500 → 530: two more one-台 items (two 白板 here) → (5 + 260) × 2
        (
            ["J3", "J3"],
            Counter({"zhongke": 1, "fake": 1, "shuangcaishen": 1, "baiban": 2}),
            530,
        ),
    ],
)
def test_caishen_pair_standing_for_a_kind_is_zuoniu(
    flowers: list[str], one_tai: Counter[str], total: int
) -> None:
    """「財神一對作將」: the two 財神 read as 南 (so 四風齊 holds) still count 財神做牛 (15)."""
    r = yq()
    state = zuoniu_win(flowers)
    ev = r.evaluate_win(state, r.win_context(state, 0))
    assert ev is not None and not ev["bihu"]
    assert keys(ev) == one_tai + ZUONIU_BIG, ev["items"]
    assert ev["total"] == total


def test_caishen_pair_standing_as_itself_is_zuoniu_once() -> None:
    """A 財神 pair that may as well stand as its own kind (a 萬 清一色 with the 財神 W2) counts
    財神做牛 once, and not as 財神雙歸位 (「不包含…雙歸位」: 歸位 is a 財神 in a group with other
    tiles): 雙財神 1 + 清一色 45 + 做牛 15 → 122."""
    ev = evaluate("W1 W1 W1 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5 W6 W7 W2 W2", indicator="W1")
    assert keys(ev) == Counter({"shuangcaishen": 1, "qingyise": 1, "zuoniu": 1}), ev["items"]
    assert ev["total"] == (1 + 45 + 15) * 2


def test_caishen_pair_as_a_kind_under_bihu_is_capped() -> None:
    """Under 逼胡 the same 四風齊 hand keeps its one-台 items and counts its 翻 hands as 5 台:
    做牛 offers no way round the cap."""
    r = yq()
    state = zuoniu_win([])
    state.flowers[2] = ["W1", "W1", "W1"]  # seat 2: 明牌三杠頭 first
    r._update_ming(state)
    assert state.vars["bihu"] == 2
    ev = r.evaluate_win(state, r.win_context(state, 0))
    assert ev is not None and ev["bihu"] and ev["total"] == 5
    assert "zuoniu" not in keys(ev)


def test_zuoniu_lines_on_the_settlement() -> None:
    """The result lines (what the settlement panel lists) of the 財神做牛 hand carry 財神做牛
    15台 beside 四風齊 and 全字, and 臺數 … → 530台; each 閑家 pays 530 + 1."""
    r = yq()
    state = zuoniu_win(["J3", "J3"])
    r.apply(state, 0, {"type": "hu"})
    res = r.result(state)
    lines = [(ln.label, ln.value, ln.seat) for ln in res.lines]
    assert ("財神做牛", "15台", 0) in lines
    assert ("四風齊", "45台", 0) in lines and ("全字", "200台", 0) in lines
    assert ("臺數", "N=5 M=260 → 530台", 0) in lines
    hu = {p["from"]: p["points"] for p in res.extra["payments"] if p["kind"] == "hu"}
    assert hu == {1: 531, 2: 531, 3: 531}


def _snapshot(state: State) -> dict[str, Any]:
    """A finished 樂清 hand as the table service hands it to the board (seat 0 viewing)."""
    r = yq()
    res = r.result(state)
    return {
        "table": {
            "id": 1,
            "game": "mahjong_yueqing",
            "seq": 3,
            "status": "playing",
            "params": {"base_score": 1},
            "is_private": False,
            "invite_code": "",
            "owner_id": None,
            "next_hand_at": None,
            "fill_deadline": None,
        },
        "seats": [
            {
                "index": i,
                "user_id": i + 1,
                "name": f"玩家{i}",
                "avatar": i,
                "is_bot": i != 0,
                "auto": False,
                "online": True,
                "deadline": None,
            }
            for i in range(4)
        ],
        "hand": {
            "id": 9,
            "number": 1,
            "status": "playing",
            "seed_hash": "x" * 16,
            "seed": None,
            "state": r.state_to_json(state),
            "result": {
                "scores": list(res.scores),
                "winners": list(res.winners),
                "extra": res.extra,
                "lines": [
                    {"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in res.lines
                ],
            },
            "settled": False,
        },
    }


def _settle_rows(html: str) -> list[tuple[str, str]]:
    table = html.split('id="settlement"', 1)[1].split('class="settle-lines"', 1)[1]
    body = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row)]
        rows.append((cells[0], cells[1]))
    return rows


def test_settlement_panel_shows_zuoniu_and_sicaishen_alone() -> None:
    """Through the board's rendering: the settlement panel's rows show 財神做牛 15台 and the
    530台 total for the 做牛 hand; for the 逼胡 four-財神 hand 四財神 45台 and 94台, no 三財神."""
    from games import caches
    from games.rendering import render_html

    r = yq()
    state = zuoniu_win(["J3", "J3"])
    r.apply(state, 0, {"type": "hu"})
    caches.clear_all()
    rows = _settle_rows(render_html(_snapshot(state), 0, None))
    assert ("財神做牛", "15台") in rows
    assert ("臺數", "N=5 M=260 → 530台") in rows

    state = four_caishen_discard_win(["J3"])
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    caches.clear_all()
    rows = _settle_rows(render_html(_snapshot(state), 0, None))
    assert ("四財神", "45台") in rows
    assert ("臺數", "N=2 M=45 → 94台") in rows
    assert not any(label.startswith("三財神") for label, _ in rows)
