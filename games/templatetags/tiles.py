"""SVG mahjong tiles drawn by the project (no images fetched).

Notation (DESIGN.md §2): ``W1–W9`` 萬, ``T1–T9`` 條, ``B1–B9`` 餅, ``F1–F4`` 東南西北, ``J1–J3``
中發白, ``H1–H8`` flowers (春夏秋冬 梅蘭竹菊).

Each kind is drawn once as an SVG ``<symbol id="mjt-W5">`` and every tile on the board is a small
``<svg><use href="#mjt-W5"/></svg>``: a board of 140 tiles stays small on the wire. A board's
:class:`TileSheet` (``mjt`` in the Jinja boards) records which kinds it drew; its ``defs()``,
placed after every tile of the fragment (the end of ``#board``), emits the symbols for exactly
those kinds. ``{% tile "W5" "" None True %}`` (inline) draws a self-contained tile for the
Django pages without defs (the replay's captions). The text helpers are plain functions.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
DRAGONS = "中發白"
FLOWER_CHARS = "春夏秋冬梅蘭竹菊"
SUIT_NAMES = {"W": "萬", "T": "條", "B": "餅"}

RED, GREEN, BLUE, INK = "#c8102e", "#0e7a3c", "#1d4fa3", "#1b1b33"
SERIF = "'Noto Serif CJK TC','Noto Serif CJK SC','Songti TC','PMingLiU','SimSun',serif"
VIEWBOX = "0 0 60 80"


# --- names -----------------------------------------------------------------------------------
def tile_label(tile: str) -> str:
    """The Chinese name of a tile: 五萬, 三條, 七餅, 東風, 紅中, 發財, 白板, 春."""
    if not tile or len(tile) < 2:
        return str(tile or "")
    s, n = tile[0], tile[1:]
    if not n.isdigit():
        return tile
    k = int(n)
    if s in SUIT_NAMES and 1 <= k <= 9:
        return NUMERALS[k - 1] + SUIT_NAMES[s]
    if s == "F" and 1 <= k <= 4:
        return WINDS[k - 1] + "風"
    if s == "J" and 1 <= k <= 3:
        return ("紅中", "發財", "白板")[k - 1]
    if s == "H" and 1 <= k <= 8:
        return FLOWER_CHARS[k - 1]
    return tile


def _valid(tile: str) -> bool:
    return tile_label(tile) != tile


# --- drawing ---------------------------------------------------------------------------------
def _frame() -> str:
    # the tile's body: a green back showing as the bottom edge, an ivory face above it
    return (
        '<rect x="1" y="3" width="58" height="76" rx="8" fill="#17734d"/>'
        '<rect x="1" y="1" width="58" height="73" rx="8" fill="url(#mjt-face)" '
        'stroke="#b9ae92" stroke-width="1.2"/>'
        '<rect x="3.5" y="3.5" width="53" height="68" rx="6" fill="none" stroke="#fff" '
        'stroke-opacity=".7" stroke-width="1"/>'
    )


def _text(x: float, y: float, size: float, colour: str, ch: str, weight: int = 700) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-family="{SERIF}" font-weight="{weight}" '
        f'text-anchor="middle" fill="{colour}">{ch}</text>'
    )


def _stick(cx: float, cy: float, length: float, colour: str, angle: float = 0) -> str:
    """One bamboo stick: a rounded bar with three nodes and a highlight."""
    half = length / 2
    dark = {GREEN: "#075a2a", RED: "#8c0b20", BLUE: "#123a7a"}.get(colour, "#333")
    rot = f" rotate({angle})" if angle else ""
    return (
        f'<g transform="translate({cx} {cy}){rot}">'
        f'<rect x="-3.6" y="{-half}" width="7.2" height="{length}" rx="3.4" fill="{colour}"/>'
        f'<rect x="-1.1" y="{-half + 2.5}" width="1.6" height="{length - 5}" rx=".8" '
        f'fill="#fff" opacity=".45"/>'
        f'<rect x="-4.4" y="-1.3" width="8.8" height="2.6" rx="1.2" fill="{dark}"/>'
        f'<rect x="-4.4" y="{-half}" width="8.8" height="2.4" rx="1.2" fill="{dark}"/>'
        f'<rect x="-4.4" y="{half - 2.4}" width="8.8" height="2.4" rx="1.2" fill="{dark}"/>'
        "</g>"
    )


def _bird() -> str:
    """一條: the sparrow."""
    return (
        # tail feathers
        f'<path d="M20 50 Q6 56 9 69" stroke="{BLUE}" stroke-width="3.2" fill="none" '
        'stroke-linecap="round"/>'
        f'<path d="M22 53 Q14 62 19 71" stroke="{RED}" stroke-width="3.2" fill="none" '
        'stroke-linecap="round"/>'
        f'<path d="M25 55 Q24 64 29 70" stroke="{GREEN}" stroke-width="3.2" fill="none" '
        'stroke-linecap="round"/>'
        # body and head
        f'<path d="M18 50 Q16 33 31 29 Q45 27 45 40 Q44 54 28 57 Q21 57 18 50 Z" fill="{GREEN}"/>'
        f'<circle cx="40" cy="22" r="7.5" fill="{GREEN}"/>'
        '<path d="M47 20 L55 23 L47 26 Z" fill="#e8730c"/>'
        '<circle cx="42" cy="20.5" r="2.1" fill="#fff"/><circle cx="42.5" cy="20.5" r="1.1" '
        'fill="#000"/>'
        f'<path d="M36 15 Q36 7 43 8 M39 15 Q42 9 47 11" stroke="{RED}" stroke-width="2.2" '
        'fill="none" stroke-linecap="round"/>'
        # wing
        f'<path d="M22 42 Q31 33 41 40 Q33 49 22 42 Z" fill="{BLUE}"/>'
        '<path d="M25 42 Q31 38 37 41" stroke="#fff" stroke-width="1" fill="none" opacity=".7"/>'
        f'<circle cx="31" cy="49" r="2" fill="{RED}"/>'
        # legs
        '<path d="M28 57 L26 64 M33 56 L34 64" stroke="#8c4a12" stroke-width="1.8" '
        'stroke-linecap="round"/>'
    )


# stick layouts: (cx, cy, length, colour, angle)
_S2 = 26
_S3 = 18
_BAMBOO: dict[int, list[tuple[float, float, float, str, float]]] = {
    2: [(30, 22, _S2, GREEN, 0), (30, 52, _S2, BLUE, 0)],
    3: [(30, 22, _S2, BLUE, 0), (19, 52, _S2, GREEN, 0), (41, 52, _S2, GREEN, 0)],
    4: [
        (19, 22, _S2, BLUE, 0),
        (41, 22, _S2, GREEN, 0),
        (19, 52, _S2, GREEN, 0),
        (41, 52, _S2, BLUE, 0),
    ],
    5: [
        (15, 22, _S2, GREEN, 0),
        (45, 22, _S2, BLUE, 0),
        (30, 37, _S2, RED, 0),
        (15, 52, _S2, BLUE, 0),
        (45, 52, _S2, GREEN, 0),
    ],
    6: [(x, y, _S2, GREEN if y < 37 else BLUE, 0) for y in (22, 52) for x in (15, 30, 45)],
    7: [(30, 14, _S3, RED, 0)] + [(x, y, _S3, GREEN, 0) for y in (37, 60) for x in (15, 30, 45)],
    8: [
        (10, 22, _S2, GREEN, 0),
        (23, 22, _S2, GREEN, 24),
        (37, 22, _S2, GREEN, -24),
        (50, 22, _S2, GREEN, 0),
        (10, 52, _S2, BLUE, 0),
        (23, 52, _S2, BLUE, -24),
        (37, 52, _S2, BLUE, 24),
        (50, 52, _S2, BLUE, 0),
    ],
    9: [
        (x, y, _S3, RED if x == 30 else (GREEN if y != 37 else BLUE), 0)
        for y in (14, 37, 60)
        for x in (15, 30, 45)
    ],
}


def _dot(cx: float, cy: float, r: float, colour: str) -> str:
    """One circle of 餅: rings in the suit's colours."""
    return (
        f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{r * 0.74:.2f}" fill="#fffdf3"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{r * 0.52:.2f}" fill="{colour}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{r * 0.22:.2f}" fill="#fffdf3"/>'
    )


