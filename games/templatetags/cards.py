"""SVG cards for the poker games, drawn by the project (no images fetched)."""

from __future__ import annotations

import functools

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

LABEL = {"T": "10", "B": "JOKER", "R": "JOKER"}
SUIT_CYCLE = "♠♥♣♦"


@functools.lru_cache(maxsize=16384)  # pure: half of a 斗地主 board's render time before
def _card_svg(
    rank: str, suit: str, *, index: int, selectable: bool, small: bool, wild: bool = False
) -> str:
    red = suit in "♥♦" or rank == "R"
    colour = "#c62828" if red else "#1b1b1b"
    w, h = (36, 50) if small else (60, 84)
    if rank in "BR":
        label = "".join(f'<tspan x="8" dy="{11 if small else 12}">{ch}</tspan>' for ch in "JOKER")
        body = format_html(
            '<text x="8" y="0" font-size="{}" font-weight="700" fill="{}">{}</text>'
            '<text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="{}">{}</text>',
            9 if small else 11,
            colour,
            mark_safe(label),
            w * 0.62,
            h * 0.72,
            16 if small else 28,
            colour,
            "★" if rank == "R" else "☆",
        )
    else:
        body = format_html(
            '<text x="5" y="{}" font-size="{}" font-weight="700" fill="{}">{}</text>'
            '<text x="5" y="{}" font-size="{}" fill="{}">{}</text>'
            '<text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="{}">{}</text>',
            15 if small else 22,
            14 if small else 21,
            colour,
            LABEL.get(rank, rank),
            27 if small else 40,
            11 if small else 16,
            colour,
            suit,
            w * 0.62,
            h * 0.8,
            16 if small else 30,
            colour,
            suit,
        )
    attrs = ' class="card selectable" tabindex="0"' if selectable else ' class="card"'
    if wild:
        attrs = attrs.replace('class="card', 'class="card wild')
        body = format_html(
            '{}<text x="{}" y="{}" font-size="{}" font-weight="700" '
            'fill="#e65100" text-anchor="end">癩</text>',
            body,
            w - 4,
            h - 5,
            10 if small else 13,
        )
    return format_html(
        '<svg{} data-rank="{}" data-i="{}" viewBox="0 0 {} {}" width="{}" height="{}" '
        'role="img" aria-label="{}"><rect x="1" y="1" width="{}" height="{}" rx="6" '
        'fill="#fffdf7" stroke="#555"/>{}</svg>',
        mark_safe(attrs),
        rank,
        index,
        w,
        h,
        w,
        h,
        LABEL.get(rank, rank) if rank not in "BR" else ("大王" if rank == "R" else "小王"),
        w - 2,
        h - 2,
        body,
    )


@register.simple_tag
def card_row(
    cards: str | None, selectable: bool = False, small: bool = False, laizi: str | None = None
) -> str:
    """A row of face-up cards for a rank string like '33344BR' (癩子 cards marked)."""
    if not cards:
        return ""
    seen: dict[str, int] = {}
    parts = []
    for i, rank in enumerate(cards):
        n = seen.get(rank, 0)
        seen[rank] = n + 1
        parts.append(
            _card_svg(
                rank,
                SUIT_CYCLE[n % 4],
                index=i,
                selectable=selectable,
                small=small,
                wild=bool(laizi) and rank == laizi,
            )
        )
    return mark_safe("".join(parts))


def card_backs(count: int, small: bool = True) -> str:
    """Face-down cards (their number only: a back carries no information)."""
    w, h = (24, 34) if small else (60, 84)
    back = (
        f'<svg class="card back" viewBox="0 0 {w} {h}" width="{w}" height="{h}" aria-hidden="true">'
        f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="4" fill="#2e5e9e" stroke="#fff"/>'
        f'<rect x="4" y="4" width="{w - 8}" height="{h - 8}" rx="3" fill="none" stroke="#9cc3f5"/>'
        "</svg>"
    )
    return mark_safe(back * max(0, min(int(count or 0), 20)))


@register.simple_tag
@functools.lru_cache(maxsize=4096)  # pure: every board draws every seat's face on each push
def avatar(seed: int, size: int = 40) -> str:
    """A face drawn from the seed: background hue, eyes and mouth vary."""
    seed = int(seed or 0)
    hue = seed * 37 % 360
    mouth = ["M12 27 Q20 33 28 27", "M12 28 L28 28", "M12 29 Q20 24 28 29"][seed % 3]
    eye = 2 + seed % 2
    return format_html(
        '<svg class="avatar" viewBox="0 0 40 40" width="{}" height="{}" aria-hidden="true">'
        '<circle cx="20" cy="20" r="19" fill="hsl({},60%,70%)"/>'
        '<circle cx="14" cy="17" r="{}" fill="#222"/><circle cx="26" cy="17" r="{}" fill="#222"/>'
        '<path d="{}" stroke="#222" stroke-width="2" fill="none"/></svg>',
        size,
        size,
        hue,
        eye,
        eye,
        mouth,
    )
