"""跑胡子 / 雙王扯胡子 replay: every hand and every concealed 偎 / 提 open.

Open view: the bottom seat's view; each other seat's entry is the one its own view gives
(concealed melds known) plus its hand; every seat awaited is marked; the card on offer is
shown even when only its drawer could see it. Actions are labelled by the live board's
buttons (``games.boards.paohuzi._button``: 胡, 跑 / 偎 / 提, 碰, 吃 + 比, 過, 打).
"""

from __future__ import annotations

from typing import Any

from games.engine.protocol import Ruleset


def open_view(
    ruleset: Ruleset[Any, Any], state: Any, bottom: int, names: list[str]
) -> dict[str, Any]:
    view: dict[str, Any] = ruleset.view(state, bottom)
    for s in range(len(view["seats"])):
        own = ruleset.view(state, s)
        if s != bottom:
            view["seats"][s] = {**own["seats"][s], "hand": own["hand"]}
        if view.get("current") is None and own.get("current") is not None:
            view["current"] = own["current"]
    view["to_act"] = sorted(ruleset.to_act(state))
    view["legal_actions"] = []
    view["claim_options"] = None
    return view


def caption(
    ruleset: Ruleset[Any, Any], before: Any, seat: int, action: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    from games.boards.paohuzi import _button

    button = _button(action, ruleset.view(before, seat))
    cards = [c for g in button["groups"] for c in g["cards"] if c]
    return {
        "who": names[seat],
        "kind": str(action.get("type") or ""),
        "label": button["label"],
        "cards": cards,
        "card_kind": "zipai",
    }
