"""Errors the ledger raises; nothing is written when one is raised."""


class LedgerError(Exception):
    """Base class: the transfer was refused and nothing changed."""

    code = "ledger_error"


class UnbalancedTransfer(LedgerError):
    code = "unbalanced"


class InsufficientBeans(LedgerError):
    """A player account would go below zero."""

    code = "too_few_beans"


class ReliefNotAvailable(LedgerError):
    code = "relief_not_available"
