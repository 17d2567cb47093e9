"""Reads of finished hands: a player's history, who may replay a hand (回放).

The replay itself (every step drawn by the game's own board, all hands open) is
``games.replays``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.utils import timezone

from games.engine import registry
from games.models import Hand, HandEvent, HandSeat, Seat


def replay_access(user, hand: Hand) -> bool:
    """Who may replay a finished hand (回放): its players and staff; other logged-in users
    only for a public table's hand finished ``REPLAY_PUBLIC_AFTER_HOURS`` ago or more.

    A private table's hands stay with their players (and staff) for good.
    """
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or any(p.get("user_id") == user.pk for p in hand.players):
        return True
    if hand.table.is_private:
        return False
    hours = settings.LEYOU["REPLAY_PUBLIC_AFTER_HOURS"]
    finished = hand.finished_at or hand.started_at
    return finished <= timezone.now() - timedelta(hours=hours)


def hand_history_for_user(user, limit: int = 20) -> list[HandSeat]:
    return list(
        HandSeat.objects.filter(user=user).select_related("hand").order_by("-hand_id")[:limit]
    )


def hand_get_finished(hand_id: int, *, user) -> Hand | None:
    """The finished hand if ``user`` may replay it (``replay_access``), else None."""
    hand = (
        Hand.objects.select_related("table")
        .filter(pk=hand_id)
        .filter(~Q(status=Hand.Status.PLAYING))
        .first()
    )
    return hand if hand is not None and replay_access(user, hand) else None


def escape_cost_for_user(user, table_id: int) -> dict[str, Any] | None:
    """What the user's latest 逃跑 at the table cost, for the lobby's word after 離開 (#14 §5).

    None when he did not escape there. ``{"settled": False}`` while the settlement of a finished
    hand is still being posted; else ``{"settled": True, "beans": n}`` with the beans it took
    (the escape's settlement line; in 三張 the stake left in the pot plus the penalty).
    """
    events = (
        HandEvent.objects.filter(table_id=table_id)
        .filter(Q(action__type="escape") | Q(by="escape"))
        .select_related("hand")
        .order_by("-seq")[:20]
    )
    for event in events:
        hand = event.hand
        players = hand.players or []
        if not 0 <= event.seat < len(players) or players[event.seat].get("user_id") != user.pk:
            continue
        if event.by == "escape":  # 三張: folded on leaving, the stake stays in the pot
            ruleset = registry.get(hand.game)
            state = ruleset.state_from_json(hand.state)
            stake = int(getattr(state, "stakes", [0] * len(players))[event.seat])
            return {"settled": True, "beans": stake + int(event.action.get("penalty") or 0)}
        row = HandSeat.objects.filter(hand=hand, seat=event.seat).first()
        if row is None:
            return {"settled": False}
        return {"settled": True, "beans": max(0, -int(row.beans))}
    return None


def away_summary(*, user, table_id: int) -> dict[str, int] | None:
    """What 托管 did for a player while he was away from his seat (his sockets all closed):
    the hands that ended since he left and the beans they moved for him; None if he was not
    away or no hand ended meanwhile. Read before his returning socket clears the mark."""
    since = (
        Seat.objects.filter(table_id=table_id, user=user)
        .values_list("disconnected_at", flat=True)
        .first()
    )
    if since is None:
        return None
    done = HandSeat.objects.filter(
        user=user, hand__table_id=table_id, hand__finished_at__gte=since
    ).aggregate(hands=Count("pk"), beans=Sum("beans"))
    if not done["hands"]:
        return None
    return {"hands": int(done["hands"]), "beans": int(done["beans"] or 0)}
