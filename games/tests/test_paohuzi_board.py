"""The 跑胡子 board's claim buttons (games/boards/paohuzi.py)."""

from __future__ import annotations

import json

from games.boards import paohuzi as board

A, B, C = ["x1", "x2", "x3"], ["x2", "x3", "x4"], ["x3", "x4", "x5"]


def _view(actions: list[dict]) -> dict:
    return {
        "phase": "claim",
        "seat": 0,
        "seats": [{"seat": i, "melds": []} for i in range(3)],
        "current": {"card": "x3", "from": 2, "source": "discard"},
        "legal_actions": actions,
    }


def test_a_chi_group_offered_with_several_bi_is_shown_once():
    """吃 一二三 with 比 二三四 or 比 三四五: the second button shows only its 比, yet still sends
    its whole action and names all of it; a lone 吃 and a new 吃 group start their own run."""
    actions = [
        {"type": "chi", "groups": [A, B]},
        {"type": "chi", "groups": [A, C]},
        {"type": "chi", "groups": [B]},
        {"type": "chi", "groups": [C, A]},
        {"type": "chi", "groups": [C, B]},
        {"type": "pass"},
    ]
    buttons = board.extras(_view(actions), 0)["buttons"]
    assert [b["more"] for b in buttons] == [False, True, False, False, True, False]
    assert [len(b["groups"]) for b in buttons] == [2, 1, 1, 2, 1, 0]
    assert buttons[1]["groups"] == [{"name": "比", "cards": C}]
    assert json.loads(buttons[1]["vals"])["action"] == {"type": "chi", "groups": [A, C]}
    assert buttons[1]["title"] == "吃 一二三 比三四五"
    assert buttons[4]["title"] == "吃 三四五 比二三四"
