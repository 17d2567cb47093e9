"""大豐收 reads: one player's view of the room's round, the round history, the measured RTP.

What is hidden is decided here: the round's seed is absent until the round is settled (only
its hash while betting and spinning), and other players' individual bets are never listed
(only the public per-crop totals).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import registry
from games.models import WheelRound, WheelWin
from games.rules.dafengshou.wheel import OBJECT_IDS, OBJECT_NAMES_ZH, expected_rtp, object_rtp
from games.services.dafengshou import GAME, result_hold, timings
from ledger.selectors import balance_for_user

HISTORY = 10

# where each of the 24 cells sits on the 7 × 7 square ring (x, y), clockwise from top-left
RING_XY: tuple[tuple[int, int], ...] = (
    *((x, 0) for x in range(7)),
    *((6, y) for y in range(1, 7)),
    *((x, 6) for x in range(5, -1, -1)),
    *((0, y) for y in range(5, 0, -1)),
)


def _history(room_id: int) -> list[dict[str, Any]]:
    rounds = WheelRound.objects.filter(room_id=room_id, phase=WheelRound.Phase.SETTLED).order_by(
        "-number"
    )[:HISTORY]
    ruleset = registry.get(GAME)
    out = []
    for rnd in rounds:
        outcome = rnd.outcome or {}
        ring = ruleset.ring(ruleset.config_from_params(rnd.params))
        cell = outcome.get("cell")
        out.append(
            {
                "number": rnd.number,
                "cell": cell,
                "name": ring[cell]["name"] if cell is not None else "",
                "kind": ring[cell]["kind"] if cell is not None else "",
                "object": ring[cell].get("object", "") if cell is not None else "",
                "special_name": outcome.get("special_name"),
                "lit": outcome.get("lit", []),
                "winning": [n["name"] for n in ring if n["cell"] in outcome.get("lit", [])],
                "seed": rnd.seed,
                "seed_hash": rnd.seed_hash,
                "staked": rnd.staked_total,
                "paid": rnd.paid_total,
                "settled_at": rnd.settled_at,
            }
        )
    return out


def dafengshou_view(room_id: int, user) -> dict[str, Any] | None:
    """Everything the 大豐收 page shows this player, or None if the room never had a round."""
    rnd = WheelRound.objects.filter(room_id=room_id).order_by("-number").first()
    if rnd is None:
        return None
    ruleset = registry.get(GAME)
    config = ruleset.config_from_params(rnd.params)
    bet_seconds, spin_seconds = timings(rnd.params)
    mine: dict[str, int] = dict.fromkeys(OBJECT_IDS, 0)
    if user is not None and user.is_authenticated:
        for row in rnd.bets.filter(user=user).values("object").annotate(total=Sum("amount")):
            mine[row["object"]] = row["total"]
    history = _history(room_id)
    ring = ruleset.ring(config)
    for cell, (x, y) in zip(ring, RING_XY):
        cell["x"], cell["y"] = x, y
    objects = [
        {
            "object": o,
            "name": OBJECT_NAMES_ZH[o],
            "odds": config.odds[i],
            "total": rnd.totals.get(o, 0),
            "mine": mine[o],
        }
        for i, o in enumerate(OBJECT_IDS)
    ]
    view: dict[str, Any] = {
        "room_id": room_id,
        "room_name": rnd.params.get("room_name", ""),
        "number": rnd.number,
        "phase": rnd.phase,
        "version": rnd.version,
        "now": timezone.now(),
        "closes_at": rnd.closes_at,
        "settle_at": rnd.settle_at,
        "bet_seconds": bet_seconds,
        "spin_seconds": spin_seconds,
        "seed_hash": rnd.seed_hash,
        "ring": ring,
        "objects": objects,
        "small_odds": config.small_odds,
        "chips": list(config.chips),
        "player_limit": config.player_limit,
        "round_limit": config.round_limit,
        "round_total": rnd.staked_total,
        "bettors": rnd.bets.values("user_id").distinct().count(),
        "my_total": sum(mine.values()),
        "history": history,
        "last": history[0] if history else None,
        "balance": balance_for_user(user) if user is not None and user.is_authenticated else 0,
    }
    # the round just settled stays lit into this window (the light stopped 15 % before it)
    view["result_hold_until"] = None
    last = history[0] if history else None
    if rnd.phase == WheelRound.Phase.BETTING and last and last["number"] == rnd.number - 1:
        view["result_hold_until"] = last["settled_at"] + timedelta(seconds=result_hold(rnd.params))
    if rnd.phase != WheelRound.Phase.BETTING:
        view["result"] = rnd.outcome
    if rnd.phase == WheelRound.Phase.SETTLED:
        view["seed"] = rnd.seed  # revealed only after the spin
    view["my_round"] = None
    if rnd.phase != WheelRound.Phase.BETTING and user is not None and user.is_authenticated:
        win = rnd.wins.filter(user=user).first()  # this player's own result, written at the close
        if win is not None:
            view["my_round"] = {"staked": win.staked, "payout": win.payout}
    view["my_last"] = None
    if user is not None and user.is_authenticated and history:
        win = WheelWin.objects.filter(
            round__room_id=room_id, round__number=history[0]["number"], user=user
        ).first()
        if win is not None:
            view["my_last"] = {
                "number": history[0]["number"],
                "staked": win.staked,
                "payout": win.payout,
                "net": win.payout - win.staked,
            }
    return view


def room_rtp(room_id: int, params: dict[str, Any]) -> dict[str, Any]:
    """The room's measured return-to-player (settled rounds) beside the configured one."""
    agg = WheelRound.objects.filter(room_id=room_id, phase=WheelRound.Phase.SETTLED).aggregate(
        rounds=Count("pk"),
        staked=Sum("staked_total"),
        paid=Sum("paid_total"),
    )
    staked, paid = agg["staked"] or 0, agg["paid"] or 0
    config = registry.get(GAME).config_from_params(params)
    return {
        "rounds": agg["rounds"],
        "staked": staked,
        "paid": paid,
        "measured": paid / staked if staked else None,
        "expected": expected_rtp(config),
        "per_object": object_rtp(config),
    }


