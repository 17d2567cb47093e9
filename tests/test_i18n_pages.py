"""Every page and every game's board, in each of the three languages, with nothing untranslated.

Real PostgreSQL and the real services: for each table game a table of players (ASCII names, so
only the platform's own text is Chinese) plays part of a hand through the table service and
the clock's steps; the table page is fetched mid-hand, then the hand is played out and settled
and the table page (settlement) and the replay are fetched; plus the lobby, login, register,
profile, 大豐收's wheel, its check page and a 404 — each with the language cookie of
繁體中文, 简体中文 and English. What a player reads (text outside SVG drawings and scripts,
and the title / aria-label / placeholder / confirm texts) must be:

* English: no Chinese except game terms (``games.terms.is_term``: the glossary, 跑胡子's card
  names), each followed by its gloss in parentheses ("地主 (landlord)");
* 简体中文: no Traditional-only character (those that OpenCC changes, and a hand list);
* every language: the page says its language (``<html lang>``).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from html.parser import HTMLParser

import pytest
from django.utils import timezone

from games.engine import registry
from games.hans_table import TRAD
from games.models import Hand, Seat
from games.services import dafengshou, seating, tables
from games.terms import is_term
from games.tests.helpers import current_state
from lobby import services as lobby_services
from lobby.models import Room

pytestmark = pytest.mark.django_db

LANGUAGES = ["zh-hant", "zh-hans", "en"]
HAN_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
# Traditional-only characters a 简体中文 page must not show: every character OpenCC simplifies
# (games/hans_table.py) and common ones written by hand, should that table ever shrink
TRADITIONAL = set(TRAD) | set("們這說開關還點對錢樂遊戲機號張場結輸贏當後從來個為")
ATTRIBUTES = ("title", "aria-label", "placeholder", "data-confirm-text", "alt")

GAMES = [
    (
        "doudizhu",
        dict(
            game="doudizhu",
            variant="classic",
            seats=3,
            factor=10,
            rake=5,
            double_threshold=50,
            extra={},
        ),
    ),
    (
        "doudizhu-laizi",
        dict(
            game="doudizhu",
            variant="laizi",
            seats=3,
            factor=10,
            rake=5,
            double_threshold=50,
            extra={},
        ),
    ),
    (
        "doudizhu-menzhua",
        dict(
            game="doudizhu",
            variant="menzhua",
            seats=3,
            factor=10,
            rake=5,
            double_threshold=50,
            extra={},
        ),
    ),
    (
        "zhajinhua",
        dict(
            game="zhajinhua",
            variant="classic",
            seats=4,
            factor=1,
            rake=5,
            extra={
                "ante": 10,
                "chip_levels": [10, 20, 50],
                "unit_cap": 100,
                "round_cap": 4,
                "compare_from_round": 2,
                "escape_penalty": 50,
            },
        ),
    ),
    (
        "paohuzi-hunan",
        dict(
            game="paohuzi", variant="hunan", seats=3, factor=5, rake=5, extra={"variant": "hunan"}
        ),
    ),
    (
        "paohuzi-shuangwang",
        dict(
            game="paohuzi",
            variant="shuangwang",
            seats=3,
            factor=5,
            rake=5,
            extra={"variant": "shuangwang"},
        ),
    ),
    (
        "mahjong-huanle",
        dict(
            game="mahjong_huanle",
            variant="dazhong",
            seats=4,
            factor=2,
            rake=5,
            extra={"room_kind": "dazhong"},
        ),
    ),
    (
        "mahjong-yongzhou",
        dict(
            game="mahjong_yongzhou",
            variant="bao5",
            seats=4,
            factor=2,
            rake=5,
            extra={"bao_hu": 5, "qi_hu": 1},
        ),
    ),
    (
        "mahjong-yueqing",
        dict(game="mahjong_yueqing", variant="wuhanhua", seats=4, factor=2, rake=5, extra={}),
    ),
]


class _Reader(HTMLParser):
    """What a player reads: text and a few attributes, outside <svg>, <script>, <style> and the
    language switch (each language is named in itself there)."""

    SKIP = frozenset({"svg", "script", "style", "select"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.texts: list[str] = []
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "html":
            self.lang = dict(attrs).get("lang") or ""
        if tag in self.SKIP:
            self.depth += 1
        if self.depth:
            return
        self.texts += [value for name, value in attrs if name in ATTRIBUTES and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and data.strip():
            self.texts.append(data.strip())


def problems(html: str, language: str, *, full_page: bool = True) -> list[str]:
    """What is wrong with a page in that language (empty: nothing)."""
    reader = _Reader()
    reader.feed(html)
    found: list[str] = []
    if full_page and reader.lang != language:
        found.append(f"<html lang={reader.lang!r}>")
    for text in reader.texts:
        if language == "en":
            for m in HAN_RUN.finditer(text):
                glossed = text[m.end() :].lstrip().startswith("(")
                if not is_term(m.group(0)) or not glossed:
                    found.append(f"{m.group(0)!r} in {text!r}")
        elif language == "zh-hans":
            bad = sorted(set(text) & TRADITIONAL)
            if bad:
                found.append(f"{''.join(bad)!r} in {text!r}")
    return found


def fetch(client, url: str, language: str, status: int = 200) -> str:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def check(client, url: str, status: int = 200) -> None:
    for language in LANGUAGES:
        html = fetch(client, url, language, status)
        found = problems(html, language)
        assert not found, (url, language, found[:15])


def _steps(table_id: int, n: int) -> Hand | None:
    """Let the clock act for the seats to act, n times (or until the hand ends)."""
    for _ in range(n):
        table, hand, state = current_state(table_id)
        if hand is None:
            return None
        index = min(tables.table_seats(hand, registry.get(hand.game).to_act(state)))
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table_id, seat_index=index)
    return current_state(table_id)[1]


@pytest.fixture
def seeded(monkeypatch):
    """Deals from fixed seeds, so each run shows the same hands (and the same result lines)."""

    def use(label: str) -> None:
        counter = itertools.count()
        monkeypatch.setattr(
            tables.deal,
            "new_seed",
            lambda: hashlib.sha256(f"i18n:{label}:{next(counter)}".encode()).hexdigest(),
        )

    return use


@pytest.mark.parametrize("game_id,fields", GAMES, ids=[g[0] for g in GAMES])
def test_every_board_in_every_language(
    game_id, fields, make_user, client, seeded, django_capture_on_commit_callbacks
):
    """A mid-hand board, the settlement and the replay of each game show no untranslated text
    in any of the three languages (fixed deals; the result lines are the engines' own)."""
    seeded(game_id)
    room = Room.objects.create(
        name=f"room-{game_id}",
        base_score=1,
        min_beans=0,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=0,
        **fields,
    )
    users = [make_user(beans=5000, name=f"{game_id[:6]}{i}") for i in range(room.seats)]
    with django_capture_on_commit_callbacks(execute=True):
        table = lobby_services.quick_join(user=users[0], room_id=room.pk)
        for user in users[1:]:
            seating.seat_take(table_id=table.pk, user=user)
    Seat.objects.filter(table=table).update(auto=True, connections=1)
    client.force_login(users[0])
    url = f"/games/table/{table.pk}/"
    # a few actions in (三張's hand can end after a few folds: one action there)
    assert _steps(table.pk, 1 if room.game == "zhajinhua" else 6) is not None, "mid-hand"
    check(client, url)
    with django_capture_on_commit_callbacks(execute=True):
        _steps(table.pk, 3000)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand.result and hand.settled_at is not None
    html = fetch(client, url, "en")
    assert 'id="settlement"' in html, "the settlement is on the board"
    check(client, url)
    check(client, f"/games/replay/{hand.pk}/")
    check(client, "/accounts/profile/")


def test_every_page_in_every_language(make_user, client, room):
    """The lobby (signed out and in), login, register, profile, another player's page, the
    leaderboard, 大豐收 and its check page, and a 404 show no untranslated text in any of the
    three languages."""
    wheel = Room.objects.create(
        name="wheel",
        game="dafengshou",
        seats=1,
        base_score=1,
        factor=1,
        min_beans=0,
        extra={
            "bet_seconds": 12,
            "chips": [10, 100, 1000, 10000],
            "player_limit": 100000,
            "round_limit": 10000000,
        },
    )
    Room.objects.filter(pk=room.pk).update(name="room")
    for url in ("/", "/accounts/login/", "/accounts/register/"):
        check(client, url)
    other = make_user(beans=5000, name="otheruser")
    client.force_login(make_user(beans=5000, name="pageuser"))
    check(client, "/")
    check(client, "/accounts/profile/")
    check(client, f"/accounts/u/{other.pk}/")
    check(client, "/leaderboard/")
    check(client, f"/games/wheel/{wheel.pk}/")
    rnd = dafengshou.round_enter(room_id=wheel.pk)
    check(client, f"/games/wheel/{wheel.pk}/verify/{rnd.number}/", status=404)
    check(client, "/games/table/999999/", status=404)
