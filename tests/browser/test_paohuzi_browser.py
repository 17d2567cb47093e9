"""A player in Chromium: register, quick-join, play a whole 跑胡子 hand (湖南 and 雙王) against
bots;
and every rendered board offers exactly the engine's legal actions."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from accounts.models import User
from games.engine import registry
from games.models import Hand
from ledger.selectors import balance_for_user, ledger_drift
from lobby.models import Room
from tests.browser.conftest import register, shot

ROOMS = {"hunan": "湖南場", "shuangwang": "雙王場"}


def make_room(variant: str, **extra) -> Room:
    spec = dict(
        name=ROOMS[variant],
        game="paohuzi",
        variant=variant,
        seats=3,
        base_score=1,
        factor=20,
        rake=10,
        min_beans=0,
        max_beans=None,
        double_threshold=2000,
        turn_seconds=30,
        bot_wait_seconds=1,
        extra={"variant": variant},
    )
    spec.update(extra)
    return Room.objects.create(**spec)


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


def _buttons(page) -> list[dict]:
    """The actions the #actions buttons would send, read from their hx-vals."""
    return page.eval_on_selector_all(
        "#actions button[ws-send]",
        "els => els.map(e => JSON.parse(e.getAttribute('hx-vals')).action)",
    )


class Player:
    """Acts whenever it is our turn: 胡 when offered; the first 吃 (with its 比) once, to prove the
    groups go through; otherwise 碰 / 過 / the forced 跑·偎·提; in the discard phase a card of the
    hand (alternately from #actions and by tapping the card in the hand)."""

    def __init__(self, page, variant: str) -> None:
        self.page = page
        self.variant = variant
        self.seen: set[str] = set()
        self.discards = 0

    def act_once(self) -> None:
        page = self.page
        if not page.locator("#actions button[ws-send]").count():
            return
        phase = page.get_attribute("#board", "data-phase")
        if phase == "discard" and "checked" not in self.seen:
            self.check_buttons_match_the_view()
        hu = page.locator("#actions button[data-action=hu]")
        chi = page.locator("#actions button[data-action=chi]")
        if hu.count():
            self.seen.add("hu")
            hu.first.click(timeout=2000)
        elif chi.count() and "chi" not in self.seen:
            self.seen.add("chi")
            if chi.first.locator("i", has_text="比").count():
                self.seen.add("bi")
            shot(page, f"paohuzi-{self.variant}-chi-phone")
            chi.first.click(timeout=2000)
        elif page.locator("#actions button[data-action=peng]").count() and "peng" not in self.seen:
            self.seen.add("peng")
            page.locator("#actions button[data-action=peng]").first.click(timeout=2000)
        elif page.locator("#actions button[data-action=pass]").count():
            self.seen.add("pass")
            page.locator("#actions button[data-action=pass]").first.click(timeout=2000)
        elif page.locator("#actions button[data-action=discard]").count():
            self.discards += 1
            self.seen.add("discard")
            in_hand = page.locator("#phz-hand button.phz-card-btn")
            if self.discards % 2 == 0 and in_hand.count():
                card = in_hand.last
                card.click(timeout=2000)  # the first tap only raises the card
                assert "phz-armed" in (card.get_attribute("class") or "")
                self.seen.add("armed")
                card.click(timeout=2000)  # the second one discards it
            else:
                page.locator("#actions button[data-action=discard]").last.click(timeout=2000)
        else:  # the forced 跑 / 偎 / 提 offered beside a hu that was not taken
            page.locator("#actions button[ws-send]").first.click(timeout=2000)
        page.wait_for_timeout(150)

    def check_buttons_match_the_view(self) -> None:
        """In the discard phase (nobody else can change it) the buttons are the legal actions."""
        seat = int(self.page.get_attribute("#board", "data-seat"))
        hand = Hand.objects.order_by("-id").first()
        ruleset = registry.get("paohuzi")
        view = ruleset.view(ruleset.state_from_json(hand.state), seat)
        if view["phase"] != "discard" or seat not in view["to_act"]:
            return
        assert {_key(a) for a in _buttons(self.page)} == {_key(a) for a in view["legal_actions"]}
        self.seen.add("checked")


COLUMN_KEYS = """() => Array.from(document.querySelectorAll('#phz-hand > .phz-col')).map(
    c => c.className.split(' ').find(k => k.startsWith('phz-col-')) + ':' +
         c.querySelector('[data-card]').dataset.card)"""


