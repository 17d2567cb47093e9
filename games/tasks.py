"""Celery tasks. Each is idempotent: a retried or re-delivered task changes nothing twice."""

from celery import shared_task

from games.services import settlement


@shared_task(name="games.hand_settle", acks_late=True)
def hand_settle_task(hand_id: int) -> bool:
    """Settle a finished hand (beans, score, levels, history) — exactly once."""
    return settlement.hand_settle(hand_id)
