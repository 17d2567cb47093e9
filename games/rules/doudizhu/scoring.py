"""斗地主 scoring: the 倍數 parts, per-pair points, payments and escape penalties.

Seed 002 §十一 and RULES-NOTES §2 #5, #6, #9, #11, #12:

* 倍數 (the common multiplier) = product of: 搶地主 ×2 each; the largest 明牌 (明牌開始 ×5,
  發牌明牌 ×4 up to 8 dealt cards then ×3, 明牌 after the 底牌 ×2; in 悶抓場 only the landlord's
  ×2);
  悶抓 ×2; each bomb and the rocket ×2 (癩子場: 軟炸彈 ×2, 硬炸彈 ×4, 純癩子炸彈 ×4, 王炸 ×4);
  春天 ×2 / 反春 ×2.
* Per landlord–farmer pair: points = 底分 × 倍數 × landlord's 加倍 (1/2) × farmer's 加倍 (1/2)
  × that pair's 倒/拉/壘/沃 (×2 each, 悶抓場) × 癩子係數 (癩子場). The landlord's X is the sum of
  his two pairs (身份係數 2 when nothing is per-pair), each farmer's X is his own pair.
* 癩子場 cap: no seat's |score| exceeds ``score_cap`` (10000): each pair is capped, then the two
  pairs are scaled down together (integer, rounding toward the first pair) if the landlord's sum
  still exceeds it.
* The engine stops at 積分: it returns the scores and the ``payments`` (loser → winner, points per
  pair). The platform's settlement service turns each payment into beans: the loser pays
  points × N + A capped at what he holds; the winners share only what was paid (DESIGN §4,
  RULES-NOTES §2 #12).
* Escape (逃跑): the 倍數 of the actions so far (no initial room multiplier) with every bomb in all
  hands counted, played or not (held hard bombs, pure 癩子 bombs and rockets). Below 10 the landlord
  pays 20 × 底分 to each farmer, a farmer pays 10 × 底分 to the landlord; at 10 or more (exactly 10
  included, RULES-NOTES §2 #11) the landlord pays 4 × and a farmer 2 × his real pair points. Before
  a
  landlord exists the escaper pays the farmer penalty to each of the other seats.
"""

from __future__ import annotations

from typing import Any

from games.engine.protocol import Result, ResultLine

BOMB_FACTORS_CLASSIC = {1: 2, 2: 2, 3: 2, 4: 2}
BOMB_FACTORS_LAIZI = {1: 2, 2: 4, 3: 4, 4: 4}
BOMB_LABELS_CLASSIC = {1: "炸彈", 2: "炸彈", 3: "炸彈", 4: "王炸"}
BOMB_LABELS_LAIZI = {1: "軟炸彈", 2: "硬炸彈", 3: "純癩子炸彈", 4: "王炸"}
MINGPAI_LABELS = {5: "明牌開始", 4: "發牌明牌", 3: "發牌明牌", 2: "明牌"}
DOU_WORDS = ["倒", "拉", "壘", "沃"]


def common_parts(
    st: Any, bombs: list[dict[str, int]] | None = None
) -> list[tuple[str, int, int | None]]:
    """The parts of the common 倍數 as (label, factor, seat)."""
    parts: list[tuple[str, int, int | None]] = []
    if st.menzhua_blind:
        parts.append(("悶抓", 2, st.landlord))
    for seat in st.robbers:
        parts.append(("搶地主", 2, seat))
    best = max(st.mingpai) if st.mingpai else 0
    if best:
        seat = next(s for s in st.mingpai_order if st.mingpai[s] == best)
        parts.append((MINGPAI_LABELS[best], best, seat))
    laizi_room = st.variant == "laizi"
    factors = BOMB_FACTORS_LAIZI if laizi_room else BOMB_FACTORS_CLASSIC
    labels = BOMB_LABELS_LAIZI if laizi_room else BOMB_LABELS_CLASSIC
    for bomb in st.bombs if bombs is None else bombs:
        parts.append((labels[bomb["tier"]], factors[bomb["tier"]], bomb["seat"]))
    if st.spring:
        parts.append(("春天", 2, None))
    if st.anti_spring:
        parts.append(("反春", 2, None))
    return parts


def product(parts: list[tuple[str, int, int | None]]) -> int:
    total = 1
    for _label, factor, _seat in parts:
        total *= factor
    return total


def farmers_of(st: Any) -> list[int]:
    return [s for s in range(3) if s != st.landlord]


def pair_factor(st: Any, farmer: int) -> int:
    """The per-pair factor: 加倍 of both sides and the 倒/拉/壘/沃 steps with that farmer."""
    factor = st.doubles[st.landlord] * st.doubles[farmer]
    return int(factor * 2 ** st.dou[farmer])


def _scaled(cfg: Any, points: float) -> int:
    if cfg.variant == "laizi" and cfg.laizi_factor != 1:
        return max(1, int(points * cfg.laizi_factor + 0.5))
    return int(points)


