"""Reads for chat (聊天): whose chat a viewer does not see, his mute list, a staff mute."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import ChatMute, PlayerMute


def hidden_speakers_for(viewer_id: int) -> frozenset[int]:
    """The users whose chat the viewer does not see: those he muted (屏蔽) and those he
    blocked (封鎖, the friends' feature: ``accounts.selectors.blocked_ids_for``).

    The one place a viewer's filter is decided.
    """
    from accounts.selectors import blocked_ids_for  # accounts imports games: import late

    muted = PlayerMute.objects.filter(owner_id=viewer_id).values_list("muted_id", flat=True)
    return frozenset(muted) | blocked_ids_for(viewer_id)


def muted_users_for(viewer_id: int) -> list[dict[str, Any]]:
    """The users the viewer muted, for his list (id and name), oldest first."""
    rows = PlayerMute.objects.filter(owner_id=viewer_id).select_related("muted").order_by("pk")
    return [{"user_id": m.muted_id, "name": str(m.muted)} for m in rows]


def mute_active(user_id: int) -> ChatMute | None:
    """The staff mute (禁言) in force for the user now, the longest one, or None."""
    return (
        ChatMute.objects.filter(user_id=user_id, until__gt=timezone.now())
        .order_by("-until")
        .first()
    )
