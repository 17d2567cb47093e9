"""A watcher in Chromium: 觀戰 from the lobby, the late spectator view, watching turned off."""

from __future__ import annotations

import re

import pytest

from lobby.models import Room
from tests.browser.conftest import register, shot

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def make_room() -> Room:
    return Room.objects.create(
        name="觀戰場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=50,
        rake=10,
        min_beans=0,
        max_beans=None,
        double_threshold=2000,
        turn_seconds=30,
        bot_wait_seconds=1,
    )


def test_watch_a_running_table_from_the_lobby_until_a_player_turns_watching_off(servers, browser):
    """B watches A's running public table from the lobby's 觀戰 link: no hand of his own, no
    concealed card, the delay named, A sees "觀戰 1 人"; A turns 允許觀戰 off: B's socket is
    closed with the reason, the page then refuses him and the lobby no longer lists it."""
    make_room()
    port = servers.daphne("web")
    servers.clock()
    base = f"http://127.0.0.1:{port}"
    player = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    register(player, base, "spectate-a")
    player.click(".room-card:has-text('觀戰場') >> text=快速開始")
    player.wait_for_url(re.compile(r"/games/table/\d+/"))
    player.wait_for_selector("#board[data-phase]:not([data-phase=''])", timeout=20000)
    table_url = player.url

    watcher = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    register(watcher, base, "spectate-b")
    link = watcher.locator("#watch-list .watch-table:has-text('觀戰場') .watch-link")
    link.click()
    watcher.wait_for_url(table_url)
    watcher.wait_for_selector("#board", timeout=10000)
    watcher.wait_for_selector("#conn.ok", state="attached", timeout=10000)
    assert watcher.locator("#my-hand").count() == 0  # no hand of his own
    assert watcher.locator("#board .card.selectable").count() == 0
    assert watcher.locator("#board .seat-box").count() == 3  # every seat, seat 0 included
    assert "觀戰畫面延遲 1 手或 15 秒" in watcher.inner_text("#chat-bar")
    # every face-up card the watcher has is a played, shown (明牌) or open 底牌 one
    loose = watcher.locator("#board .card[data-rank]").evaluate_all(
        "els => els.filter(e => !e.closest('.played, .shown, .dipai')).length"
    )
    assert loose == 0
    player.wait_for_function(
        "document.querySelector('#watchers').dataset.count === '1'", timeout=10000
    )
    assert "觀戰 1 人" in player.inner_text("#watchers")
    shot(watcher, "spectator-phone")

    player.click("#chat-panel summary")
    player.click("#watch-toggle button[data-allow='1']")
    player.wait_for_selector("#watch-toggle button[data-allow='0']", timeout=5000)
    watcher.wait_for_selector("#conn.down", timeout=10000)
    assert "這桌有玩家不允許觀戰" in watcher.inner_text("#conn")
    response = watcher.goto(table_url)
    assert response is not None and response.status == 403
    assert "這桌有玩家不允許觀戰" in watcher.inner_text("#watch-refused")
    watcher.goto(f"{base}/")
    assert watcher.locator("#watch-list .watch-table:has-text('觀戰場')").count() == 0
