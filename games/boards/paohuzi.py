"""跑胡子 / 雙王扯胡子 board extras, derived from the viewer's own view only.

* ``hand_columns``: the hand laid out in columns as players hold it: each 坎 its own column
  (locked: it is never split or discarded), then one column per 牌點 with its 小 and 大 cards
  (so 七七柒 stand together and pairs stack), the 王 first.
* ``buttons``: exactly ``view["legal_actions"]``: 胡, 跑 / 偎 / 提 (the forced alternative), 碰
  (with the three cards), each 吃 with the 比 groups it forces (as small cards), 過, and in the
  discard phase one 打 button per distinct discardable card.
* ``places``: the seats around the viewer with their melds (胡息 each), piles and hand counts.
* ``settle_lines``: the result lines with each 門子's cards parsed back from the engine's text.
"""

from __future__ import annotations

import json
from typing import Any

from games.templatetags.zipai import card_zh, parse_zh_cards

VARIANT_NAMES = {"hunan": "湖南跑胡子", "shuangwang": "雙王扯胡子"}
SOURCE_NAMES = {"draw": "摸牌", "discard": "打出", "liang": "亮張", "own": "自己摸"}
FOURS = {"pao": "跑", "ti": "提", "wei": "偎"}
POSITION_NAMES = {0: "自己", 1: "下家", 2: "上家"}


def _key(card: str) -> tuple[int, int]:
    if not card or card[0] not in "xd":
        return (0, 0)
    return (int(card[1:]), 1 if card[0] == "d" else 0)


def _vals(action: dict[str, Any]) -> str:
    return json.dumps({"kind": "move", "action": action}, ensure_ascii=False)


def hand_columns(hand: list[str], kans: list[str], discardable: set[str]) -> list[dict]:
    """Columns of the hand: 王, each 坎 alone, then one column per 牌點 (小 above 大)."""
    columns: list[dict] = []
    wangs = [c for c in hand if c == "W"]
    if wangs:
        columns.append({"cards": [{"card": c, "can": False} for c in wangs], "kind": "wang"})
    rest = [c for c in hand if c != "W"]
    for n in range(1, 11):
        here = sorted((c for c in rest if _key(c)[0] == n), key=_key)
        loose = []
        for card in (f"x{n}", f"d{n}"):
            if card in kans:
                columns.append({"cards": [{"card": card, "can": False}] * 3, "kind": "kan"})
            else:
                loose += [c for c in here if c == card]
        if loose:
            columns.append(
                {"cards": [{"card": c, "can": c in discardable} for c in loose], "kind": "loose"}
            )
    # 坎 columns first (they stay put), then the loose ones by 牌點
    return sorted(columns, key=lambda col: {"wang": 0, "kan": 1, "loose": 2}[col["kind"]])


