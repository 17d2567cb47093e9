"""Replays in Chromium at 390×844 and 1280×800: the viewer's language, every draw, the title.

A 雙王扯胡子 hand is opened first by a player who reads English, then by one who reads 繁體中文:
the second sees Chinese captions (not the first viewer's English), the page is titled 雙王扯胡子,
and stepping through shows every card drawn from the 墩 as its own step.
Screenshots: var/shots/replay-steps-<language>-<width>.png.
"""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from games import replays
from games.tests.replay_hands import GAMES, finished_hand, room_for
from tests.browser.conftest import shot
from tests.browser.test_replay_browser import _commits, _user
from tests.live.conftest import login_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

SIZES = [(390, 844), (1280, 800)]


def _page(browser, base: str, user, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    name, value = login_cookie(user).split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": base}])
    return context.new_page()


def test_a_replay_speaks_each_viewers_language_and_shows_every_draw(servers, browser):
    """English first, then 繁體中文, at both sizes: the 繁體 viewer's captions are Chinese, the
    title is 雙王扯胡子, and the steps include each draw from the 墩 (「從墩摸牌」 with its card),
    as many as the cards the 墩 lost."""
    spec = next(g for g in GAMES if g[:2] == ("paohuzi", "shuangwang"))
    users = [_user(i) for i in range(3)]
    draws: list[int] = []
    for _attempt in range(5):  # a hand that ends at the deal has no draw: play another
        hand = finished_hand(room_for(*spec), users, _commits)
        replay = replays.replay_build(hand)
        draws = [i + 1 for i, c in enumerate(replay.captions) if c["kind"] == "draw"]
        if draws:
            break
    assert draws, "a hand with draws from the 墩"
    User.objects.filter(pk=users[0].pk).update(language="en")
    User.objects.filter(pk=users[1].pk).update(language="zh-hant")
    replays._cache.clear()
    port = servers.daphne()
    base = f"http://127.0.0.1:{port}"
    for size in SIZES:
        for user, language in ((users[0], "en"), (users[1], "zh-hant")):
            page = _page(browser, base, user, size)
            page.goto(f"{base}/games/replay/{hand.pk}/")
            heading = page.inner_text("h1")
            assert "雙王扯胡子" in heading and "跑胡子 " not in heading.replace("雙王扯胡子", ""), (
                heading
            )
            step = draws[0]
            page.evaluate(f"document.getElementById('replay-range').value = '{step}'")
            page.dispatch_event("#replay-range", "input")
            page.wait_for_selector(f"#replay-step[data-step='{step}']", timeout=10000)
            caption = page.inner_text("#replay-caption")
            assert page.locator("#replay-caption svg.zp").count() == 1
            if language == "zh-hant":
                assert "從墩摸牌" in caption, caption
                assert not re.search(r"[A-Za-z]{4}", caption.split("：", 1)[-1]), caption
            else:
                assert "stock" in caption, caption
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size[0], width
            shot(page, f"replay-steps-{language}-{size[0]}")
            page.context.close()
