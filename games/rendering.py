"""One render per viewer: the seat's own view (never another seat's) into HTML or JSON.

The visibility decision is the engine's ``view``/``spectator_view``; this module only lays out
what that view contains, plus the table's public meta data (names, clocks, 托管 marks).
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.html import escape

from games.board_jinja import board_render
from games.engine import registry
from games.fx import board_fx, board_fx_key
from games.selectors import tables as table_selectors


def _state_for(snapshot: dict) -> Any | None:
    hand = snapshot["hand"]
    if hand is None:
        return None
    seq = snapshot["table"]["seq"]
    state = table_selectors.engine_state_get(hand["id"], seq)
    if state is None:
        state = registry.get(snapshot["table"]["game"]).state_from_json(hand["state"])
        table_selectors.engine_state_remember(hand["id"], seq, state)
    return state


def _base_label(game: str) -> str | None:
    """What the game calls the room's 底分 (None: it does not use it, so it is not shown)."""
    try:
        return registry.get(game).base_label
    except KeyError:
        return "底分"  # a game term: shown through games.terms.term


def viewer_model(snapshot: dict, seat: int | None, viewer_id: int | None = None) -> dict[str, Any]:
    """The per-viewer model: public table meta plus exactly this seat's view of the hand.

    The invite code (邀請碼) goes to the seated players and the owner only, never a watcher.
    """
    table = snapshot["table"]
    ruleset = registry.get(table["game"])
    state = _state_for(snapshot)
    hand = snapshot["hand"]
    view = None
    if state is not None and table["game"] == "zhajinhua":
        from games.boards.zhajinhua import hand_view  # 三張: table seat → the seat dealt in

        view = hand_view(ruleset, state, snapshot, seat)
    elif state is not None:
        view = ruleset.view(state, seat) if seat is not None else ruleset.spectator_view(state)
        if view is not None and "counter" in view:
            # 記牌器: free in some rooms, a bean-priced item per hand in others
            price = int(hand["params"].get("counter_price") or 0)
            view["counter_price"] = price
            view["counter_owned"] = price == 0 or seat in hand.get("counter_seats", [])
            if not view["counter_owned"]:
                view["counter"] = None
    result = None
    if hand and hand["result"]:
        # the settlement: scores, itemised lines and (once settled) the beans of each seat
        result = {k: v for k, v in hand["result"].items() if k != "extra"}
    return {
        "seq": table["seq"],
        "table": {
            **{
                k: table[k]
                for k in (
                    "id",
                    "game",
                    "status",
                    "is_private",
                    "owner_id",
                    "next_hand_at",
                    "fill_deadline",
                )
            },
            "invite_code": table["invite_code"]
            if seat is not None or (viewer_id is not None and viewer_id == table["owner_id"])
            else None,
        },
        "room": {
            **{
                k: table["params"].get(k)
                for k in ("room_name", "base_score", "factor", "rake", "turn_seconds")
            },
            "base_label": _base_label(table["game"]),
        },
        "seat": seat,
        "seats": _seats_named(snapshot["seats"], hand),
        "hand": None
        if hand is None
        else {
            "id": hand["id"],
            "number": hand["number"],
            "status": hand["status"],
            "seed_hash": hand["seed_hash"],
            "seed": hand["seed"],
            "settled": hand["settled"],
        },
        "view": view,
        "result": result,
    }


def _seats_named(seats: list[dict], hand: dict | None) -> list[dict]:
    """The seats, an empty one named after whoever played it in the hand on the table.

    A finished table revisited after its players left still says who won and paid.
    """
    if hand is None or all(s["name"] for s in seats):
        return seats
    by_seat = {int(p.get("table_seat", i)): p for i, p in enumerate(hand.get("players") or [])}
    named = []
    for s in seats:
        player = by_seat.get(s["index"])
        if s["name"] is None and player is not None and player.get("name"):
            s = {**s, "name": player["name"], "is_bot": bool(player.get("is_bot"))}
        named.append(s)
    return named


def render_json(snapshot: dict, seat: int | None, user) -> str:
    model = viewer_model(snapshot, seat, getattr(user, "pk", None))
    return json.dumps({"type": "table", **model}, ensure_ascii=False)


def _rotate(seats: list[dict], seat: int | None) -> list[dict]:
    """Seats ordered from the viewer: me first, then the next seats in play order."""
    if seat is None:
        return seats
    return seats[seat:] + seats[:seat]


def render_html(snapshot: dict, seat: int | None, user) -> str:
    model = viewer_model(snapshot, seat, getattr(user, "pk", None))
    game = snapshot["table"]["game"]
    from games.boards import board_extras

    context = {
        **model,
        **board_extras(game, model["view"], seat),
        "around": _rotate(model["seats"], seat),
        "is_owner": user is not None and model["table"]["owner_id"] == getattr(user, "pk", None),
        "fx": board_fx(game, model["view"], seat, (snapshot["hand"] or {}).get("last")),
        "fx_key": board_fx_key(snapshot),
    }
    return render_board(game, context)


def render_board(game: str, context: dict[str, Any]) -> str:
    """The game's board (``templates/games/boards/<game>.jinja``) for a context laid out as
    :func:`render_html` lays it (the replays lay their own steps the same way)."""
    return board_render(game, context)


def render_error(code: str, message: str) -> str:
    return (
        f'<div id="toast" class="toast toast-error" data-code="{escape(code)}">'
        f"{escape(message)}</div>"
    )


def render_away(hands: int, beans: int) -> str:
    """What 托管 did while the player was away (#away-note on the table page, until closed)."""
    from django.utils.translation import gettext

    said = gettext("你不在時，托管替你打了 %(hands)d 局，歡樂豆 %(beans)s。") % {
        "hands": hands,
        "beans": f"{beans:+,}",
    }
    return (
        f'<div id="away-note" class="away-note" role="status">{escape(said)} '
        f'<button type="button" class="btn btn-small" data-dismiss>{escape(gettext("知道了"))}'
        "</button></div>"
    )


def render_balance(beans: int) -> str:
    """The player's new bean balance for the top bar (#nav-beans, swapped out of band)."""
    return f'<span id="nav-beans" hx-swap-oob="true" data-beans="{int(beans)}">{int(beans)}</span>'
