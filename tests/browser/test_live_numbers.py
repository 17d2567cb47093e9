"""The numbers a player sees are live (#14 §5): the top bar's beans after a settlement, and
the lobby's word on what 離開 mid-hand cost — both without a reload."""

from __future__ import annotations

import re

import pytest

from games.models import HandSeat
from games.services import seating
from ledger.selectors import balance_for_user
from lobby import services as lobby_services
from tests.browser.test_fit_all_games import _drive, _open, _player, _room

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def _seated_at_doudizhu(servers, browser, name: str):
    """A new player seated at a 斗地主 table filled with bots, its page open at 390×844."""
    room = _room("doudizhu")
    port = servers.daphne("web")
    user = _player(name)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    page, errors = _open(browser, port, user, table.pk, (390, 844))
    return user, table, page, errors


def test_the_top_bar_follows_the_settlement_without_a_reload(servers, browser):
    """The page's #nav-beans shows the ledger's balance as soon as the settlement is posted."""
    room = _room("doudizhu")
    port = servers.daphne("web")
    user = _player("live-beans")
    start = balance_for_user(user)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    page, errors = _open(browser, port, user, table.pk, (390, 844))
    assert int(page.inner_text("#nav-beans")) == start
    _drive("doudizhu", table.pk, user, to_end=True)
    page.wait_for_selector("#settlement .rake", state="attached", timeout=15000)
    after = balance_for_user(user)
    assert after != start  # 回收 A alone moves it
    page.wait_for_function(
        f"document.querySelector('#nav-beans').textContent.trim() === '{after}'", timeout=5000
    )
    assert not errors


def test_leaving_mid_hand_says_in_the_lobby_what_it_cost(servers, browser):
    """離開 mid-hand, confirmed: the lobby names the beans the escape took, and the top bar
    shows the balance after it."""
    user, table, page, errors = _seated_at_doudizhu(servers, browser, "live-escape")
    page.wait_for_selector("#board[data-phase]:not([data-phase=''])", state="attached")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click(".hand-tools [data-leave]")
    page.wait_for_url(re.compile(r"/\?left=\d+$"), timeout=10000)
    page.wait_for_selector("#escape-cost:not([hx-get])", timeout=10000)
    row = HandSeat.objects.get(user=user)
    assert row.escaped and row.beans < 0
    text = page.inner_text("#escape-cost")
    assert f"扣了 {-row.beans:,} 歡樂豆" in text, text
    assert int(page.inner_text("#nav-beans")) == balance_for_user(user)
    assert not errors


def test_a_second_frame_after_leaving_does_not_lose_the_word_on_the_cost(servers, browser):
    """After 離開 the page goes to the lobby on the first frame that shows it seatless; a second
    frame before the lobby has loaded (a bot's move, the balance push) must not send it to "/"
    instead of "/?left=<table>" (CI saw exactly that). The two frames are dispatched here in one
    task, as they arrive when the server answers faster than the browser navigates."""
    _user, table, page, errors = _seated_at_doudizhu(servers, browser, "live-leave-twice")
    page.wait_for_selector("#board[data-seat]:not([data-seat=''])", state="attached")
    page.evaluate(
        """(table) => {
            sessionStorage.setItem("leyou-left", String(table));
            document.querySelector("#board").dataset.seat = "";
            document.dispatchEvent(new CustomEvent("htmx:wsAfterMessage"));
            document.dispatchEvent(new CustomEvent("htmx:wsAfterMessage"));
        }""",
        table.pk,
    )
    page.wait_for_url(re.compile(rf"/\?left={table.pk}$"), timeout=10000)
    assert not errors


def test_zhajinhua_top_bar_follows_the_pot_and_the_settlement(servers, browser):
    """歡樂三張 (a pot game: the ledger takes each stake as it is made): when the player puts
    chips into the pot his top bar drops by them at once — it shows his balance minus what he
    has committed — and after the settlement it shows the new balance, with no reload."""
    from games.engine import registry
    from games.services import tables
    from games.tests.helpers import current_state
    from tests.browser.test_fit_all_games import _engine_seat

    room = _room("zhajinhua")
    port = servers.daphne("web")
    user = _player("live-zjh")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    page, errors = _open(browser, port, user, table.pk, (390, 844))
    _drive("zhajinhua", table.pk, user, to_end=False)
    _, hand, state = current_state(table.pk)
    ruleset = registry.get(hand.game)
    mine = _engine_seat(hand, user)
    before = balance_for_user(user)
    # the page opened after the 底注 was taken: the bar already shows the balance without it
    page.wait_for_function(
        f"document.querySelector('#nav-beans').textContent.trim() === '{before}'", timeout=10000
    )
    bets = [a for a in ruleset.legal_actions(state, mine) if a["type"] in ("call", "raise")]
    assert bets, ruleset.legal_actions(state, mine)
    tables.move_submit(
        table_id=table.pk, user=user, action=bets[0], expected_seq=None, action_id=None
    )
    committed = balance_for_user(user)
    assert committed < before  # the chips left his account for the pot
    page.wait_for_function(
        f"document.querySelector('#nav-beans').textContent.trim() === '{committed}'",
        timeout=10000,
    )
    _drive("zhajinhua", table.pk, user, to_end=True)
    page.wait_for_selector("#settlement .rake", state="attached", timeout=30000)
    after = balance_for_user(user)
    page.wait_for_function(
        f"document.querySelector('#nav-beans').textContent.trim() === '{after}'", timeout=10000
    )
    assert not errors
