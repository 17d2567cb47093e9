"""Per-game additions to a board's template context, derived from the viewer's own view only.

Each game may have a module ``games.boards.<game_id>`` with ``extras(view, seat) -> dict``; its
template is ``templates/games/boards/<game_id>.html`` (a top-level ``#board`` element).
"""

from __future__ import annotations

import importlib
from typing import Any


def board_extras(game: str, view: dict | None, seat: int | None) -> dict[str, Any]:
    """Extra context for ``games/boards/<game>.html`` (e.g. 斗地主's 提示 list)."""
    extras: dict[str, Any] = {"hints_json": "[]"}
    try:
        module = importlib.import_module(f"games.boards.{game}")
    except ModuleNotFoundError:
        return extras
    extras.update(module.extras(view, seat))
    return extras
