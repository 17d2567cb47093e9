"""樂清麻將 (武漢花) board extras: the shared mahjong board with 樂清's marks.

Table marks: 財神, the 明牌 (indicator), 杠頭 (its other copies), the 花 tile (白板, or 紅中),
the dice, 起胡台數, 牢莊 and the 逼胡 seat. Seat marks: each seat's 花 count (all of it for
the viewer, the face-up part for the others), its 杠頭 and 白板 shown, and its 明牌 state.
Everything comes from the viewer's own view (``YueqingRuleset.variant_view``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.boards.mahjong_huanle import generic_marks, mahjong_extras
from games.boards.mahjong_yongzhou import attach_seat_marks


def yueqing_marks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The table marks of a 樂清 view."""
    v = view.get("variant") or {}
    marks = generic_marks(view)
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
        # the 明牌's other three copies are the 杠頭: one tile shows both
        marks.append(
            {
                "label": "明牌·杠頭",
                "value": "",
                "tiles": [v["indicator"]],
                "cls": "mark-indicator mark-gangtou",
            }
        )
    if v.get("flower_kind"):
        marks.append(
            {"label": "花牌", "value": "", "tiles": [v["flower_kind"]], "cls": "mark-flower"}
        )
    dice = v.get("dice") or {}
    if dice.get("first") and dice.get("second"):
        marks.append(
            {
                "label": "骰子",
                "value": "{}+{} · {}+{}".format(*dice["first"], *dice["second"]),
                "tiles": [],
                "cls": "mark-dice",
            }
        )
    if v.get("qi_hu_tai"):
        marks.append(
            {"label": "起胡", "value": f"{v['qi_hu_tai']}台", "tiles": [], "cls": "mark-qihu"}
        )
    if v.get("lao_zhuang"):
        marks.append(
            {"label": "牢莊", "value": str(v["lao_zhuang"]), "tiles": [], "cls": "mark-dealer"}
        )
    if v.get("bihu") is not None:
        marks.append(
            {
                "label": "逼胡",
                "value": gettext("座%(n)s") % {"n": v["bihu"]},
                "tiles": [],
                "cls": "mark-bihu",
            }
        )
    return marks


def yueqing_seat_marks(view: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """Per seat: 花 count, 杠頭 and 白板 (花牌) shown, the 明牌 state."""
    v = view.get("variant") or {}
    flower = "紅中" if v.get("flower_kind") == "J1" else "白板"
    out: dict[int, list[dict[str, Any]]] = {}
    for s, info in enumerate(v.get("seats") or []):
        if not isinstance(info, dict):
            continue
        marks = [
            {
                "label": "花",
                "value": str(info.get("hua", 0)),
                "cls": "seat-hua",
                "title": "花數" if info.get("hua_full") else "亮出的花數",
            }
        ]
        shown = []
        if info.get("gangtou"):
            shown.append(f"杠頭×{info['gangtou']}")
        if info.get("baiban"):
            shown.append(f"{flower}×{info['baiban']}")
        if shown:  # one tag: the side columns are narrow on a phone
            marks.append({"label": " ".join(shown), "value": "", "cls": "seat-flowers"})
        if info.get("ming"):
            marks.append({"label": str(info["ming"]), "value": "", "cls": "seat-ming"})
        out[s] = marks
    return out


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    ctx = mahjong_extras(view, seat, yueqing_marks)
    if view:
        attach_seat_marks(ctx, yueqing_seat_marks(view))
    return ctx
