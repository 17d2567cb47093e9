"""Loud start-up: the system checks leyou.E001–E005 and the end of the silent fallbacks.

Each check is shown to pass on the project as it is and to fail, with its id, on the broken
case it exists for: a game that does not import or does not register, a table game without a
board template, a board module that does not import, a room of an unknown game, a room with an
extra key its game does not declare. Also: a broken 麻將 variant fails its package instead of
dropping the game, a board module's own missing import is raised instead of defaulted, the
lobby's game choices are the registry's, and every hand records its engine version.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from typing import Any

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games import checks
from games.boards import board_extras
from games.engine import registry
from games.rules.doudizhu.ruleset import DoudizhuRuleset
from lobby import checks as lobby_checks
from lobby.models import Room


def _ids(messages: list[Any]) -> list[str]:
    return [m.id for m in messages]


def test_the_project_as_it_is_passes_every_check() -> None:
    """No leyou.* message on the registered games, boards and their templates."""
    messages = run_checks(include_deployment_checks=False)
    assert [m for m in messages if (m.id or "").startswith("leyou.")] == []


def test_a_game_that_does_not_import_is_e001(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module of the registry that raises on import is reported, with its error."""
    monkeypatch.setitem(registry.GAME_MODULES, "broken", "games.tests.no_such_rules_module")
    errors = checks.games_import_check()
    assert _ids(errors) == ["leyou.E001"]
    assert "no_such_rules_module" in errors[0].msg
    assert "broken" not in dict(registry.choices())  # the lobby offers only games that work


def test_a_module_that_registers_no_ruleset_is_e001(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module that imports but registers nothing under the game id is reported too."""
    monkeypatch.setitem(registry.GAME_MODULES, "ghost", "games.engine.cards")
    errors = checks.games_import_check()
    assert _ids(errors) == ["leyou.E001"] and "registers no ruleset" in errors[0].msg


class _NoBoard(DoudizhuRuleset):
    game_id = "noboard"


def test_a_table_game_without_its_board_template_is_e002(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered table game with no templates/games/boards/<id>.jinja is reported."""
    monkeypatch.setitem(registry.GAME_MODULES, "noboard", "games.rules.doudizhu")
    monkeypatch.setitem(registry._REGISTRY, "noboard", _NoBoard())
    errors = checks.boards_check()
    assert _ids(errors) == ["leyou.E002"] and "games/boards/noboard.jinja" in errors[0].msg


class _BrokenBoardLoader(importlib.abc.Loader):
    """Provides the module games.boards.noboard, which fails on a missing dependency."""

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        raise ModuleNotFoundError("No module named 'missing_dependency'", name="missing_dependency")


class _BrokenBoardFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname == "games.boards.noboard":
            return importlib.machinery.ModuleSpec(fullname, _BrokenBoardLoader())
        return None


@pytest.fixture
def broken_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "meta_path", [_BrokenBoardFinder(), *sys.meta_path])
    monkeypatch.delitem(sys.modules, "games.boards.noboard", raising=False)


def test_a_board_module_that_does_not_import_is_e003_and_raises(
    monkeypatch: pytest.MonkeyPatch, broken_board: None
) -> None:
    """The board module exists but its own import fails: E003 at start-up, and rendering
    raises instead of silently drawing the board with the default context."""
    monkeypatch.setitem(registry.GAME_MODULES, "noboard", "games.rules.doudizhu")
    monkeypatch.setitem(registry._REGISTRY, "noboard", _NoBoard())
    assert "leyou.E003" in _ids(checks.boards_check())
    with pytest.raises(ModuleNotFoundError, match="missing_dependency"):
        board_extras("noboard", None, None)
    assert board_extras("no_board_module_at_all", None, None) == {"hints_json": "[]"}


def test_a_broken_mahjong_variant_fails_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """永州 failing to import makes games.rules.mahjong fail (E001 for its games) instead of
    the package carrying on without 永州麻將."""
    from games.rules import mahjong
    from games.rules.mahjong import variants

    monkeypatch.setitem(sys.modules, "games.rules.mahjong.variants.yongzhou", None)
    monkeypatch.delattr(variants, "yongzhou")
    try:
        with pytest.raises(ImportError):
            importlib.reload(mahjong)
    finally:
        monkeypatch.undo()
        importlib.reload(mahjong)
    assert "mahjong_yongzhou" in registry.available()


@pytest.mark.django_db
def test_rooms_of_unknown_games_or_undeclared_keys_are_e004_e005() -> None:
    """Rooms written past the admin form (a shell, a fixture) are reported at start-up: an
    unknown game (E004), an extra key the game does not declare or a refused value (E005)."""
    Room.objects.create(
        name="好", game="zhajinhua", variant="classic", seats=6, extra={"unit_cap": 40}
    )
    bad_game = Room.objects.create(name="無此遊戲", game="poker", seats=4)
    bad_key = Room.objects.create(
        name="多餘參數", game="doudizhu", seats=3, extra={"laizi_facter": 2}
    )
    bad_value = Room.objects.create(
        name="壞值", game="zhajinhua", seats=6, extra={"unit_cap": "many"}
    )
    errors = lobby_checks.rooms_check(databases=["default"])
    assert [(e.id, e.obj.pk) for e in errors] == [
        ("leyou.E004", bad_game.pk),
        ("leyou.E005", bad_key.pk),
        ("leyou.E005", bad_value.pk),
    ]
    assert "laizi_facter" in errors[1].msg
    assert lobby_checks.rooms_check(databases=None) == []  # only with the database tag
    with pytest.raises(SystemCheckError, match="leyou.E005"):
        call_command("check", "--database", "default")


def test_the_lobby_game_choices_are_the_registry() -> None:
    """Room.game offers exactly the registry's games, titled by their rulesets."""
    field = Room._meta.get_field("game")
    assert list(field.choices) == [(g, registry.get(g).title) for g in registry.GAME_MODULES]


@pytest.mark.django_db
def test_every_hand_records_its_engine_version(
    room: Room, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Hand row carries the ruleset's engine_version when the hand is dealt."""
    from games.models import Hand
    from lobby import services as lobby_services

    monkeypatch.setattr(type(registry.get("doudizhu")), "engine_version", "test-7")
    for _ in range(3):
        table = lobby_services.quick_join(user=make_user(beans=5000), room_id=room.pk)
    hand = Hand.objects.get(table=table)
    assert hand.engine_version == "test-7"
