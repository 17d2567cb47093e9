"""Replays in Chromium, one per game: open a finished hand's replay, step, play to the end.

Each replay must draw the game's own board (tiles as tiles, 字牌 as 字牌, never "W6 ♠"), every
hand open, nicknames (never "座N"), Chinese labels, the settlement at the end and a seed check
that passes on the server and again in the browser. Screenshots: var/shots/replay-<game>.png.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from accounts.models import User
from games.models import HandEvent
from games.tests.replay_hands import GAMES, IDS, finished_hand, room_for
from tests.browser.conftest import shot
from tests.live.conftest import login_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

EFFECTS = {
    "doudizhu": {"play", "pass"},
    "zhajinhua": {"look"},  # the 三張 bot looks at once; whether anyone bets depends on the deal
    "paohuzi": {"discard"},
    "mahjong_huanle": {"discard"},
    "mahjong_yongzhou": {"discard"},
    "mahjong_yueqing": {"discard"},
}
PIECES = {
    "doudizhu": "#board svg.card",
    "zhajinhua": "#board svg.card",
    "paohuzi": "#board svg.zp",
    "mahjong_huanle": "#board svg.tile",
    "mahjong_yongzhou": "#board svg.tile",
    "mahjong_yueqing": "#board svg.tile",
}


@contextmanager
def _commits(execute: bool = True):
    """Transactional tests run on_commit callbacks at commit already."""
    yield []


def _user(n: int) -> User:
    from accounts import services
    from ledger import services as ledger

    user = services.user_register(
        username=f"replayer{n}", password="pw-123456", nickname=f"回放玩家{n}"
    )
    ledger.staff_grant(staff=None, user=user, amount=100000, reason="test", correction=True)
    return user


@pytest.mark.parametrize(("game", "variant", "seats", "extra"), GAMES, ids=IDS)
def test_a_finished_hand_replays_with_its_own_board(servers, browser, game, variant, seats, extra):
    """Step and play a finished hand's replay to its end in Chromium: the game's pieces drawn
    as such, names and Chinese labels in every caption, the settlement and the seed check."""
    room = room_for(game, variant, seats, extra)
    users = [_user(i) for i in range(seats)]
    hand = finished_hand(room, users, _commits)
    from games import replays

    steps = replays.replay_build(hand).last  # 跑胡子: a step per draw from the 墩 as well
    assert steps >= HandEvent.objects.filter(hand=hand).count()
    port = servers.daphne()
    base = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    name, value = login_cookie(users[0]).split("=", 1)
    context.add_cookies([{"name": name, "value": value, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/replay/{hand.pk}/")
    assert page.locator(PIECES[game]).count() > 0
    names = [p["name"] for p in hand.players]
    captions = []
    for n in range(1, min(4, steps) + 1):  # step by step
        page.click("[data-go=next]")
        page.wait_for_selector(f"#replay-step[data-step='{n}']", timeout=10000)
        captions.append(page.inner_text("#replay-caption"))
    shot(page, f"replay-{game}-{variant}-step{min(4, steps)}")
    page.click("[data-go=prev]")
    page.wait_for_selector(f"#replay-step[data-step='{min(4, steps) - 1}']", timeout=10000)
    # play through every remaining step, fast, recording each caption as it shows
    page.evaluate("document.getElementById('replay').dataset.speed = '40'")
    page.evaluate("""() => { window.__captions = [];
        new MutationObserver(() => { const c = document.getElementById('replay-caption');
          if (c) window.__captions.push(c.innerText); })
        .observe(document.getElementById('replay-stage'), {childList: true}); }""")
    page.click("[data-go=play]")
    page.wait_for_selector(f"#replay-step[data-step='{steps}']", timeout=120000)
    # the steps play their effects as the table does: the 胡 banner at a won mahjong / 跑胡子 hand
    played = {e["name"] for e in page.evaluate("window.__fx")}
    assert EFFECTS[game] <= played, played
    last_action = HandEvent.objects.filter(hand=hand).order_by("-seq").first().action
    if game not in ("doudizhu", "zhajinhua") and last_action.get("type") == "hu":
        assert played & {"hu", "zimo"}, played
        page.wait_for_selector(".fx-layer .fx-hu", state="attached", timeout=3000)
    captions += page.evaluate("window.__captions")
    assert len(captions) >= steps - min(4, steps) + 2
    for caption in captions:
        assert not re.search(r"座\s*\d", caption), caption
        assert re.search(r"[\u4e00-\u9fff]", caption), caption
    assert all(any(n in c for n in names) for c in captions), captions[:5]
    text = page.inner_text("#replay-stage")
    assert not re.search(r"\b([WTBFJH]\d|x\d+|d\d+)\s*[♠♥♣♦]", text)
    assert page.locator(PIECES[game]).count() > 0
    assert page.locator("#replay-stage #settlement").is_visible()
    assert page.locator("#replay-stage [ws-send]").count() == 0
    page.wait_for_selector("#deal-browser[data-ok='1']", timeout=10000)
    assert page.locator("#check-hash.ok").count() and page.locator("#check-replay.ok").count()
    # the seed is legible: dark on light, not the table's pale mint on beige
    colour = page.eval_on_selector("#seed-value", "e => getComputedStyle(e).color")
    assert colour in ("rgb(29, 29, 29)",), colour
    page.locator("#seed-check").scroll_into_view_if_needed()
    shot(
        page,
        f"replay-{game}"
        + ("" if variant in ("classic", "hunan", "dazhong", "bao5", "wuhanhua") else f"-{variant}"),
    )
    page.click("[data-go=end]")
    page.click("[data-go=start]")
    page.wait_for_selector("#replay-step[data-step='0']", timeout=10000)
    assert page.locator("#replay-stage #settlement").count() == 0
    context.close()
