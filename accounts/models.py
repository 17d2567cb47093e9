"""Users and their per-game standing.

``User`` is the custom user model from the first migration. ``GameStat`` keeps a player's
cumulative score (積分) per game; the level (包身工 → 帝王) is derived from it (accounts.levels).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q

from accounts.levels import level_for_score
from games.engine import registry


class User(AbstractUser):
    """A player or staff member. ``nickname`` is shown at tables; bots are users too."""

    nickname = models.CharField("暱稱", max_length=24)
    avatar_seed = models.PositiveIntegerField("頭像", default=0)
    is_bot = models.BooleanField("機器人", default=False)
    # the language the player chose in the switch (a code of settings.LANGUAGES; "" = none yet)
    language = models.CharField("語言", max_length=16, blank=True, default="")

    def __str__(self) -> str:
        return self.nickname or self.username


class GameStat(models.Model):
    """A player's cumulative score and record in one game."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="game_stats")
    game = models.CharField(max_length=32)
    score = models.BigIntegerField("積分", default=0)
    hands = models.PositiveIntegerField("局數", default=0)
    wins = models.PositiveIntegerField("勝局", default=0)
    escapes = models.PositiveIntegerField("逃跑", default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="gamestat_one_per_user_game")
        ]
        # the all-time leaderboard (積分) reads the top of each game through this index
        indexes = [models.Index(fields=["game", "-score"], name="gamestat_by_score")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.score}"

    @property
    def level(self):
        return level_for_score(self.score)


class PresenceVisibility(models.TextChoices):
    """Who may see where a player is (在線狀態): the privacy setting of issue #15 §3."""

    FOLLOWERS = "followers", "關注我的人"
    FRIENDS = "friends", "互相關注的好友"
    NOBODY = "nobody", "不公開"


class Privacy(models.Model):
    """A player's privacy setting (one row per player; absent means the default)."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="privacy")
    presence = models.CharField(
        "誰能看到我在哪裡",
        max_length=10,
        choices=PresenceVisibility.choices,
        default=PresenceVisibility.FRIENDS,
    )

    class Meta:
        verbose_name = verbose_name_plural = "隱私設定"

    def __str__(self) -> str:
        return f"{self.user} {self.presence}"


class Follow(models.Model):
    """關注: ``follower`` follows ``followee``; two follows both ways make friends (好友)."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following")
    followee = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "關注"
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followee")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower} → {self.followee}"


class Block(models.Model):
    """封鎖: ``blocker`` no longer gets invitations or quick phrases from ``blocked``."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "封鎖"
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


class Invitation(models.Model):
    """邀請: a player at a private table invites a friend, who joins with one click."""

    class Status(models.TextChoices):
        PENDING = "pending", "待回應"
        ACCEPTED = "accepted", "已加入"
        DECLINED = "declined", "已拒絕"

    sender = models.ForeignKey(User, on_delete=models.CASCADE, related_name="invitations_sent")
    recipient = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="invitations_received"
    )
    table_id = models.BigIntegerField(db_index=True)  # a games.Table (accounts ← games)
    game = models.CharField(max_length=32)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "牌桌邀請"
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "recipient", "table_id"],
                condition=Q(status="pending"),
                name="invitation_one_pending",
            ),
            models.CheckConstraint(
                condition=~Q(sender=models.F("recipient")), name="invitation_not_self"
            ),
        ]
        indexes = [models.Index(fields=["recipient", "status"], name="invitation_inbox")]

    def __str__(self) -> str:
        return f"{self.sender} → {self.recipient} table {self.table_id}"


class CheckinReward(models.Model):
    """簽到獎勵: the beans for the N-th day of a streak (the last row pays every later day)."""

    day = models.PositiveSmallIntegerField("連續第幾天", unique=True)
    beans = models.PositiveBigIntegerField("歡樂豆")

    class Meta:
        verbose_name = verbose_name_plural = "簽到獎勵"
        ordering = ["day"]
        constraints = [models.CheckConstraint(condition=Q(day__gte=1), name="checkin_day_from_1")]

    def __str__(self) -> str:
        return f"第 {self.day} 天 {self.beans} 豆"


class Checkin(models.Model):
    """One 簽到 of a player on one (local) day, with the streak it reached and what it paid."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="checkins")
    day = models.DateField()
    streak = models.PositiveSmallIntegerField()
    beans = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "簽到紀錄"
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="checkin_once_a_day")]

    def __str__(self) -> str:
        return f"{self.user} {self.day} ×{self.streak}"


