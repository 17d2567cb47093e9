"""Lobby errors (the table errors of games.exceptions are raised through as they are)."""

from games.exceptions import TableError


class RoomUnavailable(TableError):
    code = "room_unavailable"


class UnknownInvite(TableError):
    code = "unknown_invite"
