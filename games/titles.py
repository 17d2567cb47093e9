"""A game's title where the operator (the admin) or a player reads a game id.

Tables, hands, standings and invitations store the game's id (``doudizhu``); a page shows the
registry's title in the page's language (``games.terms.term``: 繁體 as declared, 简体
converted, English glossed), and an id no game declares as it is.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.engine import registry
from games.terms import term


def game_title(game_id: str) -> str:
    """The game's title in the active language (the id itself for an unknown game)."""
    title = dict(registry.choices()).get(game_id)
    return term(title) if title else game_id


@admin.display(description=_("遊戲"), ordering="game")
def game_column(obj) -> str:
    """An admin list column: the row's game by its title."""
    return game_title(obj.game) if obj.game else "—"


class GameFilter(admin.SimpleListFilter):
    """An admin list filter on ``game`` with the games' titles (not their ids)."""

    title = _("遊戲")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return [(game_id, game_title(game_id)) for game_id, _title in registry.choices()]

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(game=value) if value else queryset
