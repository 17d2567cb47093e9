"""歡樂麻將 board extras, and the helpers the three mahjong boards share.

Everything here is derived from the viewer's own view only (``games.rules.mahjong`` views): the
buttons for exactly ``view["legal_actions"]`` (the discards are the tiles of the hand), the 聽牌
hints, the melds laid out tile by tile, and the variant's marks (財神, 翻牌, room kind …).
The template is ``templates/games/boards/mahjong_huanle.jinja`` (+ ``_mahjong.jinja``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from games.templatetags.tiles import tile_label, trad

MELD_NAMES = {"chi": "吃", "peng": "碰", "minggang": "明槓", "angang": "暗槓", "jiagang": "加槓"}
# play order is anticlockwise: the next seat (下家) sits on the viewer's right
POSITIONS = ("me", "right", "top", "left")
POSITION_NAMES = {"me": "自己", "right": "下家", "top": "對家", "left": "上家"}
_ORDER = {"hu": 0, "gang": 1, "jiagang": 1, "angang": 1, "peng": 2, "chi": 3}


def _vals(action: dict[str, Any]) -> str:
    return json.dumps({"kind": "move", "action": action}, ensure_ascii=False)


def action_button(action: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The label, style and shown tiles of one non-discard action."""
    kind = action.get("type")
    phase = view.get("phase")
    claim = view.get("claim") or {}
    tiles: list[str] = []
    cls = ""
    if kind == "hu":
        label = {"turn": "自摸", "robkong": "搶槓胡"}.get(phase, "胡")
        cls = "btn-hu"
        if claim.get("tile"):
            tiles = [claim["tile"]]
    elif kind == "peng":
        label, tiles = "碰", [claim.get("tile")] * 3 if claim.get("tile") else []
    elif kind == "gang":
        label, tiles = "槓", [claim.get("tile")] * 4 if claim.get("tile") else []
    elif kind == "chi":
        label = "吃"
        tiles = sorted(
            list(action.get("tiles") or []) + ([claim["tile"]] if claim.get("tile") else []),
            key=lambda t: (t[0], int(t[1:]) if t[1:].isdigit() else 0),
        )
    elif kind == "angang":
        label, tiles = "暗槓", [action.get("tile")]
    elif kind == "jiagang":
        label, tiles = "加槓", [action.get("tile")]
    elif kind == "pass":
        label, cls = "過", "btn-muted"
    else:
        label = str(action.get("label") or kind)
    return {
        "action": action,
        "vals": _vals(action),
        "label": label,
        "cls": cls,
        "tiles": [t for t in tiles if t],
        "kind": kind,
        "title": label + ("".join(" " + tile_label(t) for t in tiles if t)),
    }


def meld_layout(meld: dict[str, Any], own: bool) -> dict[str, Any]:
    """A meld tile by tile: the claimed tile marked; a 暗槓 shows its ends face down."""
    kind = meld.get("kind", "")
    tiles = list(meld.get("tiles") or [])
    claimed = meld.get("claimed")
    cells = []
    if kind == "angang":
        if not tiles:  # another seat's 暗槓: four backs
            cells = [{"tile": "back"} for _ in range(int(meld.get("count") or 4))]
        else:
            cells = [{"tile": "back" if i in (0, 3) else t} for i, t in enumerate(tiles)]
    else:
        marked = False
        for t in tiles:
            is_claimed = not marked and claimed is not None and t == claimed
            marked = marked or is_claimed
            cells.append({"tile": t, "claimed": is_claimed})
    return {
        "kind": kind,
        "name": MELD_NAMES.get(kind, kind),
        "cells": cells,
        "from": meld.get("from"),
    }


def huanle_marks(view: dict[str, Any]) -> list[dict[str, Any]]:
    v = view.get("variant") or {}
    marks: list[dict[str, Any]] = []
    if v.get("room_kind_name"):
        text = v["room_kind_name"]
        if v.get("min_fans"):
            text += " · " + gettext("%(n)s番起和") % {"n": v["min_fans"]}
        marks.append({"label": "房型", "value": text, "tiles": [], "cls": "mark-room"})
    if v.get("caishen"):
        marks.append(
            {
                "label": "財神",
                "value": "",
                "tiles": [v["caishen"]],
                "cls": "mark-wild",
                "wild": True,
            }
        )
    if v.get("indicator"):
        marks.append(
            {"label": "翻牌", "value": "", "tiles": [v["indicator"]], "cls": "mark-indicator"}
        )
    if v.get("dealer_factor"):
        marks.append(
            {"label": "莊家", "value": f"×{v['dealer_factor']}", "tiles": [], "cls": "mark-dealer"}
        )
    return marks


