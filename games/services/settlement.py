"""Settle a finished hand: beans through the ledger, score, levels and history — exactly once.

Bean formula (DESIGN §4, 002, RULES-NOTES §2 #12): the engine's result lists payments
``{"from": loser, "to": winner, "points": X}`` in game units. With the room's 房間係數 N and
回收 A:

* each loser owes Σ X·N over his payments, plus A; he pays at most what he has;
* A (or all he paid, if less) goes to the rake 回收; the rest is shared among the winners he
  owed, in proportion to what he owed each (integer beans, remainder to the largest share);
* each winner then gives A of what he received to the rake (never more than he received).

So losers pay X·N + A, winners get X·N − A, and nobody receives more than was paid.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from accounts import services as account_services
from games import realtime
from games.models import Hand, HandSeat, Table
from ledger import services as ledger
from ledger.models import Account, Transfer


def bean_moves(
    payments: list[dict], factor: int, rake: int, balances: dict[int, int]
) -> tuple[dict[int, int], int]:
    """Return (bean delta per seat, rake total) for the payments. Pure arithmetic."""
    owed: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for p in payments:
        if p["points"] > 0 and p["from"] != p["to"]:
            owed[p["from"]][p["to"]] += p["points"] * factor
    delta: dict[int, int] = defaultdict(int)
    received: dict[int, int] = defaultdict(int)
    rake_total = 0
    for loser, creditors in owed.items():
        due = sum(creditors.values())
        paid = min(balances.get(loser, 0), due + rake)
        to_rake = min(rake, paid)
        to_share = paid - to_rake
        rake_total += to_rake
        delta[loser] -= paid
        shares = {w: to_share * amount // due for w, amount in creditors.items()} if due else {}
        remainder = to_share - sum(shares.values())
        if shares:
            largest = max(shares, key=lambda w: (creditors[w], -w))
            shares[largest] += remainder
        for winner, share in shares.items():
            received[winner] += share
    for winner, got in received.items():
        winner_rake = min(rake, got)
        rake_total += winner_rake
        delta[winner] += got - winner_rake
    return dict(delta), rake_total


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
        accounts = {
            seat: ledger.account_for_user_id(uid) for seat, uid in users.items()
        }
        # Read balances under lock: a loser pays at most what he has right now.
        locked = {
            a.pk: a
            for a in Account.objects.select_for_update().filter(
                pk__in=[a.pk for a in accounts.values()]
            ).order_by("pk")
        }
        balances = {seat: locked[a.pk].balance for seat, a in accounts.items()}
        extra = hand.result.get("extra") or {}
        payments = extra.get("payments", [])
        factor = int(hand.params.get("factor", 1))
        rake = int(hand.params.get("rake", 0))
        if extra.get("bean_moves") is not None:
            # games whose stakes were taken during play (三張) report final moves themselves
            delta = {int(k): v for k, v in extra["bean_moves"].items()}
            rake_total = int(extra.get("rake_total", -sum(delta.values())))
        else:
            delta, rake_total = bean_moves(payments, factor, rake, balances)
        escaped = hand.result.get("escaped_seat")
        legs = [(accounts[seat], amount) for seat, amount in delta.items() if amount]
        if rake_total:
            legs.append((ledger.system_account(ledger.RAKE), rake_total))
        if legs and not extra.get("beans_moved"):  # 三張 moved its beans during the hand
            ledger.transfer_create(
                postings=legs,
                kind=Transfer.Kind.ESCAPE if escaped is not None else Transfer.Kind.SETTLEMENT,
                reason=f"{hand.game} 第{hand.number}局 (table {hand.table_id})",
                idempotency_key=f"hand:{hand.pk}",
            )
        scores = hand.result.get("scores", [0] * len(players))
        winners = set(hand.result.get("winners", []))
        level_changes = {}
        for seat, uid in users.items():
            before, after = account_services.score_add(
                user_id=uid, game=hand.game, score=int(scores[seat]), won=seat in winners,
                escaped=seat == escaped,
            )
            if before.name != after.name:
                level_changes[str(seat)] = {"from": before.name, "to": after.name}
            HandSeat.objects.create(
                hand=hand, seat=seat, user_id=uid, score=int(scores[seat]),
                beans=delta.get(seat, 0), won=seat in winners, escaped=seat == escaped,
            )
        hand.result = {
            **hand.result,
            "beans": [delta.get(seat, 0) for seat in range(len(players))],
            "rake": rake_total,
            "factor": factor,
            "rake_each": rake,
            "level_changes": level_changes,
        }
        hand.settled_at = timezone.now()
        hand.save(update_fields=["result", "settled_at"])
        # The settlement is a change of the table like any other: a new seq, pushed on commit.
        table.seq += 1
        table.save(update_fields=["seq"])
        seq = table.seq
        transaction.on_commit(lambda: realtime.table_changed(table_id, seq))
    return True
