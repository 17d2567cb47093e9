"""歡樂三張 board: the viewer's own view laid out on a table of 2–6 seats.

A hand is dealt to the players seated when it starts, packed in table order; the engine's seat e
sits at table seat ``Hand.players[e]["table_seat"]`` (see ``games.services.stakes``). ``hand_view``
gives a table seat the view of its own engine seat (a seat that joined during the hand, or a
spectator, gets the spectator's view), plus ``table_seats`` and ``names`` per engine seat.
``extras`` then derives, from that view only: each table seat's cards, chips and marks, the pot
as SVG chips, and buttons for exactly ``view["legal_actions"]`` (跟注, 加注 levels, the 比牌
picker, 棄牌, 看牌).
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.templatetags.cards import _card_svg, card_backs
from games.terms import term

SUITS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
CLASS_ZH = {
    "baozi": "豹子",
    "shunjin": "順金",
    "jinhua": "金花",
    "shunzi": "順子",
    "duizi": "對子",
    "danzhang": "單張",
}
STATUS_ZH = {"folded": "棄牌", "lost": "比牌輸"}
CHIP_COLOURS = ("#1e88e5", "#43a047", "#e53935", "#8e24aa", "#f9a825", "#263238")


def _engine_seat(snapshot: dict, seat: int | None) -> int | None:
    hand = snapshot.get("hand")
    if seat is None or hand is None:
        return None
    seats = snapshot["seats"]
    user_id = seats[seat]["user_id"] if 0 <= seat < len(seats) else None
    for e, player in enumerate(hand["players"]):
        if player.get("table_seat") == seat and player.get("user_id") == user_id:
            return e
    return None


def hand_view(ruleset, state, snapshot: dict, seat: int | None) -> dict[str, Any]:
    """The view of the table seat's engine seat (spectator's if not dealt in this hand)."""
    e = _engine_seat(snapshot, seat)
    view = ruleset.view(state, e) if e is not None else ruleset.spectator_view(state)
    players = snapshot["hand"]["players"]
    view["table_seats"] = [p.get("table_seat", i) for i, p in enumerate(players)]
    view["names"] = [p.get("name") for p in players]
    return view


def cards_svg(cards: list[str], small: bool = False) -> str:
    """Face-up suited cards (``As Th 2d``) as SVG."""
    return mark_safe(
        "".join(
            _card_svg(c[0], SUITS.get(c[1], "?"), index=i, selectable=False, small=small)
            for i, c in enumerate(cards)
        )
    )


def _chips(amount: int, levels: list[int]) -> list[int]:
    """The chips that make up an amount, largest first (at most 14 drawn)."""
    out: list[int] = []
    left = int(amount or 0)
    for level in sorted({int(x) for x in levels if int(x) > 0} | {1}, reverse=True):
        while left >= level and len(out) < 14:
            out.append(level)
            left -= level
    return out


def chips_svg(amount: int, levels: list[int], *, size: int = 22) -> str:
    """A stack of chips for ``amount`` beans, coloured by level (largest at the bottom)."""
    chips = _chips(amount, levels)
    ordered = sorted({int(x) for x in levels} | {1})
    height = size // 2 + 4 + max(0, len(chips) - 1) * 3
    parts = []
    for i, value in enumerate(chips):
        colour = CHIP_COLOURS[ordered.index(value) % len(CHIP_COLOURS)]
        parts.append(
            format_html(
                '<ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="{}" stroke="#fff" '
                'stroke-width="1.5" stroke-dasharray="3 2"/>',
                size // 2 + 1,
                height - size // 4 - 2 - i * 3,
                size // 2,
                size // 4,
                colour,
            )
        )
    return format_html(
        '<svg class="chips" viewBox="0 0 {} {}" width="{}" height="{}" role="img" '
        'aria-label="{}">{}</svg>',
        size + 2,
        height,
        size + 2,
        height,
        gettext("%(n)s 豆") % {"n": amount},
        mark_safe("".join(str(p) for p in parts)),
    )


def pot_svg(pot: int, levels: list[int]) -> str:
    """The pot in the middle of the table: a pile of chip stacks and the amount."""
    chips = _chips(pot, levels)
    ordered = sorted({int(x) for x in levels} | {1})
    stacks: list[list[int]] = [chips[i::4] for i in range(4)]
    parts = []
    for s, stack in enumerate(stacks):
        cx = 22 + s * 26
        for i, value in enumerate(stack):
            colour = CHIP_COLOURS[ordered.index(value) % len(CHIP_COLOURS)]
            parts.append(
                format_html(
                    '<ellipse cx="{}" cy="{}" rx="11" ry="5" fill="{}" stroke="#fff" '
                    'stroke-width="1.5" stroke-dasharray="3 2"/>',
                    cx,
                    46 - i * 4,
                    colour,
                )
            )
    return format_html(
        '<svg class="pot-svg" viewBox="0 0 120 80" width="120" height="80" role="img" '
        'aria-label="{} {}">{}<text x="60" y="72" text-anchor="middle" font-size="14" '
        'font-weight="700" fill="#ffd867">{} {}</text></svg>',
        term("鍋底"),
        pot,
        mark_safe("".join(str(p) for p in parts)),
        term("鍋底"),
        pot,
    )


def extras(view: dict | None, seat: int | None) -> dict[str, Any]:
    if not view:
        return {}
    levels = view.get("chip_levels") or [1]
    table_seats = view.get("table_seats") or list(range(len(view.get("seats", []))))
    names = view.get("names") or []
    me = view.get("seat")  # my engine seat, None if not dealt in
    by_table: dict[int, dict[str, Any]] = {}
    for entry in view.get("seats", []):
        e = entry["seat"]
        cards = entry.get("cards")
        by_table[table_seats[e]] = {
            **entry,
            "engine": e,
            "name": names[e] if e < len(names) else "",
            "status_zh": STATUS_ZH.get(entry["status"], ""),
            "cards_html": cards_svg(cards, small=e != me)
            if cards
            else card_backs(3, small=e != me),
            "class_zh": CLASS_ZH.get(entry.get("hand_class", ""), ""),
            "chips_html": chips_svg(entry["stake"], levels),
            "is_me": e == me,
        }
    out: dict[str, Any] = {
        "zseats": by_table,
        "pot_html": pot_svg(view.get("pot", 0), levels),
        "to_act_table": [table_seats[e] for e in view.get("to_act", [])],
        "in_hand": me is not None,
        "buttons": [],
        "compare_targets": [],
    }
    if me is None:
        return out
    seen = bool(view["seats"][me]["looked"])
    rate = 2 if seen else 1
    for action in view.get("legal_actions", []):
        kind = action["type"]
        if kind == "call":
            out["buttons"].append(
                {"action": action, "label": f"跟注 {view.get('call_cost')}", "cls": "btn-primary"}
            )
        elif kind == "raise":
            label = (
                term("加注到")
                + f" {action['to']}"
                + gettext("（%(n)s 豆）") % {"n": action["to"] * rate}
            )
            out["buttons"].append({"action": action, "label": label, "cls": ""})
        elif kind == "compare":
            t = action["target"]
            out["compare_targets"].append(
                {
                    "action": action,
                    "label": f"{names[t] if t < len(names) else t}",
                    "seat": t,
                }
            )
        elif kind == "fold":
            out["buttons"].append({"action": action, "label": "棄牌", "cls": "btn-danger"})
        elif kind == "look":
            out["buttons"].append({"action": action, "label": "看牌", "cls": "btn-muted"})
    out["compare_fee"] = view.get("compare_fee")
    return out
