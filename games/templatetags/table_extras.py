"""Labels and small helpers for the table templates (``signed`` and ``term`` are Django filters
for the pages; the boards call the rest through ``games.board_jinja``)."""

from __future__ import annotations

import json

from django import template

register = template.Library()

_LABELS = {
    ("bid", True): "叫地主",
    ("bid", False): "不叫",
    ("rob", True): "搶地主",
    ("rob", False): "不搶",
    ("double", True): "加倍",
    ("double", False): "不加倍",
    ("start", True): "明牌開始 ×5",
    ("start", False): "開始",
    ("menzhua", True): "悶抓",
    ("menzhua", False): "看牌",
    ("dao", True): "倒",
    ("dao", False): "不倒",
    ("la", True): "拉",
    ("la", False): "不拉",
    ("lei", True): "壘",
    ("lei", False): "不壘",
    ("wo", True): "沃",
    ("wo", False): "不沃",
}
_SIMPLE = {
    "pass": "不出",
    "mingpai": "明牌",
    "menzhua": "悶抓",
    "ready": "準備",
    "look": "看牌",
    "call": "跟注",
    "fold": "棄牌",
    "hu": "胡",
    "peng": "碰",
    "gang": "槓",
    "chi": "吃",
    "ting": "聽",
}


def action_label(action: dict) -> str:
    """The button text for an action dict: its Chinese game term, in the active language."""
    kind = action.get("type")
    flag = next((v for k, v in action.items() if isinstance(v, bool)), None)
    from games.terms import term

    if (kind, flag) in _LABELS:
        return term(_LABELS[(kind, flag)])
    return term(action.get("label") or _SIMPLE.get(kind, kind))


def move_vals(action: dict) -> str:
    """hx-vals JSON for a button that sends this action (escaped by the template)."""
    return json.dumps({"kind": "move", "action": action}, ensure_ascii=False)


def seat_in(seat_index, seats) -> bool:
    return seats is not None and seat_index in seats


@register.filter
def signed(value) -> str:
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"+{n:,}" if n > 0 else f"{n:,}"


@register.filter(name="term")
def term_filter(value: object) -> str:
    """A game term in the active language (games.terms.term: 简体 converted, English glossed)."""
    from games.terms import term

    return term(value)