_CIRCLES: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(30, 21, 12.5, GREEN), (30, 53, 12.5, BLUE)],
    3: [(15, 15, 10, BLUE), (30, 37, 10, RED), (45, 59, 10, GREEN)],
    4: [(18, 23, 10.5, BLUE), (42, 23, 10.5, GREEN), (18, 51, 10.5, GREEN), (42, 51, 10.5, BLUE)],
    5: [
        (16, 17, 10, BLUE),
        (44, 17, 10, GREEN),
        (30, 37, 10, RED),
        (16, 57, 10, GREEN),
        (44, 57, 10, BLUE),
    ],
    6: [
        (19, 14, 9, GREEN),
        (41, 14, 9, GREEN),
        (19, 40, 9, RED),
        (41, 40, 9, RED),
        (19, 60, 9, RED),
        (41, 60, 9, RED),
    ],
    7: [
        (14, 12, 7.5, GREEN),
        (30, 19, 7.5, GREEN),
        (46, 26, 7.5, GREEN),
        (19, 45, 8.5, RED),
        (41, 45, 8.5, RED),
        (19, 63, 8.5, RED),
        (41, 63, 8.5, RED),
    ],
    8: [(x, y, 8, BLUE) for y in (12, 29, 46, 63) for x in (19, 41)],
    9: [(x, y, 8, (BLUE, RED, GREEN)[i]) for i, y in enumerate((14, 37, 60)) for x in (13, 30, 47)],
}


