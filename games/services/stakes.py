"""Stakes that move during play: the pot of a game whose ``table_type.stakes_in_play`` is set.

Called by ``tables`` only where the ruleset's declarations say so (``games/engine/table_type.py``);
this module names no game and never imports ``tables``.

* Stakes. The ledger takes each stake as it is made, in the transaction that makes it: the
  ruleset's ``opening_stakes`` at the deal (the 底注), then every engine ``stake`` event, from
  the player to the system account ``ledger.POT``. Each transfer has the key
  ``pot:<hand>:<table seq>`` (the opening ones ``pot:<hand>:ante``), so nothing is taken twice.
* End (``Settlement.POT``). In the transaction that ends the hand the pot (every seat's
  ``extra["stakes"]``) goes to the winner, minus the room's 回收 A (at most the pot) to
  ``ledger.RAKE`` (key ``pot:<hand>:payout``). The result carries ``bean_moves`` (each seat's
  net for the hand) and ``beans_moved`` so the settlement records them without moving beans.
* Escape (``Escape.FOLD``). The leaver pays the room's ``escape_penalty`` (at most what he has)
  to ``ledger.ESCAPE`` (key ``pot:<hand>:escape:<engine seat>``); ``tables`` then plays the
  ruleset's ``escape_action`` for his seat and the hand goes on.
* Top bar. Whenever beans move here, each player they moved for is told his balance as the
  transaction leaves it (``realtime.balances_changed`` on commit), so his top bar shows what he
  holds now — his balance minus what he has put into the pot — without a reload (#14 §5).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from games import realtime
from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.protocol import Event
from games.models import Hand, HandEvent
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.exceptions import InsufficientBeans


def _title(hand: Hand) -> str:
    return registry.get(hand.game).title


def _transfer(legs: list[tuple[Any, int]], *, key: str, reason: str, kind: str) -> None:
    try:
        ledger.transfer_create(postings=legs, kind=kind, reason=reason, idempotency_key=key)
    except InsufficientBeans:
        raise IllegalAction(
            ErrorCode.OVER_LIMIT, "not enough beans", {"reason": "not_enough_beans"}
        ) from None


def _balances_publish(hand: Hand, user_ids: Iterable[int]) -> None:
    """On commit, tell the table's sockets these players' balances as this transaction leaves
    them (each player's page swaps its top bar's #nav-beans)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return
    held = ledger_selectors.balances_for_users(wanted)
    tops = {str(uid): int(held.get(uid, 0)) for uid in wanted}
    table_id = hand.table_id
    transaction.on_commit(lambda: realtime.balances_changed(table_id, tops))


def _stakes_move(hand: Hand, events: Iterable[Event], *, key: str, reason: str) -> None:
    legs: list[tuple[Any, int]] = []
    uids: list[int] = []
    total = 0
    for event in events:
        if event.type != "stake" or not event.data.get("amount"):
            continue
        uid = hand.players[event.data["seat"]]["user_id"]
        legs.append((ledger.account_for_user_id(uid), -event.data["amount"]))
        uids.append(uid)
        total += event.data["amount"]
    if total:
        legs.append((ledger.system_account(ledger.POT), total))
        _transfer(legs, key=key, reason=reason, kind=ledger.TransferKind.STAKE)
        _balances_publish(hand, uids)


def opening_take(hand: Hand, events: Iterable[Event]) -> None:
    """Debit the stakes made at the deal (the ruleset's ``opening_stakes``) into the pot."""
    _stakes_move(
        hand, events, key=f"pot:{hand.pk}:ante", reason=f"{_title(hand)} 底注 牌局 #{hand.pk}"
    )


def stakes_take(hand: Hand, events: Iterable[Event], seq: int) -> None:
    """Move the beans of each engine ``stake`` event from the player to the pot, now."""
    _stakes_move(
        hand, events, key=f"pot:{hand.pk}:{seq}", reason=f"{_title(hand)} 下注 牌局 #{hand.pk}"
    )


def _penalties(hand: Hand) -> dict[int, int]:
    out: dict[int, int] = {}
    for event in HandEvent.objects.filter(hand=hand, by="escape"):
        out[event.seat] = out.get(event.seat, 0) + int(event.action.get("penalty") or 0)
    return out


def pot_pay(hand: Hand) -> None:
    """The pot to the winner minus 回收 A; record each seat's net in the result's extra."""
    result = hand.result
    extra = result.setdefault("extra", {})
    stakes = list(extra.get("stakes") or [])
    pot = sum(stakes)
    winner = (result.get("winners") or [None])[0]
    rake = min(pot, int(hand.params.get("rake") or 0))
    if winner is not None and pot:
        uid = hand.players[winner]["user_id"]
        legs = [
            (ledger.system_account(ledger.POT), -pot),
            (ledger.account_for_user_id(uid), pot - rake),
        ]
        if rake:
            legs.append((ledger.system_account(ledger.RAKE), rake))
        _transfer(
            legs,
            key=f"pot:{hand.pk}:payout",
            reason=f"{_title(hand)} 鍋底 牌局 #{hand.pk}",
            kind=ledger.TransferKind.PAYOUT,
        )
        _balances_publish(hand, [uid])
    penalties = _penalties(hand)
    moves = {}
    for e in range(len(hand.players)):
        won = pot - rake if e == winner else 0
        moves[str(e)] = won - stakes[e] - penalties.get(e, 0)
    extra["bean_moves"] = moves
    extra["beans_moved"] = True  # taken during play: the settlement only records them
    extra["rake_total"] = rake
    extra["escape_penalties"] = {str(e): p for e, p in penalties.items()}
    if penalties:
        result["escaped_seat"] = min(penalties)


def escape_penalty_take(hand: Hand, user: Any, engine_seat: int) -> int:
    """逃跑 with the hand going on: the room's ``escape_penalty`` (at most what the leaver
    holds) to ``ledger.ESCAPE``; return what was taken."""
    penalty = min(
        int(hand.params.get("escape_penalty") or 0), ledger_selectors.balance_for_user(user)
    )
    if penalty > 0:
        ledger.transfer_create(
            postings=[
                (ledger.account_for_user(user), -penalty),
                (ledger.system_account(ledger.ESCAPE), penalty),
            ],
            kind=ledger.TransferKind.ESCAPE,
            reason=f"{_title(hand)} 逃跑 牌局 #{hand.pk}",
            idempotency_key=f"pot:{hand.pk}:escape:{engine_seat}",
        )
    return penalty
