"""Rooms (場次) that operators configure in the admin.

A room's settings are copied into each table at every new hand (games snapshot them per hand),
so an operator's change applies from the next hand on.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.engine import registry


class Room(models.Model):
    """One 場次: a game, its variant and the stakes and clocks of its tables."""

    name = models.CharField(_("名稱"), max_length=40)
    # the name on English pages (简体 pages convert ``name``); blank: made from the game's
    # English title and the room's name (``room_name_shown``)
    name_en = models.CharField(_("英文名稱"), max_length=60, blank=True)
    # the registry's games (a callable: a game added there needs no migration here)
    game = models.CharField(_("遊戲"), max_length=32, choices=registry.choices)
    variant = models.CharField(_("玩法"), max_length=32, default="classic")
    seats = models.PositiveSmallIntegerField(_("座位數"), default=3)
    base_score = models.PositiveIntegerField(_("底分"), default=1)
    factor = models.PositiveIntegerField(_("房間係數 N"), default=100)
    rake = models.PositiveIntegerField(_("回收 A"), default=0)
    min_beans = models.PositiveBigIntegerField(_("最少歡樂豆"), default=0)
    max_beans = models.PositiveBigIntegerField(_("最多歡樂豆"), null=True, blank=True)
    double_threshold = models.PositiveBigIntegerField(_("加倍門檻"), default=0)
    turn_seconds = models.PositiveSmallIntegerField(_("出牌秒數"), default=20)
    bot_wait_seconds = models.PositiveSmallIntegerField(_("機器人補位秒數"), default=5)
    is_open = models.BooleanField(_("開放"), default=True)
    sort_order = models.PositiveSmallIntegerField(_("排序"), default=0)
    extra = models.JSONField(_("其他規則參數"), default=dict, blank=True)

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

    def display_name(self) -> str:
        """The room's name in the active language (see ``room_name_shown``)."""
        return room_name_shown(self.name, self.game, self.name_en)

    def clean(self) -> None:
        """Refuse what the game's rules cannot deal, each message on the field concerned.

        The game declares its 玩法 and its room parameters (``Ruleset.variants`` /
        ``room_params``, games/engine/params.py); ``extra`` holds exactly those (an unknown key
        is refused). The combination must build the game's Config, a bean range must admit the
        buy-in, and a room's minimum of players must fit its seats."""
        super().clean()
        errors = room_errors(self)
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


def param_error_words(error) -> str:
    """A game's refusal of a room parameter (``games.engine.params.ParamError``) in the active
    language: by its reason and values; one without a reason (a game's own check) as the game
    wrote it."""
    from django.utils.translation import gettext

    words = {
        "bool": gettext("須為是或否"),
        "int_list": gettext("須為以逗號分隔的整數"),
        "length": gettext("須有 %(n)s 個數"),
        "choice": gettext("只可為 %(allowed)s，不是 %(value)s"),
        "int": gettext("須為整數"),
        "low": gettext("至少為 %(n)s"),
        "high": gettext("至多為 %(n)s"),
        "unknown": gettext("未知的規則參數：%(key)s"),
        "variant": gettext("未知的玩法：%(variant)s（可選：%(allowed)s）"),
    }
    template = words.get(getattr(error, "reason", ""))
    if template is None:
        return error.message
    try:
        return template % error.values
    except (KeyError, TypeError, ValueError):
        return template


def room_name_shown(name: str, game: str, name_en: str = "") -> str:
    """A room's name as the active language shows it: 繁體 as stored; 简体 converted character
    by character (the site's OpenCC table); English the room's English name, else one made
    from the glossary (a room named by a known term, 大眾場 → "Standard room"; a room named
    after its game → the game's English title), else the game's English title and "room"."""
    from django.utils import translation

    from games.terms import GLOSSARY, hans

    language = translation.get_language() or ""
    if language.startswith("zh-hans"):
        return hans(name)
    if not language.startswith("en"):
        return name
    if name_en:
        return name_en
    gloss = GLOSSARY.get(name)
    if gloss:
        return gloss[:1].upper() + gloss[1:]
    try:
        title = registry.get(game).title
    except KeyError:
        return name
    english = GLOSSARY.get(title, game)
    return english if name == title else f"{english} room"


