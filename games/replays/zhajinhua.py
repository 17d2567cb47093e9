"""歡樂三張 replay: every hand's three cards open, actions labelled as the live buttons are.

Engine seats are drawn as table seats ``0 … n−1`` in play order (the replay has no empty
chairs), each with its nickname.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.protocol import Ruleset
from games.rules.zhajinhua.hands import describe, hand_class


def open_view(
    ruleset: Ruleset[Any, Any], state: Any, bottom: int, names: list[str]
) -> dict[str, Any]:
    """The bottom seat's view with every seat's cards (looked at or not) and no options."""
    view: dict[str, Any] = ruleset.view(state, bottom)
    for entry in view["seats"]:
        cards = list(state.hands[entry["seat"]])
        entry.update(cards=cards, hand_class=hand_class(cards), hand_name=describe(cards))
    mine = list(state.hands[bottom])
    view.update(
        hand=mine,
        hand_class=hand_class(mine),
        hand_name=describe(mine),
        legal_actions=[],
        table_seats=list(range(len(view["seats"]))),
        names=names,
    )
    return view


def caption(
    ruleset: Ruleset[Any, Any], before: Any, seat: int, action: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    """The live board's label for the action (跟注 n, 加注到 n, 和 X 比, 棄牌, 看牌)."""
    from games.boards.zhajinhua import extras

    kind = str(action.get("type") or "")
    out: dict[str, Any] = {"who": names[seat], "kind": kind}
    if action.get("escape"):
        out["label"] = _("逃跑（棄牌）")
        return out
    view = ruleset.view(before, seat)
    view.update(table_seats=list(range(len(view["seats"]))), names=names)
    board = extras(view, seat)
    for button in board["buttons"] + board["compare_targets"]:
        if button["action"] == action:
            label = str(button["label"])
            out["label"] = _("和 %(name)s 比") % {"name": label} if kind == "compare" else label
            break
    else:
        out["label"] = {"fold": _("棄牌"), "look": _("看牌")}.get(kind, kind)
    if kind == "compare":
        out["fx"] = "compare"
    return out


# how this game deals from the stream (shown on the replay page beside the browser's re-deal)
DEAL_RULE = gettext_lazy(
    "52 張牌（不含王，花色 s h d c）以「種子:deal」洗牌；第 1 個座"
    "位拿第 1–3 張，第 2 個座位拿第 4–6 張，依此類推。"
)


def deal_check(
    ruleset: Ruleset[Any, Any], game: str, config: Any, seed: str, seats: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The re-deal's input (seed and seat count) and every seat's three cards as dealt."""
    state = ruleset.new_game(config, seed, seats)
    return {"game": game, "seed": seed, "seats": seats}, {"hands": [list(h) for h in state.hands]}
