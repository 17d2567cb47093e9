"""Scripted deals for the 歡樂三張 tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine.errors import ErrorCode, IllegalAction
from games.rules.zhajinhua import RULESET, Config, State


def deal(seats: int, hands: list[str], **config: Any) -> State:
    """A hand with the given cards per seat (space-separated, e.g. "As Ah Ad")."""
    state = RULESET.new_game(Config(**config), "scripted", seats)
    assert len(hands) == seats
    cards = [h.split() for h in hands]
    flat = [c for h in cards for c in h]
    assert len(set(flat)) == len(flat), "scripted cards must be distinct"
    state.hands = cards
    return state


def dump(state: State) -> str:
    return json.dumps(RULESET.state_to_json(state), sort_keys=True)


def rejects(state: State, seat: int, action: dict[str, Any], code: ErrorCode) -> IllegalAction:
    """Assert the action raises ``code`` and changes nothing."""
    before = dump(state)
    with pytest.raises(IllegalAction) as info:
        RULESET.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert dump(state) == before
    return info.value


def play(state: State, *moves: tuple[int, dict[str, Any]]) -> list[Any]:
    events: list[Any] = []
    for seat, action in moves:
        events += RULESET.apply(state, seat, action)
    return events


CALL = {"type": "call"}
LOOK = {"type": "look"}
FOLD = {"type": "fold"}


def raise_to(level: int) -> dict[str, Any]:
    return {"type": "raise", "to": level}


def vs(target: int) -> dict[str, Any]:
    return {"type": "compare", "target": target}
