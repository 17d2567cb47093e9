"""Reads of finished hands: a player's history, who may replay a hand (回放).

The replay itself (every step drawn by the game's own board, all hands open) is
``games.replays``."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.models import Hand, HandSeat


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
        Hand.objects.select_related("table").filter(pk=hand_id)
        .filter(~Q(status=Hand.Status.PLAYING)).first()
    )
    return hand if hand is not None and replay_access(user, hand) else None