def drag_a_column_to_the_end(page) -> None:
    """The player rearranges his hand: the first column dragged past the last one stays there,
    also after the board is rendered again, and when a push renders the hand again mid-drag
    (retried when a real push changed the hand itself)."""
    for attempt in range(4):
        try:
            _drag_once(page)
            _drag_once(page, rendered_midway=True)
            return
        except AssertionError:
            if attempt == 3:
                raise
            page.wait_for_timeout(500)


RENDER_HAND_AGAIN = """() => { const h = document.getElementById('phz-hand');
    h.replaceChildren(...Array.from(h.children).map(c => c.cloneNode(true))); }"""


def _drag_once(page, *, rendered_midway: bool = False) -> None:
    before = page.evaluate(COLUMN_KEYS)
    first = page.locator("#phz-hand > .phz-col").first.bounding_box()
    last = page.locator("#phz-hand > .phz-col").last.bounding_box()
    # pressed near the column's foot: a claim bar may cover the top of the hand on a phone
    x, y = first["x"] + first["width"] / 2, first["y"] + first["height"] - 12
    hit = page.evaluate(
        "([x, y]) => { const e = document.elementFromPoint(x, y); return !e ? 'nothing' : "
        "e.closest('#phz-hand > .phz-col') ? 'column' : e.outerHTML.slice(0, 160); }",
        [x, y],
    )
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y + 2, steps=3)
    if rendered_midway:  # as a push does: the same columns, new elements
        page.evaluate(RENDER_HAND_AGAIN)
    # dropped on the right half of the last column (a full hand fills a phone's width)
    page.mouse.move(last["x"] + last["width"] * 0.8, y, steps=6)
    page.mouse.up()
    after = page.evaluate(COLUMN_KEYS)
    assert after == before[1:] + before[:1], f"pressed on {hit}: {before} -> {after}"
    page.evaluate(
        "() => { const h = document.getElementById('phz-hand'); "
        "const cols = Array.from(h.children); cols.reverse().forEach(c => h.appendChild(c)); "
        "window.phzBoard.apply(); }"
    )
    assert page.evaluate(COLUMN_KEYS) == after


