"""What a player reads at a glance at a live table, in Chromium at 390×844 and 1280×800.

Seat tags stay on one line (「機器人」, never 「機器 / 人」); a chat bubble never covers an
opponent's card count; the last few chat lines stay readable after their bubbles fade; at
1280×800 the 跑胡子 / 雙王扯胡子 hand is on the first screen without scrolling; the closing 胡 /
自摸 banner never lies over the settlement's lines. Screenshots: var/shots/glance-*.png.
"""

from __future__ import annotations

import time

import pytest

from accounts.models import User
from games.engine import registry
from games.services import chat, seating, tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from tests.browser.conftest import shot
from tests.browser.test_fit_all_games import _drive, _engine_seat, _open, _player, _room

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

SIZES = [(390, 844), (1280, 800)]

# every tag's boxes: more than one line box, or a box taller than one line, is a wrap
TAGS = """() => [...document.querySelectorAll('#board .tag')].filter(t => t.offsetParent)
  .map(t => ({text: t.textContent, lines: t.getClientRects().length,
              height: t.getBoundingClientRect().height,
              font: parseFloat(getComputedStyle(t).fontSize)}))"""

COVERED = """() => {
  const out = [];
  const counts = [...document.querySelectorAll(
    '#board .count, #board .phz-count, #board .mj-count')].filter(c => c.offsetParent);
  for (const b of document.querySelectorAll('#chat-feed .chat-bubble')) {
    const r = b.getBoundingClientRect();
    for (const c of counts) {
      const k = c.getBoundingClientRect();
      if (Math.min(r.right, k.right) > Math.max(r.left, k.left)
          && Math.min(r.bottom, k.bottom) > Math.max(r.top, k.top)) out.push(c.textContent.trim());
    }
  }
  return out;
}"""


def _table(key: str, name: str):
    room = _room(key)
    room.extra = {**(room.extra or {}), "chat_throttle_seconds": 1}
    room.save(update_fields=["extra"])
    user = _player(name)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    return user, table


def _others(table_id: int, user: User) -> list[User]:
    _, hand, _state = current_state(table_id)
    return [User.objects.get(pk=p["user_id"]) for p in hand.players if p["user_id"] != user.pk]


def test_tags_stay_on_one_line_bubbles_leave_counts_clear_and_chat_stays_readable(servers, browser):
    """At a 癩子場 table on a phone and on a desktop: every seat tag is one line; each
    opponent's bubble leaves every card count readable; after five lines from three seats,
    the last lines are listed, readable, in the chat bar once the bubbles have faded."""
    port = servers.daphne("web")
    user, table = _table("doudizhu_laizi", "glance-ddz")
    _drive("doudizhu_laizi", table.pk, user, to_end=False)
    others = _others(table.pk, user)
    said = 0
    for w, h in SIZES:
        page, errors = _open(browser, port, user, table.pk, (w, h))
        page.wait_for_selector("#board .tag", timeout=10000)
        for tag in page.evaluate(TAGS):
            assert tag["lines"] == 1 and tag["height"] < tag["font"] * 2.2, (w, tag)
        time.sleep(1.1)  # the room's chat interval since the last round's lines
        for speaker in others:
            chat.chat_send(table_id=table.pk, user=speaker, phrase="hurry")
            said += 1
        page.wait_for_function(
            "n => document.querySelectorAll('#chat-feed .chat-bubble').length >= n", arg=2
        )
        page.wait_for_timeout(300)
        assert page.evaluate(COVERED) == [], f"{w}x{h}: a bubble covers a card count"
        shot(page, f"glance-ddz-bubbles-{w}")
        chat.chat_send(table_id=table.pk, user=user, phrase="hello")
        time.sleep(1.1)
        chat.chat_send(table_id=table.pk, user=others[0], phrase="stay")
        said += 2
        page.wait_for_function(
            "() => !document.querySelector('#chat-feed .chat-bubble')", timeout=12000
        )
        lines = page.locator("#chat-log li").all_inner_texts()
        assert len(lines) >= 4, lines
        assert "不要走，決戰到天亮" in lines[-1] and "大家好" in lines[-2], lines
        log = page.locator("#chat-log")
        log.scroll_into_view_if_needed()
        assert log.is_visible()
        box = log.bounding_box()
        assert box["height"] >= 3 * 14, box  # three lines or more on show
        assert page.evaluate("document.scrollingElement.scrollWidth") <= w
        shot(page, f"glance-ddz-chatlog-{w}")
        assert not errors, errors
        page.context.close()


