"""Game id → Ruleset. Rules packages register on import; :func:`get` imports them lazily.

:data:`GAME_MODULES` is the one list of games: the lobby's game choices (:func:`choices`), the
system checks (``games/checks.py``: every game imports, every table game has its board) and
the contract test over every game (``games/tests/test_contract_all_games.py``) are made from
it. A module that fails to import is reported by the checks at start-up (``leyou.E001``), not
skipped silently."""

from __future__ import annotations

import importlib
from typing import Any

from games.engine.protocol import Ruleset

# game id → module that registers it (kept explicit so a reader sees every game in one place)
GAME_MODULES: dict[str, str] = {
    "doudizhu": "games.rules.doudizhu",
    "zhajinhua": "games.rules.zhajinhua",
    "dafengshou": "games.rules.dafengshou",
    "paohuzi": "games.rules.paohuzi",
    "mahjong_huanle": "games.rules.mahjong",
    "mahjong_yongzhou": "games.rules.mahjong",
    "mahjong_yueqing": "games.rules.mahjong",
}

_REGISTRY: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    """Add a ruleset under its game_id (idempotent for the same class)."""
    existing = _REGISTRY.get(ruleset.game_id)
    if existing is not None and type(existing) is not type(ruleset):
        raise ValueError(f"game id {ruleset.game_id!r} registered twice")
    _REGISTRY[ruleset.game_id] = ruleset
    return ruleset


def get(game_id: str) -> Ruleset[Any, Any]:
    """Return the ruleset for a game id; KeyError if there is none."""
    if game_id not in _REGISTRY and game_id in GAME_MODULES:
        importlib.import_module(GAME_MODULES[game_id])
    return _REGISTRY[game_id]


def available() -> list[str]:
    """Game ids whose module imports and registers them."""
    out = []
    for game_id in GAME_MODULES:
        try:
            get(game_id)
        except (ImportError, KeyError):
            continue
        out.append(game_id)
    return out


def choices() -> list[tuple[str, str]]:
    """(game id, Chinese title) of every game that imports, in registry order.

    The lobby's ``Room.game`` choices (a callable, evaluated when used). A game whose module
    fails to import is left out here and reported by the system check ``leyou.E001``."""
    return [(game_id, get(game_id).title) for game_id in available()]
