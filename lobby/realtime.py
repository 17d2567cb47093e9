"""The lobby's per-player group: what only one player's lobby sockets are told (invitations)."""

from __future__ import annotations


def user_group(user_id: int) -> str:
    """The group every lobby socket of the user joins (on every process, through the layer)."""
    return f"lobby.user.{user_id}"
