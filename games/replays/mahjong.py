"""麻將 replay (歡樂, 永州, 樂清): every hand and every 暗槓 open.

Open view: the bottom seat's view; each other seat's public entry is the one its own view
gives (its 暗槓 tiles known) plus its hand and drawn tile. Actions are labelled by the live
board's buttons (``games.boards.mahjong_huanle.action_button``: 自摸 / 胡 / 搶槓胡, 碰, 槓, 吃,
暗槓, 加槓, 過), a discard as 打 + the tile.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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


# how this game deals from the stream (shown on the replay page beside the browser's re-deal)
DEAL_RULE = gettext_lazy(
    "136 張牌（歡樂麻將另加 8 張花 H1–H8）以「種子:deal」洗牌；樂清"
    "麻將先以「種子:dice」擲兩次骰子，從數到的那一墩開牌。從莊家起每人 13 張"
    "（樂清 16 張），莊家再摸一張；歡樂麻將從牌頭、樂清麻將從牌尾翻財神；然後從莊"
    "家起每人亮出花牌，從牌尾補牌，直到手上沒有花。"
)


def deal_check(
    ruleset: Ruleset[Any, Any], game: str, config: Any, seed: str, seats: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The re-deal's input (the dealer) and the deal as the engine made it: hands after 補花,
    the flowers laid out, the wall left, the 財神 indicator and 樂清's dice when there are."""
    state = ruleset.new_game(config, seed, seats)
    record: dict[str, Any] = {
        "hands": [list(h) for h in state.hands],
        "flowers": [list(f) for f in state.flowers],
        "wall": list(state.wall),
    }
    for key in ("indicator", "dice"):
        if key in state.vars:
            record[key] = state.vars[key]
    return {"game": game, "seed": seed, "dealer": state.dealer}, record
