"""The 歡樂麻將 board as a player sees it: 財神 marked, 聽牌 hints, legal claims, the settlement."""

from __future__ import annotations

import re

from games.engine import registry
from games.rules.mahjong.tests.helpers import make_state

OTHERS = [
    "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1",
    "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W5 W5 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
]


def snapshot(ruleset, state, viewer: int, beans: list[int] | None = None) -> dict:
    result = None
    if ruleset.is_over(state):
        res = ruleset.result(state)
        result = {
            "scores": list(res.scores),
            "winners": list(res.winners),
            "extra": res.extra,
            "lines": [{"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in res.lines],
        }
        if beans is not None:
            result.update(beans=beans, factor=50, rake_each=10)
    return {
        "table": {
            "id": 1,
            "game": "mahjong_huanle",
            "seq": 3,
            "status": "playing",
            "params": {"room_name": "大眾場", "base_score": 1},
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
                "is_bot": i != viewer,
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
            "state": ruleset.state_to_json(state),
            "result": result,
            "settled": beans is not None,
        },
    }


def render(ruleset, state, viewer: int, beans: list[int] | None = None) -> str:
    from games import caches
    from games.rendering import render_html

    caches.clear_all()
    return render_html(snapshot(ruleset, state, viewer, beans), viewer, None)


def test_caishen_is_marked_and_tenpai_hints_name_the_discard_and_its_waits() -> None:
    """Each 財神 in the hand is drawn marked; 聽牌 shows, per discard, the tiles it waits on."""
    ruleset = registry.get("mahjong_huanle")
    # discarding F1 leaves W2 W3 … waiting on W1 / W4
    state = make_state(["W2 W3 T4 T5 T6 B7 B8 B9 J1 J1 J1 B2 B2 F1"] + OTHERS, wild="B5")
    state.hands[0][0] = "B5"  # one 財神 in place of W2: W3 + 財神 waits wider
    html = render(ruleset, state, 0)
    hand = html.split('id="my-hand"', 1)[1].split("</div>", 1)[0]
    assert len(re.findall(r'<svg[^>]*class="tile[^"]*\bwild\b', hand)) == 1
    assert 'class="mark-wild' in html or "mark-wild" in html
    hints = ruleset.view(state, 0)["tenpai"]
    assert hints  # the hand is one discard from ready
    block = html.split("data-tenpai", 1)[1].split("</div>", 1)[0]
    shown = {}
    for opt in re.findall(r'<span class="ting-opt">(.*?)</span>', block):
        discard, waits = opt.split("聽", 1)
        shown[re.findall(r'data-tile="(\w+)"', discard)[0]] = re.findall(
            r'data-tile="(\w+)"', waits
        )
    assert shown == {tile: waits[:9] for tile, waits in hints.items()}
    ting_buttons = set(re.findall(r'class="mj-t[^"]*\bting\b[^"]*"[^>]*data-tile="(\w+)"', hand))
    assert ting_buttons == set(hints)


def test_claim_buttons_are_exactly_the_legal_claims() -> None:
    """After a discard the next seat sees 吃 / 碰 / 過 buttons only for what it may claim."""
    ruleset = registry.get("mahjong_huanle")
    hands = ["W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 B6"] + [
        "B6 B6 W5 W6 T1 T1 T2 T3 F2 F3 F4 J2 J3",
        "B5 B7 W5 W6 T1 T1 T2 T3 F2 F3 F4 J2 J3",
        OTHERS[2],
    ]
    state = make_state(hands, wild="J3")
    ruleset.apply(state, 0, {"type": "discard", "tile": "B6"})
    for viewer in (1, 2, 3):
        html = render(ruleset, state, viewer)
        actions = html.split('id="actions"', 1)[1].split('class="hand-tools"', 1)[0]
        shown = sorted(re.findall(r'data-action="(\w+)"', actions))
        legal = sorted(a["type"] for a in ruleset.view(state, viewer)["legal_actions"])
        assert shown == legal, viewer
    assert "peng" in [a["type"] for a in ruleset.view(state, 1)["legal_actions"]]
    assert "chi" not in [a["type"] for a in ruleset.view(state, 2)["legal_actions"]]


def test_settlement_names_each_fan_the_bird_the_dealer_and_the_beans() -> None:
    """The settlement lists every fan with its value, 財神's substitution, the bird and whom it
    hit, the dealer's doubling, each paying pair, and every seat's beans."""
    ruleset = registry.get("mahjong_huanle")
    state = make_state(
        ["W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 J3"] + OTHERS,
        wild="J3",
        dealer=1,
        wall=["W3", "B2"],
        flowers=[["H1", "H2"], [], [], []],
    )
    ruleset.apply(state, 0, {"type": "hu"})
    res = ruleset.result(state)
    beans = [-s * 50 for s in res.scores]  # any figures: the board shows what it is given
    html = render(ruleset, state, 0, beans)
    settlement = html.split('id="settlement"', 1)[1]
    text = re.sub(r"<[^>]+>", " ", settlement)
    fans = res.extra["fans"][0]["fans"]
    assert fans
    lines = settlement.split('class="settle-lines"', 1)[1]
    for fan in fans:
        assert f"{fan['value']}番" in lines
    assert "花牌 ×2" in text and "無財神" not in text  # the 財神 stood for another kind
    assert "財神作" in text
    bird = state.outcome["bird"]
    assert bird["tile"] == "W3" and "鳥牌" in text and "中鳥" in text
    assert "莊家" in text and "翻倍" in text
    assert "莊家×2" in text  # the pair with the dealer (seat 1) is doubled
    for b in beans:
        assert f"{b:+,}" in text or f"{b:+}" in text
