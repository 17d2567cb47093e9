"""樂清麻將 (武漢花) board extras: the shared mahjong board with 財神, 明牌, 杠頭 and 花 counts."""

from __future__ import annotations

from typing import Any

from games.boards.mahjong_huanle import generic_marks, mahjong_extras


def yueqing_marks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Whatever the variant's view offers: its own ``marks`` list, else the known keys."""
    v = view.get("variant") or {}
    marks = generic_marks(view)
    if marks:
        return marks
    if v.get("caishen"):
        marks.append({"label": "財神", "value": "", "tiles": [v["caishen"]], "cls": "mark-wild",
                      "wild": True})
    if v.get("indicator"):
        marks.append({"label": "明牌", "value": "", "tiles": [v["indicator"]],
                      "cls": "mark-indicator"})
    gangtou = v.get("gangtou")
    if gangtou:
        tiles = gangtou if isinstance(gangtou, list) else [gangtou]
        marks.append({"label": "杠頭", "value": "", "tiles": tiles[:1], "cls": "mark-indicator"})
    if v.get("laozhuang"):
        marks.append({"label": "牢莊", "value": str(v["laozhuang"]), "tiles": [],
                      "cls": "mark-dealer"})
    return marks


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    return mahjong_extras(view, seat, yueqing_marks)