def _cap(cfg: Any, pairs: dict[int, int]) -> dict[int, int]:
    cap = cfg.effective_cap
    if not cap:
        return pairs
    pairs = {f: min(p, cap) for f, p in pairs.items()}
    total = sum(pairs.values())
    if total > cap:
        first, second = sorted(pairs)
        a = cap * pairs[first] // total
        pairs = {first: a, second: cap - a}
    return pairs


def _pair_lines(st: Any) -> list[ResultLine]:
    lines = []
    for seat in range(3):
        if st.doubles[seat] == 2:
            lines.append(ResultLine("加倍", "×2", seat))
    for farmer in farmers_of(st):
        for step in range(st.dou[farmer]):
            who = farmer if step % 2 == 0 else st.landlord
            lines.append(ResultLine(DOU_WORDS[step], "×2", who))
    return lines


def settle(st: Any, cfg: Any) -> Result:
    """The Result of a finished hand."""
    landlord = st.landlord
    parts = common_parts(st)
    total = product(parts)
    landlord_won = st.winner == landlord
    pairs = {f: _scaled(cfg, cfg.base_score * total * pair_factor(st, f)) for f in farmers_of(st)}
    pairs = _cap(cfg, pairs)
    scores = [0, 0, 0]
    payments = []
    for farmer, points in pairs.items():
        if landlord_won:
            scores[landlord] += points
            scores[farmer] -= points
            payments.append({"from": farmer, "to": landlord, "points": points})
        else:
            scores[landlord] -= points
            scores[farmer] += points
            payments.append({"from": landlord, "to": farmer, "points": points})
    winners = (landlord,) if landlord_won else tuple(farmers_of(st))
    lines = [ResultLine("底分", str(cfg.base_score), None)]
    lines += [ResultLine(label, f"×{factor}", seat) for label, factor, seat in parts]
    lines += _pair_lines(st)
    if cfg.variant == "laizi" and cfg.laizi_factor != 1:
        lines.append(ResultLine("癩子係數", f"×{cfg.laizi_factor}", None))
    lines.append(ResultLine("倍數", f"×{total}", None))
    for farmer in farmers_of(st):
        # 002 §加倍: per landlord–farmer pair; the pair's 倍數 shows what its score follows from
        lines.append(ResultLine("對局倍數", f"×{total * pair_factor(st, farmer)}", farmer))
    if cfg.effective_cap:
        lines.append(ResultLine("封頂", str(cfg.effective_cap), None))
    for seat in range(3):
        lines.append(ResultLine("地主" if seat == landlord else "農民", f"{scores[seat]:+d}", seat))
    extra = {
        "landlord": landlord,
        "multiplier": total,
        "payments": payments,
        "bombs": len(st.bombs),
        "spring": st.spring,
        "anti_spring": st.anti_spring,
        "doubles": list(st.doubles),
        "pair_points": {str(f): p for f, p in pairs.items()},
        "escape": None,
    }
    return Result(tuple(scores), winners, tuple(lines), extra)


def escape_factor(landlord: bool, multiplier: int, real: int) -> int:
    """The escaper's factor per opponent (× 底分): below 10 the fixed 20 / 10, from 10 on
    (exactly 10 included) 4 / 2 × the real pair factor (倍數 with that pair's 加倍 etc.)."""
    if multiplier < 10:
        return 20 if landlord else 10
    return (4 if landlord else 2) * real


def escape(st: Any, cfg: Any, seat: int, held_bombs: list[dict[str, int]]) -> Result:
    """The Result when ``seat`` escapes now (see the module docstring)."""
    bombs = list(st.bombs) + held_bombs
    parts = common_parts(st, bombs)
    total = product(parts)
    scores = [0, 0, 0]
    payments = []
    lines = [ResultLine("逃跑", "", seat)]
    lines += [ResultLine(label, f"×{factor}", who) for label, factor, who in parts]
    if st.landlord is None:
        targets = [
            (other, escape_factor(False, total, total)) for other in range(3) if other != seat
        ]
    elif seat == st.landlord:
        targets = [
            (farmer, escape_factor(True, total, total * pair_factor(st, farmer)))
            for farmer in farmers_of(st)
        ]
    else:
        targets = [(st.landlord, escape_factor(False, total, total * pair_factor(st, seat)))]
    for other, factor in targets:
        points = _scaled(cfg, cfg.base_score * factor)
        if cfg.effective_cap:
            points = min(points, cfg.effective_cap)
        scores[seat] -= points
        scores[other] += points
        payments.append({"from": seat, "to": other, "points": points})
    branch = "不足10倍" if total < 10 else "實際倍數"
    lines.append(ResultLine("逃跑計分", branch, seat))
    lines.append(ResultLine("倍數", f"×{total}", None))
    for s in range(3):
        lines.append(ResultLine("逃跑" if s == seat else "補償", f"{scores[s]:+d}", s))
    winners = tuple(s for s in range(3) if s != seat)
    extra = {
        "landlord": st.landlord,
        "multiplier": total,
        "payments": payments,
        "bombs": len(bombs),
        "spring": False,
        "anti_spring": False,
        "doubles": list(st.doubles),
        "escape": seat,
    }
    return Result(tuple(scores), winners, tuple(lines), extra)
