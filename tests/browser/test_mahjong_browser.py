"""A player in Chromium: register, quick-join, play a whole mahjong hand (歡樂, 永州, 樂清) against
three bots."""

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

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def make_room(**extra) -> Room:
    spec = dict(
        name="大眾場",
        game="mahjong_huanle",
        variant="dazhong",
        seats=4,
        base_score=1,
        factor=50,
        rake=10,
        min_beans=0,
        max_beans=None,
        double_threshold=2000,
        turn_seconds=30,
        bot_wait_seconds=1,
        extra={"room_kind": "dazhong"},
    )
    spec.update(extra)
    return Room.objects.create(**spec)


def _buttons(page) -> list[dict]:
    """The actions the #actions buttons would send, read from their hx-vals."""
    return page.eval_on_selector_all(
        "#actions button[ws-send]",
        "els => els.map(e => JSON.parse(e.getAttribute('hx-vals')).action)",
    )


def _legal_now(seat: int) -> tuple[str, list[dict]]:
    hand = Hand.objects.order_by("-id").first()
    ruleset = registry.get(hand.game)
    state = ruleset.state_from_json(hand.state)
    view = ruleset.view(state, seat)
    return view["phase"], view["legal_actions"]


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


class Player:
    """Acts whenever it is our turn: 胡 when offered, 過 on other claims, else discards the
    drawn tile (or the last tile of the hand)."""

    def __init__(self, page) -> None:
        self.page = page
        self.checked_turn = False
        self.seen = set()

    def act_once(self) -> None:
        page = self.page
        if not page.locator("#actions button[ws-send]").count():
            return
        phase = page.get_attribute("#board", "data-phase")
        if "mid-shot" not in self.seen and page.locator(".mj-river svg.tile").count() >= 16:
            self.seen.add("mid-shot")
            shot(page, "mahjong-midhand-phone")
        if phase == "turn" and not self.checked_turn:
            self.check_buttons_match_the_view()
        hu = page.locator("#actions button[data-action=hu]")
        if hu.count():
            self.seen.add("hu")
            hu.first.click(timeout=2000)
        elif page.locator("#actions button[data-action=pass]").count():
            self.seen.add("claim")
            if "claim-shot" not in self.seen:
                self.seen.add("claim-shot")
                shot(page, "mahjong-claim-phone")
            page.locator("#actions button[data-action=pass]").first.click(timeout=2000)
        else:
            drawn = page.locator("#my-hand button[data-drawn]")
            tile = drawn if drawn.count() else page.locator("#my-hand button.mj-t").last
            self.seen.add("discard")
            if page.locator("#my-hand .mj-t.ting").count():
                self.seen.add("tenpai")
            tile.click(timeout=2000)
        page.wait_for_timeout(150)

    def check_buttons_match_the_view(self) -> None:
        """On our turn (nobody else can change it) the buttons are exactly the legal actions."""
        seat = int(self.page.get_attribute("#board", "data-seat"))
        shown = {_key(a) for a in _buttons(self.page)}
        phase, legal = _legal_now(seat)
        if phase != "turn":
            return
        assert shown == {_key(a) for a in legal}
        self.checked_turn = True


def play_until_settled(page, *, max_seconds: float = 240) -> Player:
    player = Player(page)
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