def _one_circle() -> str:
    ring = "".join(
        f'<circle cx="{30 + 17.5 * _cos(a):.2f}" cy="{37 + 17.5 * _sin(a):.2f}" r="2.2" '
        f'fill="{RED}"/>'
        for a in range(0, 360, 30)
    )
    return (
        f'<circle cx="30" cy="37" r="23" fill="{GREEN}"/>'
        '<circle cx="30" cy="37" r="20.5" fill="#fffdf3"/>'
        + ring
        + f'<circle cx="30" cy="37" r="13" fill="{BLUE}"/>'
        '<circle cx="30" cy="37" r="10" fill="#fffdf3"/>'
        f'<circle cx="30" cy="37" r="7" fill="{RED}"/>'
        '<circle cx="30" cy="37" r="2.6" fill="#fffdf3"/>'
    )


def _cos(deg: int) -> float:
    import math

    return math.cos(math.radians(deg))


def _sin(deg: int) -> float:
    import math

    return math.sin(math.radians(deg))


_FLOWER_COLOURS = [
    "#2e9e4f",
    "#d83a3a",
    "#e08a12",
    "#2f6fc9",
    "#d9487c",
    "#8a4fc2",
    "#1f8a5b",
    "#d4a017",
]


def _flower(k: int) -> str:
    colour = _FLOWER_COLOURS[k - 1]
    petals = "".join(
        f'<ellipse cx="{30 + 8 * _cos(a):.2f}" cy="{27 + 8 * _sin(a):.2f}" rx="6.5" ry="5" '
        f'transform="rotate({a} {30 + 8 * _cos(a):.2f} {27 + 8 * _sin(a):.2f})" '
        f'fill="{colour}" opacity=".9"/>'
        for a in range(-90, 270, 72)
    )
    return (
        petals + '<circle cx="30" cy="27" r="4.2" fill="#f7d23e" stroke="#b5740a" '
        'stroke-width=".8"/>'
        + _text(10, 15, 11, RED, str((k - 1) % 4 + 1), 700)
        + _text(30, 64, 21, colour, FLOWER_CHARS[k - 1])
    )


