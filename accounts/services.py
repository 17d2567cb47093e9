"""Account writes: registration (with the signup grant) and per-game scores."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import transaction

from accounts.levels import Level, level_for_score
from accounts.models import GameStat, User
from ledger import services as ledger


def user_register(*, username: str, password: str, nickname: str = "") -> User:
    """Create a player and pay the operator-set signup grant, in one transaction."""
    with transaction.atomic():
        user = User(username=username, nickname=nickname or username,
                    avatar_seed=secrets.randbelow(10_000))
        user.set_password(password)
        user.full_clean(exclude=["password"])
        user.save()
        ledger.grant_signup(user)
    return user


def score_add(
    *, user_id: int, game: str, score: int, won: bool, escaped: bool = False
) -> tuple[Level, Level]:
    """Add a hand's score to the player's game stat; return (level before, level after)."""
    stat, _ = GameStat.objects.select_for_update().get_or_create(user_id=user_id, game=game)
    before = level_for_score(stat.score)
    stat.score += score
    stat.hands += 1
    stat.wins += int(won)
    stat.escapes += int(escaped)
    stat.save()
    return before, level_for_score(stat.score)


def user_language_set(*, user: User, language: str) -> bool:
    """Store the player's chosen UI language; False (and nothing stored) for an unknown code."""
    if language not in {code for code, _name in settings.LANGUAGES}:
        return False
    if user.language != language:
        User.objects.filter(pk=user.pk).update(language=language)
        user.language = language
    return True
