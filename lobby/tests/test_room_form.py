"""The operator's room form (issues 13 §2 and 18): every room setting, typed per game in the
admin, is what the next hand uses — its params, its engine config, the board's header, the
settlement and the lobby card — and impossible combinations are refused on their field."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import rendering
from games.engine import registry
from games.models import Hand, Seat, Table
from games.selectors import tables as game_selectors
from games.services import settlement, tables
from lobby import services
from lobby.models import Room

pytestmark = pytest.mark.django_db

# every common field away from its model default (seats only where the game allows a choice)
COMMON = {
    "base_score": 2,
    "factor": 7,
    "rake": 3,
    "min_beans": 50,
    "max_beans": 900000,
    "double_threshold": 1234,
    "turn_seconds": 17,
    "bot_wait_seconds": 2,
    "sort_order": 4,
}

# the chat and spectator settings every table game shares (games.engine.params.TABLE_PARAMS)
TABLE = {
    "chat_throttle_seconds": 5,
    "spectator_chat_hidden": True,
    "spectator_delay_turns": 2,
    "spectator_delay_seconds": 20,
    "between_hands_seconds": 20,
    "idle_hands_limit": 4,
    "hand_cap": 800,
}

# game → (seats, 玩法, every declared parameter at a non-default value, the board's header)
GAMES = {
    "doudizhu": (
        3,
        "laizi",
        {**TABLE, "score_cap": 5000, "counter_price": 3, "bot_level": "novice"},
        "底分 <b>2</b>",
    ),
    "zhajinhua": (
        5,
        "classic",
        {
            **TABLE,
            "chip_levels": [2, 4, 8, 16],
            "unit_cap": 40,
            "round_cap": 6,
            "compare_from_round": 3,
            "min_players": 3,
            "escape_penalty": 9,
            "target_players": 5,
            "bot_level": "novice",
        },
        "底注 <b>2</b>",
    ),
    "paohuzi": (
        3,
        "hunan",
        {
            **TABLE,
            "min_huxi": 12,
            "fan_hong": 3,
            "fan_dian": 4,
            "fan_hongwu": 5,
            "fan_wu": 6,
            "fan_duidui": 5,
            "fan_dazi": 7,
            "fan_xiaozi": 9,
            "fan_haidi_ping": 2,
            "fan_haidi_ming": 3,
            "cap": 250,
            "jiadi": True,
            "fangpao": True,
            "bot_level": "novice",
        },
        "底分 <b>2</b>",
    ),
    "mahjong_huanle": (
        4,
        "bafan",
        {**TABLE, "min_fans": 6, "wucaishen_fans": 3, "escape_fans": 10, "bot_level": "novice"},
        None,
    ),
    "mahjong_yongzhou": (
        4,
        "bao3",
        {**TABLE, "qi_hu": 1, "multi_win": False, "lou_hu": False, "bot_level": "novice"},
        "底分 <b>2</b>",
    ),
    "mahjong_yueqing": (
        4,
        "wuhanhua",
        {**TABLE, "qi_hu_tai": 2, "escape_multiple": 12, "bot_level": "novice"},
        "底分 <b>2</b>",
    ),
}


def _staff(make_user):
    staff = make_user()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


def _post_value(value):
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def _form(game: str, seats: int, variant: str, own: dict, **changes) -> dict:
    data = {
        "name": "運營場",
        "game": game,
        "variant": variant,
        "seats": seats,
        "is_open": "on",
        **COMMON,
    }
    data.update({name: _post_value(value) for name, value in own.items()})
    data = {k: v for k, v in data.items() if v != ""}  # an unchecked box is simply absent
    data.update(changes)
    return data


def _defaults(game: str) -> dict:
    return {p.name: p.default for p in registry.get(game).room_params}


def _admin_add(client, data) -> Room:
    response = client.post(reverse("admin:lobby_room_add") + f"?game={data['game']}", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Room.objects.get(name=data["name"])


def _play_out(table_id: int) -> Hand:
    """Let the clock (托管) play every due seat until the hand ends."""
    for _ in range(3000):
        table = Table.objects.get(pk=table_id)
        hand = table.hands.order_by("-number").first()
        if hand.status != Hand.Status.PLAYING:
            return hand
        ruleset = registry.get(hand.game)
        index = min(ruleset.to_act(ruleset.state_from_json(hand.state)))
        table_seat = hand.players[index]["table_seat"]
        Seat.objects.filter(table=table, index=table_seat).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table_id, seat_index=table_seat)
    raise AssertionError("hand did not finish")


def _config_value(config, name):
    if isinstance(config, dict):
        return config.get(name, KeyError)
    return getattr(config, name, KeyError)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_room_setting_reaches_the_hand_the_board_the_settlement_and_the_lobby(
    game, make_user
):
    """For each game, every setting entered in the admin room form is saved typed on the room,
    shown on the lobby card, copied into the hand's params and read by the engine's config."""
    seats, variant, own, header = GAMES[game]
    client = _staff(make_user)
    room = _admin_add(client, _form(game, seats, variant, own))
    assert room.variant == variant and room.seats == seats
    assert room.extra == own  # exactly the declared keys, typed
    for name, value in COMMON.items():
        assert getattr(room, name) == value

    # the lobby card shows what the table will use
    lobby = Client().get(reverse("lobby:rooms")).content.decode()
    assert f"係數 {COMMON['factor']}" in lobby and f"回收 {COMMON['rake']}" in lobby
    assert ("新手機器人" in lobby) == (own.get("bot_level") == "novice")
    assert f"入場 {COMMON['min_beans']}–{COMMON['max_beans']}" in lobby
    label = registry.get(game).base_label
    if label is None:  # 歡樂麻將 counts 番 only: no 底分 is shown that the table would not use
        assert "底分" not in lobby
    else:
        assert f"{label} {COMMON['base_score']}" in lobby

    players = [make_user(beans=20000) for _ in range(seats if game != "zhajinhua" else 3)]
    for user in players:
        table = services.quick_join(user=user, room_id=room.pk)
    hand = Hand.objects.get(table=table)
    for name, value in {**COMMON, **own, "variant": variant}.items():
        if name != "sort_order":  # the lobby's order, not the table's
            assert hand.params[name] == value, name
    ruleset = registry.get(game)
    config = ruleset.state_from_json(hand.state).config
    base_field = {"zhajinhua": "ante", "doudizhu": "base_score"}.get(game, "base")
    if header is not None:
        assert _config_value(config, base_field) == COMMON["base_score"]
    for name, value in own.items():
        engine = _config_value(config, name)
        if engine is not KeyError:  # a table-level option (記牌器 price, 開局人數 …) has none
            assert engine == (tuple(value) if isinstance(value, list) else value), name
    if game == "doudizhu":
        assert config.variant == "laizi" and config.double_threshold == 1234
    if game == "mahjong_yongzhou":
        assert config["bao_hu"] == 3  # the 玩法 is the 爆胡 cap
    if game == "mahjong_huanle":
        assert config["room_kind"] == "bafan"

    # the board's header shows the room's 底分 / 底注, and the turn clock is the room's
    snapshot = game_selectors.table_snapshot(table.pk)
    html = rendering.render_html(snapshot, 0, players[0])
    if header is None:
        assert 'class="mj-base"' not in html
    else:
        assert header in html
    deadlines = [s.deadline for s in Seat.objects.filter(table=table) if s.deadline]
    assert deadlines

    Seat.objects.filter(table=table).update(auto=True, connections=1)
    hand = _play_out(table.pk)
    assert settlement.hand_settle(hand.pk) is True
    hand.refresh_from_db()
    if game != "zhajinhua":
        assert hand.result["factor"] == COMMON["factor"]
        assert hand.result["rake_each"] == COMMON["rake"]
    else:
        # 三張: every dealt seat put the room's 底注 into the pot; the pot paid the room's 回收
        from ledger.models import Posting

        antes = Posting.objects.filter(
            transfer__idempotency_key=f"pot:{hand.pk}:ante", amount__lt=0
        )
        assert sorted(-p.amount for p in antes) == [COMMON["base_score"]] * len(hand.players)
        assert hand.result["extra"]["rake_total"] == COMMON["rake"]
    assert LogEntry.objects.filter(object_id=str(room.pk)).exists()


# -- refused combinations, each on its field ---------------------------------------------------
REFUSED = [
    (
        "mahjong_yongzhou",
        4,
        "bao3",
        {"qi_hu": 5, "multi_win": True, "lou_hu": True},
        {},
        "qi_hu",
        "5",
    ),
    (
        "mahjong_yueqing",
        4,
        "wuhanhua",
        {"qi_hu_tai": 99, "escape_multiple": 10},
        {},
        "qi_hu_tai",
        "30",
    ),
    (
        "zhajinhua",
        6,
        "classic",
        {
            "chip_levels": [10, 20],
            "unit_cap": 100,
            "round_cap": 5,
            "compare_from_round": 2,
            "min_players": 2,
            "escape_penalty": 0,
        },
        {"base_score": 50, "max_beans": 40, "min_beans": 0},
        "max_beans",
        "入場所需的 50 豆",
    ),
    (
        "zhajinhua",
        3,
        "classic",
        {
            "chip_levels": [1, 2],
            "unit_cap": 20,
            "round_cap": 5,
            "compare_from_round": 2,
            "min_players": 4,
            "escape_penalty": 0,
        },
        {},
        "min_players",
        "開局人數 4 多於座位數 3",
    ),
    (
        "zhajinhua",
        6,
        "classic",
        {
            "chip_levels": [1, 2],
            "unit_cap": 3,
            "round_cap": 5,
            "compare_from_round": 2,
            "min_players": 2,
            "escape_penalty": 0,
        },
        {},
        "unit_cap",
        "2 × 底注 = 4",
    ),
    (
        "zhajinhua",
        6,
        "classic",
        {
            "chip_levels": "5, x",
            "unit_cap": 30,
            "round_cap": 5,
            "compare_from_round": 2,
            "min_players": 2,
            "escape_penalty": 0,
        },
        {},
        "chip_levels",
        "須為整數",
    ),
    (
        "zhajinhua",
        6,
        "classic",
        {
            "chip_levels": [5, 2],
            "unit_cap": 30,
            "round_cap": 5,
            "compare_from_round": 2,
            "min_players": 2,
            "escape_penalty": 0,
        },
        {},
        "chip_levels",
        "由小到大",
    ),
    (
        "doudizhu",
        3,
        "nonsense",
        {"score_cap": 1, "counter_price": 0, "bot_level": "normal"},
        {},
        "variant",
        "nonsense",
    ),
    (
        "doudizhu",
        4,
        "classic",
        {"score_cap": 1, "counter_price": 0, "bot_level": "normal"},
        {},
        "seats",
        "需要 3 個座位",
    ),
    (
        "mahjong_huanle",
        4,
        "classic",
        {"min_fans": 8, "wucaishen_fans": 2, "escape_fans": 8},
        {},
        "variant",
        "classic",
    ),
]


@pytest.mark.parametrize("game,seats,variant,own,changes,field,words", REFUSED)
def test_an_impossible_combination_is_refused_on_its_field(
    game, seats, variant, own, changes, field, words, make_user
):
    """An impossible combination of room settings is refused by the admin form with the error
    on the offending field, and no room is saved."""
    client = _staff(make_user)
    response = client.post(
        reverse("admin:lobby_room_add") + f"?game={game}",
        _form(game, seats, variant, own, **changes),
    )
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert field in form.errors, form.errors
    assert words in " ".join(form.errors[field]), form.errors[field]
    assert not Room.objects.exists()  # nothing saved


def test_the_form_offers_the_games_variants_and_typed_fields_with_defaults(make_user):
    """The admin room form offers the chosen game's variants and its own typed fields with the
    rule defaults (跑胡子 起胡胡息 15, 大豐收 odds), never a raw JSON field."""
    client = _staff(make_user)
    page = client.get(reverse("admin:lobby_room_add") + "?game=paohuzi")
    form = page.context["adminform"].form
    assert [c for c, _ in form.fields["variant"].choices] == ["hunan", "shuangwang"]
    assert "雙王扯胡子" in dict(form.fields["variant"].choices)["shuangwang"]
    assert form.fields["min_huxi"].initial == 15 and form.fields["min_huxi"].label == "起胡胡息"
    assert "extra" not in form.fields  # nothing is typed as JSON
    html = page.content.decode()
    assert 'name="fan_xiaozi"' in html and 'value="8"' in html
    other = (
        client.get(reverse("admin:lobby_room_add") + "?game=dafengshou").context["adminform"].form
    )
    assert other.fields["odds"].initial == "5, 10, 15, 20, 20, 30, 40, 100"
    assert "min_huxi" not in other.fields


def test_unknown_keys_are_refused_by_the_model():
    """Room.full_clean refuses an extra key no game declares, naming it."""
    from django.core.exceptions import ValidationError

    room = Room(name="x", game="doudizhu", variant="classic", seats=3, extra={"nonsense": 1})
    with pytest.raises(ValidationError) as caught:
        room.full_clean()
    assert "nonsense" in str(caught.value)


@pytest.mark.parametrize(
    "game",
    [
        "zhajinhua",
        "mahjong_huanle",
        "mahjong_yueqing",
        "dafengshou",
        "mahjong_yongzhou",
        "doudizhu",
        "paohuzi",
    ],
)
def test_config_from_params_refuses_an_unknown_variant(game):
    """Every game's config_from_params refuses an unknown variant with a ParamError naming the
    'variant' field."""
    from games.engine.params import ParamError

    with pytest.raises(ParamError) as caught:
        registry.get(game).config_from_params({"variant": "nonsense"})
    assert caught.value.name == "variant"


def test_yueqing_refuses_qi_hu_tai_99():
    """樂清麻將 refuses an impossible 起胡台數 (99) with a ParamError naming qi_hu_tai."""
    from games.engine.params import ParamError

    with pytest.raises(ParamError) as caught:
        registry.get("mahjong_yueqing").config_from_params({"qi_hu_tai": 99})
    assert caught.value.name == "qi_hu_tai"


# -- the preview, the operator actions, the history ---------------------------------------------
def test_the_preview_shows_entry_range_rake_and_an_example_settlement(make_user):
    """The admin preview shows the entry range, the rake, an example settlement (底分, 倍數,
    積分 × N − A) and the wheel's RTP; a bad setting is named; non-staff are sent to login."""
    client = _staff(make_user)
    data = _form(
        "doudizhu", 3, "classic", {"score_cap": 10000, "counter_price": 0, "bot_level": "normal"}
    )
    preview = reverse("admin:lobby_room_preview")
    html = client.post(preview + "?game=doudizhu", data).content.decode()
    assert "入場範圍：50 – 900000 豆" in html
    assert "每位玩家 3 豆" in html
    # an example settlement: the hand's own lines (底分 2, 倍數) and each seat's 積分 × N − A
    assert "底分：2" in html and "倍數：×" in html
    assert "積分 × 7 − 3 =" in html
    wheel = client.post(
        reverse("admin:lobby_room_preview") + "?game=dafengshou",
        _form("dafengshou", 1, "classic", _defaults("dafengshou")),
    ).content.decode()
    assert "設定返獎率（RTP）：0.9" in wheel
    refused = client.post(
        reverse("admin:lobby_room_preview") + "?game=mahjong_yueqing",
        _form("mahjong_yueqing", 4, "wuhanhua", {"qi_hu_tai": 99, "escape_multiple": 10}),
    )
    # named by the field's label as the form shows it, never by its key
    assert "起胡台數" in refused.content.decode()
    assert "qi_hu_tai" not in refused.content.decode()
    outsider = Client()
    outsider.force_login(make_user())
    assert outsider.post(reverse("admin:lobby_room_preview"), data).status_code == 302  # login


