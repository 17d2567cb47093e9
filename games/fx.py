"""Which effect (sound and motion) a board announces: ``data-fx`` on ``#board``.

Every snapshot carries the hand's last move (``snapshot["hand"]["last"]``: the engine seat and
the action, server side only) — the writer of a move from the move itself, a fresh read from the
event log, so both are equal. Each viewer's board then names, from that move and the viewer's
own view, the public effects it produced (space-separated), e.g. ``"bomb"``,
``"play win spring"``, ``"hu"``; before the first move of a hand, ``"deal"``. ``data-fx-key``
names the move (:func:`board_fx_key`); ``static/js/fx.js`` plays a board's effects only when
the key changes, never for the board a page opens with, so a reconnect or a board pushed for
another reason (托管, 在線, the settlement) plays nothing again. The names say nothing a seat
may not see: a 暗槓 is only ``gang``.

Vocabulary: deal, play, pass, bomb, rocket, airplane, spring, call (叫 / 搶 / 加倍 / 倒拉),
discard, claim (吃 / 碰), gang (槓 / 跑 / 提 / 偎), hu, zimo, chips, compare, fold, look, win,
lose, draw (荒莊 / 流局: nobody won) (and on the client only: tick — the countdown's last
seconds, spin — the wheel).
"""

from __future__ import annotations

from typing import Any

BOMB_NAMES = ("炸彈", "軟炸彈", "純癩子炸彈")
ROCKET_NAMES = ("王炸", "火箭")


def _outcome(view: dict[str, Any], seat: int | None) -> list[str]:
    result = view.get("result") or {}
    if seat is None or not result:
        return []
    winners = result.get("winners")
    if winners is None and result.get("winner") is not None:  # 三張
        winners = [result["winner"]]
    if not winners:  # 荒莊 / 流局: nobody won, nobody is told he lost
        return ["draw"]
    return ["win" if seat in winners else "lose"]


def _doudizhu(action: dict[str, Any], actor: int, view: dict[str, Any]) -> list[str]:
    kind = action.get("type")
    if kind == "play":
        lead = view.get("lead") or {}
        name = str(lead.get("name") or "") if lead.get("seat") == actor else ""
        if name in ROCKET_NAMES:
            out = ["rocket"]
        elif name in BOMB_NAMES:
            out = ["bomb"]
        elif name.startswith("飛機"):
            out = ["airplane"]
        else:
            out = ["play"]
        if view.get("phase") == "over":
            lines = (view.get("result") or {}).get("lines") or []
            if any(str(line.get("label", "")) in ("春天", "反春") for line in lines):
                out.append("spring")
        return out
    if kind == "pass":
        return ["pass"]
    if kind in ("start", "ready"):
        return ["deal"] if view.get("phase") in ("dealing", "bidding") else []
    if kind in ("bid", "rob", "double", "dou", "mingpai", "menzhua", "look"):
        return ["call"]
    return []


def _zhajinhua(action: dict[str, Any], actor: int, view: dict[str, Any]) -> list[str]:
    kind = action.get("type")
    if kind in ("call", "raise"):
        return ["chips"]
    if kind == "compare":
        return ["compare", "chips"]
    if kind == "fold":
        return ["fold"]
    if kind == "look":
        return ["look"]
    return []


def _paohuzi(action: dict[str, Any], actor: int, view: dict[str, Any]) -> list[str]:
    kind = action.get("type")
    if kind == "discard":
        return ["discard"]
    if kind in ("chi", "peng"):
        return ["claim"]
    if kind in ("pao", "ti", "wei"):
        return ["gang"]
    if kind == "hu":
        return ["hu"]
    return []


def _mahjong(action: dict[str, Any], actor: int, view: dict[str, Any]) -> list[str]:
    kind = action.get("type")
    if kind == "discard":
        return ["discard"]
    if kind in ("chi", "peng"):
        return ["claim"]
    if kind in ("gang", "angang", "jiagang"):
        return ["gang"]
    if kind == "hu":
        extra = (view.get("result") or {}).get("extra") or {}
        return ["zimo"] if extra.get("self_drawn") else ["hu"]
    return []


_GAMES = {
    "doudizhu": _doudizhu,
    "zhajinhua": _zhajinhua,
    "paohuzi": _paohuzi,
    "mahjong_huanle": _mahjong,
    "mahjong_yongzhou": _mahjong,
    "mahjong_yueqing": _mahjong,
}


def board_fx(
    game: str, view: dict[str, Any] | None, seat: int | None, last: dict[str, Any] | None
) -> str:
    """The effects of the hand's last move for this viewer's board ("deal" before the first)."""
    if not view:
        return ""
    if last is None:
        return "deal"
    rule = _GAMES.get(game)
    if rule is None or not isinstance(last.get("action"), dict):
        return ""
    actor = last.get("seat")
    names = rule(last["action"], actor if isinstance(actor, int) else -1, view)
    if view.get("phase") == "over":  # also when the ending move names nothing (a 荒莊's last 過)
        names += _outcome(view, view.get("seat", seat))
    return " ".join(names)


def board_fx_key(snapshot: dict[str, Any]) -> str:
    """What identifies the move the effects belong to: the hand and the table's move seq.

    A board pushed for another reason (托管, 在線, the settlement) keeps the key, so the
    client plays each move's effects once however many boards repeat them.
    """
    hand = snapshot.get("hand") or {}
    return f"{hand.get('id', '')}:{snapshot['table'].get('move_seq', '')}"
