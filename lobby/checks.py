"""System checks of the rooms (registered in :mod:`lobby.apps`), with the games' own checks in
:mod:`games.checks`. They read the database, so they are tagged ``database``: Django runs them
in ``migrate`` (``./leyou start`` migrates first), in the test run's set-up and in
``manage.py check --database default``.

* ``leyou.E004`` — a room names a game that is not registered (or does not import);
* ``leyou.E005`` — a room's ``extra`` holds keys its game does not declare
  (``Ruleset.room_params``) or values it refuses: the table would ignore or reject them at the
  next deal, so the operator is told now.
"""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Error, Tags, register
from django.db import DatabaseError

from games.engine import registry
from games.engine.params import ParamError

# rooms are data: an operator must be able to start the admin to correct them
_MEANWHILE = "to start meanwhile: manage.py migrate --skip-checks"


@register(Tags.database)
def rooms_check(
    app_configs: Any = None, databases: Any = None, **kwargs: Any
) -> list[CheckMessage]:
    """leyou.E004 / E005: every room's game is registered and its extra keys are declared."""
    if not databases or "default" not in databases:
        return []
    from lobby.models import Room

    try:
        rooms = list(Room.objects.order_by("pk"))
    except DatabaseError:
        return []  # not migrated yet (the first migrate runs its checks before its migrations)
    games = dict(registry.choices())
    errors: list[CheckMessage] = []
    for room in rooms:
        if room.game not in games:
            errors.append(
                Error(
                    f"Room {room.pk} ({room.name}) is for game {room.game!r}, which is not "
                    "registered or does not import.",
                    hint=f"See leyou.E001, or change the room's game in the admin; {_MEANWHILE}",
                    obj=room,
                    id="leyou.E004",
                )
            )
            continue
        ruleset = registry.get(room.game)
        declared = {param.name for param in ruleset.room_params}
        unknown = sorted(set(room.extra or {}) - declared)
        if unknown:
            errors.append(
                Error(
                    f"Room {room.pk} ({room.name}): {ruleset.title} declares no parameter "
                    f"{', '.join(map(repr, unknown))}.",
                    hint=f"Declared: {', '.join(sorted(declared)) or 'none'}. Remove the key in "
                    f"the admin (其他規則參數); {_MEANWHILE}",
                    obj=room,
                    id="leyou.E005",
                )
            )
            continue
        try:
            ruleset.room_params_parse(room.extra or {})
        except ParamError as error:
            errors.append(
                Error(
                    f"Room {room.pk} ({room.name}): {error.name}: {error.message}",
                    hint=f"Correct it in the admin; {_MEANWHILE}",
                    obj=room,
                    id="leyou.E005",
                )
            )
    return errors
