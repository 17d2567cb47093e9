"""The end of a hand: its result stored, clocks stopped, what carries over, the settlement
queued once the end is durable."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.engine.params import table_params_read
from games.engine.table_type import Dealer, Settlement
from games.models import Hand, Seat
from games.services import stakes
from games.services.tables.clocks import deadlines_save
from games.services.tables.seatmap import table_seat
from games.services.tables.working import WorkingSet

# the room's wait between hands when its params do not say (``between_hands_seconds``)
BETWEEN_HANDS_SECONDS = 12


def between_hands_seconds(params: dict) -> int:
    """How long the table waits for every player's 繼續 before dealing the next hand."""
    return int(table_params_read(params).get("between_hands_seconds") or BETWEEN_HANDS_SECONDS)


def result_json(result) -> dict:
    return {
        "scores": list(result.scores),
        "winners": list(result.winners),
        "lines": [{"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in result.lines],
        "extra": result.extra,
    }


def hand_end(work: WorkingSet, result, *, escaped_seat: int | None) -> None:
    """End the hand in play with ``result`` (saved with the hand; the table is the caller's to
    save)."""
    from games import tasks

    table, hand = work.table, work.hand
    assert hand is not None
    hand.result = result_json(result)
    table_type = work.ruleset.table_type
    if table_type.settlement is Settlement.POT:
        stakes.pot_pay(hand)  # the pot to the winner, in the transaction that ends the hand
    if escaped_seat is not None:
        hand.result["escaped_seat"] = escaped_seat
    hand.status = Hand.Status.ESCAPED if escaped_seat is not None else Hand.Status.FINISHED
    hand.finished_at = timezone.now()
    hand.save()
    ended = [s for s in work.seats if s.deadline is not None or s.deadline_seq]
    for seat in ended:
        seat.deadline, seat.deadline_seq = None, None
    deadlines_save(ended)
    # every player answers again (繼續 / 換桌 / 離開) before the next deal; bots are always ready
    for seat in work.seats:
        if not seat.is_bot:
            seat.ready = False
    Seat.objects.filter(table_id=table.pk, is_bot=False, ready=True).update(ready=False)
    wait = between_hands_seconds(table.params)
    table.next_hand_at = timezone.now() + timedelta(seconds=wait)
    extra = result.extra or {}
    # what the engine hands on to the next hand (圈風, 牢莊, 荒莊 streak …) comes back in its params
    table.carry = {
        key[5:]: value
        for key, value in extra.items()
        if key.startswith("next_") and key != "next_dealer"
    }
    if extra.get("next_dealer") is not None:
        table.dealer = int(extra["next_dealer"])  # the engine's own rotation (連莊, 荒莊 …)
    elif result.winners and table_type.dealer is Dealer.WINNER:
        table.dealer = table_seat(hand, result.winners[0])
    hand_id = hand.pk
    # Settle only once the finished hand is durable; a lost task is re-sent by the clock.
    transaction.on_commit(lambda: tasks.hand_settle_task.delay(hand_id))
