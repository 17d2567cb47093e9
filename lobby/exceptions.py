"""Lobby errors (the table errors of games.exceptions are raised through as they are)."""

from games.exceptions import TableError


class RoomUnavailable(TableError):
    code = "room_unavailable"


class UnknownInvite(TableError):
    code = "unknown_invite"


class TooManyGuesses(TableError):
    """Too many wrong invite codes from this user or address (HTTP 429)."""

    code = "too_many_guesses"
