"""Scoring: Hunan 底數 × 名堂 番 (seed 003 + RULES-NOTES §7) and 雙王 囤 × 番 (seed 000 + §1)."""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.paohuzi.params import HUNAN, Config

# 雙王 胡法 factors (seed 000 三): 自摸 2, 王釣 4, 王釣王 8, 王闖 8; never multiplied again by 自摸.
WANG_SHAPES = {"wangdiao": ("王釣", 4), "wangdiaowang": ("王釣王", 8), "wangchuang": ("王闖", 8)}


@dataclass(frozen=True, slots=True)
class Score:
    """How much one loser pays, and the items behind it."""

    per_loser: int  # in 積分 before × base: x·f (Hunan) or 囤·番 (雙王)
    base_value: int  # x (底數) or 囤
    fan: int  # f (added 名堂) or the 番 product
    items: tuple[tuple[str, str], ...]  # (label, value) lines: 名堂, 番, 省, 底數 …


def hunan_fans(
    red: int, big: int, small: int, duidui: bool, haidi: bool, cfg: Config
) -> tuple[int, list[tuple[str, int]]]:
    """Return (total 番, [(名堂, 番)]) — 名堂 add up; none is 平胡 = 1 番; 海底 added on top."""
    items: list[tuple[str, int]] = []
    if 10 <= red <= 12:
        items.append(("紅胡", cfg.fan_hong))
    elif red >= 13:
        items.append(("紅烏", cfg.fan_hongwu))
    elif red == 1:
        items.append(("點胡", cfg.fan_dian))
    elif red == 0:
        items.append(("烏胡", cfg.fan_wu))
    if duidui:
        items.append(("對對胡", cfg.fan_duidui))
    if big >= 18:
        items.append((f"大字胡 ({big}大)", cfg.fan_dazi + big - 18))
    if small >= 16:
        items.append((f"小字胡 ({small}小)", cfg.fan_xiaozi + small - 16))
    named = bool(items)
    total = sum(fan for _, fan in items) if named else 1
    if not named:
        items.append(("平胡", 1))
    if haidi:
        extra = cfg.fan_haidi_ming if named else cfg.fan_haidi_ping
        items.append(("海底胡 (不算名堂)", extra))
        total += extra
    return total, items


def hunan_dishu(huxi: int, self_drawn: bool, tianhu: bool) -> int:
    """003: 底數 = (息 − 12) ÷ 3 (integer part), 天胡 (息 × 2 − 12) ÷ 3; 自摸 +1."""
    value = ((huxi * 2 if tianhu else huxi) - 12) // 3
    return value + (1 if self_drawn else 0)


def hunan_score(
    huxi: int,
    red: int,
    big: int,
    small: int,
    duidui: bool,
    *,
    self_drawn: bool,
    tianhu: bool,
    haidi: bool,
    cfg: Config,
) -> Score:
    x = hunan_dishu(huxi, self_drawn, tianhu)
    f, fans = hunan_fans(red, big, small, duidui, haidi, cfg)
    items: list[tuple[str, str]] = [("胡息", f"{huxi}息")]
    basis = "(息×2−12)÷3" if tianhu else "(息−12)÷3"
    items.append((f"底數 {basis}" + (" +1 自摸" if self_drawn else ""), f"{x}底"))
    if tianhu:
        items.append(("天胡 (不算名堂)", "息×2"))
    if self_drawn:
        items.append(("自摸 (不算名堂)", "+1底"))
    items.extend((name, f"{fan}番") for name, fan in fans)
    items.append(("番數", f"{f}番"))
    return Score(per_loser=x * f, base_value=x, fan=f, items=tuple(items))


def shuangwang_colour(red: int) -> tuple[str, int]:
    if red >= 10:
        return "紅胡", 2
    if red == 1:
        return "一點朱", 3
    if red == 0:
        return "黑胡", 4
    return "", 1


def shuangwang_score(
    huxi: int, red: int, *, self_drawn: bool, shape: str, xing: int, cfg: Config
) -> Score:
    """囤 = ⌊(息 − 15)/3⌋ + 1 (+1 加底) + 省; 番 = 紅黑 × 胡法 (RULES-NOTES §1 #6, #7)."""
    tun = (huxi - 15) // 3 + 1 + (1 if cfg.jiadi else 0) + xing
    colour_name, colour = shuangwang_colour(red)
    if shape:
        hufa_name, hufa = WANG_SHAPES[shape]
    elif self_drawn:
        hufa_name, hufa = "自摸", 2
    else:
        hufa_name, hufa = "", 1
    items: list[tuple[str, str]] = [("胡息", f"{huxi}息")]
    items.append(("囤 ⌊(息−15)÷3⌋+1", f"{(huxi - 15) // 3 + 1}囤"))
    if cfg.jiadi:
        items.append(("加底", "+1囤"))
    items.append(("省", f"+{xing}囤"))
    if colour_name:
        items.append((colour_name, f"×{colour}"))
    if hufa_name:
        items.append((hufa_name, f"×{hufa}"))
    fan = colour * hufa
    items.append(("番數", f"{fan}番"))
    return Score(per_loser=tun * fan, base_value=tun, fan=fan, items=tuple(items))


def is_hunan(cfg: Config) -> bool:
    return cfg.variant == HUNAN
