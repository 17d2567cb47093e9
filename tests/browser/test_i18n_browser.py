"""A player switches to English in Chromium; the table, pushed over the socket, stays English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

from accounts.models import User
from lobby.models import Room
from tests.browser.conftest import register, shot
from tests.test_i18n_pages import problems

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def test_english_from_the_switch_to_the_table_and_back_at_login(servers, browser):
    """The switch turns the lobby English and is stored on the player; at the table the boards
    the socket pushes after each action are English (game terms glossed), the JavaScript text
    comes from the catalog; a new browser is English as soon as the player logs in."""
    Room.objects.create(
        name="room-en",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=10,
        rake=5,
        min_beans=0,
        max_beans=None,
        double_threshold=2000,
        turn_seconds=30,
        bot_wait_seconds=1,
    )
    port = servers.daphne("web")
    servers.clock()
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    register(page, base, "english1")
    assert page.inner_text("h1") == "遊戲大廳"
    page.select_option("select[name=language]", "en")
    page.wait_for_selector("html[lang=en]")
    assert page.inner_text("h1") == "Lobby"
    assert User.objects.get(username="english1").language == "en"
    page.click(".room-card >> text=Quick start")
    page.wait_for_url(re.compile(r"/games/table/\d+/"))
    page.wait_for_selector("#conn.ok", state="attached", timeout=10000)
    assert page.evaluate("t('請先選擇要出的牌')") == "Select the cards to play first"
    seqs = set()
    sendable = "#actions button[ws-send]:not([data-play])"  # a choice the server answers
    for _ in range(4):  # the boards pushed (bots act too) while we take the first choice
        try:
            page.wait_for_selector(sendable, timeout=30000)
        except PlaywrightError:
            break  # our turn to lead a play: no plain choice left
        seq = page.get_attribute("#board", "data-seq")
        seqs.add(seq)
        for part in ("header.board-top", "#actions"):
            found = problems(page.inner_html(part), "en", full_page=False)
            assert not found, (part, found)
        page.locator(sendable).first.click()
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30000
        )
    seqs.add(page.get_attribute("#board", "data-seq"))
    assert len(seqs) > 1, "boards were pushed over the socket"
    shot(page, "table-english")
    other = browser.new_page()
    other.goto(f"{base}/accounts/login/")
    assert other.inner_text("h1") == "登入"  # a new browser, not logged in: the default
    other.fill("#id_username", "english1")
    other.fill("#id_password", "a-Long-pass-2026")
    other.click("button[type=submit]")
    other.wait_for_url(f"{base}/")
    assert other.inner_text("h1") == "Lobby"
