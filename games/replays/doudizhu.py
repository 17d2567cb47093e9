"""斗地主 replay: every hand open, actions labelled as the live board's buttons are.

Open view: the bottom seat's own view, with each other seat's hand shown as if 明牌
(``view["shown"]``), the bottom seat's hand even in 悶抓 before it is looked at, and the 底牌
face up from the deal.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.protocol import Ruleset


def open_view(
    ruleset: Ruleset[Any, Any], state: Any, bottom: int, names: list[str]
) -> dict[str, Any]:
    """The bottom seat's view with every hand open and no options."""
    view: dict[str, Any] = ruleset.view(state, bottom)
    hands: list[str] = list(state.hands)
    view["hand"] = hands[bottom]
    view["shown"] = {str(s): hands[s] for s in range(len(hands)) if s != bottom}
    view["dipai"] = state.dipai  # the 底牌 face up from the deal
    view["options"] = []
    view["can_play"] = False
    view.pop("counter", None)  # 記牌器: a player's aid, meaningless with every hand open
    return view


def caption(
    ruleset: Ruleset[Any, Any], before: Any, seat: int, action: dict[str, Any], names: list[str]
) -> dict[str, Any]:
    """What the seat did: 出 + the cards and their type, else the live button's label."""
    from games.boards.doudizhu import _label

    out: dict[str, Any] = {"who": names[seat], "kind": str(action.get("type") or "")}
    if action.get("type") == "play":
        reading = ruleset.read_play(before, seat, action.get("cards"), action.get("as"))  # type: ignore[attr-defined]
        out.update(
            label=_("出"),
            cards=str(action.get("cards") or ""),
            card_kind="poker",
            note=str(reading.name),
            laizi=getattr(before, "laizi", None),
        )
        return out
    view = ruleset.view(before, seat)
    out["label"] = _label(action, view, seat)
    return out


# how this game deals from the stream (shown on the replay page beside the browser's re-deal)
DEAL_RULE = gettext_lazy(
    "54 張牌（3 到 2 各四張，加小王 B、大王 R）以「種子:deal」洗牌；"
    "洗好的前 51 張依序輪流發給第 1、2、3 個座位，最後 3 張是底牌。"
)


def deal_check(
    ruleset: Ruleset[Any, Any], game: str, config: Any, seed: str, seats: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What a verifier needs to re-deal (the input) and the table's own deal (the record):
    every hand and the 底牌, as the engine dealt them."""
    state = ruleset.new_game(config, seed, seats)
    return {"game": game, "seed": seed}, {"hands": list(state.hands), "dipai": state.dipai}