class TaskDefinition(models.Model):
    """每日任務: do something N times today (in one game or any) for a bean reward.

    ``kind``: ``play`` counts settled hands dealt in, ``win`` hands won, ``line`` hands whose
    result has a line for the player (or for the whole hand, then only the winners) whose label
    is ``line_label`` (炸彈, 春天, 自摸 …, as the settlement screen shows them), or matches it
    when it has ``*`` (``*炸彈``: 軟炸彈, 硬炸彈 …; "地主" alone never counts a 搶地主 line).
    """

    class Kind(models.TextChoices):
        PLAY = "play", "玩 N 局"
        WIN = "win", "贏 N 局"
        LINE = "line", "打出牌型 N 次"

    code = models.SlugField("代號", max_length=32, unique=True)
    title = models.CharField("名稱", max_length=60)
    # the title on English pages (简体 pages convert ``title``); blank: ``title`` as it is
    title_en = models.CharField("英文名稱", max_length=80, blank=True)
    # the registry's games (a callable, as Room.game: a game added there needs no migration)
    game = models.CharField(
        "遊戲（空白為任何遊戲）", max_length=32, blank=True, choices=registry.choices
    )
    kind = models.CharField("種類", max_length=8, choices=Kind.choices)
    line_label = models.CharField(
        "牌型（結算行名稱）",
        max_length=24,
        blank=True,
        help_text="結算行的名稱，完全相同才算；* 代表任何字（*炸彈：軟炸彈、硬炸彈…）",
    )
    target = models.PositiveSmallIntegerField("次數", default=1)
    reward = models.PositiveBigIntegerField("獎勵歡樂豆")
    is_active = models.BooleanField("啟用", default=True)
    order = models.PositiveSmallIntegerField("排序", default=0)

    class Meta:
        verbose_name = verbose_name_plural = "每日任務"
        ordering = ["order", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(target__gte=1), name="task_target_from_1"),
            models.CheckConstraint(
                condition=~Q(kind="line") | ~Q(line_label=""), name="task_line_has_label"
            ),
        ]

    def __str__(self) -> str:
        return self.title


class TaskProgress(models.Model):
    """A player's count on one task on one day, and when its reward was claimed."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="task_progress")
    task = models.ForeignKey(TaskDefinition, on_delete=models.CASCADE, related_name="progress")
    day = models.DateField()
    count = models.PositiveIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "任務進度"
        constraints = [
            models.UniqueConstraint(fields=["user", "task", "day"], name="task_progress_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.task.code} {self.day} {self.count}"


class TaskHand(models.Model):
    """A settled hand already counted for a player's tasks (so it is counted once)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    hand_id = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "hand_id"], name="task_hand_once")]


class Standing(models.Model):
    """A player's 積分 and beans in one game over one day or one week (the leaderboards' rows).

    Written by the settlement's transaction (``accounts.services.hand_record``) from the hand's
    result rows, so a board is an index read instead of a sum over the hand history.
    ``period`` is ``day`` or ``week``; ``start`` its first local day (a Monday for a week).
    Bots have no rows.
    """

    class Period(models.TextChoices):
        DAY = "day", "日"
        WEEK = "week", "週"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32)
    period = models.CharField(max_length=4, choices=Period.choices)
    start = models.DateField()
    score = models.BigIntegerField(default=0)
    beans = models.BigIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "period", "start"], name="standing_once"
            ),
        ]
        indexes = [
            models.Index(fields=["game", "period", "start", "-score"], name="standing_by_score"),
            models.Index(fields=["game", "period", "start", "-beans"], name="standing_by_beans"),
            # players active per day (the economy page counts distinct players per day)
            models.Index(fields=["period", "start", "user"], name="standing_active_day"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} {self.period} {self.start}: {self.score}"
