"""Typed errors raised by rule engines. An engine raises before it changes anything."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable snake_case codes, sent to clients and asserted in tests."""

    MALFORMED = "malformed"  # the action is not a well-formed action of this game
    NOT_YOUR_TURN = "not_your_turn"  # the seat is not among state.to_act
    GAME_OVER = "game_over"
    ILLEGAL = "illegal"  # well formed, but the rules forbid it now
    NOT_HELD = "not_held"  # cards or tiles the seat does not hold
    DOES_NOT_BEAT = "does_not_beat"  # a play that does not beat the one on the table
    BAD_PATTERN = "bad_pattern"  # cards that form no valid play
    MUST_PLAY = "must_play"  # passing when the seat leads
    NOT_ALLOWED = "not_allowed"  # an option this room or this seat does not have
    OVER_LIMIT = "over_limit"  # a stake or bet above a cap or the seat's means
    WINDOW_CLOSED = "window_closed"  # a claim or bet after its window
    LOWER_PRIORITY = "lower_priority"  # a claim that a higher claim overrides


class IllegalAction(Exception):
    """An action the rules refuse. The state is unchanged when this is raised.

    ``code`` and ``params`` are what the player is told: the edge words them in the player's
    language (``games.error_messages``), e.g. ``BAD_PATTERN`` with ``{"cards": "56"}``. A
    ``reason`` param names a more specific rule within the code (``{"reason": "round_cap"}``).
    ``message`` is an English detail for developers and logs; it never reaches a player.
    """

    def __init__(
        self, code: ErrorCode, message: str, params: dict[str, str | int] | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params: dict[str, str | int] = dict(params or {})
