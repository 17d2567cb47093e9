"""Chat in Chromium: quick phrases, emotes and (private table) free text as bubbles at the
speaker's seat, escaped and filtered; a player mutes another for himself."""

from __future__ import annotations

import re

import pytest

from games.models import WordFilter
from lobby.models import Room
from tests.browser.conftest import register, shot

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def make_room() -> Room:
    return Room.objects.create(
        name="聊天場",
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
        bot_wait_seconds=30,
        extra={"chat_throttle_seconds": 1},
    )


def _bubble_near_seat(page, seat: int) -> None:
    """The newest bubble stands right above (or, at the top, right below) the speaker's seat
    box, overlapping it sideways."""
    box = page.locator(f"#board .seat-box[data-seat='{seat}']").bounding_box()
    bubble = page.locator(f"#chat-feed .chat-bubble[data-seat='{seat}']").last.bounding_box()
    assert box is not None and bubble is not None
    gap = min(
        abs(bubble["y"] + bubble["height"] - box["y"]),
        abs(bubble["y"] - (box["y"] + box["height"])),
    )
    assert gap < 40, (bubble, box)
    assert bubble["x"] < box["x"] + box["width"] and bubble["x"] + bubble["width"] > box["x"]


def test_phrases_emotes_and_private_text_as_bubbles_and_a_mute(servers, browser):
    """A opens a private table, B joins with the code. A's phrase shows at A's seat on both
    pages; A's text is escaped and its filtered word masked; B mutes A and sees no more."""
    make_room()
    WordFilter.objects.create(word="笨蛋")
    port = servers.daphne("web")
    base = f"http://127.0.0.1:{port}"
    a = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    register(a, base, "chat-a")
    a.click(".room-card:has-text('聊天場') >> text=開好友房")
    a.wait_for_url(re.compile(r"/games/table/\d+/"))
    code = a.inner_text(".invite-code").strip()
    b = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    register(b, base, "chat-b")
    b.fill(".join-code input[name=code]", code)
    b.click(".join-code button")
    b.wait_for_url(a.url)
    for page in (a, b):
        page.wait_for_selector("#conn.ok", state="attached", timeout=10000)
    a.wait_for_selector("#board .seat-box[data-seat='1'] .seat-name:has-text('測試玩家')")

    a.click("#chat-panel summary")
    a.click("#chat-panel .chat-phrase[data-phrase='hurry']")
    for page in (a, b):
        bubble = page.wait_for_selector("#chat-feed .chat-bubble[data-seat='0']", timeout=5000)
        assert "快點吧，我等到花兒都謝了" in bubble.inner_text()
        _bubble_near_seat(page, 0)
    shot(b, "chat-bubble-phone")

    a.wait_for_timeout(1100)
    a.click("#chat-panel summary")
    a.fill("#chat-panel input[name=text]", "<b>你好</b> 笨蛋")
    a.click("#chat-panel .chat-text-form button")
    text = b.wait_for_selector("#chat-feed .chat-bubble.chat-text", timeout=5000)
    assert text.query_selector(".chat-text").inner_text() == "<b>你好</b> ＊＊"
    assert b.locator("#chat-feed .chat-bubble b:not(.chat-name)").count() == 0
    assert a.input_value("#chat-panel input[name=text]") == ""

    # B mutes A from A's bubble (for himself: A still sees his own emote)
    b.locator("#chat-feed .chat-bubble[data-seat='0'] .chat-mute").last.click()
    b.wait_for_selector("#chat-mutes .chat-unmute", state="attached", timeout=5000)
    a.wait_for_timeout(1100)
    if not a.locator("#chat-panel[open]").count():
        a.click("#chat-panel summary")
    a.click("#chat-panel .chat-emote-btn[data-emote='flower']")
    a.wait_for_selector("#chat-feed .chat-bubble.chat-emote img[src$='flower.svg']", timeout=5000)
    b.wait_for_timeout(1500)
    assert b.locator("#chat-feed .chat-bubble.chat-emote").count() == 0
    shot(a, "chat-emote-desktop")
