"""Rooms (場次) that operators configure in the admin.

A room's settings are copied into each table at every new hand (games snapshot them per hand),
so an operator's change applies from the next hand on.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

GAME_CHOICES = [
    ("doudizhu", "歡樂斗地主"),
    ("zhajinhua", "歡樂三張"),
    ("dafengshou", "大豐收"),
    ("paohuzi", "跑胡子"),
    ("mahjong_huanle", "歡樂麻將"),
    ("mahjong_yongzhou", "永州麻將"),
    ("mahjong_yueqing", "樂清麻將"),
]


class Room(models.Model):
    """One 場次: a game, its variant and the stakes and clocks of its tables."""

    name = models.CharField("名稱", max_length=40)
    game = models.CharField("遊戲", max_length=32, choices=GAME_CHOICES)
    variant = models.CharField("玩法", max_length=32, default="classic")
    seats = models.PositiveSmallIntegerField("座位數", default=3)
    base_score = models.PositiveIntegerField("底分", default=1)
    factor = models.PositiveIntegerField("房間係數 N", default=100)
    rake = models.PositiveIntegerField("回收 A", default=0)
    min_beans = models.PositiveBigIntegerField("最少歡樂豆", default=0)
    max_beans = models.PositiveBigIntegerField("最多歡樂豆", null=True, blank=True)
    double_threshold = models.PositiveBigIntegerField("加倍門檻", default=0)
    turn_seconds = models.PositiveSmallIntegerField("出牌秒數", default=20)
    bot_wait_seconds = models.PositiveSmallIntegerField("機器人補位秒數", default=5)
    is_open = models.BooleanField("開放", default=True)
    sort_order = models.PositiveSmallIntegerField("排序", default=0)
    extra = models.JSONField("其他規則參數", default=dict, blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "場次"
        ordering = ["game", "sort_order", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_beans__isnull=True) | Q(max_beans__gte=F("min_beans")),
                name="room_bean_range_valid",
            ),
            models.CheckConstraint(condition=Q(turn_seconds__gte=3), name="room_turn_seconds_min"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} · {self.name}"

    def clean(self) -> None:
        """Refuse a seat count or variant the game's rules cannot deal (checked in the admin)."""
        super().clean()
        from games.engine import registry

        try:
            ruleset = registry.get(self.game)
        except KeyError:
            return  # a game not yet available: lobby.services keeps its rooms closed
        errors = {}
        if not ruleset.min_seats <= (self.seats or 0) <= ruleset.max_seats:
            errors["seats"] = f"{ruleset.title} 需要 {ruleset.min_seats}–{ruleset.max_seats} 個座位"
        try:
            ruleset.config_from_params(self.params())
        except (ValueError, TypeError, KeyError) as error:
            errors["variant"] = f"規則參數不正確：{error}"
        if errors:
            raise ValidationError(errors)

    def params(self) -> dict:
        """The snapshot handed to a table for its next hand."""
        return {
            **self.extra,
            "room_id": self.pk,
            "room_name": self.name,
            "game": self.game,
            "variant": self.variant,
            "seats": self.seats,
            "base_score": self.base_score,
            "factor": self.factor,
            "rake": self.rake,
            "min_beans": self.min_beans,
            "max_beans": self.max_beans,
            "double_threshold": self.double_threshold,
            "turn_seconds": self.turn_seconds,
            "bot_wait_seconds": self.bot_wait_seconds,
        }
