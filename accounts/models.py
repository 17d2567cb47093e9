"""Users and their per-game standing.

``User`` is the custom user model from the first migration. ``GameStat`` keeps a player's
cumulative score (積分) per game; the level (包身工 → 帝王) is derived from it (accounts.levels).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models

from accounts.levels import level_for_score


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

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.score}"

    @property
    def level(self):
        return level_for_score(self.score)