def generic_marks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Marks a variant lists itself: ``view["variant"]["marks"]`` = [{label, value, tiles}]."""
    v = view.get("variant") or {}
    out = []
    for m in v.get("marks") or []:
        if isinstance(m, dict):
            out.append(
                {
                    "label": str(m.get("label", "")),
                    "value": str(m.get("value", "")),
                    "tiles": list(m.get("tiles") or []),
                    "cls": str(m.get("cls", "")),
                    "wild": bool(m.get("wild")),
                }
            )
    return out


def mahjong_extras(
    view: dict[str, Any] | None,
    seat: int | None,
    marks: Callable[[dict[str, Any]], list[dict[str, Any]]],
) -> dict[str, Any]:
    """The context every mahjong board uses (``mj``), whatever the variant."""
    if not view:
        return {
            "mj": {
                "buttons": [],
                "hand": [],
                "drawn": None,
                "can_discard": False,
                "tenpai": [],
                "waits": [],
                "wild": [],
                "wild_csv": "",
                "players": [],
                "marks": [],
                "claim": None,
                "my_turn": False,
                "win_tile": None,
                "winners": [],
                "self_drawn": False,
                "from": None,
                "rob_kong": False,
                "bird": None,
                "bird_hit": False,
                "fan_total": [],
            }
        }
    legal = list(view.get("legal_actions") or [])
    discardable = {a.get("tile") for a in legal if a.get("type") == "discard"}
    buttons = sorted(
        (action_button(a, view) for a in legal if a.get("type") != "discard"),
        key=lambda b: _ORDER.get(b["kind"], 5) if b["kind"] != "pass" else 9,
    )
    tenpai = view.get("tenpai") or {}
    wild = list(view.get("wild") or [])
    hand = [
        {
            "tile": t,
            "vals": _vals({"type": "discard", "tile": t}),
            "can": t in discardable,
            "ting": t in tenpai,
            "waits": tenpai.get(t, []),
        }
        for t in (view.get("hand") or [])
    ]
    drawn = view.get("drawn")
    drawn_cell = None
    if drawn:
        drawn_cell = {
            "tile": drawn,
            "vals": _vals({"type": "discard", "tile": drawn}),
            "can": drawn in discardable,
            "ting": drawn in tenpai,
            "waits": tenpai.get(drawn, []),
        }
    players = []
    n = int(view.get("seats") or len(view.get("players") or []) or 4)
    for p in view.get("players") or []:
        s = p.get("seat")
        rel = None if seat is None else (s - seat) % n
        if seat is None:  # a spectator sees seat 0 at the bottom
            rel = s % n
        players.append(
            {
                **p,
                "pos": POSITIONS[rel] if rel is not None and rel < 4 else "top",
                "pos_name": POSITION_NAMES.get(
                    POSITIONS[rel] if rel is not None and rel < 4 else "top", ""
                ),
                "meld_cells": [meld_layout(m, own=(s == seat)) for m in p.get("melds") or []],
            }
        )
    claim = view.get("claim")
    result = view.get("result") or {}
    extra = result.get("extra") or {}
    # how the hand was won: the engine's own record (every variant), else the settlement's
    win = view.get("win") or {}
    self_drawn = bool(win.get("self_drawn", extra.get("self_drawn")))
    src = win.get("from", extra.get("from"))
    if self_drawn:
        src = None
    win_tile = None
    if result and not self_drawn and src is not None and 0 <= src < len(players):
        river = players[src].get("discards") or []
        win_tile = river[-1] if river else None
    to_act = list(view.get("to_act") or [])
    bird = (view.get("variant") or {}).get("bird") or extra.get("bird")
    return {
        "mj": {
            "buttons": buttons,
            "hand": hand,
            "drawn": drawn_cell,
            "can_discard": bool(discardable),
            "tenpai": [{"tile": t, "waits": w} for t, w in tenpai.items()],
            "waits": list(view.get("waits") or []),
            "wild": wild,
            "wild_csv": ",".join(wild),
            "players": players,
            "marks": marks(view),
            "claim": claim,
            "my_turn": seat is not None and seat in to_act,
            "win_tile": win_tile,
            "winners": list(result.get("winners") or []),
            "self_drawn": self_drawn,
            "from": src,
            "rob_kong": bool(win.get("rob_kong")),
            "bird": bird,
            "bird_hit": any(
                (p.get("bird") or 1) > 1 for p in extra.get("payments") or [] if isinstance(p, dict)
            ),
            "fan_total": [
                {
                    "seat": f.get("seat"),
                    "total": f.get("total"),
                    "base": f.get("base"),
                    "fans": [
                        {"name": trad(x.get("name")), "value": x.get("value")}
                        for x in f.get("fans") or []
                    ],
                }
                for f in extra.get("fans") or []
                if isinstance(f, dict)
            ],
        },
    }


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    return mahjong_extras(view, seat, lambda v: huanle_marks(v) + generic_marks(v))
