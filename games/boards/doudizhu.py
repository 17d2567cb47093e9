"""斗地主 board extras: labelled buttons for this seat's options, and the 提示 list."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext

from games.engine.cards import RANKS
from games.terms import term

PLAIN_START = {"type": "start", "mingpai": False}
MINGPAI_START = {"type": "start", "mingpai": True}  # 明牌開始: everything ×5, the hand shown

DOU_FARMER = {0: "倒", 2: "壘"}  # a farmer's step in 倒拉壘沃 (悶抓場)
DOU_LANDLORD = {1: "拉", 3: "沃"}  # the landlord's answer to that farmer


def _label(option: dict, view: dict, seat: int) -> str:
    from games.templatetags.table_extras import action_label

    if option.get("type") == "dou":
        steps = view.get("dou") or [0, 0, 0]
        if "farmer" in option:
            word = DOU_LANDLORD.get(steps[option["farmer"]], "拉")
            return term(word if option["dou"] else "不" + word)  # the template names the farmer
        word = DOU_FARMER.get(steps[seat], "倒")
        return word if option["dou"] else "不" + word
    if option.get("type") == "mingpai":
        return "明牌 ×2" if view.get("phase") == "playing" else "明牌"
    return action_label(option)


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    if not view or seat is None:
        return {}
    out: dict[str, Any] = {
        "buttons": [
            {
                "action": o,
                "label": _label(o, view, seat),
                "target": o.get("farmer") if o.get("type") == "dou" else None,
                # the plain 開始 is the choice a newcomer should take: primary, never greyed
                "primary": o == PLAIN_START,
                "muted": o != PLAIN_START
                and (
                    o.get("type") == "pass" or o.get(next(iter(o.keys() - {"type"}), "")) is False
                ),
                "risk": gettext("輸贏 ×5，手牌亮給大家") if o == MINGPAI_START else "",
            }
            for o in view.get("options", [])
        ],
    }
    counter = view.get("counter")
    if counter:
        out["counter_cells"] = [
            {
                "rank": r,
                "label": {"T": "10", "B": "小", "R": "大"}.get(r, r),
                "n": counter.get(r, 0),
            }
            for r in RANKS
        ]
    if view.get("can_play"):
        from games.rules.doudizhu import legal_plays

        lead = view.get("lead")
        last = lead["cards"] if lead and lead.get("seat") != seat else None
        plays = [p for p in legal_plays(view["hand"], last, view.get("laizi")) if p != "pass"]
        # 提示 cycles from the smallest play upwards; in 癩子場 an entry is "cards/reading" and
        # the 出牌 button asks which reading when the selected cards have more than one
        out["hints_json"] = json.dumps(plays[:300], ensure_ascii=False)
    return out