def _button(action: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    kind = action.get("type")
    current = (view.get("current") or {}).get("card")
    groups: list[dict] = []
    cls = ""
    if kind == "hu":
        label, cls = "胡", "btn-hu"
        if current:
            groups = [{"name": "", "cards": [current]}]
    elif kind in FOURS:
        label, cls = FOURS[kind], "btn-claim"
        if current:
            groups = [{"name": "", "cards": [current] * (3 if kind == "wei" else 4)}]
    elif kind == "peng":
        label, cls = "碰", "btn-claim"
        if current:
            groups = [{"name": "", "cards": [current] * 3}]
    elif kind == "chi":
        label, cls = "吃", "btn-chi"
        gs = action.get("groups") or []
        groups = [{"name": "" if i == 0 else "比", "cards": list(g)} for i, g in enumerate(gs)]
    elif kind == "pass":
        label, cls = "過", "btn-muted"
    elif kind == "discard":
        label, cls = "打", "btn-discard"
        groups = [{"name": "", "cards": [action.get("card")]}]
    else:
        label = str(action.get("label") or kind)
    title = (
        label
        + " "
        + " ".join((g["name"] + "".join(card_zh(c) for c in g["cards"])) for g in groups)
    )
    return {
        "action": action,
        "vals": _vals(action),
        "label": label,
        "cls": cls,
        "groups": groups,
        "kind": kind,
        "title": title.strip(),
    }


def _chi_runs(buttons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """吃 offered with the same 吃 group and different 比 groups: the group is shown once.

    The first button of a run shows 吃 and its group; each next one (``more``) only its 比
    groups, joined to the one before. Each is still its own whole action (its title names
    all of it), but a claim offered fourteen ways takes the width of about eight, so the row
    stays clear of the card on offer on a phone held sideways.
    """
    previous: list[str] | None = None
    for b in buttons:
        first = b["groups"][0]["cards"] if b["kind"] == "chi" and b["groups"] else None
        b["more"] = first is not None and first == previous and len(b["groups"]) > 1
        if b["more"]:
            b["groups"] = b["groups"][1:]
        previous = first
    return buttons


_ORDER = {"hu": 0, "pao": 1, "ti": 1, "wei": 1, "peng": 2, "chi": 3, "pass": 9}


def _place(info: dict, pos: int) -> dict:
    melds = []
    for m in info.get("melds", []):
        cards = m.get("cards")
        melds.append(
            {
                "type": m.get("type"),
                "name": m.get("type_zh"),
                "cards": cards,
                "size": m.get("size") or (len(cards) if cards else 3),
                "huxi": m.get("huxi"),
                "hidden": cards is None,
            }
        )
    return {
        "seat": info["seat"],
        "pos": pos,
        "pos_name": POSITION_NAMES[pos],
        "dealer": info.get("dealer"),
        "hand_count": info.get("hand_count"),
        "wang_shown": info.get("wang_shown") or 0,
        "melds": melds,
        "huxi": info.get("huxi") or 0,
        "pile": info.get("pile") or [],
        "hand": info.get("hand"),
    }


def settle_lines(lines: list[dict]) -> list[dict]:
    out = []
    for line in lines or []:
        label = str(line.get("label") or "")
        name, _, rest = label.partition(" ")
        cards = parse_zh_cards(rest) if rest else None
        out.append(
            {
                "label": label,
                "name": name if cards else label,
                "cards": cards,
                "value": line.get("value"),
                "seat": line.get("seat"),
                "group": bool(cards),
            }
        )
    return out


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    if not view:
        return {}
    out: dict[str, Any] = {"variant_name": VARIANT_NAMES.get(view.get("variant"), "跑胡子")}
    seats = view.get("seats") or []
    n = len(seats) or 3
    me = seat if seat is not None else 0
    out["places"] = [_place(seats[(me + k) % n], k) for k in range(n) if seats]
    current = view.get("current")
    if current:
        frm = current.get("from")
        out["offer"] = {
            "card": current.get("card"),
            "from": frm,
            "source": SOURCE_NAMES.get(current.get("source"), ""),
            "pos": None if frm is None or seat is None else (frm - seat) % n,
        }
    legal = view.get("legal_actions") or []
    discards = [a for a in legal if a.get("type") == "discard"]
    others = sorted(
        (a for a in legal if a.get("type") != "discard"), key=lambda a: _ORDER.get(a.get("type"), 5)
    )
    out["buttons"] = _chi_runs([_button(a, view) for a in others])
    seen: set[str] = set()
    out["discard_buttons"] = []
    for a in sorted(discards, key=lambda a: _key(a.get("card", ""))):
        if a.get("card") not in seen:
            seen.add(a.get("card"))
            out["discard_buttons"].append(_button(a, view))
    if seat is not None and view.get("hand") is not None:
        out["hand_columns"] = hand_columns(
            view["hand"], view.get("kans") or [], {a.get("card") for a in discards}
        )
    if view.get("result"):
        out["settle_lines"] = settle_lines(view["result"].get("lines") or [])
    turn = view.get("turn")
    if view.get("phase") == "discard" and turn is not None and seat is not None:
        out["turn_pos"] = (turn - seat) % n
    return out
