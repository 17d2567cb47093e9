"""永州麻將 board extras: the shared mahjong board with 永州's marks.

Table marks: the 爆胡 table (3番 / 5番), the server kind (起和), the viewer's own 漏胡 tiles
(the 風圈 is in the shared board's header, 圈風), and once the hand is over whether a winner
reached 爆胡 (capped, or a special hand past the cap). Seat marks: a 包 liability (十二張落地 /
大四喜 / 大三元) next to the seat it binds.
Everything comes from the viewer's own view (``YongzhouRuleset.variant_view``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.boards.mahjong_huanle import generic_marks, mahjong_extras
from games.terms import term


def yongzhou_marks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The table marks of a 永州 view."""
    v = view.get("variant") or {}
    marks = generic_marks(view)
    if v.get("bao_hu"):
        marks.append({"label": "爆胡", "value": f"{v['bao_hu']}番", "tiles": [], "cls": "mark-cap"})
    if v.get("qi_hu_name"):
        marks.append(
            {"label": "起和", "value": str(v["qi_hu_name"]), "tiles": [], "cls": "mark-qihu"}
        )
    if v.get("lou_hu"):
        marks.append(
            {"label": "漏胡", "value": "", "tiles": list(v["lou_hu"]), "cls": "mark-louhu"}
        )
    reached = v.get("bao_hu_reached")
    if reached:
        names = "、".join(r.get("name", "") for r in reached if isinstance(r, dict))
        value = (gettext("已達 %(names)s") % {"names": term(names)}).strip()
        marks.append(
            {"label": "爆胡", "value": value, "tiles": [], "cls": "mark-wild mark-reached"}
        )
    return marks


def yongzhou_seat_marks(view: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """Per seat: the 包自摸 liability it is under (who pays, and why)."""
    v = view.get("variant") or {}
    out: dict[int, list[dict[str, Any]]] = {}
    for s, b in enumerate(v.get("bao") or []):
        if isinstance(b, dict):
            out.setdefault(s, []).append(
                {
                    "label": "包",
                    "value": f"{b.get('reason', '')}",
                    "from": b.get("from"),
                    "cls": "seat-bao",
                }
            )
    return out


def attach_seat_marks(ctx: dict[str, Any], marks: dict[int, list[dict[str, Any]]]) -> None:
    """Put each seat's marks on its player entry (``p.seat_marks`` in ``_mahjong.jinja``)."""
    for p in ctx["mj"]["players"]:
        p["seat_marks"] = [
            {"value": "", "from": None, "title": "", **m} for m in marks.get(p.get("seat"), [])
        ]


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    ctx = mahjong_extras(view, seat, yongzhou_marks)
    if view:
        attach_seat_marks(ctx, yongzhou_seat_marks(view))
    return ctx
