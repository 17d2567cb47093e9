"""SVG 字牌 for 跑胡子, drawn by the project (no images fetched).

Notation (games.rules.paohuzi): 小 ``x1``…``x10`` (一…十), 大 ``d1``…``d10`` (壹…拾), ``W`` the
王霸 (雙王); a 王 standing for a card inside a settled group is ``W(x5)``. 二七十 / 貳柒拾 are red.

Each card is a tall narrow self-contained ``<svg class="zp">``: the numeral at the top (what shows
when cards are stacked in a column), again upside down at the foot. 大字 carry a double frame and a
tinted face so 一 and 壹 differ at a glance. Sizes: ``l`` (the hand, the card on offer), ``m``,
``s``
(melds), ``xs`` (buttons, piles). The drawing is sized by CSS (``.zp-l`` …), the viewBox is fixed.
``{% zipai_row %}`` is the Django pages' tag (the replay's captions); the boards call these
functions through ``games.board_jinja``.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()

SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹貳叁肆伍陸柒捌玖拾"
RED_RANKS = {2, 7, 10}
RED, INK = "#c81e1e", "#1d1d1d"
SERIF = "'Noto Serif CJK TC','Noto Serif CJK SC','Songti TC','PMingLiU','SimSun',serif"
W, H = 40, 112  # viewBox of one card
SIZES = {"l": (40, 112), "m": (32, 90), "s": (24, 66), "xs": (18, 50)}
ZH_TO_CARD = {
    **{c: f"x{i + 1}" for i, c in enumerate(SMALL_ZH)},
    **{c: f"d{i + 1}" for i, c in enumerate(BIG_ZH)},
    "王": "W",
}


def card_zh(card: str) -> str:
    """一…十 / 壹…拾 / 王 for a card code (``W(x5)`` → 王(五))."""
    if not card:
        return ""
    if card.startswith("W("):
        return "王(" + card_zh(card[2:-1]) + ")"
    if card == "W":
        return "王"
    try:
        n = int(card[1:])
    except ValueError:
        return card
    return (BIG_ZH if card[0] == "d" else SMALL_ZH)[n - 1]


def is_red(card: str) -> bool:
    return card[:1] in "xd" and card[1:].isdigit() and int(card[1:]) in RED_RANKS


@lru_cache(maxsize=256)
def _face(card: str) -> str:
    """The inner drawing of one card in the fixed viewBox."""
    stands = ""
    if card.startswith("W("):
        card, stands = "W", card[2:-1]
    if card == "W":
        sub = (
            f'<text x="20" y="104" font-size="11" text-anchor="middle" fill="{INK}" '
            f'font-family="{SERIF}" font-weight="700">作{escape(card_zh(stands))}</text>'
            if stands
            else f'<text x="20" y="100" font-size="24" text-anchor="middle" fill="{RED}" '
            f'font-family="{SERIF}" font-weight="900">霸</text>'
        )
        return (
            f'<rect x="1" y="1" width="38" height="110" rx="5" fill="#ffe9a8" stroke="#8a5a00" '
            f'stroke-width="1.6"/><rect x="4" y="4" width="32" height="104" rx="3" fill="none" '
            f'stroke="#d08a00" stroke-width="1"/>'
            f'<text x="20" y="32" font-size="28" text-anchor="middle" fill="{RED}" '
            f'font-family="{SERIF}" font-weight="900">王</text>'
            f'<path d="M10 50 L14 40 L20 47 L26 40 L30 50 Z" fill="#d08a00"/>'
            f'<circle cx="20" cy="62" r="6" fill="none" stroke="{RED}" stroke-width="1.6"/>'
            f'<circle cx="20" cy="62" r="2" fill="{RED}"/>' + sub
        )
    big = card[0] == "d"
    n = int(card[1:])
    colour = RED if n in RED_RANKS else INK
    ch = (BIG_ZH if big else SMALL_ZH)[n - 1]
    fill = "#fbefd2" if big else "#fffaf0"
    frame = (
        f'<rect x="3.5" y="3.5" width="33" height="105" rx="3" fill="none" stroke="{colour}" '
        f'stroke-width="1.1" opacity=".55"/>'
        f'<rect x="5.5" y="5.5" width="29" height="101" rx="2" fill="none" stroke="{colour}" '
        f'stroke-width=".7" opacity=".45"/>'
        if big
        else f'<rect x="4" y="4" width="32" height="104" rx="3" fill="none" stroke="{colour}" '
        f'stroke-width=".8" opacity=".35"/>'
    )
    size = 27 if big else 30
    glyph = (
        f'font-size="{size}" text-anchor="middle" fill="{colour}" font-family="{SERIF}" '
        f'font-weight="900"'
    )
    # a small mark between the numerals: a dot for 小, a diamond for 大
    mid = (
        f'<path d="M20 50 l5 6 l-5 6 l-5 -6 Z" fill="{colour}" opacity=".8"/>'
        if big
        else f'<circle cx="20" cy="56" r="3.2" fill="{colour}" opacity=".8"/>'
    )
    return (
        f'<rect x="1" y="1" width="38" height="110" rx="5" fill="{fill}" stroke="#6d5a3a" '
        f'stroke-width="1.4"/>{frame}'
        f'<text x="20" y="33" {glyph}>{ch}</text>{mid}'
        f'<text x="20" y="33" {glyph} transform="rotate(180 20 56)">{ch}</text>'
    )


def zp_svg(card: str, size: str = "l", *, extra_class: str = "", attrs: str = "") -> str:
    """One face-up card."""
    w, h = SIZES.get(size, SIZES["l"])
    label = "王霸" if card == "W" else card_zh(card) + ("（大）" if card[:1] == "d" else "")
    red = " zp-red" if is_red(card) else ""
    cls = (
        f"zp zp-{size}{red}"
        + (" zp-big" if card[:1] == "d" else "")
        + (" zp-wang" if card.startswith("W") else "")
        + (f" {extra_class}" if extra_class else "")
    )
    return (
        f'<svg class="{cls}" data-card="{escape(card)}" viewBox="0 0 {W} {H}" width="{w}" '
        f'height="{h}" role="img" aria-label="{escape(label)}"{attrs}>{_face(card)}</svg>'
    )


def zp_back(size: str = "s") -> str:
    w, h = SIZES.get(size, SIZES["s"])
    return (
        f'<svg class="zp zp-{size} zp-back" viewBox="0 0 {W} {H}" width="{w}" height="{h}" '
        f'aria-label="蓋牌"><rect x="1" y="1" width="38" height="110" rx="5" fill="#2f6b4f" '
        f'stroke="#f3e6c4" stroke-width="1.6"/><rect x="5" y="5" width="30" height="102" rx="3" '
        f'fill="none" stroke="#a8d5b9" stroke-width="1"/><path d="M20 30 L32 56 L20 82 L8 56 Z" '
        f'fill="none" stroke="#a8d5b9" stroke-width="1.4"/></svg>'
    )


def zipai(card: str, size: str = "l") -> str:
    """``{% zipai "x7" "s" %}``: one card."""
    if not card:
        return ""
    return mark_safe(zp_svg(str(card), size))


@register.simple_tag
def zipai_row(cards, size: str = "s") -> str:
    """A row of cards; ``None`` entries (face down) are backs."""
    return mark_safe(
        "".join(zp_back(size) if c is None else zp_svg(str(c), size) for c in (cards or []))
    )


def zipai_backs(count, size: str = "s") -> str:
    return mark_safe(zp_back(size) * max(0, min(int(count or 0), 4)))


def zh(card) -> str:
    """The Chinese name of a card code: ``x7`` → 七, ``d10`` → 拾, ``W`` → 王."""
    return card_zh(str(card or ""))


def parse_zh_cards(text: str) -> list[str] | None:
    """``貳貳貳貳`` / ``王(五)五五`` → card codes; ``None`` when the text is not only cards."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "王" and text[i + 1 : i + 2] == "(":
            end = text.find(")", i)
            inner = ZH_TO_CARD.get(text[i + 2 : end]) if end > 0 else None
            if not inner:
                return None
            out.append(f"W({inner})")
            i = end + 1
            continue
        if ch not in ZH_TO_CARD:
            return None
        out.append(ZH_TO_CARD[ch])
        i += 1
    return out or None
