"""大豐收 page rendering: one player's view (``games.selectors.dafengshou``) to HTML or JSON.

The view decides what is shown (no seed before the round is settled, no other player's bets);
this module only lays it out: the 24-cell ring as SVG positions, chips on the crops.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import gettext

from games.terms import script, term

CELL = 60  # the ring's cell size in SVG units (7 × 7 grid)
# each crop's colour on the ring and its one-character mark
CROP_STYLE = {
    "apple": ("#e53935", "蘋"),
    "orange": ("#fb8c00", "橘"),
    "grape": ("#8e24aa", "葡"),
    "corn": ("#fdd835", "玉"),
    "watermelon": ("#43a047", "瓜"),
    "peach": ("#f06292", "桃"),
    "pumpkin": ("#ef6c00", "南"),
    "rice": ("#c9a227", "稻"),
}
CHIP_COLOURS = {10: "#1e88e5", 100: "#43a047", 1000: "#e53935", 10000: "#8e24aa"}


def chip_stack(amount: int, chips: list[int]) -> list[dict[str, Any]]:
    """Split a stake into the fewest chips, largest first (at most 5 drawn)."""
    out = []
    for chip in sorted(chips, reverse=True):
        while amount >= chip and len(out) < 5:
            out.append({"value": chip, "colour": CHIP_COLOURS.get(chip, "#546e7a")})
            amount -= chip
    return out


def _layout(view: dict[str, Any]) -> dict[str, Any]:
    lit = set((view.get("result") or {}).get("lit", []))
    last_lit = set((view.get("last") or {}).get("lit", []))
    hold = view.get("result_hold_until")
    if view["phase"] == "settled":
        shown = lit
    elif view["phase"] == "betting" and hold is not None and view["now"] < hold:
        # the round just settled stays lit for the hold, in the HTML: a page that was busy
        # when the light stopped still shows the result when it catches up (the page puts it
        # out when the hold ends)
        shown = last_lit
    else:
        shown = set()  # spinning: the page lights the result when its light stops
    for cell in view["ring"]:
        cell["px"], cell["py"] = cell["x"] * CELL, cell["y"] * CELL
        colour, mark = CROP_STYLE.get(cell.get("object", ""), ("#ffca28", "運"))
        cell["colour"], cell["mark"] = colour, script(mark)
        cell["lit"] = cell["cell"] in shown
        cell["last"] = cell["cell"] in last_lit and view["phase"] == "betting"
    result = view.get("result") or {}
    if result.get("cell") is not None:
        hit = view["ring"][result["cell"]]
        name = (
            term(hit["name"])
            + (gettext("（小）") if hit["kind"] == "small" else "")
            + (f" ×{hit['odds']}" if hit.get("odds") else "")
        )
        view["result_name"] = result.get("special_name") or name
    view["win_objects"] = sorted({view["ring"][c].get("object", "") for c in lit} - {""})
    for obj in view["objects"]:
        colour, mark = CROP_STYLE[obj["object"]]
        obj["colour"], obj["mark"] = colour, script(mark)
        obj["stack"] = chip_stack(obj["mine"], view["chips"])
    view["chip_styles"] = [
        {"value": c, "colour": CHIP_COLOURS.get(c, "#546e7a"), "label": chip_label(c)}
        for c in view["chips"]
    ]
    view["player_limit_label"] = amount_zh(view["player_limit"])
    view["round_limit_label"] = amount_zh(view["round_limit"])
    if view.get("my_last"):
        view["my_last"]["loss"] = -view["my_last"]["net"]
    return view


def chip_label(value: int) -> str:
    """A chip's face: 10, 100, 1K, 10K."""
    return f"{value // 1000}K" if value >= 1000 and value % 1000 == 0 else str(value)


def amount_zh(value: int) -> str:
    """A round bean amount as players read it: 5000, 10萬, 1000萬."""
    if value >= 10000 and value % 10000 == 0:
        return gettext("%(n)s萬") % {"n": value // 10000}
    return str(value)


def render_html(view: dict[str, Any]) -> str:
    return render_to_string("games/dafengshou/_board.html", {"v": _layout(view)})


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(type(value))


def render_json(view: dict[str, Any]) -> str:
    return json.dumps({"type": "wheel", **view}, default=_plain, ensure_ascii=False)


def render_totals(event: dict[str, Any], *, as_json: bool = False) -> str:
    """The round's public totals after other players' bets (a ``dafengshou.bet`` message): the
    per-crop totals, the round total and the bettor count, each a top-level fragment by id.

    Rendered from the message alone (no database read), the same for every socket: it holds
    no player's own stakes, balance or the seed."""
    totals = {o: int(event["totals"].get(o, 0)) for o in CROP_STYLE}
    data = {
        "number": event["number"],
        "version": event["version"],
        "totals": totals,
        "round_total": int(event["round_total"]),
        "bettors": int(event["bettors"]),
    }
    if as_json:
        return json.dumps({"type": "totals", **data}, ensure_ascii=False)
    return render_to_string("games/dafengshou/_totals.html", data)


def render_error(code: str, message: str, *, as_json: bool = False) -> str:
    if as_json:
        return json.dumps({"type": "error", "code": code, "message": message}, ensure_ascii=False)
    return (
        f'<div id="wheel-toast" hx-swap-oob="true" class="toast show toast-error" '
        f'data-code="{escape(code)}">{escape(message)}</div>'
    )
