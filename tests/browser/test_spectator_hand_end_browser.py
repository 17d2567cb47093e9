"""A watcher in Chromium sees the whole hand (390×844 and 1280×800): in a bean room with its
spectator delay, the end of the hand and its settlement panel show, then the next deal —
even when the players answered 繼續 at once and the next hand was dealt straight away."""

from __future__ import annotations

import pytest

from games.models import Hand, Seat
from games.services import between, seating
from lobby import services as lobby_services
from lobby.models import Room
from tests.browser.conftest import shot
from tests.browser.test_fit_all_games import COMMON, _drive, _open, _player

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_watcher_sees_the_settlement_then_the_next_deal(servers, browser, size):
    """In a browser, a watcher sees the settlement panel and then the next deal."""
    room = Room.objects.create(
        name="觀戰場",
        game="doudizhu",
        variant="classic",
        seats=3,
        extra={"spectator_delay_turns": 1, "spectator_delay_seconds": 4},
        **COMMON,
    )
    port = servers.daphne("web")
    player = _player(f"spec-end-a-{size[0]}")
    table = lobby_services.quick_join(user=player, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    page, errors = _open(browser, port, _player(f"spec-end-b-{size[0]}"), table.pk, size)
    Seat.objects.filter(user=player).update(connections=1)  # his page is open elsewhere
    _drive("doudizhu", table.pk, player, to_end=True)
    between.seat_ready(table_id=table.pk, user=player)  # the next hand at once
    assert Hand.objects.filter(table=table).count() == 2
    page.wait_for_selector("#settlement", timeout=15000)
    assert "第 1 局" in page.inner_text("#board .board-top")
    page.wait_for_timeout(300)
    shot(page, f"spectator_settlement_{size[0]}")
    page.wait_for_selector("#settlement", state="detached", timeout=20000)
    assert "第 2 局" in page.inner_text("#board .board-top")
    shot(page, f"spectator_next_deal_{size[0]}")
    assert not errors
