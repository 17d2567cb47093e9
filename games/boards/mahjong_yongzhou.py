"""永州麻將 board extras: the shared mahjong board with 永州's marks (爆胡 cap, 起和, 風圈)."""

from __future__ import annotations

from typing import Any

from games.boards.mahjong_huanle import generic_marks, mahjong_extras


def yongzhou_marks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Whatever the variant's view offers: its own ``marks`` list, else the known keys."""
    v = view.get("variant") or {}
    marks = generic_marks(view)
    if marks:
        return marks
    if v.get("table_name") or v.get("cap"):
        text = str(v.get("table_name") or f"{v['cap']}番爆胡")
        marks.append({"label": "爆胡", "value": text, "tiles": [], "cls": "mark-cap"})
    if v.get("server_kind_name") or v.get("min_fans") is not None:
        text = str(v.get("server_kind_name") or f"{v['min_fans']}番起和")
        marks.append({"label": "起和", "value": text, "tiles": [], "cls": "mark-room"})
    if v.get("baohu_reached") or v.get("capped"):
        marks.append({"label": "爆胡", "value": "已達", "tiles": [], "cls": "mark-wild"})
    return marks


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    return mahjong_extras(view, seat, yongzhou_marks)