def play_until_settled(page, variant: str, *, max_seconds: float = 240) -> Player:
    player = Player(page, variant)
    deadline = time.time() + max_seconds
    while time.time() < deadline:
        if page.locator("#settlement .beans").count() and "結算中" not in page.inner_text(
            "#settlement"
        ):
            return player
        try:
            player.act_once()
        except (IndexError, PlaywrightError):
            pass  # the board was swapped under us by a push: look again
        page.wait_for_timeout(120)
    raise AssertionError("the hand did not reach the settlement in the browser")


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.slow
@pytest.mark.parametrize("variant", ["hunan", "shuangwang"])
def test_a_whole_paohuzi_hand_against_two_bots(servers, browser, variant):
    """Register, 快速開始, play a whole hand of the variant against two bots to the settlement."""
    name = ROOMS[variant]
    make_room(variant)
    port = servers.daphne("web")
    servers.clock()
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    register(page, base, f"phz-{variant}")
    page.click(f".room-card:has-text('{name}') >> text=快速開始")
    page.wait_for_url(re.compile(r"/games/table/\d+/"))
    page.wait_for_selector("#board[data-phase]:not([data-phase=''])", timeout=20000)
    page.wait_for_selector("#conn.ok", state="attached", timeout=10000)
    # the table: our SVG 字牌 in columns, two opponents, the 墩 count and the 亮張
    assert page.locator("#board.board-paohuzi .phz-opp").count() == 2
    assert page.locator("#phz-hand .phz-col svg.zp").count() >= 8
    assert int(page.inner_text("#phz-wall-count")) >= 0
    assert page.locator(".phz-liang svg.zp").count() == 1
    assert ("雙王扯胡子" if variant == "shuangwang" else "湖南跑胡子") in page.inner_text(
        ".phz-top"
    )
    assert page.locator("head link#phz-css").count() == 1  # the stylesheet outlives the swaps
    shot(page, f"paohuzi-{variant}-start-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, f"paohuzi-{variant}-start-desktop")
    page.set_viewport_size({"width": 390, "height": 844})

    drag_a_column_to_the_end(page)
    player = play_until_settled(page, variant)
    shot(page, f"paohuzi-{variant}-settlement-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, f"paohuzi-{variant}-settlement-desktop")
    hand = Hand.objects.get()
    assert hand.params["variant"] == variant and hand.settled_at is not None
    assert player.seen & {"discard", "pass", "hu", "chi", "peng"}
    settlement = page.inner_text("#settlement")
    assert "歡樂豆" in settlement
    if hand.result["winners"]:
        assert "胡息" in settlement and "番" in settlement
    else:
        assert "荒莊" in settlement
    user = User.objects.get(username=f"phz-{variant}")
    mine = next(i for i, p in enumerate(hand.players) if p["user_id"] == user.pk)
    shown_beans = page.inner_text(
        f"#settlement .settle-seats tbody tr:nth-child({mine + 1}) .beans"
    )
    assert int(shown_beans.replace(",", "").replace("+", "")) == hand.result["beans"][mine]
    page.goto(f"{base}/accounts/profile/")
    assert (
        int(page.inner_text("#profile-beans"))
        == balance_for_user(user)
        == (10000 + hand.result["beans"][mine])
    )
    assert ledger_drift() == []


def _snapshot(ruleset, state, viewer: int) -> dict:
    over = ruleset.is_over(state)
    result = None
    if over:
        res = ruleset.result(state)
        result = {
            "scores": list(res.scores),
            "winners": list(res.winners),
            "extra": res.extra,
            "lines": [{"label": ln.label, "value": ln.value, "seat": ln.seat} for ln in res.lines],
        }
    return {
        "table": {
            "id": 1,
            "game": "paohuzi",
            "seq": 3,
            "status": "playing",
            "params": {"room_name": "湖南場", "base_score": 1},
            "is_private": False,
            "invite_code": "",
            "owner_id": None,
            "next_hand_at": None,
            "fill_deadline": None,
        },
        "seats": [
            {
                "index": i,
                "user_id": i + 1,
                "name": f"玩家{i}",
                "avatar": i,
                "is_bot": i != viewer,
                "auto": False,
                "online": True,
                "deadline": None,
            }
            for i in range(3)
        ],
        "hand": {
            "id": 9,
            "number": 1,
            "status": "playing",
            "seed_hash": "x" * 16,
            "seed": None,
            "state": ruleset.state_to_json(state),
            "result": result,
            "settled": False,
        },
    }


@pytest.mark.parametrize("variant", ["hunan", "shuangwang"])
def test_every_board_has_buttons_for_exactly_the_legal_actions(variant):
    """Bot playouts rendered for every seat at every step: the #actions buttons send exactly the
    view's legal actions (a discard once per card kind), each 吃 shows its 比 groups, the hand is
    all there in columns, and the over board carries the itemised settlement."""
    from games import caches
    from games.rendering import render_html

    ruleset = registry.get("paohuzi")
    vals = re.compile(r'hx-vals="([^"]*)"')
    for n in range(3):
        config = ruleset.config_from_params({"variant": variant, "dealer": n})
        state = ruleset.new_game(config, f"phz-board-{variant}-{n}", 3)
        for _ in range(400):
            for viewer in range(3):
                caches.clear_all()
                html = render_html(_snapshot(ruleset, state, viewer), viewer, None)
                view = ruleset.view(state, viewer)
                actions = html.split('id="actions"', 1)[1].split('id="phz-hand"', 1)[0]
                sent = [
                    json.loads(v.replace("&quot;", '"'))["action"] for v in vals.findall(actions)
                ]
                assert {_key(a) for a in sent} == {_key(a) for a in view["legal_actions"]}
                assert len(sent) == len({_key(a) for a in sent})
                for a in view["legal_actions"]:
                    if a["type"] == "chi":
                        assert html.count(">比</i>") >= len(a["groups"]) - 1
                hand_html = html.split('id="phz-hand"', 1)[1].split('class="hand-tools"', 1)[0]
                assert hand_html.count('<svg class="zp') == len(view["hand"])
                if ruleset.is_over(state):
                    assert 'id="settlement"' in html and "結算中" in html
                    if view["result"]["winners"]:
                        assert "phz-line-group" in html and "息" in html
            caches.clear_all()
            watcher = render_html(_snapshot(ruleset, state, 0), None, None)  # a spectator
            assert 'id="board"' in watcher and 'id="actions"' not in watcher
            if ruleset.is_over(state):
                break
            seat = min(ruleset.to_act(state))
            ruleset.apply(state, seat, ruleset.bot_action(state, seat))
        assert ruleset.is_over(state)
