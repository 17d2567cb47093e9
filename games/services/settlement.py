"""Settle a finished hand: beans through the ledger, score, levels and history — exactly once.

Bean formula (DESIGN §4, 001, 002, RULES-NOTES §2 #12): the engine's result lists payments
``{"from": loser, "to": winner, "points": X}`` in game units. With the room's 房間係數 N and
回收 A:

* each loser owes Σ X·N over his payments and pays at most what he holds at the deal; what he
  pays is shared among the winners he owed, in proportion to what he owed each (integer beans,
  remainder to the largest share);
* then every player dealt into the hand — loser, winner, both or neither — gives 回收 A once to
  the rake (001: "系統將自動回收每位玩家一定數量的歡樂豆"), never more than he then holds.

So a loser pays X·N + A, a winner gets X·N − A, a player with no payment pays A, and a player
who both pays and receives (樂清's 花) pays A once. Nobody receives more than was paid. That is
``Settlement.PAYMENTS``; a game whose ruleset declares ``Settlement.POT`` moved its beans
during play (``games/services/stakes.py``: A once, from the pot) and its result's
``bean_moves`` are recorded here as they are. No game is named here.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from accounts import services as account_services
from games import realtime
from games.engine import registry
from games.engine.params import table_params_read
from games.engine.table_type import Settlement
from games.models import Hand, HandSeat, Table
from ledger import services as ledger


def bean_moves(
    payments: list[dict], factor: int, rake: int, balances: dict[int, int], cap: int = 0
) -> tuple[dict[int, int], int]:
    """Return (bean delta per seat, rake total) for the payments. Pure arithmetic.

    ``balances`` names every seat dealt into the hand (each pays 回收 A once); a seat that
    appears only in a payment pays or receives without a balance of its own (0). ``cap``
    (單局封頂, 0: none): no player loses or wins more than that in the hand before 回收 A — a
    winner's claims are scaled down to it, and a loser pays at most it.
    """
    owed: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for p in payments:
        if p["points"] > 0 and p["from"] != p["to"]:
            owed[p["from"]][p["to"]] += p["points"] * factor
    if cap > 0:
        claimed: dict[int, int] = defaultdict(int)
        for creditors in owed.values():
            for winner, amount in creditors.items():
                claimed[winner] += amount
        for creditors in owed.values():
            for winner in creditors:
                if claimed[winner] > cap:
                    creditors[winner] = creditors[winner] * cap // claimed[winner]
    delta: dict[int, int] = dict.fromkeys(balances, 0)
    for loser, creditors in owed.items():
        due = sum(creditors.values())
        if due <= 0:
            continue
        paid = min(max(balances.get(loser, 0), 0), due, cap if cap > 0 else due)
        delta[loser] = delta.get(loser, 0) - paid
        shares = {w: paid * amount // due for w, amount in creditors.items()}
        largest = max(shares, key=lambda w: (creditors[w], -w))
        shares[largest] += paid - sum(shares.values())
        for winner, share in shares.items():
            delta[winner] = delta.get(winner, 0) + share
    rake_total = 0
    for seat in balances:
        # 回收 A: once per player, at most what he holds after the payments.
        taken = min(rake, max(balances[seat] + delta[seat], 0))
        delta[seat] -= taken
        rake_total += taken
    return {seat: d for seat, d in delta.items() if d}, rake_total


def hand_settle(hand_id: int) -> bool:
    """Post the hand's transfer, add scores, write history. Idempotent: False if already done."""
    with transaction.atomic():
        # Lock the table first (the order every table writer uses), then the hand, so two
        # workers given the same task settle it once.
        table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
        if table_id is None:
            return False
        table = Table.objects.select_for_update().get(pk=table_id)
        hand = Hand.objects.select_for_update().filter(pk=hand_id).first()
        if hand.settled_at is not None or hand.result is None:
            return False
        players = hand.players
        users = {seat: p["user_id"] for seat, p in enumerate(players)}
        accounts = {seat: ledger.account_for_user_id(uid) for seat, uid in users.items()}
        # Read balances under the ledger's lock: a loser pays at most what he has right now.
        locked = ledger.balances_lock(accounts.values())
        balances = {seat: locked[a.pk] for seat, a in accounts.items()}
        extra = hand.result.get("extra") or {}
        payments = extra.get("payments", [])
        factor = int(hand.params.get("factor", 1))
        rake = int(hand.params.get("rake", 0))
        cap = int(table_params_read(hand.params).get("hand_cap") or 0)  # 單局封頂
        pot_settled = registry.get(hand.game).table_type.settlement is Settlement.POT
        if pot_settled and extra.get("bean_moves") is not None:
            # beans moved during play (stakes.pot_pay): the final moves are recorded as they are
            delta = {int(k): v for k, v in extra["bean_moves"].items()}
            rake_total = int(extra.get("rake_total", -sum(delta.values())))
        else:
            delta, rake_total = bean_moves(payments, factor, rake, balances, cap)
        escaped = hand.result.get("escaped_seat")
        legs = [(accounts[seat], amount) for seat, amount in delta.items() if amount]
        if rake_total:
            legs.append((ledger.system_account(ledger.RAKE), rake_total))
        if legs and not extra.get("beans_moved"):  # not moved during the hand already
            ledger.transfer_create(
                postings=legs,
                kind=ledger.TransferKind.ESCAPE
                if escaped is not None
                else ledger.TransferKind.SETTLEMENT,
                reason=f"{hand.game} 第{hand.number}局 (table {hand.table_id})",
                idempotency_key=f"hand:{hand.pk}",
            )
        scores = hand.result.get("scores", [0] * len(players))
        winners = set(hand.result.get("winners", []))
        level_changes = {}
        for seat, uid in users.items():
            before, after = account_services.score_add(
                user_id=uid,
                game=hand.game,
                score=int(scores[seat]),
                won=seat in winners,
                escaped=seat == escaped,
            )
            if before.name != after.name:
                level_changes[str(seat)] = {"from": before.name, "to": after.name}
            HandSeat.objects.create(
                hand=hand,
                seat=seat,
                user_id=uid,
                score=int(scores[seat]),
                beans=delta.get(seat, 0),
                won=seat in winners,
                escaped=seat == escaped,
            )
        # the seats whose beans are not 積分 × N − A because they held too little (the screen
        # says so: every other seat's beans follow from the lines shown)
        short = (
            []
            if extra.get("beans_moved")
            else [
                seat
                for seat in range(len(players))
                if delta.get(seat, 0) != int(scores[seat]) * factor - rake
            ]
        )
        # of those, the seats the room's 單局封頂 held back (said as 封頂, not as 以所持為限)
        capped = []
        if cap > 0 and short:
            free, _ = bean_moves(payments, factor, rake, balances)
            capped = [s for s in short if free.get(s, 0) != delta.get(s, 0)]
            short = [s for s in short if s not in capped]
        hand.result = {
            **hand.result,
            "beans": [delta.get(seat, 0) for seat in range(len(players))],
            "short": short,
            "capped": capped,
            "cap": cap,
            "rake": rake_total,
            "factor": factor,
            "rake_each": rake,
            "level_changes": level_changes,
        }
        hand.settled_at = timezone.now()
        hand.save(update_fields=["result", "settled_at"])
        account_services.hand_record(hand.pk)  # leaderboards and daily tasks, in this transaction
        # The settlement is a change of the table like any other: a new seq, pushed on commit.
        table.seq += 1
        table.save(update_fields=["seq"])
        seq = table.seq
        # each player's balance as this transaction leaves it (the rows are still locked), for
        # his top bar (#14 §5)
        held = ledger.balances_lock(accounts.values())
        tops = {str(uid): held[accounts[seat].pk] for seat, uid in users.items()}
        transaction.on_commit(lambda: realtime.table_changed(table_id, seq))
        transaction.on_commit(lambda: realtime.balances_changed(table_id, tops))
    return True
