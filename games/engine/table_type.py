"""What a game declares to the live table (牌桌): the record the shared machinery reads.

Like OpenSpiel's ``GameType``, a :class:`TableType` says what kind of game it is, so that the
table service, the settlement and the clock name no game: a new game sets ``table_type`` on its
ruleset and plugs in. Pure data, no Django.

* ``seating`` — :attr:`Seating.FIXED`: every seat is filled before a hand is dealt (斗地主,
  麻將, 跑胡子); :attr:`Seating.OPEN`: 2…N players who sit down between hands, a hand dealt to
  the seated players who can pay :meth:`~games.engine.protocol.Ruleset.deal_minimum`, packed in
  table order (歡樂三張), once the room's ``min_players`` (at least ``min_seats``) are seated.
* ``stakes_in_play`` — beans move during the hand: the opening stakes
  (:meth:`~games.engine.protocol.Ruleset.opening_stakes`) at the deal and every engine
  ``stake`` event as it is applied go from the player to the pot, in the move's transaction.
* ``escape`` — :attr:`Escape.END_HAND`: leaving ends the hand with the game's penalty result
  (:meth:`~games.engine.protocol.Ruleset.escape_result`); :attr:`Escape.FOLD`: the leaver's
  seat plays :meth:`~games.engine.protocol.Ruleset.escape_action` (a fold), pays the room's
  ``escape_penalty`` and the hand goes on.
* ``dealer`` — who deals the next hand when the result names no ``next_dealer``:
  :attr:`Dealer.WINNER` (the first winner) or :attr:`Dealer.KEEP` (the table keeps its
  dealer: 斗地主's landlord is bid for every hand).
* ``settlement`` — :attr:`Settlement.PAYMENTS`: the result's ``payments`` × 房間係數 N, then
  回收 A once from every player dealt in; :attr:`Settlement.POT`: the pot (every seat's
  ``extra["stakes"]``) to the winner minus A, the beans having moved during play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Seating(StrEnum):
    FIXED = "fixed"
    OPEN = "open"


class Escape(StrEnum):
    END_HAND = "end_hand"
    FOLD = "fold"


class Dealer(StrEnum):
    WINNER = "winner"
    KEEP = "keep"


class Settlement(StrEnum):
    PAYMENTS = "payments"
    POT = "pot"


@dataclass(frozen=True, slots=True)
class TableType:
    """How the live table runs a game's hands (see the module docstring)."""

    seating: Seating = Seating.FIXED
    stakes_in_play: bool = False
    escape: Escape = Escape.END_HAND
    dealer: Dealer = Dealer.WINNER
    settlement: Settlement = Settlement.PAYMENTS

    def __post_init__(self) -> None:
        if self.settlement is Settlement.POT and not self.stakes_in_play:
            raise ValueError("a pot settlement needs stakes that move during play")
