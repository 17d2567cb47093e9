"""The operator's admin speaks the operator's language and names games by their titles.

The room form's refusals are worded in the admin's language on their own fields (never a
constraint's name, an engine's English reason or a field's key); a new room starts from the
game's declaration (樂清 seats 4); a daily task's game is one of the registry's; the models'
names and the game columns are the admin's words, not English class names or game ids.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import TaskDefinition
from lobby.models import Room
from lobby.tests.test_room_form import _defaults, _form, _staff

pytestmark = pytest.mark.django_db

# what must never reach an operator: English words of an engine or a constraint, field keys
RAW = re.compile(r"must be|at least|constraint|約束條件|room_bean_range|room_turn_seconds|__all__")


def _language(client: Client, code: str) -> None:
    client.cookies["django_language"] = code


def _bad_zhajinhua() -> dict:
    own = _defaults("zhajinhua")
    data = _form("zhajinhua", 9, "classic", own)
    data.update(
        name="",
        base_score=0,
        factor=-3,
        rake=-1,
        min_beans=5000,
        max_beans=100,
        turn_seconds=0,
        bot_wait_seconds=-5,
    )
    return data


@pytest.mark.parametrize(
    "language,words",
    [
        ("zh-hant", ["底分至少為 1", "出牌秒數至少為 3 秒", "最多歡樂豆 100 低於最少歡樂豆 5000"]),
        ("zh-hans", ["底分至少为 1", "出牌秒数至少为 3 秒", "最多欢乐豆 100 低于最少欢乐豆 5000"]),
        (
            "en",
            [
                "The base must be at least 1",
                "The turn clock must be at least 3 seconds",
                "Most beans 100 is below the fewest beans 5000",
            ],
        ),
    ],
)
def test_room_refusals_are_in_the_admins_language_on_their_fields(make_user, language, words):
    """A 三張 room with every common setting wrong: each refusal on its field, in the admin's
    language; no constraint name, English engine reason or field key; nothing saved."""
    client = _staff(make_user)
    _language(client, language)
    response = client.post(reverse("admin:lobby_room_add") + "?game=zhajinhua", _bad_zhajinhua())
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert {"base_score", "turn_seconds", "max_beans", "seats"} <= set(form.errors)
    assert "__all__" not in form.errors, form.errors
    shown = " ".join(" ".join(v) for v in form.errors.values())
    for line in words:
        assert line in shown, (line, shown)
    if language != "en":
        assert not RAW.search(shown), shown
    else:
        assert "constraint" not in shown and "ante" not in shown, shown
    preview = client.post(
        reverse("admin:lobby_room_preview") + "?game=zhajinhua", _bad_zhajinhua()
    ).content.decode()
    for key in ("__all__", "base_score", "bot_wait_seconds"):
        assert key not in preview
    assert not Room.objects.exists()


def test_a_new_room_starts_from_the_games_declaration(make_user):
    """樂清 deals 4 seats: its new-room form offers 4 (the model's generic 3 was refused on
    saving); 斗地主 3; the 玩法 is the game's first."""
    client = _staff(make_user)
    yq = client.get(reverse("admin:lobby_room_add") + "?game=mahjong_yueqing")
    form = yq.context["adminform"].form
    assert form.initial["seats"] == 4
    assert 'name="seats" value="4"' in yq.content.decode()
    ddz = client.get(reverse("admin:lobby_room_add") + "?game=doudizhu").context["adminform"].form
    assert ddz.initial["seats"] == 3
    data = _form("mahjong_yueqing", 4, "wuhanhua", _defaults("mahjong_yueqing"), name="樂清新場")
    response = client.post(reverse("admin:lobby_room_add") + "?game=mahjong_yueqing", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Room.objects.get(name="樂清新場").seats == 4


def test_a_daily_tasks_game_is_a_choice_of_the_registry(make_user):
    """ "xyz" is refused (on the game field, nothing saved); a game of the registry or none is
    taken; the task list shows the game's title, not its id."""
    client = _staff(make_user)
    url = reverse("admin:accounts_taskdefinition_add")
    data = {
        "code": "play3",
        "title": "玩三局",
        "game": "xyz",
        "kind": "play",
        "line_label": "",
        "target": 3,
        "reward": 100,
        "is_active": "on",
        "order": 0,
    }
    refused = client.post(url, data)
    assert refused.status_code == 200
    assert "game" in refused.context["adminform"].form.errors
    assert not TaskDefinition.objects.exists()
    page = client.get(url).content.decode()
    assert '<option value="doudizhu">歡樂斗地主</option>' in page
    assert client.post(url, {**data, "game": "doudizhu"}).status_code == 302
    listing = client.get(reverse("admin:accounts_taskdefinition_changelist")).content.decode()
    assert "歡樂斗地主" in listing
    assert ">doudizhu<" not in listing


def test_admin_model_names_are_translated_and_games_titled(make_user, room):
    """The admin index names the ledger's and the login guard's models in the admin's
    language (no "Postings", "Transfers", "Access attempts"); the tables list titles games."""
    from lobby import services as lobby_services

    client = _staff(make_user)
    index = client.get(reverse("admin:index")).content.decode()
    for english in ("Postings", "Transfers", "Accounts", "Access attempts", "Access logs"):
        assert f">{english}<" not in index, english
    for chinese in ("分錄", "轉帳", "帳戶", "登入嘗試"):
        assert chinese in index, chinese
    lobby_services.quick_join(user=make_user(beans=5000), room_id=room.pk)
    tables = client.get(reverse("admin:games_table_changelist")).content.decode()
    assert "歡樂斗地主" in tables and ">doudizhu<" not in tables
    _language(client, "en")
    index = client.get(reverse("admin:index")).content.decode()
    assert "Transfers" in index and "Postings" in index and "Login attempts" in index


@pytest.mark.parametrize(
    "language,words", [("zh-hant", "須為整數"), ("en", "Must be a whole number")]
)
def test_a_games_parameter_refusal_is_in_the_admins_language(make_user, language, words):
    """A 三張 chip list that is not numbers: refused on its field in the admin's language (the
    game's engine names no language: it gives a reason and values)."""
    client = _staff(make_user)
    _language(client, language)
    data = _form("zhajinhua", 6, "classic", _defaults("zhajinhua"), chip_levels="a, b")
    response = client.post(reverse("admin:lobby_room_add") + "?game=zhajinhua", data)
    errors = response.context["adminform"].form.errors
    assert words in " ".join(errors["chip_levels"]), errors
    assert not Room.objects.exists()
