"""Nobody is stuck at a table, and between hands the player decides, in Chromium at 390×844
and 1280×800: 離開 shows (and works) at a 好友房 before its first deal, and with the settlement
panel open 繼續, 換桌 and 離開 are on screen, each what a finger hits; 繼續 deals the next
hand at once (the other seats are bots) and its start screen offers the plain 開始 first, 換桌
opens another table of the same room."""

from __future__ import annotations

import re

import pytest

from games.models import Hand, Seat
from games.services import seating
from lobby import services as lobby_services
from tests.browser.conftest import shot
from tests.browser.test_fit_all_games import _drive, _open, _player, _problems, _room

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

SIZES = [(390, 844), (1280, 800)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_private_table_before_its_first_deal_can_be_left(servers, browser, size):
    """A 好友房 before its first deal shows 離開, and pressing it stands the owner up."""
    room = _room("doudizhu")
    port = servers.daphne("web")
    owner = _player(f"exit-private-{size[0]}")
    table = lobby_services.private_create(user=owner, room_id=room.pk)
    page, errors = _open(browser, port, owner, table.pk, size)
    page.wait_for_selector("#table-exits [data-exit]", timeout=10000)
    assert _problems(page, "#table-exits [data-exit]", False) == []
    shot(page, f"exits_private_waiting_{size[0]}")
    page.click("#table-exits [data-exit]")
    page.wait_for_url(re.compile(r":\d+/(\?left=\d+)?$"), timeout=10000)
    assert not Seat.objects.filter(user=owner).exists()
    assert not errors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_settlement_offers_continue_switch_and_leave(servers, browser, size):
    """With the settlement open, 繼續, 換桌 and 離開 are all on screen and usable."""
    room = _room("doudizhu")
    port = servers.daphne("web")
    user = _player(f"exit-between-{size[0]}")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    page, errors = _open(browser, port, user, table.pk, size)
    _drive("doudizhu", table.pk, user, to_end=True)
    page.wait_for_selector("#settlement", state="attached", timeout=30000)
    page.wait_for_selector("#table-exits [data-ready]", timeout=10000)
    page.wait_for_timeout(300)
    for selector in ("[data-ready]", "[data-switch]", "[data-exit]"):
        assert _problems(page, f"#table-exits {selector}", False) == [], selector
    assert _problems(page, "#settlement h2", False) == []
    shot(page, f"exits_settlement_{size[0]}")
    page.click("#table-exits [data-ready]")  # the bots are ready: the next hand at once
    page.wait_for_selector("#settlement", state="detached", timeout=10000)
    assert Hand.objects.filter(table=table).count() == 2
    # 斗地主's start screen: the plain 開始 is the primary button, 明牌開始 says what it risks
    page.wait_for_selector("#actions [data-risk]", timeout=10000)
    plain = page.locator("#actions .btn-primary").first
    assert plain.inner_text().strip() == "開始"
    assert "×5" in page.inner_text("#actions [data-risk] .btn-risk")
    assert _problems(page, "#actions .btn", False) == []
    shot(page, f"exits_next_hand_{size[0]}")
    _drive("doudizhu", table.pk, user, to_end=True)
    page.wait_for_selector("#table-exits [data-switch]", timeout=30000)
    page.click("#table-exits [data-switch]")
    page.wait_for_url(lambda url: f"/games/table/{table.pk}/" not in url, timeout=10000)
    moved = Seat.objects.get(user=user).table
    assert moved.pk != table.pk and moved.room_id == room.pk
    assert page.url.endswith(f"/games/table/{moved.pk}/")
    page.wait_for_selector("#table-exits [data-exit]", timeout=10000)
    shot(page, f"exits_switched_{size[0]}")
    assert not errors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_returning_player_is_told_what_tuoguan_did(servers, browser, size):
    """Away while his hand was played to its end and settled: back at the table, a note says
    how many hands 托管 played and the beans they moved, and stays until closed."""
    import time

    from django.utils import timezone

    from games.models import HandSeat

    room = _room("doudizhu")
    port = servers.daphne("web")
    user = _player(f"exit-away-{size[0]}")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    Seat.objects.filter(user=user).update(connections=0, disconnected_at=timezone.now())
    _drive("doudizhu", table.pk, user, to_end=True)
    for _ in range(100):  # the settlement worker posts the beans
        if HandSeat.objects.filter(user=user).exists():
            break
        time.sleep(0.1)
    row = HandSeat.objects.get(user=user)
    page, errors = _open(browser, port, user, table.pk, size)
    page.wait_for_selector("#away-note [data-dismiss]", timeout=10000)
    text = page.inner_text("#away-note")
    assert "托管替你打了 1 局" in text and f"{row.beans:+,}" in text, text
    assert _problems(page, "#away-note [data-dismiss]", False) == []
    shot(page, f"exits_away_note_{size[0]}")
    page.click("#away-note [data-dismiss]")
    assert page.locator("#away-note").count() == 0
    assert not errors
