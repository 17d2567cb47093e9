"""A player in Chromium at a 6-seat 歡樂三張 table with five bots: a whole hand to the
settlement."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from accounts.models import User
from games.models import Hand
from ledger import services as ledger
from ledger.models import Account
from ledger.selectors import balance_for_user, ledger_drift
from lobby.models import Room
from tests.browser.conftest import register, shot

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def make_room() -> Room:
    return Room.objects.create(
        name="歡樂三張",
        game="zhajinhua",
        variant="classic",
        seats=6,
        base_score=1,
        factor=1,
        rake=5,
        min_beans=100,
        max_beans=None,
        turn_seconds=30,
        bot_wait_seconds=1,
        extra={
            "ante": 10,
            "chip_levels": [10, 20, 50, 100],
            "unit_cap": 200,
            "round_cap": 4,
            "compare_from_round": 2,
            "min_players": 6,
            "escape_penalty": 50,
        },
    )


def _settled(page) -> bool:
    return bool(page.locator("#settlement .beans").count()) and "結算中" not in page.inner_text(
        "#settlement"
    )


def _act_once(page, seen: dict) -> None:
    """看牌 once, then 跟注 on the first turn and 比牌 (first target) when allowed, else 棄牌."""
    if not page.locator("#actions").count():
        return
    look = page.locator("#actions button[data-type=look]")
    if look.count() and not seen.get("looked"):
        assert page.locator("#my-hand svg.card.back").count() == 3  # face down until 看牌
        look.click(timeout=2000)
        page.wait_for_selector("#my-hand[data-looked='1']", timeout=5000)
        assert page.locator("#my-hand svg.card:not(.back)").count() == 3
        seen["looked"] = True
        shot(page, "zhajinhua-looked-desktop")
        return
    picker = page.locator("#compare-picker summary")
    call = page.locator("#actions button[data-type=call]")
    if picker.count() and (seen.get("called") or not call.count()):
        picker.click(timeout=2000)
        shot(page, "zhajinhua-compare-picker-desktop")
        page.locator("#compare-picker .targets button").first.click(timeout=2000)
        seen["compared"] = True
    elif call.count():
        assert "跟注" in call.inner_text()
        call.click(timeout=2000)
        seen["called"] = True
    elif (
        page.locator("#actions button[data-type=fold]").count()
        and page.locator(".zseat .seat-box.to-act").count()
        and page.locator(".zseat.pos-0 .seat-box.to-act").count()
    ):
        page.locator("#actions button[data-type=fold]").click(timeout=2000)


def test_a_six_seat_hand_with_five_bots_to_the_settlement(servers, browser):
    """Quick-join, bots fill to six, 看牌 / 跟注 / 比牌 in the browser, the pot settled."""
    make_room()
    port = servers.daphne("web")
    servers.clock()
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    register(page, base, "zjh-browser")
    page.click(".room-card:has-text('歡樂三張') >> text=快速開始")
    page.wait_for_url(re.compile(r"/games/table/\d+/"))
    page.wait_for_selector("#board[data-phase='betting']", timeout=20000)
    page.wait_for_selector("#conn.ok", state="attached", timeout=10000)
    assert page.locator(".zseat").count() == 6
    assert page.locator(".zseat .tag:has-text('機器人')").count() == 5
    assert page.locator("#zjh-pot svg.pot-svg").count() == 1
    stakes = page.inner_text("#zjh-stakes")
    assert "單注封頂" in stakes and "手數封頂" in stakes and "當前單注" in stakes
    shot(page, "zhajinhua-start-desktop")
    seen: dict = {}
    deadline = time.time() + 150
    while time.time() < deadline and not _settled(page):
        try:
            _act_once(page, seen)
        except (PlaywrightError, AssertionError) as error:
            if (
                isinstance(error, AssertionError)
                and page.locator("#board[data-phase=betting]").count()
            ):
                raise
        page.wait_for_timeout(150)
    assert _settled(page), "the hand did not reach the settlement in the browser"
    shot(page, "zhajinhua-settlement-desktop")
    user = User.objects.get(username="zjh-browser")
    hand = Hand.objects.get()
    assert len(hand.players) == 6 and hand.settled_at is not None
    e = next(i for i, p in enumerate(hand.players) if p["user_id"] == user.pk)
    assert balance_for_user(user) == 10000 + hand.result["beans"][e]
    assert "鍋底" in page.inner_text("#settlement")
    assert Account.objects.get(code=ledger.POT).balance == 0
    assert ledger_drift() == []
