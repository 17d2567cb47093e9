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
* Views are JSON objects made for one viewer; concealed information of others is absent.

Seats are numbered ``0 … seats-1`` in the order of play (the next seat is ``(s + 1) % seats``;
the table draws them counter-clockwise, as the seeds play 逆時針).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

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
    def legal_actions(self, state: StateT, seat: int) -> list[Action]:
        """Every legal action for the seat now (empty if it is not to act)."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: Action) -> list[Event]:
        """Validate and apply; raise IllegalAction (changing nothing) if it is not legal."""

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