def _face(tile: str) -> str:
    s, k = tile[0], int(tile[1:])
    if s == "W":
        return _text(30, 32, 25, INK, NUMERALS[k - 1]) + _text(30, 65, 28, RED, "萬")
    if s == "T":
        if k == 1:
            return _bird()
        return "".join(_stick(*spec) for spec in _BAMBOO[k])
    if s == "B":
        if k == 1:
            return _one_circle()
        return "".join(_dot(*spec) for spec in _CIRCLES[k])
    if s == "F":
        return _text(30, 52, 40, INK, WINDS[k - 1], 800)
    if s == "J":
        if k == 1:
            return _text(30, 53, 44, RED, "中", 800)
        if k == 2:
            return _text(30, 53, 42, GREEN, "發", 800)
        return (
            f'<rect x="11" y="10" width="38" height="54" rx="3" fill="none" stroke="{BLUE}" '
            'stroke-width="3.2"/><rect x="16" y="15" width="28" height="44" rx="2" '
            f'fill="none" stroke="{BLUE}" stroke-width="1.2"/>'
        )
    if s == "H":
        return _flower(k)
    return ""


def _back_body() -> str:
    return (
        '<rect x="1" y="1" width="58" height="78" rx="8" fill="#f3ecd6" stroke="#b9ae92" '
        'stroke-width="1.2"/>'
        '<rect x="1" y="1" width="58" height="73" rx="8" fill="#1d8a5c"/>'
        '<rect x="5" y="5" width="50" height="65" rx="5" fill="none" stroke="#5fc494" '
        'stroke-width="1.4"/>'
        '<path d="M30 22 L38 37 L30 52 L22 37 Z" fill="none" stroke="#5fc494" '
        'stroke-width="1.4"/>'
    )


COMMON_DEFS = (
    '<linearGradient id="mjt-face" x1="0" y1="0" x2="0" y2="1">'
    '<stop offset="0" stop-color="#fffef8"/><stop offset="1" stop-color="#efe8d4"/>'
    "</linearGradient>"
)


@lru_cache(maxsize=64)
def symbol(kind: str) -> str:
    """The <symbol> for one kind (or ``back``)."""
    if kind == "back":
        body = _back_body()
    else:
        body = _frame() + _face(kind)
    return f'<symbol id="mjt-{kind}" viewBox="{VIEWBOX}">{body}</symbol>'


_WILD_MARK = (
    '<rect x="1.5" y="1.5" width="57" height="72" rx="8" fill="none" stroke="#e0a100" '
    'stroke-width="3"/>'
    '<path d="M36 1.5 H51 Q58.5 1.5 58.5 9 V24 Z" fill="#e0a100"/>'
    '<text x="51.5" y="13.5" font-size="10.5" font-weight="800" text-anchor="middle" '
    f'font-family="{SERIF}" fill="#fff">財</text>'
)


def _svg(kind: str, *, cls: str, wild: bool, inline: bool, title: str = "") -> str:
    label = "背面" if kind == "back" else tile_label(kind)
    if wild:
        label += "（財神）"
    classes = "tile" + (" tile-back" if kind == "back" else "") + (" wild" if wild else "")
    if cls:
        classes += " " + cls
    inner = (
        (f"<defs>{COMMON_DEFS}{symbol(kind)}</defs>" if inline else "")
        + f'<use href="#mjt-{kind}"/>'
        + (_WILD_MARK if wild else "")
    )
    tip = f"<title>{escape(title)}</title>" if title else ""
    data = "" if kind == "back" else f' data-tile="{kind}"'
    return (
        f'<svg class="{classes}"{data} viewBox="{VIEWBOX}" role="img" '
        f'aria-label="{escape(label)}">{tip}{inner}</svg>'
    )


def _wild_set(wild) -> frozenset[str]:
    if not wild:
        return frozenset()
    if isinstance(wild, str):
        return frozenset(wild.split(","))
    return frozenset(wild)


@register.simple_tag
def tile(kind: str, cls: str = "", wild=None, inline: bool = False, title: str = "") -> str:
    """One face-up tile (``inline``: with its own symbol, for a page without defs; the boards
    draw theirs with :class:`TileSheet`). ``wild``: the 財神 kinds (or True)."""
    kind = str(kind or "")
    if kind != "back" and not _valid(kind):
        return ""
    is_wild = wild is True or (kind in _wild_set(wild) if wild and wild is not True else False)
    return mark_safe(_svg(kind, cls=cls, wild=is_wild, inline=inline, title=title))