def room_buy_in(room: Room, config) -> int:
    """The fewest beans a player needs to take part in one hand: 三張's 底注 (``ante``), the
    wheel's smallest chip, else 0 (the other games settle what a player holds)."""
    ante = getattr(config, "ante", None)
    if ante is not None:
        return int(ante)
    chips = getattr(config, "chips", None)
    return int(min(chips)) if chips else 0


def room_errors(room: Room) -> dict[str, str]:
    """Field name → message for every setting of the room the game refuses (empty if none),
    in the active language (the admin's).

    The room's own ranges (底分, the bean range, the turn clock) are checked first and on their
    own fields, whatever else is wrong, so a database constraint never words a refusal by its
    name; then what the game declares. An engine's reason for refusing a combination is for
    the logs: the form says which settings to look at, in the admin's language."""
    from django.utils.translation import gettext

    from games.engine import registry
    from games.engine.params import ParamError
    from games.titles import game_title

    try:
        ruleset = registry.get(room.game)
    except KeyError:
        return {}  # a game not yet available: lobby.services keeps its rooms closed
    title = game_title(room.game)
    errors: dict[str, str] = {}
    if room.base_score is not None and room.base_score < 1:
        errors["base_score"] = gettext("底分至少為 1")
    if room.turn_seconds is not None and room.turn_seconds < 3:
        errors["turn_seconds"] = gettext("出牌秒數至少為 3 秒")
    if (
        room.min_beans is not None
        and room.max_beans is not None
        and room.max_beans < room.min_beans
    ):
        errors["max_beans"] = gettext("最多歡樂豆 %(high)s 低於最少歡樂豆 %(low)s") % {
            "high": room.max_beans,
            "low": room.min_beans,
        }
    if not ruleset.min_seats <= (room.seats or 0) <= ruleset.max_seats:
        if ruleset.min_seats == ruleset.max_seats:
            errors["seats"] = gettext("%(game)s 需要 %(n)s 個座位") % {
                "game": title,
                "n": ruleset.min_seats,
            }
        else:
            errors["seats"] = gettext("%(game)s 需要 %(low)s–%(high)s 個座位") % {
                "game": title,
                "low": ruleset.min_seats,
                "high": ruleset.max_seats,
            }
    if ruleset.variants and room.variant not in [v.id for v in ruleset.variants]:
        errors["variant"] = gettext("%(game)s 沒有這個玩法：%(variant)s") % {
            "game": title,
            "variant": room.variant,
        }
        return errors
    try:
        extra = ruleset.room_params_parse(room.extra or {})
    except ParamError as error:
        declared = {p.name for p in ruleset.room_params}
        errors[error.name if error.name in declared else "__all__"] = param_error_words(error)
        return errors
    try:
        config = ruleset.config_from_params({**room.params(), **extra})
    except ParamError as error:
        errors[error.name] = param_error_words(error)
        return errors
    except (ValueError, TypeError, KeyError):
        if errors:  # one of the settings refused above is the likely cause
            return errors
        errors["__all__"] = gettext(
            "%(game)s 無法以這些設定開局，請檢查底分、房間係數與本遊戲的規則參數"
        ) % {"game": title}
        return errors
    buy_in = room_buy_in(room, config)
    if room.max_beans is not None and room.max_beans < buy_in:
        errors["max_beans"] = gettext(
            "最多歡樂豆 %(high)s 低於入場所需的 %(need)s 豆，沒有人能坐下"
        ) % {"high": room.max_beans, "need": buy_in}
    least = extra.get("min_players")
    if least is not None and room.seats and least > room.seats:
        errors["min_players"] = gettext("開局人數 %(n)s 多於座位數 %(seats)s") % {
            "n": least,
            "seats": room.seats,
        }
    aim = extra.get("target_players")
    if aim is not None and room.seats and aim > room.seats:
        errors["target_players"] = gettext("目標人數 %(n)s 多於座位數 %(seats)s") % {
            "n": aim,
            "seats": room.seats,
        }
    elif aim is not None and least is not None and aim < least:
        errors["target_players"] = gettext("目標人數 %(n)s 少於開局人數 %(least)s") % {
            "n": aim,
            "least": least,
        }
    return errors