def test_a_whole_huanle_mahjong_hand_with_three_bots(servers, browser):
    """Register, 快速開始, play a whole 歡樂麻將 hand against three bots, beans match the ledger."""
    make_room()
    port = servers.daphne("web")
    servers.clock()
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    register(page, base, "mahjong1")
    page.click(".room-card:has-text('大眾場') >> text=快速開始")
    page.wait_for_url(re.compile(r"/games/table/\d+/"))
    page.wait_for_selector("#board[data-phase]:not([data-phase=''])", timeout=20000)
    page.wait_for_selector("#conn.ok", state="attached", timeout=10000)
    # the table: four seats, SVG tiles of our own, the 財神 marked, the wall count
    assert page.locator("#board.board-mahjong .mj-seat").count() == 4
    assert page.locator("#my-hand svg.tile").count() >= 13
    assert page.locator(".mj-marks .mark-wild svg.tile.wild").count() == 1
    assert int(page.inner_text("#wall-count")) > 0
    assert page.locator("svg.tile-defs symbol").count() > 5  # the tiles are drawn by us
    assert page.locator("head link#mj-css").count() == 1  # the stylesheet outlives the swaps
    shot(page, "mahjong-start-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, "mahjong-start-desktop")
    page.set_viewport_size({"width": 390, "height": 844})

    player = play_until_settled(page)
    shot(page, "mahjong-settlement-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, "mahjong-settlement-desktop")
    assert player.checked_turn or "discard" not in player.seen
    settlement = page.inner_text("#settlement")
    assert "歡樂豆" in settlement
    hand = Hand.objects.get()
    assert hand.settled_at is not None
    if hand.result["winners"]:
        # the dealer is marked 莊 on the players' lines (a 莊家 item only when he won or paid)
        assert "莊" in settlement and "合計" in settlement
    else:
        assert "流局" in settlement
    user = User.objects.get(username="mahjong1")
    mine = next(i for i, p in enumerate(hand.players) if p["user_id"] == user.pk)
    shown_beans = page.inner_text(
        f"#settlement .settle-seats tbody tr:nth-child({mine + 1}) .beans"
    )
    assert int(shown_beans.replace(",", "").replace("+", "")) == hand.result["beans"][mine]
    page.goto(f"{base}/accounts/profile/")
    shown = int(page.inner_text("#profile-beans"))
    assert shown == balance_for_user(user) == 10000 + hand.result["beans"][mine]
    assert ledger_drift() == []


def _snapshot(game: str, ruleset, state, viewer: int) -> dict:
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
            "game": game,
            "seq": 3,
            "status": "playing",
            "params": {"room_name": "大眾場", "base_score": 1},
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
            for i in range(4)
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


def test_every_board_has_buttons_for_exactly_the_legal_actions():
    """Bot playouts, rendered for every seat at every step: the #actions buttons send exactly
    the view's legal actions (a discard once per tile kind, however many copies are held)."""
    from games import caches
    from games.rendering import render_html

    game = "mahjong_huanle"
    ruleset = registry.get(game)
    vals = re.compile(r'hx-vals="([^"]*)"')
    for n in range(3):
        state = ruleset.new_game(ruleset.config_from_params({"dealer": n}), f"board-{n}", 4)
        for _ in range(300):
            for viewer in range(4):
                caches.clear_all()
                html = render_html(_snapshot(game, ruleset, state, viewer), viewer, None)
                actions = html.split('id="actions"', 1)[1].split('class="hand-tools"', 1)[0]
                sent = {
                    json.dumps(json.loads(v.replace("&quot;", '"'))["action"], sort_keys=True)
                    for v in vals.findall(actions)
                }
                legal = {
                    json.dumps(a, sort_keys=True)
                    for a in ruleset.view(state, viewer)["legal_actions"]
                }
                assert sent == legal
                if ruleset.is_over(state):  # the settlement shows before the beans arrive
                    assert 'id="settlement"' in html and "結算中" in html
            if ruleset.is_over(state):
                break
            seat = min(ruleset.to_act(state))
            ruleset.apply(state, seat, ruleset.bot_action(state, seat))
        assert ruleset.is_over(state)


def _view_now(seat: int) -> dict:
    hand = Hand.objects.order_by("-id").first()
    ruleset = registry.get(hand.game)
    return ruleset.view(ruleset.state_from_json(hand.state), seat)


def _text(page, selector: str) -> str:
    """The element's text without the layout's whitespace."""
    return "".join(page.inner_text(selector).split())


def _check_yongzhou_marks(page, seat: int) -> None:
    """爆胡 table, 起和 server kind and 風圈 are marked as the engine's view says."""
    v = _view_now(seat)["variant"]
    assert _text(page, ".mj-marks .mark-cap") == f"爆胡{v['bao_hu']}番"
    assert _text(page, ".mj-marks .mark-qihu") == f"起和{v['qi_hu_name']}"
    assert _text(page, ".mj-top .mj-wind") == f"圈風{v['prevalent_wind_name']}"


def _check_yueqing_marks(page, seat: int) -> None:
    """財神 (a wild tile), 明牌, 杠頭, the 花 tile, the dice and every seat's 花 count."""
    v = _view_now(seat)["variant"]
    assert page.locator(".mj-marks .mark-wild svg.tile.wild").count() == 1
    assert page.locator(".mj-marks .mark-gangtou svg.tile").count() == 1
    assert page.locator(".mj-marks .mark-flower svg.tile").count() == 1
    d = v["dice"]
    assert _text(page, ".mj-marks .mark-dice") == (
        f"骰子{d['first'][0]}+{d['first'][1]}·{d['second'][0]}+{d['second'][1]}"
    )
    assert page.locator(".mj-seat-mark.seat-hua").count() == 4
    assert _text(page, ".mj-head-me .seat-hua") == f"花{v['seats'][seat]['hua']}"


@pytest.mark.parametrize(
    "game,name,variant,extra",
    [
        ("mahjong_yongzhou", "永州麻將", "bao5", {"qi_hu": 0}),
        ("mahjong_yueqing", "樂清麻將", "wuhanhua", {}),
    ],
)
def test_a_whole_yongzhou_and_yueqing_hand_with_three_bots(
    servers, browser, game, name, variant, extra
):
    """A whole 永州麻將 / 樂清麻將 hand against three bots: the variant's marks are on the board
    (phone and desktop), the settlement is itemised (番 / 台 lines, 花) and settled."""
    make_room(name=name, game=game, variant=variant, extra=extra)
    port = servers.daphne("web")
    servers.clock()
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    register(page, base, f"mj-{game[8:]}")
    page.click(f".room-card:has-text('{name}') >> text=快速開始")
    page.wait_for_url(re.compile(r"/games/table/\d+/"))
    page.wait_for_selector("#board[data-phase]:not([data-phase=''])", timeout=20000)
    assert page.locator("#board .mj-seat").count() == 4
    minimum = 16 if game == "mahjong_yueqing" else 13
    assert page.locator("#my-hand svg.tile").count() >= minimum
    seat = int(page.get_attribute("#board", "data-seat"))
    check = _check_yueqing_marks if game == "mahjong_yueqing" else _check_yongzhou_marks
    for _ in range(5):  # a push may swap the board between reads
        try:
            check(page, seat)
            break
        except (AssertionError, PlaywrightError):
            page.wait_for_timeout(300)
    else:
        check(page, seat)
    shot(page, f"{game}-start-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, f"{game}-start-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    play_until_settled(page)
    shot(page, f"{game}-settlement-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    shot(page, f"{game}-settlement-desktop")
    hand = Hand.objects.get()
    assert hand.game == game and hand.settled_at is not None
    settlement = page.inner_text("#settlement")
    assert "歡樂豆" in settlement
    labels = [ln["label"] for ln in hand.result["lines"]]
    if hand.result["winners"]:
        unit = "台" if game == "mahjong_yueqing" else "番"
        assert unit in settlement
        assert ("臺數" if game == "mahjong_yueqing" else "合計") in settlement
    else:
        assert "流局" in settlement
    if game == "mahjong_yueqing":
        assert any("花" in x for x in labels) == ("花" in settlement)
    else:
        reached = _view_now(seat)["variant"]["bao_hu_reached"]
        assert page.locator(".mj-marks .mark-reached").count() == (1 if reached else 0)
    assert ledger_drift() == []


def _render(game: str, ruleset, state, viewer: int | None) -> str:
    from games import caches
    from games.rendering import render_html

    caches.clear_all()  # the snapshot's seq is fixed: never reuse another playout's state
    return render_html(
        _snapshot(game, ruleset, state, 0 if viewer is None else viewer), viewer, None
    )


def test_yongzhou_and_yueqing_boards_show_the_variant_marks_and_itemised_settlement():
    """Rendered boards of bot playouts: 永州 marks its 爆胡 table, 起和 and 風圈 and, at the end,
    who reached 爆胡; 樂清 marks 財神 / 明牌 / 杠頭 / 花 tile / dice and each seat's 花 count; both
    settlements list their 番 / 台 and 花 lines with the seats' names."""
    from games.templatetags.tiles import trad

    for game, params in (
        ("mahjong_yongzhou", {"bao_hu": 3, "qi_hu": 1, "prevalent_wind": 2}),
        ("mahjong_yueqing", {}),
    ):
        ruleset = registry.get(game)
        seen_win = False
        for n in range(6):
            state = ruleset.new_game(
                ruleset.config_from_params({"dealer": n % 4, **params}), f"marks-{n}", 4
            )
            while not ruleset.is_over(state):
                seat = min(ruleset.to_act(state))
                ruleset.apply(state, seat, ruleset.bot_action(state, seat))
            for viewer in (0, 1, None):
                html = _render(game, ruleset, state, viewer)
                view = (
                    ruleset.view(state, viewer)
                    if viewer is not None
                    else ruleset.spectator_view(state)
                )
                v = view["variant"]
                if game == "mahjong_yongzhou":
                    assert "<span>爆胡</span><b>3番</b>" in html
                    assert "<span>起和</span><b>1番起和</b>" in html
                    assert '<span class="mj-wind">圈風 <b>西</b></span>' in html
                    assert html.count("mark-reached") == (1 if v["bao_hu_reached"] else 0)
                else:
                    assert html.count('data-mark="seat-hua"') == 4
                    for _s, info in enumerate(v["seats"]):
                        assert f"花 <b>{info['hua']}</b>" in html
                    for cls in (
                        "mark-wild",
                        "mark-indicator mark-gangtou",
                        "mark-flower",
                        "mark-dice",
                    ):
                        assert f'class="{cls}"' in html
                res = ruleset.result(state)
                assert 'id="settlement"' in html
                if res.winners:
                    seen_win = True
                    unit = "番" if game == "mahjong_yongzhou" else "台"
                    fan_lines = [ln for ln in res.lines if ln.value.endswith(unit)]
                    assert fan_lines and all(
                        f"<td>{trad(ln.value)}</td>" in html for ln in fan_lines
                    )
                if game == "mahjong_yueqing":
                    for ln in res.lines:
                        if ln.label.startswith("座") and " 花 " in ln.label:
                            # 座N is shown as the seat's name
                            assert trad(f"玩家{ln.seat}{ln.label[2:]}") in html
        assert seen_win, game


def test_yongzhou_board_marks_bao_lou_hu_and_bao_hu_reached():
    """永州 board: a 包 liability is tagged on the bound seat with the seat that pays, the
    viewer's own 漏胡 tiles are marked (nobody else's), and a 大三元 win shows 爆胡 已達."""
    from games.rules.mahjong.tests.test_yongzhou import mk, win_on_discard

    game = "mahjong_yongzhou"
    ruleset = registry.get(game)
    state = mk([None] * 4, current=0)
    state.vars["bao"][1] = {"from": 0, "reason": "luodi12"}
    state.vars["lou_hu"][1] = ["B1"]
    mine = _render(game, ruleset, state, 1)
    other = _render(game, ruleset, state, 2)
    for html in (mine, other):
        assert html.count('data-mark="seat-bao"') == 1
        assert "包 <b>十二張落地</b> ← 玩家0" in html
        assert "mark-reached" not in html
    assert 'class="mark-louhu"' in mine and 'class="mark-louhu"' not in other
    state, _ = win_on_discard("J1 J1 J1 J2 J2 J2 J3 J3 W1 W2 W3 T5 T5", "J3")
    html = _render(game, ruleset, state, 0)
    assert "<span>爆胡</span><b>已達 大三元</b>" in html
    assert "<td>爆胡以外 (5番以上，不加番)</td><td>9番</td>" in html


def test_yueqing_board_marks_flowers_ming_state_and_bihu():
    """樂清 board: a seat showing three 杠頭 is tagged 杠頭×3 and 明牌三杠頭 and the table
    names it as the 逼胡 seat; its 花 count is the face-up part for another viewer."""
    from games.rules.mahjong.tests.test_yueqing import mk

    game = "mahjong_yueqing"
    ruleset = registry.get(game)
    state = mk([None] * 4, current=0, flowers={2: ["B9", "B9", "B9", "J3"]})
    ruleset._update_ming(state)
    html = _render(game, ruleset, state, 0)
    assert "杠頭×3 白板×1" in html and "明牌三杠頭" in html
    assert "<span>逼胡</span><b>玩家2</b>" in html
    # 明牌 ×3 + 白板 ×1 + 三杠頭 6
    assert html.count("花 <b>10</b>") == 1
