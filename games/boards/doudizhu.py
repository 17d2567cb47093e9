"""斗地主 board extras: the 提示 list for the seat to play."""

from __future__ import annotations

import json
from typing import Any


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    if not view or seat is None or not view.get("can_play"):
        return {}
    from games.rules.doudizhu import legal_plays

    lead = view.get("lead")
    last = lead["cards"] if lead and lead.get("seat") != seat else None
    plays = [p for p in legal_plays(view["hand"], last, view.get("laizi")) if p != "pass"]
    # 提示 cycles from the smallest way to follow (or lead) upwards; a 癩子 play's reading
    # (after "/") is what the 出牌 button then declares
    return {"hints_json": json.dumps(plays[:120], ensure_ascii=False)}
