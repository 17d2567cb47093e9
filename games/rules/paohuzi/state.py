"""The mutable state of one hand of 跑胡子, and its lossless JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from games.rules.paohuzi.params import Config

Meld = dict[str, Any]  # {"t": type, "c": [cards], "open": bool}


@dataclass(slots=True)
class State:
    """One hand. Cards are ints (see :mod:`cards`); hands are 21-long count lists.

    ``phase``: ``"claim"`` (a window of decisions on ``window``), ``"discard"`` (``turn`` must
    discard) or ``"over"``. ``window`` holds the card on offer, where it came from, each seat's
    options and decisions, and what happens when nobody claims (``default``).
    """

    config: Config
    seed: str
    hands: list[list[int]]
    melds: list[list[Meld]]
    wall: list[int]
    liang: int
    piles: list[list[int]] = field(default_factory=lambda: [[], [], []])
    discarded: list[list[int]] = field(default_factory=lambda: [[], [], []])
    chou: list[list[int]] = field(default_factory=lambda: [[], [], []])
    chou_hu: list[list[list[int]]] = field(default_factory=lambda: [[], [], []])
    wang_shown: list[int] = field(default_factory=lambda: [0, 0, 0])
    phase: str = "claim"
    turn: int = 0
    window: dict[str, Any] | None = None
    overridden: list[list[str]] = field(default_factory=lambda: [[], [], []])
    hu: dict[str, Any] | None = None
    huang: bool = False
    escaped: int | None = None
    moves: int = 0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["config"] = asdict(self.config)
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> State:
        values = dict(data)
        values["config"] = Config(**data["config"])
        return State(**values)
