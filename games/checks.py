"""System checks of the games (registered in :mod:`games.apps`), in the manner of
``django.contrib.auth.checks``: a broken game fails loudly at start-up (``manage.py check``,
``migrate``, ``runserver``, the test run) instead of being dropped or defaulted silently.

* ``leyou.E001`` — a game of ``registry.GAME_MODULES`` does not import, or its module does not
  register a ruleset under that id;
* ``leyou.E002`` — a table game (not :attr:`~games.engine.protocol.Ruleset.room_wide`) has no
  board template ``templates/games/boards/<game_id>.jinja``;
* ``leyou.E003`` — a game's board module ``games.boards.<game_id>`` exists but fails to import
  or has no ``extras(view, seat)``.

The rooms' checks (``leyou.E004`` / ``leyou.E005``: a room's game and its extra keys) are the
lobby's, in :mod:`lobby.checks` (games never imports the lobby).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from django.core.checks import CheckMessage, Error, register

from games.engine import registry


def _games() -> tuple[dict[str, Any], list[CheckMessage]]:
    """The rulesets that import, and an E001 error for each game that does not."""
    found: dict[str, Any] = {}
    errors: list[CheckMessage] = []
    for game_id, module in registry.GAME_MODULES.items():
        try:
            importlib.import_module(module)
            found[game_id] = registry.get(game_id)
        except KeyError:
            errors.append(
                Error(
                    f"Game {game_id!r}: {module} imports but registers no ruleset under that id.",
                    hint="Call games.engine.registry.register(<Ruleset>()) in the module.",
                    obj=module,
                    id="leyou.E001",
                )
            )
        except Exception as error:  # noqa: BLE001 (any failure of a rules package is reported)
            errors.append(
                Error(
                    f"Game {game_id!r}: {module} does not import: {type(error).__name__}: {error}",
                    hint="Fix the import; until then the game is missing from the lobby.",
                    obj=module,
                    id="leyou.E001",
                )
            )
    return found, errors


@register()
def games_import_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """leyou.E001: every registered game imports and registers its ruleset."""
    return _games()[1]


@register()
def boards_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """leyou.E002 / E003: every table game has its board template; board modules import."""
    from games import board_jinja

    found, _ = _games()
    errors: list[CheckMessage] = []
    for game_id, ruleset in found.items():
        if not ruleset.room_wide:
            name = f"games/boards/{game_id}.jinja"
            if not board_jinja.board_template_exists(game_id):
                errors.append(
                    Error(
                        f"Game {game_id!r} has no board template {name}.",
                        hint="Every table game draws its board in templates/games/boards/.",
                        obj=game_id,
                        id="leyou.E002",
                    )
                )
        module = f"games.boards.{game_id}"
        if importlib.util.find_spec(module) is None:
            continue  # no extras: the board uses the default context
        try:
            board = importlib.import_module(module)
        except Exception as error:  # noqa: BLE001 (reported, not raised, not defaulted)
            errors.append(
                Error(
                    f"Board module {module} does not import: {type(error).__name__}: {error}",
                    obj=module,
                    id="leyou.E003",
                )
            )
            continue
        if not ruleset.room_wide and not callable(getattr(board, "extras", None)):
            errors.append(
                Error(
                    f"Board module {module} has no extras(view, seat).",
                    obj=module,
                    id="leyou.E003",
                )
            )
    return errors
