"""Count the hands settled before the hall existed for the leaderboards (and the days' tasks).

Idempotent (``accounts.services.hand_record`` counts a player's hand once), so it may be run
again or stopped and restarted. Tasks of past days are counted too, but only today's rewards
can ever be claimed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.services import hand_record
from games.models import Hand


class Command(BaseCommand):
    help = "Build the leaderboards' standings from the settled hands (once per player and hand)."

    def handle(self, *args: Any, **options: Any) -> None:
        ids = (
            Hand.objects.filter(settled_at__isnull=False)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        done = 0
        for hand_id in ids.iterator(chunk_size=2000):
            hand_record(hand_id)
            done += 1
        self.stdout.write(self.style.SUCCESS(f"{done} settled hands counted"))