def round_verify(room_id: int, number: int) -> dict[str, Any] | None:
    """Re-derive a settled round from its revealed seed (the page's 驗證 link)."""
    from games.engine.chance import seed_commitment
    from games.rules.dafengshou.wheel import lit_cells, spin

    rnd = WheelRound.objects.filter(
        room_id=room_id, number=number, phase=WheelRound.Phase.SETTLED
    ).first()
    if rnd is None:
        return None
    config = registry.get(GAME).config_from_params(rnd.params)
    outcome = spin(config, rnd.seed)
    stored = rnd.outcome or {}
    from games.rules.dafengshou.wheel import SPECIAL_NAMES_ZH
    from games.terms import term

    deal = {  # what the page's own re-spin needs (static/js/verify_deal.js), and the result
        "input": {
            "game": GAME,
            "seed": rnd.seed,
            "cell_weights": config.cell_weights(),
            "special_weights": list(config.special_weights),
            "train_min": config.train_min,
            "train_max": config.train_max,
        },
        "record": {
            "cell": stored.get("cell"),
            "special": stored.get("special"),
            "train": stored.get("train", 0),
            "lit": stored.get("lit"),
        },
        "hash": rnd.seed_hash,
        "special_names": {k: term(v) for k, v in SPECIAL_NAMES_ZH.items()},
        "rule": _(
            "按這個房間 24 格的權重以「種子:spin」抽一格：抽一個 0 到權重總和−1"
            " 的數，停在累計權重第一個超過它的格。停在好運格時，再按特別獎的權重抽大三元、小"
            "三元、大四喜、開火車或落空；開火車再抽長度（最短到最長之間），好運格之後順時針的"
            "作物格依序亮燈（跳過好運格）。"
        ),
    }
    return {
        "round": rnd,
        "deal": deal,
        "hash_ok": seed_commitment(rnd.seed) == rnd.seed_hash,
        "outcome": outcome,
        "lit": list(lit_cells(outcome)),
        "spin_ok": outcome[0] == stored.get("cell")
        and list(lit_cells(outcome)) == stored.get("lit"),
    }


def rooms_live(room_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Each room's live round for the lobby: its number, phase and how many players bet in it.

    Two queries for any number of rooms; a room with no unsettled round is absent.
    """
    if not room_ids:
        return {}
    rounds = {
        row["pk"]: row
        for row in WheelRound.objects.filter(room_id__in=room_ids)
        .exclude(phase=WheelRound.Phase.SETTLED)
        .values("pk", "room_id", "number", "phase")
    }
    bettors = dict(
        WheelRound.objects.filter(pk__in=list(rounds))
        .annotate(n=Count("bets__user", distinct=True))
        .values_list("pk", "n")
    )
    return {
        row["room_id"]: {
            "number": row["number"],
            "phase": row["phase"],
            "bettors": bettors.get(pk, 0),
        }
        for pk, row in rounds.items()
    }


def room_card(params: dict[str, Any]) -> dict[str, Any] | None:
    """What a 大豐收 room's lobby card shows from its settings: the window, chips, limits.

    None when the room's odds table does not load (the card then shows no wheel details).
    """
    from games.boards.dafengshou import amount_zh, chip_label

    try:
        config = registry.get(GAME).config_from_params(params)
    except (KeyError, TypeError, ValueError):
        return None
    bet_seconds, spin_seconds = timings(params)
    return {
        "bet_seconds": bet_seconds,
        "spin_seconds": spin_seconds,
        "chips": [chip_label(c) for c in config.chips],
        "player_limit": amount_zh(config.player_limit),
        "round_limit": amount_zh(config.round_limit),
        "top_odds": max(config.odds),
    }