class TileSheet:
    """One board render's tiles: each drawn as a ``<use>`` of its kind, whose symbol
    :meth:`defs` (after the last tile) emits once (the Jinja boards' ``mjt``)."""

    __slots__ = ("used",)

    def __init__(self) -> None:
        self.used: set[str] = set()

    def tile(self, kind: str, cls: str = "", wild=None) -> str:
        """One face-up tile (``wild``: the 財神 kinds, or True)."""
        kind = str(kind or "")
        if kind != "back" and not _valid(kind):
            return ""
        is_wild = wild is True or (kind in _wild_set(wild) if wild and wild is not True else False)
        self.used.add(kind)
        return mark_safe(_svg(kind, cls=cls, wild=is_wild, inline=False))

    def row(self, tiles, cls: str = "", wild=None) -> str:
        """Face-up tiles in order (discards, melds, a revealed hand)."""
        if not tiles:
            return ""
        wilds = _wild_set(wild)
        out = []
        for t in tiles:
            if not _valid(t):
                continue
            self.used.add(t)
            out.append(_svg(t, cls=cls, wild=t in wilds, inline=False))
        return mark_safe("".join(out))

    def defs(self) -> str:
        """The symbols of every kind drawn so far in this render."""
        body = COMMON_DEFS + "".join(symbol(k) for k in sorted(self.used))
        return mark_safe(
            '<svg class="tile-defs" width="0" height="0" aria-hidden="true" focusable="false" '
            f'style="position:absolute;width:0;height:0;overflow:hidden"><defs>{body}</defs></svg>'
        )


def tile_name(tile: str) -> str:
    return tile_label(str(tile or ""))


def tile_names(tiles) -> str:
    return " ".join(tile_label(t) for t in (tiles or []))


# --- text helpers for the mahjong boards -------------------------------------------------------
# PyMahjongGB prints its fan names in simplified characters; the UI is in traditional ones.
_S2T = str.maketrans(
    {
        "顺": "順",
        "节": "節",
        "双": "雙",
        "会": "會",
        "杠": "槓",
        "风": "風",
        "门": "門",
        "齐": "齊",
        "带": "帶",
        "莲": "蓮",
        "宝": "寶",
        "灯": "燈",
        "钓": "釣",
        "绝": "絕",
        "归": "歸",
        "于": "於",
        "单": "單",
        "对": "對",
        "无": "無",
        "独": "獨",
        "听": "聽",
        "组": "組",
        "龙": "龍",
        "绿": "綠",
        "边": "邊",
        "张": "張",
        "连": "連",
        "抢": "搶",
        "开": "開",
        "捞": "撈",
        "断": "斷",
        "财": "財",
        "将": "將",
        "庄": "莊",
        "鸟": "鳥",
        "胡": "胡",
        "家": "家",
        "场": "場",
        "计": "計",
        "数": "數",
        "红": "紅",
        "发": "發",
        "东": "東",
        "么": "幺",
        "头": "頭",
        "台": "台",
        "爆": "爆",
        "满": "滿",
        "项": "項",
        "刻": "刻",
        "龄": "齡",
        "杂": "雜",
        "义": "義",
        "乱": "亂",
        "两": "兩",
        "几": "幾",
    }
)


def trad(text) -> str:
    """Simplified → traditional for the characters of the fan names."""
    return str(text if text is not None else "").translate(_S2T)


_SEAT_RE = re.compile(r"座(\d)")


def seat_names(text, seats) -> str:
    """Replace the engine's 座N with the seat's name."""
    text = str(text if text is not None else "")
    if not seats:
        return text

    def name(m: re.Match) -> str:
        i = int(m.group(1))
        for s in seats:
            if s.get("index") == i:
                return s.get("name") or f"座{i}"
        return m.group(0)

    return _SEAT_RE.sub(name, text)


_CODE_RE = re.compile(r"(?<![A-Za-z0-9])([WTBFJH])([1-9])(?![0-9])")


def tile_codes(text) -> str:
    """Replace tile codes in a line of text (財神作 W5 → 財神作 五萬)."""
    return _CODE_RE.sub(lambda m: tile_label(m.group(0)), str(text if text is not None else ""))
