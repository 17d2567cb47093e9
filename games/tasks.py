"""Celery tasks. Each is idempotent: a retried or re-delivered task changes nothing twice.

A hand's settlement has at most one task waiting in the queue: publishing one marks the hand
as queued (in Redis, beside the queue, so a flush clears both), running it clears the mark, and
the clock's re-send (``settle_resend``) skips a hand still marked. A mark outlives a lost task
by at most ``SETTLE_QUEUED_SECONDS``; then the clock sends again.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import before_task_publish
from django.conf import settings

from games import redis_state
from games.services import settlement

logger = logging.getLogger("leyou.tasks")
SETTLE_TASK = "games.hand_settle"


def _mark(hand_id: int) -> str:
    return f"leyou:settle-queued:{hand_id}"


@shared_task(name=SETTLE_TASK, acks_late=True)
def hand_settle_task(hand_id: int) -> bool:
    """Settle a finished hand (beans, score, levels, history) — exactly once."""
    client = redis_state.client()
    if client is not None:
        try:  # running now: a re-send from here on is a new attempt, not a duplicate
            client.delete(_mark(hand_id))
        except Exception:
            logger.warning("settlement: the queued mark of hand %s stays", hand_id, exc_info=True)
    return settlement.hand_settle(hand_id)


@before_task_publish.connect
def _settle_marked(sender=None, body=None, **kwargs) -> None:
    """Every publish of a settlement (the hand's end, the clock's re-send) marks its hand."""
    if sender != SETTLE_TASK:
        return
    client = redis_state.client()
    if client is None:
        return
    try:
        hand_id = int(body[0][0])
        client.set(_mark(hand_id), 1, ex=int(settings.LEYOU["SETTLE_QUEUED_SECONDS"]))
    except Exception:  # never stop a publish for its mark
        logger.warning("settlement: could not mark a queued task", exc_info=True)


def settle_queued(hand_id: int) -> bool:
    """Whether a settlement task of the hand waits in the queue (as far as the marks know)."""
    client = redis_state.client()
    return bool(client is not None and client.exists(_mark(hand_id)))


def settle_resend(hand_id: int) -> bool:
    """The clock's re-send of an unsettled hand, unless a task of it is still queued; True
    when sent. Two clocks racing send once (SET NX)."""
    client = redis_state.client()
    if client is not None:
        seconds = int(settings.LEYOU["SETTLE_QUEUED_SECONDS"])
        if not client.set(_mark(hand_id), 1, ex=seconds, nx=True):
            return False
    hand_settle_task.delay(hand_id)
    return True
