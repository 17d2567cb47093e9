"""麻將 replay (歡樂, 永州, 樂清): every hand and every 暗槓 open.

Open view: the bottom seat's view; each other seat's public entry is the one its own view
gives (its 暗槓 tiles known) plus its hand and drawn tile. Actions are labelled by the live
board's buttons (``games.boards.mahjong_huanle.action_button``: 自摸 / 胡 / 搶槓胡, 碰, 槓, 吃,
暗槓, 加槓, 過), a discard as 打 + the tile.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.protocol import Ruleset


def open_view(
    ruleset: Ruleset[Any, Any], state: Any, bottom: int, names: list[str]
) -> dict[str, Any]:
    view: dict[str, Any] = ruleset.view(state, bottom)
    for s in range(len(view["players"])):
        if s == bottom:
            continue
        own = ruleset.view(state, s)
        hand = list(own.get("hand") or []) + ([own["drawn"]] if own.get("drawn") else [])
        view["players"][s] = {**own["players"][s], "hand": hand}
    view.update(legal_actions=[], tenpai={}, waits=[])
    return view


def caption(
    ruleset: Ruleset[Any, Any], before: Any, seat: int, action: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    from games.boards.mahjong_huanle import action_button

    kind = str(action.get("type") or "")
    if kind == "discard":
        return {
            "who": names[seat],
            "kind": kind,
            "label": _("打"),
            "cards": [action.get("tile")],
            "card_kind": "tile",
        }
    button = action_button(action, ruleset.view(before, seat))
    return {
        "who": names[seat],
        "kind": kind,
        "label": button["label"],
        "cards": list(button["tiles"]),
        "card_kind": "tile",
    }
