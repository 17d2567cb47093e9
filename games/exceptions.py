"""Errors of the live table. Each has a stable code sent to the client; nothing changed."""

from __future__ import annotations


class TableError(Exception):
    code = "table_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class UnknownTable(TableError):
    code = "unknown_table"


class NotSeated(TableError):
    code = "not_seated"


class StaleSeq(TableError):
    code = "stale_seq"

    def __init__(self, message: str, *, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq  # the table's seq now: the sender resyncs to at least this


class DuplicateAction(TableError):
    code = "duplicate_action"


class NoHand(TableError):
    code = "no_hand"


class NotBetweenHands(TableError):
    """繼續 or 換桌 while a hand is in play (or before the first one)."""

    code = "not_between_hands"


class SeatUnavailable(TableError):
    code = "seat_unavailable"


class BeansOutOfRange(TableError):
    code = "beans_out_of_range"


class MalformedMessage(TableError):
    code = "malformed"


class UnknownDafengshouRoom(TableError):
    """Not an open 大豐收 room (or the room is paused)."""

    code = "unknown_room"


class NotEnoughBeans(TableError):
    """A 大豐收 bet larger than the player's beans."""

    code = "not_enough_beans"


class TooManySockets(TableError):
    """One user holds too many sockets on one table (the extra one is closed with 1008)."""

    code = "too_many_sockets"


class ReconnectTooSoon(TableError):
    """A socket opened while its user still waits after a rate close (refused with 1008)."""

    code = "reconnect_too_soon"


class BadWatchChoice(TableError):
    """允許觀戰 set to something that is neither on nor off (nothing is changed)."""

    code = "bad_watch_choice"
