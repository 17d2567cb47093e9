"""The lobby's template filters."""

from django import template

from lobby.models import room_name_shown

register = template.Library()


@register.filter
def room_named(name: str, game: str) -> str:
    """A room's stored (繁體) name in the page's language, for a row that carries only the name
    and the game (a table's snapshot of its room): ``{{ t.room_name|room_named:t.game }}``."""
    return room_name_shown(name, game) if name else name


@register.filter
def in_script(text: str) -> str:
    """Chinese an operator typed (a task's title) in the page's script: 简体 pages convert it."""
    from games.terms import script

    return script(text) if isinstance(text, str) else text


@register.filter
def task_title(task) -> str:
    """A daily task's title in the page's language: its English title on English pages (when
    the operator gave one), 简体 converted, else as typed."""
    from django.utils import translation

    if (translation.get_language() or "").startswith("en") and task.title_en:
        return task.title_en
    return in_script(task.title)
