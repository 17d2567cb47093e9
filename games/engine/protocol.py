"""The rule-engine contract (DESIGN.md §2): one :class:`Ruleset` per game, over its own State.

Shape, in the manner of OpenSpiel and boardgame.io:

* ``Config`` — a frozen dataclass of the variant and room options the rules need. Built from a
  room's parameters by :meth:`Ruleset.config_from_params`, snapshotted per hand.
* ``State`` — the game's own mutable object. Engines never keep hidden global state: the whole
  game is ``new_game(config, seed, seats)`` plus the actions applied in order.
* Actions are plain JSON objects (``dict``) with a ``"type"`` key, e.g. ``{"type": "play",
  "cards": "33344"}``; that is also what the action log stores.
* :meth:`Ruleset.apply` validates fully *before* it changes anything; an illegal action raises
  :class:`games.engine.errors.IllegalAction` and the state is as it was.
* The guards every game shares are the base class's, run once in one order (a template method,
  as OpenSpiel's Python games guard ``apply_action`` and implement ``_apply_action``):
  :meth:`Ruleset.apply` refuses a malformed action, a seat outside the hand, a finished hand and
  a seat that is not to act, then calls the game's :meth:`Ruleset._apply_action`;
  :meth:`Ruleset.legal_actions` answers ``[]`` in the same cases and otherwise asks the game's
  :meth:`Ruleset._legal_actions`. A game never repeats these checks.
* Views are JSON objects made for one viewer; concealed information of others is absent.

Seats are numbered ``0 … seats-1`` in the order of play (the next seat is ``(s + 1) % seats``;
the table draws them counter-clockwise, as the seeds play 逆時針).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import Param, Variant, params_parse
from games.engine.table_type import TableType

Action = dict[str, Any]
View = dict[str, Any]
ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the table's log and animations.

    ``to`` is None for a public event, else the seats that may see it (e.g. a private draw).
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One itemised line of a settlement: a 番, 名堂, 倍數 part, 胡息 line, 台 or 花."""

    label: str  # Chinese first, e.g. "炸彈 ×2"
    value: str  # what it contributes, shown as text, e.g. "×2" or "+3番"
    seat: int | None = None  # whose line it is, None for the whole hand


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished hand in game units (積分).

    ``scores[s]`` is seat s's signed score in 積分 before any bean caps (the ledger applies
    those); they sum to zero for zero-sum games. ``winners`` lists winning seats. ``lines``
    itemise how the scores arose. ``extra`` carries game-specific numbers the settlement needs
    (e.g. 斗地主's per-seat ``X`` and role, the bombs count).
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    lines: tuple[ResultLine, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


class Ruleset(ABC, Generic[ConfigT, StateT]):
    """One game's rules. Instances are stateless; all state is in ``StateT``."""

    game_id: ClassVar[str]  # stable identifier, e.g. "doudizhu"
    title: ClassVar[str]  # Chinese name, e.g. "歡樂斗地主"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # what the live table needs to know (seating, stakes in play, escape, dealer, settlement):
    # games/engine/table_type.py; the table service and the settlement read only this
    table_type: ClassVar[TableType] = TableType()
    # the room options an operator may set (games/engine/params.py), declared by each game in
    # games/rules/<game>/params.py: its 玩法 (the first is the default) and its typed parameters
    variants: ClassVar[tuple[Variant, ...]] = ()
    # what the game calls the room's 底分 on the lobby card and the board (三張: 底注); None
    # when its scores do not use it (歡樂麻將 counts 番 only, 大豐收 has none)
    base_label: ClassVar[str | None] = "底分"
    room_params: ClassVar[tuple[Param, ...]] = ()
    # every action ``type`` the game knows; any other action is malformed (checked by ``apply``)
    action_types: ClassVar[frozenset[str]]
    # the action types a seat may send while it is not to act (三張: 看牌 and 棄牌 at any time);
    # ``apply`` lets them through to the game's own step, which checks the rest
    free_actions: ClassVar[frozenset[str]] = frozenset()
    # a room-wide round every player of the room bets into (大豐收's wheel) instead of tables
    # of seats: it has no table board ``templates/games/boards/<game_id>.jinja``
    room_wide: ClassVar[bool] = False
    # whether a finished hand's scores, and an escape's, sum to zero (OpenSpiel's ``utility``
    # of the game type: zero-sum); 大豐收 plays against the house
    zero_sum: ClassVar[bool] = True
    # written on every Hand row; bump it when a change makes a recorded hand replay differently
    engine_version: ClassVar[str] = "1"

    # -- construction -------------------------------------------------------------------------
    @abstractmethod
    def config_from_params(self, params: dict[str, Any]) -> ConfigT:
        """Build the Config from a room's parameters.

        Keys the engine does not read are ignored here (a room's params also carry the table's
        own fields); the room form refuses undeclared keys through :func:`room_params_parse`.
        An unknown ``variant`` or a value out of range raises ValueError (a ParamError names
        the parameter)."""

    @abstractmethod
    def new_game(self, config: ConfigT, seed: str, seats: int) -> StateT:
        """Deal a new hand from the seed alone (see :mod:`games.engine.chance`)."""

    def room_params_parse(self, extra: dict[str, Any]) -> dict[str, Any]:
        """A room's game-specific values, checked against :attr:`room_params` (unknown keys
        refused, defaults filled in)."""
        return params_parse(self.room_params, extra)

    # -- queries ------------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: StateT) -> frozenset[int]:
        """The seats whose decision is awaited now (empty when the hand is over)."""

    @abstractmethod
    def seat_ids(self, state: StateT) -> range:
        """The seat numbers of this hand (``range(seats)``; 大豐收 adds its house, −1)."""

    def legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """Every legal action for the seat now.

        ``[]`` for a seat outside the hand, a finished hand, or a seat that is not to act (unless
        the game has :attr:`free_actions`); otherwise the game's :meth:`_legal_actions`."""
        if not self._seat_valid(state, seat) or self.is_over(state):
            return []
        if not self.free_actions and seat not in self.to_act(state):
            return []
        return self._legal_actions(state, seat)

    @abstractmethod
    def _legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """The game's legal actions for a valid seat of an unfinished hand that is to act (or
        any valid seat, when the game has :attr:`free_actions`)."""

    def apply(self, state: StateT, seat: int, action: Action) -> list[Event]:
        """Validate and apply; raise IllegalAction (changing nothing) if it is not legal.

        The shared guards, in this order, for every game:

        1. ``malformed``: the action is not a JSON object whose ``type`` is one of
           :attr:`action_types`;
        2. ``malformed``: the seat is not an int of :meth:`seat_ids`;
        3. the hand is over, 4. the seat is not to act (and the type is not one of
           :attr:`free_actions`): the error :meth:`_refusal` names (``game_over`` /
           ``not_your_turn`` unless the game says more precisely, e.g. ``window_closed``).

        Then the game's :meth:`_apply_action` checks the rest and applies."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(
                ErrorCode.MALFORMED, "an action is a JSON object with a string 'type'"
            )
        kind: str = action["type"]
        if kind not in self.action_types:
            raise IllegalAction(ErrorCode.MALFORMED, f"unknown action type {kind!r}")
        if not self._seat_valid(state, seat):
            raise IllegalAction(ErrorCode.MALFORMED, f"no seat {seat!r}")
        if self.is_over(state) or (
            kind not in self.free_actions and seat not in self.to_act(state)
        ):
            raise self._refusal(state, seat, kind)
        return self._apply_action(state, seat, action)

    @abstractmethod
    def _apply_action(self, state: StateT, seat: int, action: Action) -> list[Event]:
        """Apply a well-formed action of a valid seat that is to act in an unfinished hand
        (the guards of :meth:`apply` have passed); raise IllegalAction, changing nothing, for
        anything else the rules refuse."""

    def _refusal(self, state: StateT, seat: int, kind: str) -> IllegalAction:
        """The error for an action of ``kind`` when the hand is over or the seat is not to act.

        Games override it to name a more precise code (and call ``super()`` for the rest)."""
        if self.is_over(state):
            return IllegalAction(ErrorCode.GAME_OVER, "the hand is over")
        return IllegalAction(ErrorCode.NOT_YOUR_TURN, f"seat {seat} is not to act now")

    def _seat_valid(self, state: StateT, seat: object) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and seat in self.seat_ids(state)

    @abstractmethod
    def view(self, state: StateT, seat: int) -> View:
        """Exactly what the seat may see now, as JSON."""

    @abstractmethod
    def spectator_view(self, state: StateT) -> View:
        """What a spectator may see (no concealed cards)."""

    @abstractmethod
    def is_over(self, state: StateT) -> bool:
        """Whether the hand has ended."""

    @abstractmethod
    def result(self, state: StateT) -> Result:
        """The finished hand's scores with an itemised breakdown."""

    # -- automation ---------------------------------------------------------------------------
    @abstractmethod
    def auto_action(self, state: StateT, seat: int) -> Action:
        """What 托管 does for the seat now (must be legal)."""

    def bot_action(self, state: StateT, seat: int) -> Action:
        """What a bot plays; by default the 托管 action."""
        return self.auto_action(state, seat)

    def bot_fallback_action(self, state: StateT, seat: int) -> Action:
        """What a bot plays when its decision ran past the clock's budget: cheap (no search)
        and legal. By default the 托管 action; a game whose bot searches offers its heuristic."""
        return self.auto_action(state, seat)

    # -- escape -------------------------------------------------------------------------------
    def escape_result(self, state: StateT, seat: int) -> Result:
        """The scores when ``seat`` escapes (逃跑) now. Games override with their penalty rule."""
        raise NotImplementedError(f"{self.game_id} has no escape rule")

    def escape_action(self, state: StateT, seat: int) -> Action | None:
        """With ``table_type.escape`` FOLD: the action the leaver's seat plays (legal off turn),
        or None when the seat is no longer in the hand (it leaves freely)."""
        raise NotImplementedError(f"{self.game_id} has no escape action")

    # -- the table's declarations (games/engine/table_type.py) --------------------------------
    def deal_minimum(self, config: ConfigT) -> int:
        """With OPEN seating: the beans a seated player needs to be dealt in (0: any)."""
        return 0

    def opening_stakes(self, state: StateT) -> list[Event]:
        """With ``stakes_in_play``: the ``stake`` events made at the deal (e.g. the 底注)."""
        return []

    def turn_seconds(self, state: StateT) -> int | None:
        """The turn clock for the seats to act now when the game fixes it (a short phase in
        which every seat decides at once); None: the room's ``turn_seconds``."""
        return None

    def action_stamp(self, state: StateT, action: Action, seconds_since_deal: float) -> Action:
        """The action with what the server's clock says filled in (the engine never reads a
        clock); by default the action unchanged."""
        return action

    # -- serialisation ------------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: StateT) -> dict[str, Any]:
        """Lossless JSON of the state."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> StateT:
        """Inverse of state_to_json."""

    # -- testing ------------------------------------------------------------------------------
    @abstractmethod
    def resample_hidden(self, state: StateT, seat: int, seed: str) -> StateT:
        """Return a copy where everything hidden from ``seat`` is re-dealt at random.

        Used by the no-leak test: ``view(state, seat)`` must equal ``view(copy, seat)``.
        """

    def all_items(self, state: StateT) -> list[str] | None:
        """Every card or tile in the game wherever it lies (hands, melds, table, wall), or None.

        The invariant kit asserts this multiset never changes during a hand (conservation).
        """
        return None
