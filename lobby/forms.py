"""The operator's room form (場次設定): common fields plus the chosen game's own, typed.

The game's declaration (``Ruleset.variants`` and ``Ruleset.room_params``, see
games/engine/params.py) becomes a 玩法 choice with Chinese names and one typed field per
parameter, its default filled in; nothing is typed as JSON. The values are stored in
``Room.extra`` (exactly the declared keys); :meth:`Room.clean` refuses impossible combinations
on the field concerned.
"""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.engine import params as spec
from games.engine import registry
from lobby.models import Room, param_error_words

DEFAULT_GAME = next(iter(registry.GAME_MODULES))


def _field(param: spec.Param) -> forms.Field:
    common = {"label": param.label, "help_text": param.help, "initial": param.default}
    if param.kind == spec.BOOL:
        return forms.BooleanField(required=False, **common)
    if not param.required:  # blank: the default applies (the shared chat/spectator settings)
        common["required"] = False
    if param.choices is not None:
        return forms.TypedChoiceField(
            choices=[(c, f"{label}（{c}）") for c, label in param.choices],
            coerce=int if param.kind == spec.INT else str,
            **common,
        )
    if param.kind == spec.INT:
        return forms.IntegerField(min_value=param.low, max_value=param.high, **common)
    if param.kind == spec.INT_LIST:
        common["initial"] = ", ".join(str(v) for v in param.default)
        return forms.CharField(max_length=200, **common)
    return forms.CharField(max_length=100, **common)


def game_param_fields(game: str) -> dict[str, forms.Field]:
    """The typed form fields of the game's declared room parameters (empty for an unknown game)."""
    try:
        ruleset = registry.get(game)
    except KeyError:
        return {}
    own = {f.name for f in Room._meta.get_fields()}
    out = {}
    for param in ruleset.room_params:
        assert param.name not in own, f"{game} parameter {param.name} shadows a Room field"
        out[param.name] = _field(param)
    return out


class RoomFormBase(forms.ModelForm):
    """Subclassed per game by :func:`room_form_for` (the fields must exist on the class for the
    admin to lay them out)."""

    game_id: str = DEFAULT_GAME
    param_names: tuple[str, ...] = ()

    class Meta:
        model = Room
        exclude = ["extra"]

    def __init__(self, *args, **kwargs):
        asked = dict(kwargs.get("initial") or {})
        super().__init__(*args, **kwargs)
        instance = self.instance
        if instance.pk is None and "seats" not in asked:
            # a new room starts from the game's declaration, not the model's generic default
            # (which no 4-seat game accepts): a full table of the game
            try:
                self.initial["seats"] = registry.get(self.game_id).max_seats
            except KeyError:
                pass
        if instance.pk is not None and instance.game == self.game_id:
            for name in self.param_names:
                if name in (instance.extra or {}):
                    value = instance.extra[name]
                    if isinstance(value, list):
                        value = ", ".join(str(v) for v in value)
                    self.initial[name] = value

    def clean(self):
        """Each declared parameter parsed by its spec (the message on its field); the typed
        values become the room's ``extra``, which :meth:`Room.clean` then checks as a whole."""
        data = super().clean()
        ruleset = registry.get(self.game_id)
        extra = {}
        for param in ruleset.room_params:
            if param.name not in data or self.has_error(param.name):
                continue
            if data[param.name] in (None, "") and not param.required:
                continue  # left blank: the declared default applies
            try:
                extra[param.name] = param.parse(data[param.name])
            except spec.ParamError as error:
                self.add_error(param.name, param_error_words(error))
        self.instance.extra = extra
        return data


def room_form_for(game: str | None) -> type[RoomFormBase]:
    """A room form class for ``game``: its 玩法 as a choice and its parameters as fields."""
    game = game if game in dict(registry.choices()) else DEFAULT_GAME
    try:
        ruleset = registry.get(game)
    except KeyError:
        return RoomFormBase
    attrs: dict = dict(game_param_fields(game))
    if ruleset.variants:
        attrs["variant"] = forms.ChoiceField(
            label=_("玩法"),
            choices=[(v.id, f"{v.label}（{v.id}）") for v in ruleset.variants],
            initial=ruleset.variants[0].id,
            help_text=format_lazy(
                _("{game} 的玩法；改變「遊戲」後頁面會重新載入該遊戲的設定。"), game=ruleset.title
            ),
        )
    attrs["game_id"] = game
    attrs["param_names"] = tuple(p.name for p in ruleset.room_params)
    return type(f"RoomForm_{game}", (RoomFormBase,), attrs)
