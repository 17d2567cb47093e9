"""Per-game additions to a board's template context, derived from the viewer's own view only."""

from __future__ import annotations

import json
from typing import Any


def board_extras(game: str, view: dict | None, seat: int | None) -> dict[str, Any]:
    """Extra context for ``games/boards/<game>.html`` (e.g. 斗地主's 提示 list)."""
    extras: dict[str, Any] = {"hints_json": "[]"}
    if not view or seat is None:
        return extras
    if game == "doudizhu" and view.get("can_play"):
        from games.rules.doudizhu import legal_plays

        lead = view.get("lead")
        last = lead["cards"] if lead and lead.get("seat") != seat else None
        plays = [p for p in legal_plays(view["hand"], last, view.get("laizi")) if p != "pass"]
        # 提示 cycles from the smallest way to follow (or lead) to the largest
        extras["hints_json"] = json.dumps([p if isinstance(p, str) else p for p in plays[:120]])
    return extras
