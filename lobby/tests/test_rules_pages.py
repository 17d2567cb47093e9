"""A fresh install is a hall: demo check-in and tasks, a 玩法說明 page per game and 玩法 in the
three languages (linked from every lobby card and the table page), room names in the page's
language."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import CheckinReward, TaskDefinition
from games.engine import registry
from lobby import services as lobby_services
from lobby.models import Room
from tests.test_i18n_pages import TRADITIONAL

pytestmark = pytest.mark.django_db

HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LANGUAGES = ("zh-hant", "zh-hans", "en")


def _pages() -> list:
    out = []
    for game in registry.available():
        for variant in [v.id for v in registry.get(game).variants]:
            out.append(pytest.param(game, variant, id=f"{game}-{variant}"))
    return out


def _client(language: str, user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _rules_text(html: str) -> str:
    match = re.search(r'<div class="rules-body">(.*?)</div>\s*</article>', html, re.S)
    assert match, "no rules body"
    return re.sub(r"<[^>]+>", " ", match.group(1))


@pytest.mark.parametrize("game,variant", _pages())
def test_every_game_and_variant_has_a_rules_page_in_three_languages(game, variant):
    """The 繁體 page has the game's general rules and the 玩法's own section; the 简体 page
    has no Traditional-only character; the English page no Chinese at all."""
    url = reverse("lobby:rules_variant", args=[game, variant])
    texts = {}
    for language in LANGUAGES:
        response = _client(language).get(url)
        assert response.status_code == 200, (language, url)
        html = response.content.decode()
        text = _rules_text(html)
        assert len(text.split()) > 30 or len(text) > 300, (language, text[:200])
        texts[language] = text
        assert f'lang="{language}"' in html
    # (and the few Traditional characters the site's table does not convert)
    traditional = TRADITIONAL | set("誰擲裏")
    assert not (set(texts["zh-hans"]) & traditional), set(texts["zh-hans"]) & traditional
    assert not HAN.search(texts["en"]), HAN.findall(texts["en"])[:10]
    ruleset = registry.get(game)
    if len(ruleset.variants) > 1:  # each 玩法 says what is its own
        label = next(v.label for v in ruleset.variants if v.id == variant)
        head = label.split("（")[0]
        assert head in texts["zh-hant"], (head, texts["zh-hant"][-300:])
        others = [v.id for v in ruleset.variants if v.id != variant]
        for other in others:
            other_url = reverse("lobby:rules_variant", args=[game, other])
            assert other_url in _client("zh-hant").get(url).content.decode()
            assert _rules_text(_client("en").get(other_url).content.decode()) != texts["en"]


def test_a_game_page_shows_its_first_variant_and_unknowns_are_404():
    """/rules/<game>/ shows the game (its first 玩法); an unknown game or 玩法 is 404."""
    assert _client("zh-hant").get(reverse("lobby:rules", args=["doudizhu"])).status_code == 200
    for args in (["chess"], ["doudizhu", "nope"]):
        name = "lobby:rules" if len(args) == 1 else "lobby:rules_variant"
        assert _client("en").get(reverse(name, args=args)).status_code == 404


def test_demo_data_installs_the_check_in_ladder_and_daily_tasks(make_user):
    """seed_demo: a new player sees a check-in reward above 0 and today's tasks (not 「簽到領
    0 豆」 and 「今天沒有任務」); run again it changes nothing an operator set."""
    call_command("seed_demo")
    assert CheckinReward.objects.filter(beans__gt=0).exists()
    assert TaskDefinition.objects.filter(is_active=True).count() >= 3
    for task in TaskDefinition.objects.all():
        assert task.game == "" or task.game in registry.available()
    html = _client("zh-hant", make_user()).get("/").content.decode()
    assert "簽到領 0 豆" not in html and "簽到領 200 豆" in html
    assert "今天沒有任務" not in html and "任意遊戲玩 3 局" in html
    hans = _client("zh-hans", make_user()).get("/").content.decode()
    assert "任意游戏玩 3 局" in hans  # the operator's 繁體 title converted
    english = _client("en", make_user()).get("/").content.decode()
    assert "Play 3 hands of any game" in english and "任意遊戲玩" not in english
    CheckinReward.objects.filter(day=1).update(beans=555)
    TaskDefinition.objects.filter(code="play-3").update(reward=7)
    call_command("seed_demo")
    assert CheckinReward.objects.get(day=1).beans == 555
    assert TaskDefinition.objects.get(code="play-3").reward == 7


def test_lobby_cards_link_their_rules_and_name_rooms_in_the_pages_language(make_user):
    """Every lobby card links its room's 玩法說明; room names are 繁體 as stored, converted on
    简体 pages and English on English pages (the demo's English names, or made from the game
    when a room has none)."""
    call_command("seed_demo")
    Room.objects.create(name="高手場", game="doudizhu", variant="classic", seats=3)
    user = make_user()
    html = {lang: _client(lang, user).get("/").content.decode() for lang in LANGUAGES}
    for room in Room.objects.all():
        assert reverse("lobby:rules_variant", args=[room.game, room.variant]) in html["zh-hant"]

    def names(page: str) -> list[str]:
        return [unescape(n) for n in re.findall(r'<div class="room-name">([^<]*)</div>', page)]

    assert "癩子場" in names(html["zh-hant"]) and "癞子场" in names(html["zh-hans"])
    assert "雙王扯胡子" not in names(html["zh-hans"]) and "双王扯胡子" in names(html["zh-hans"])
    english = names(html["en"])
    assert "Beginners' room" in english and "Wild-card room" in english
    assert "Happy Fight the Landlord room" in english  # 高手場: made from its game
    assert not any(HAN.search(name) for name in english), english


def test_the_table_page_links_its_rules(room, make_user):
    """The table page's top bar links the rules of the table's own game and 玩法."""
    user = make_user(beans=5000)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    html = _client("zh-hant", user).get(reverse("games:table", args=[table.pk])).content.decode()
    url = reverse("lobby:rules_variant", args=[room.game, room.variant])
    assert f'id="table-rules" href="{url}"' in html


def test_the_watch_list_names_rooms_in_the_pages_language():
    """A running table's row names its room as the page's language does (the table keeps only
    the stored 繁體 name): converted on 简体 pages, in English on English ones."""
    from django.template.loader import render_to_string
    from django.utils import translation

    row = {"id": 1, "game": "doudizhu", "title": "歡樂斗地主", "room_name": "癩子場"}
    row |= {"players": ["a"], "watchers": 0}
    shown = {}
    for language in LANGUAGES:
        with translation.override(language):
            shown[language] = render_to_string("lobby/_watch_list.html", {"watchable": [row]})
    assert "癩子場" in shown["zh-hant"]
    assert "癞子场" in shown["zh-hans"]
    assert "Wild-card room" in shown["en"] and "癩子場" not in shown["en"]