def test_open_close_copy_and_the_history_of_changes(room, make_user):
    """The admin actions open, close and copy rooms (a copy starts closed), and a change is
    logged in the history with each field's label, old and new value."""
    client = _staff(make_user)
    other = Room.objects.create(name="二號", game="doudizhu", variant="classic", seats=3)
    url = reverse("admin:lobby_room_changelist")
    ids = [str(room.pk), str(other.pk)]
    client.post(url, {"action": "rooms_close", "_selected_action": ids})
    assert not Room.objects.filter(pk__in=ids, is_open=True).exists()
    client.post(url, {"action": "rooms_open", "_selected_action": ids})
    assert Room.objects.filter(pk__in=ids, is_open=True).count() == 2
    client.post(url, {"action": "rooms_copy", "_selected_action": [str(room.pk)]})
    copy = Room.objects.get(name="測試場（複本）")
    assert (copy.factor, copy.rake, copy.is_open) == (room.factor, room.rake, False)

    data = _form(
        "doudizhu",
        3,
        "menzhua",
        {"score_cap": 10000, "counter_price": 5, "bot_level": "normal"},
        name=room.name,
        factor=30,
    )
    response = client.post(reverse("admin:lobby_room_change", args=[room.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = LogEntry.objects.filter(object_id=str(room.pk)).order_by("-action_time").first()
    message = entry.get_change_message()
    assert "房間係數 N：10 → 30" in message
    assert "記牌器價格（豆）：0 → 5" in message and "玩法：classic → menzhua" in message
    history = client.get(reverse("admin:lobby_room_history", args=[room.pk])).content.decode()
    assert "房間係數 N：10 → 30" in history and "關閉場次" in history


def test_every_demo_room_is_one_the_form_accepts():
    """The demo rooms use only declared 玩法 and parameters (三張's 底注 is its 底分 10)."""
    from lobby.management.commands.seed_demo import DEMO_ROOMS
    from lobby.models import room_errors

    for spec in DEMO_ROOMS:
        room = Room(**spec)
        assert room_errors(room) == {}, spec["name"]
    zhajinhua = next(s for s in DEMO_ROOMS if s["game"] == "zhajinhua")
    config = registry.get("zhajinhua").config_from_params(Room(**zhajinhua).params())
    assert config.ante == zhajinhua["base_score"] == 10


def test_the_migration_gives_old_rooms_a_declared_variant():
    """Old free-text 玩法 become the game's own; keys the 玩法 now decides leave ``extra``."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("lobby.migrations.0002_room_variant_declared")
    huanle = Room.objects.create(
        name="舊8番",
        game="mahjong_huanle",
        variant="classic",
        seats=4,
        extra={"room_kind": "bafan", "min_fans": 8},
    )
    yongzhou = Room.objects.create(
        name="舊永州",
        game="mahjong_yongzhou",
        variant="standard",
        seats=4,
        extra={"bao_hu": 3, "qi_hu": 1},
    )
    yueqing = Room.objects.create(name="舊樂清", game="mahjong_yueqing", variant="classic", seats=4)
    migration.forwards(apps, None)
    for room in (huanle, yongzhou, yueqing):
        room.refresh_from_db()
    assert (huanle.variant, huanle.extra) == ("bafan", {"min_fans": 8})
    assert (yongzhou.variant, yongzhou.extra) == ("bao3", {"qi_hu": 1})
    assert yueqing.variant == "wuhanhua"


@pytest.mark.parametrize(
    ("language", "words"),
    [("zh-hant", "新手機器人"), ("zh-hans", "新手机器人"), ("en", "Beginner bots")],
)
def test_a_novice_room_says_so_on_its_lobby_card(language, words):
    """A player sees before sitting down that a room's bots are the weaker 新手場 ones (機器人強度
    novice), in the page's language; a room at the default (標準) says nothing of its bots."""
    novice = Room.objects.create(
        name="新手麻將",
        game="mahjong_yueqing",
        variant="wuhanhua",
        seats=4,
        extra={"bot_level": "novice"},
    )
    normal = Room.objects.create(
        name="標準麻將", game="mahjong_yueqing", variant="wuhanhua", seats=4
    )
    client = Client()
    client.cookies["django_language"] = language
    page = client.get(reverse("lobby:rooms")).content.decode()

    def card(room: Room) -> str:
        start = page.index(f'data-room="{room.pk}"')
        end = page.find('class="room-card', start)
        return page[start : end if end > 0 else len(page)]

    assert words in card(novice)
    assert words not in card(normal)
