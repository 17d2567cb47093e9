"""Per-game additions to a board's template context, derived from the viewer's own view only.

Each game may have a module ``games.boards.<game_id>`` with ``extras(view, seat) -> dict``; its
template is ``templates/games/boards/<game_id>.jinja`` (a top-level ``#board`` element). A
board module that fails to import raises (and fails the system check ``leyou.E003`` at
start-up) instead of falling back to the default context.
"""

from __future__ import annotations

import importlib
from typing import Any


def board_extras(game: str, view: dict | None, seat: int | None) -> dict[str, Any]:
    """Extra context for ``games/boards/<game>.jinja`` (e.g. 斗地主's 提示 list)."""
    extras: dict[str, Any] = {"hints_json": "[]"}
    name = f"games.boards.{game}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise  # the board module exists but something it imports does not: say so
        return extras  # this game has no board module: the default context
    extras.update(module.extras(view, seat))
    return extras
