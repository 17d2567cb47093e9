"""The live table: tables, seats, hands and the append-only event log.

Authoritative state is ``Hand.seed`` + the ``HandEvent`` rows in ``seq`` order; ``Hand.state`` is
a snapshot cache of the engine state after the last event, written in the same transaction, so
any process can continue any table. ``Table.seq`` counts every accepted change of the table
(actions, seats, new hands) and is what clients resynchronise by.

Models ↔ code: ``Table`` / ``Seat`` / ``Hand`` / ``HandEvent`` are written by
``games.services.{tables, seating, stakes, items}``, ``SeatLease`` by ``services.presence``,
``HandSeat`` by ``services.settlement``; ``WheelRound`` / ``WheelBet`` / ``WheelWin`` are
大豐收's (``services.dafengshou``; the names predate it and stay, so no migration).
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
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    seq = models.BigIntegerField(default=0)
    # the seq of the hand's last change (a move, the deal, an escape): a player's move is stale
    # only when made before it, so no seat's 托管 or 在線 change can make another's move stale
    move_seq = models.BigIntegerField(default=0)
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
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
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
    # hands in a row this player was dealt in without answering between hands (繼續) or moving
    hands_unanswered = models.PositiveSmallIntegerField(default=0)

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


class SeatLease(models.Model):
    """出席租約 (presence lease): one open socket's claim that its user is at the table.

    Named by the server process holding the socket and renewed by that process's heartbeat
    (one UPDATE for all its leases). A seat is online while any of its user's leases is fresh;
    the clock expires stale ones (a dead process) exactly as a socket close would.
    ``Seat.connections`` is the count of the user's leases, kept by ``services.presence``.
    """

    key = models.CharField(max_length=64, unique=True)  # one per socket, made by the consumer
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="leases")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    process = models.CharField(max_length=96, db_index=True)  # host:pid:random of the server
    renewed_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["table", "user"], name="lease_table_user")]

    def __str__(self) -> str:
        return f"lease {self.key} of {self.user_id} at {self.table_id} ({self.process})"


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
                fields=["table", "action_id"],
                condition=Q(action_id__isnull=False),
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
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="handseat_unique")]


class WheelRound(models.Model):
    """One room-wide round of 大豐收 (the harvest wheel): the betting window, the spin, the payout.

    The ``Wheel*`` models are 大豐收's (``games.services.dafengshou`` writes them,
    ``games.selectors.dafengshou`` reads them); they keep their names so no migration is needed.

    The row is the round's authority: ``closes_at`` and ``settle_at`` are the stored deadlines
    the clock acts on; ``seed`` stays on the server until the round is settled (only
    ``seed_hash`` is shown while betting). At most one unsettled round per room.
    """

    class Phase(models.TextChoices):
        BETTING = "betting", "押注中"
        SPINNING = "spinning", "開獎中"
        SETTLED = "settled", "已派彩"

    room_id = models.PositiveIntegerField(db_index=True)
    number = models.PositiveIntegerField()
    phase = models.CharField(max_length=8, choices=Phase.choices, default=Phase.BETTING)
    seed = models.CharField(max_length=64)  # revealed once settled
    seed_hash = models.CharField(max_length=64)  # shown when betting opens
    params = models.JSONField()  # the room snapshot (odds table, chips, limits) for this round
    version = models.PositiveIntegerField(default=0)  # bumped by every accepted change
    totals = models.JSONField(default=dict)  # crop → beans staked by everyone (public)
    staked_total = models.BigIntegerField(default=0)
    paid_total = models.BigIntegerField(default=0)
    outcome = models.JSONField(null=True, blank=True)  # the engine's spin view, once closed
    opened_at = models.DateTimeField()
    closes_at = models.DateTimeField(db_index=True)
    settle_at = models.DateTimeField(null=True, blank=True, db_index=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    active_until = models.DateTimeField()  # open a next round only while someone is watching

    class Meta:
        verbose_name = verbose_name_plural = "大豐收局"
        ordering = ["-room_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["room_id", "number"], name="wheel_round_number_unique"),
            models.UniqueConstraint(
                fields=["room_id"], condition=~Q(phase="settled"), name="wheel_one_live_round"
            ),
        ]

    def __str__(self) -> str:
        return f"大豐收 room {self.room_id} round {self.number}"


class WheelBet(models.Model):
    """One accepted bet (one chip on one crop), written with its stake transfer."""

    round = models.ForeignKey(WheelRound, on_delete=models.PROTECT, related_name="bets")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wheel_bets"
    )
    object = models.CharField(max_length=16)
    amount = models.BigIntegerField()
    action_id = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "user", "action_id"], name="wheel_bet_action_unique"
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="wheel_bet_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.user_id} {self.object} {self.amount}"


class WheelWin(models.Model):
    """A player's line in a settled round: what he staked and what the spin paid him."""

    round = models.ForeignKey(WheelRound, on_delete=models.PROTECT, related_name="wins")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wheel_wins"
    )
    staked = models.BigIntegerField()
    payout = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="wheel_win_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.user_id} {self.payout - self.staked:+d}"


# --- chat and spectators (快捷語、表情、觀戰; docs/architecture.md "Chat and spectators") ---------


class WordFilter(models.Model):
    """屏蔽詞: a word the free text of private tables may not carry (operators edit them).

    ``mask`` replaces the word with ＊ in the bubble; ``block`` refuses the whole message.
    Matching is case-insensitive on the NFKC-normalised text (full-width letters included).
    """

    class Action(models.TextChoices):
        MASK = "mask", "以＊遮蔽"
        BLOCK = "block", "拒絕整句"

    word = models.CharField("詞語", max_length=40, unique=True)
    action = models.CharField("處理", max_length=5, choices=Action.choices, default=Action.MASK)
    is_active = models.BooleanField("啟用", default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "屏蔽詞"
        ordering = ["word"]
        constraints = [models.CheckConstraint(condition=~Q(word=""), name="wordfilter_not_empty")]

    def __str__(self) -> str:
        return self.word


class ChatMute(models.Model):
    """禁言: staff silence a user's chat at every table until ``until`` (the user is told)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_mutes",
        verbose_name="玩家",
    )
    until = models.DateTimeField("禁言至", db_index=True)
    reason = models.CharField("原因", max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name="執行者",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "禁言"
        ordering = ["-until"]

    def __str__(self) -> str:
        return f"{self.user} 禁言至 {self.until:%Y-%m-%d %H:%M}"


class PlayerMute(models.Model):
    """屏蔽玩家: ``owner`` no longer sees ``muted``'s phrases, emotes and text (for himself)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "玩家屏蔽"
        constraints = [
            models.UniqueConstraint(fields=["owner", "muted"], name="playermute_unique"),
            models.CheckConstraint(
                condition=~Q(owner=models.F("muted")), name="playermute_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.owner_id} mutes {self.muted_id}"


class WatchPreference(models.Model):
    """允許觀戰: a player's choice; while he is seated with it off, nobody watches his table.

    No row means watching is allowed (the default).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="watch_preference"
    )
    allow_watching = models.BooleanField("允許觀戰", default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = verbose_name_plural = "觀戰設定"

    def __str__(self) -> str:
        return f"{self.user_id} allow_watching={self.allow_watching}"