def _drive_mid_hand(table_id: int, user: User) -> bool:
    """托管 plays every seat until deep in the hand (most of the 墩 drawn, melds down, the
    player's among them): the board at its tallest. False if the hand ended first."""
    for _ in range(3000):
        _, hand, state = current_state(table_id)
        if hand is None:
            return False
        ruleset = registry.get(hand.game)
        mine = _engine_seat(hand, user)
        melds = sum(len(m) for m in state.melds)
        if len(state.wall) <= 14 and sum(len(m) for m in state.melds[mine]) >= 1 and melds >= 4:
            return True
        acting = sorted(ruleset.to_act(state))
        if not acting:
            return False
        seat = acting[0]
        mover = User.objects.get(pk=hand.players[seat]["user_id"])
        tables.move_submit(
            table_id=table_id,
            user=mover,
            action=ruleset.auto_action(state, seat),
            expected_seq=None,
            action_id=None,
        )
    raise AssertionError("the middle of the hand was not reached")


@pytest.mark.parametrize("key", ["paohuzi", "shuangwang"])
def test_the_zipai_hand_is_on_the_first_screen_at_1280x800(servers, browser, key):
    """Deep in a hand (melds down on every side), at 1280×800 the 跑胡子 / 雙王扯胡子 player's
    whole hand and its buttons are on the first screen, without scrolling."""
    port = servers.daphne("web")
    for attempt in range(6):  # a hand may end early (a 天胡, a quick 胡): deal another table
        user, table = _table(key, f"glance-{key}-{attempt}")
        if _drive_mid_hand(table.pk, user):
            break
    else:
        raise AssertionError("no hand of six reached its middle")
    page, errors = _open(browser, port, user, table.pk, (1280, 800))
    page.wait_for_selector("#phz-hand .phz-card-btn, #phz-hand .phz-card", timeout=10000)
    page.evaluate("window.scrollTo(0, 0)")
    bottom = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll(
              '#phz-hand .phz-card-btn, #phz-hand .phz-card, #actions button')]
            .map(e => e.getBoundingClientRect().bottom))"""
    )
    shot(page, f"glance-{key}-1280")
    assert bottom <= 800, f"the hand ends at {bottom}px, below the fold of 800"
    assert not errors, errors
    page.context.close()


def _drive_bots_to_end(table_id: int) -> None:
    """Every seat (the player's too) plays the game's bot until the hand ends (a mahjong hand
    played by the bots is won far more often than one played by 托管)."""
    for _ in range(3000):
        _, hand, state = current_state(table_id)
        if hand is None:
            return
        ruleset = registry.get(hand.game)
        acting = sorted(ruleset.to_act(state))
        if not acting:
            return
        seat = acting[0]
        mover = User.objects.get(pk=hand.players[seat]["user_id"])
        tables.move_submit(
            table_id=table_id,
            user=mover,
            action=ruleset.bot_action(state, seat),
            expected_seq=None,
            action_id=None,
        )
        time.sleep(0.02)
    raise AssertionError("the hand did not end")


# samples, on every frame, whether a visible closing banner lies over a visible settlement line
WATCH = """() => {
  window.__overlaps = []; window.__banners = 0;
  const seen = new Set();
  const visible = (el) => parseFloat(getComputedStyle(el).opacity) > 0.3;
  const step = () => {
    const banner = document.querySelector('.fx-layer .fx-banner b');
    const panel = document.querySelector('#settlement');
    if (banner && !seen.has(banner)) { seen.add(banner); window.__banners += 1; }
    if (banner && panel && visible(banner.parentElement) && visible(panel)) {
      const b = banner.getBoundingClientRect();
      for (const line of panel.querySelectorAll('tr, li, p, .mj-result-title, h3')) {
        const r = line.getBoundingClientRect();
        if (r.height && Math.min(b.right, r.right) > Math.max(b.left, r.left)
            && Math.min(b.bottom, r.bottom) > Math.max(b.top, r.top)) {
          window.__overlaps.push(line.textContent.trim().slice(0, 20)); break;
        }
      }
    }
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}"""


@pytest.mark.parametrize("size", SIZES, ids=["390", "1280"])
def test_the_closing_banner_never_covers_the_settlement(servers, browser, size):
    """A 永州 hand played to its win with the page open: the 胡 / 自摸 banner plays, and while
    it shows no settlement line shows under it; then the settlement is there, whole."""
    port = servers.daphne("web")
    user, table = _table("mahjong_yongzhou", f"glance-yz-{size[0]}")
    page, errors = _open(browser, port, user, table.pk, size)
    page.evaluate(WATCH)
    _drive_bots_to_end(table.pk)
    page.wait_for_selector("#settlement", state="attached", timeout=30000)
    page.wait_for_timeout(2600)
    fx = {e["name"] for e in page.evaluate("window.__fx || []")}
    assert fx & {"hu", "zimo"}, ("the bots won the hand", fx)
    assert page.evaluate("window.__banners") >= 1
    assert page.evaluate("window.__overlaps") == [], "a banner lay over the settlement"
    opacity = page.evaluate("getComputedStyle(document.querySelector('#settlement')).opacity")
    assert float(opacity) == 1.0
    page.locator("#settlement").scroll_into_view_if_needed()
    shot(page, f"glance-yongzhou-settlement-{size[0]}")
    assert not errors, errors
    page.context.close()
