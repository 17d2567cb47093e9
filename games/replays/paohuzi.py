"""跑胡子 / 雙王扯胡子 replay: every hand and every concealed 偎 / 提 open.

Open view: the bottom seat's view; each other seat's entry is the one its own view gives
(concealed melds known) plus its hand; every seat awaited is marked; the card on offer is
shown even when only its drawer could see it. Actions are labelled by the live board's
buttons (``games.boards.paohuzi._button``: 胡, 跑 / 偎 / 提, 碰, 吃 + 比, 過, 打).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

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


def apply_steps(
    ruleset: Ruleset[Any, Any], state: Any, seat: int, action: dict[str, Any], names: list[str]
) -> list[tuple[dict[str, Any] | None, dict[str, Any]]]:
    """Apply one logged action and return every step it makes visible, in order.

    One logged move may draw several cards from the 墩: a drawn card nobody can use goes to the
    drawer's pile and the next seat draws at once, inside the same ``apply``. Each such draw is a
    step of its own (caption: who drew what), so a replay shows every card that left the 墩.
    The first entry is the action's own step (caption None: the caller's caption); the state
    after the whole action is the last entry's.
    """
    from django.utils.translation import gettext as _

    from games.rules.paohuzi.cards import card_name

    tracer = _Tracer(ruleset)
    tracer.apply(state, seat, action)
    final = ruleset.state_to_json(state)
    draws = tracer.draws
    if not draws:
        return [(None, final)]
    steps: list[tuple[dict[str, Any] | None, dict[str, Any]]] = [(None, draws[0]["before"])]
    for i, draw in enumerate(draws):
        if i + 1 == len(draws):
            # the action's last draw shows where the action ended: a card nobody wanted from
            # the emptied 墩 is resolved at once and the hand ends (黃莊) inside the same apply
            after = final
        elif draw["shown"] is not None:
            after = draw["shown"]
        else:
            after = draws[i + 1]["before"]
        caption = {
            "who": names[draw["seat"]],
            "seat": draw["seat"],
            "kind": "draw",
            "label": _("從墩摸牌"),
            "cards": [card_name(draw["card"])],
            "card_kind": "zipai",
        }
        steps.append((caption, after))
    return steps


def _tracer_class(base: type) -> type:
    """A subclass of the game's ruleset that records the state around each draw from the 墩."""

    class Tracer(base):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            self.draws: list[dict[str, Any]] = []

        def _draw(self, state: Any, seat: int) -> None:
            if state.wall:
                self.draws.append(
                    {
                        "seat": seat,
                        "card": state.wall[0],
                        "before": self.state_to_json(state),
                        "shown": None,
                    }
                )
            super()._draw(state, seat)

        def _resolve(self, state: Any, claim: Any) -> None:
            w = state.window or {}
            automatic = claim is None and not any(w.get("options") or ())
            last = self.draws[-1] if self.draws else None
            if (
                automatic
                and w.get("shown")
                and last is not None
                and last["shown"] is None
                and w.get("card") == last["card"]
            ):
                self.draws[-1]["shown"] = self.state_to_json(state)
            super()._resolve(state, claim)

    return Tracer


_TRACERS: dict[type, type] = {}


def _Tracer(ruleset: Ruleset[Any, Any]) -> Any:  # noqa: N802 - a class factory
    cls = type(ruleset)
    if cls not in _TRACERS:
        _TRACERS[cls] = _tracer_class(cls)
    return _TRACERS[cls]()


def title(ruleset: Ruleset[Any, Any], params: dict[str, Any]) -> str:
    """The replay's title: the hand's 玩法 (雙王扯胡子 is not titled 跑胡子)."""
    from games.boards.paohuzi import VARIANT_NAMES

    return VARIANT_NAMES.get(str(params.get("variant") or ""), ruleset.title)


# how this game deals from the stream (shown on the replay page beside the browser's re-deal)
DEAL_RULE = gettext_lazy(
    "80 張字牌（小字 x1–x10、大字 d1–d10 各四張；雙王扯胡子另加 2"
    " 張王 W）以「種子:deal」洗牌；從莊家起按出牌順序每人 20 張，第 61"
    " 張是莊家的亮張，其餘是墩，從前面摸。"
)


def deal_check(
    ruleset: Ruleset[Any, Any], game: str, config: Any, seed: str, seats: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The re-deal's input (dealer, number of 王) and the engine's deal before any play: each
    hand (the dealer's with his 亮張), the 亮張 and the 墩 from the front."""
    from games.rules.paohuzi.cards import card_name

    hands, liang, wall = ruleset.deal_cards(config, seed)  # type: ignore[attr-defined]
    hands[config.dealer][liang] += 1
    record = {
        "hands": [[card_name(k) for k, n in enumerate(h) for _ in range(n)] for h in hands],
        "liang": card_name(liang),
        "wall": [card_name(c) for c in wall],
    }
    return {"game": game, "seed": seed, "dealer": config.dealer, "wangs": config.wangs}, record
