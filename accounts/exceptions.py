"""Account errors: each has a stable code and a message for the player; nothing was changed."""

from __future__ import annotations


class AccountError(Exception):
    code = "account_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class UnknownUser(AccountError):
    code = "unknown_user"


class FollowRefused(AccountError):
    code = "follow_refused"


class AlreadyCheckedIn(AccountError):
    code = "already_checked_in"


class TaskNotClaimable(AccountError):
    code = "task_not_claimable"
