"""The live table: tables, seats, hands and the append-only event log.

Authoritative state is ``Hand.seed`` + the ``HandEvent`` rows in ``seq`` order; ``Hand.state`` is
a snapshot cache of the engine state after the last event, written in the same transaction, so
any process can continue any table. ``Table.seq`` counts every accepted change of the table
(actions, seats, new hands) and is what clients resynchronise by.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "等待中"
        PLAYING = "playing", "遊戲中"
        CLOSED = "closed", "已關閉"

    game = models.CharField(max_length=32)
    room_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    params = models.JSONField(default=dict)  # the room snapshot used by the next hand
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    is_private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=8, unique=True, null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    seq = models.BigIntegerField(default=0)
    hands_played = models.PositiveIntegerField(default=0)
    fill_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    next_hand_at = models.DateTimeField(null=True, blank=True, db_index=True)
    dealer = models.PositiveSmallIntegerField(default=0)
    # what a hand hands on to the next (the engine's result.extra["next_*"]: 圈風, 牢莊 …)
    carry = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "牌桌"

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="seats",
    )
    is_bot = models.BooleanField(default=False)
    auto = models.BooleanField("托管", default=False)
    ready = models.BooleanField(default=False)
    connections = models.PositiveSmallIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)  # this seat's turn clock
    deadline_seq = models.BigIntegerField(null=True, blank=True)  # the table seq it was set at
    timeouts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_index_unique"),
            models.UniqueConstraint(
                fields=["user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.index}"


class Hand(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "進行中"
        FINISHED = "finished", "已結束"
        ESCAPED = "escaped", "逃跑結束"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    game = models.CharField(max_length=32)
    seed = models.CharField(max_length=64)  # revealed after the end
    seed_hash = models.CharField(max_length=64)  # shown at the deal
    params = models.JSONField()  # the room snapshot for this hand
    players = models.JSONField()  # [{"user_id", "name", "is_bot"}] per seat
    engine_version = models.CharField(max_length=16, default="1")
    state = models.JSONField()  # snapshot cache of the engine state after the last event
    counter_seats = models.JSONField(default=list)  # seats that bought the 記牌器 this hand
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = verbose_name_plural = "牌局"
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class HandEvent(models.Model):
    """One accepted action, appended in the transaction that applied it (never updated)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="events")
    seq = models.BigIntegerField()
    seat = models.SmallIntegerField()
    action = models.JSONField()
    action_id = models.CharField(max_length=64, null=True, blank=True)
    by = models.CharField(max_length=8, default="player")  # player, bot, auto (托管), clock
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(
                fields=["table", "action_id"], condition=Q(action_id__isnull=False),
                name="event_action_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.seq} seat {self.seat} {self.action}"


class HandSeat(models.Model):
    """A player's line in a finished hand, written by the settlement (profile history)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="seat_results")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hand_results"
    )
    score = models.BigIntegerField(default=0)
    beans = models.BigIntegerField(default=0)
    won = models.BooleanField(default=False)
    escaped = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="handseat_unique")
        ]
