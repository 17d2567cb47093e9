"""Every game's table fits a phone (portrait and landscape) and a desktop, and can be touched.

For each game a real table is made through the lobby's quick join and filled with bots; the hand
is driven through the tables service (bots' and the player's moves, as the clock and the socket
would make them) to a turn of the player with a full hand, then to the settlement, while a
Chromium page shows it over the real socket. At every size (360×740, 390×844, 844×390, 740×360,
1280×800) the page must not scroll sideways, and with the page scrolled to its end every card or
tile of the player's hand and every action button lies inside the viewport and is the element
hit where a finger lands (``elementFromPoint``: the centre of a button, the centre of the part
of an overlapped card that the next card leaves uncovered). The settlement's rake line, seed,
回放 link and next-hand countdown are inside the viewport and hit the same way (the panel
scrolls by itself when it is taller than the screen), and the 回放 link opens the replay. On a
phone held sideways (844×390, 740×360) nothing scrolls at all: the page is no taller and no
wider than the screen, and the hand, the buttons, the opponents' seats and counts, the turn
marker, the countdown, the table's centre and 記牌器 / pot are all on screen at once and hit
where they lie; the settlement panel lies whole on the screen. 斗地主 is played in its three
rooms (經典, 癩子, 悶抓). Screenshots go to ``var/shots/<game>-<w>x<h>.png`` (the player's turn)
and ``…-settlement.png``.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from accounts.models import User
from games.engine import registry
from games.models import Hand
from games.services import seating, tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from lobby.models import Room
from tests.browser.conftest import shot
from tests.live.conftest import login_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

SIZES = [(360, 740), (390, 844), (844, 390), (740, 360), (1280, 800)]


def _landscape(size: tuple[int, int]) -> bool:
    """A phone held sideways: there the whole table fits the screen and nothing scrolls."""
    return size[0] > size[1] and size[1] <= 500


COMMON = {
    "base_score": 1,
    "factor": 10,
    "rake": 5,
    "min_beans": 0,
    "max_beans": None,
    "double_threshold": 2000,
    "turn_seconds": 300,
    "bot_wait_seconds": 600,
}
ROOMS: dict[str, dict] = {
    "doudizhu": {"name": "經典場", "game": "doudizhu", "variant": "classic", "seats": 3},
    "doudizhu_laizi": {"name": "癩子場", "game": "doudizhu", "variant": "laizi", "seats": 3},
    "doudizhu_menzhua": {"name": "悶抓場", "game": "doudizhu", "variant": "menzhua", "seats": 3},
    "zhajinhua": {
        "name": "歡樂三張",
        "game": "zhajinhua",
        "variant": "classic",
        "seats": 6,
        "extra": {
            "ante": 10,
            "chip_levels": [10, 20, 50, 100],
            "unit_cap": 200,
            "round_cap": 4,
            "compare_from_round": 2,
            "min_players": 2,
            "target_players": 6,
            "escape_penalty": 50,
        },
    },
    "paohuzi": {
        "name": "湖南場",
        "game": "paohuzi",
        "variant": "hunan",
        "seats": 3,
        "extra": {"variant": "hunan"},
    },
    "shuangwang": {
        "name": "雙王場",
        "game": "paohuzi",
        "variant": "shuangwang",
        "seats": 3,
        "extra": {"variant": "shuangwang"},
    },
    "mahjong_huanle": {
        "name": "大眾場",
        "game": "mahjong_huanle",
        "variant": "dazhong",
        "seats": 4,
        "extra": {"room_kind": "dazhong"},
    },
    "mahjong_yongzhou": {
        "name": "永州麻將",
        "game": "mahjong_yongzhou",
        "variant": "bao5",
        "seats": 4,
        "extra": {"qi_hu": 0},
    },
    "mahjong_yueqing": {
        "name": "樂清麻將",
        "game": "mahjong_yueqing",
        "variant": "wuhanhua",
        "seats": 4,
        "extra": {},
    },
}

# The player's hand (cards / tiles) and the action buttons, per board.
HAND = "#my-hand .card, #my-hand .mj-t, #phz-hand .phz-card-btn, #phz-hand .phz-card"
ACTIONS = "#actions button, #actions summary, .hand-tools button, #counter button"
# What a landscape phone shows at once besides the hand and the buttons (label, selector, whether
# every board has it): the opponents' seats and what they hold, the turn marker and countdown, the
# table's centre (the last play, 底牌, the pot, the compass, the card on offer), 記牌器 and pot.
LANDSCAPE = [
    (
        "opponent",
        ".opponent .seat-box, .zseat:not(.pos-0) .seat-box, .phz-opp .seat-box, "
        ".mj-seat:not(.pos-me) .mj-head",
        True,
    ),
    (
        "opponent count",
        ".opponent .count, .zseat:not(.pos-0) .zinfo, .phz-opp .phz-count, "
        ".mj-seat:not(.pos-me) .mj-count",
        True,
    ),
    ("turn marker", ".to-act", True),
    ("countdown", ".clock[data-deadline]", True),
    ("table centre", ".board-doudizhu .center, .zjh-center, .phz-center, .mj-compass", True),
    ("top bar", ".board-top, .phz-top, .mj-top", True),
    ("記牌器 / pot", "#counter:not(:empty), #zjh-pot", False),
]
SETTLEMENT = [
    "#settlement .rake",
    "#settlement .seed-reveal code",
    "#settlement .seed-reveal a",
    "#settlement .next .clock",
]

# In the page: is the element inside the viewport, and what does a tap at its centre hit?
PROBE = """([selector, overlapped]) => {
  const out = [];
  const W = window.innerWidth, H = window.innerHeight;
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) continue;  // closed
    const first = el.getClientRects()[0] || r;  // an inline element wrapped over lines
    let x = first.left + first.width / 2, y = first.top + first.height / 2;
    if (overlapped) {
      // a fanned or stacked card: aim at the centre of the part not covered by a later card
      let best = null;
      for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
        const px = r.left + r.width * i / 12, py = r.top + r.height * j / 12;
        const hit = document.elementFromPoint(px, py);
        if (hit && (hit === el || el.contains(hit))) {
          const d = (px - x) ** 2 + (py - y) ** 2;
          if (best === null || d < best[2]) best = [px, py, d];
        }
      }
      if (best) { x = best[0]; y = best[1]; }
    }
    const hit = document.elementFromPoint(x, y);
    out.push({
      what: (el.id ? "#" + el.id : el.tagName.toLowerCase() + "."
             + (el.className.baseVal ?? el.className)) + " "
             + (el.textContent || "").trim().slice(0, 16),
      inside: r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5,
      hit: !!hit && (hit === el || el.contains(hit)),
      hitWhat: hit ? hit.tagName + "." + (hit.className.baseVal ?? hit.className) : null,
      rect: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)],
    });
  }
  return out;
}"""


def _room(key: str) -> Room:
    spec = {**COMMON, **ROOMS[key]}
    return Room.objects.create(**spec)


def _player(name: str) -> User:
    from accounts import services

    return services.user_register(username=name, password="pw-123456", nickname="手機玩家")


def _engine_seat(hand: Hand, user: User) -> int:
    return next(i for i, p in enumerate(hand.players) if p["user_id"] == user.pk)


def _choose(key: str, ruleset, state, seat: int, mine: bool) -> dict:
    """The move a seat makes: in 斗地主 the player looks at his cards (悶抓場), calls and robs
    the landlord (20 cards) and the others let him; everywhere else the engine's 托管 move."""
    if key.startswith("doudizhu"):
        legal = ruleset.legal_actions(state, seat)
        for wanted in (
            {"type": "look"},
            {"type": "bid", "call": mine},
            {"type": "rob", "rob": mine},
            {"type": "double", "double": False},
            {"type": "start", "mingpai": False},
        ):
            if wanted in legal:
                return wanted
    return ruleset.auto_action(state, seat)


def _players_turn(key: str, ruleset, state, seat: int) -> bool:
    """The player is to act with the fullest hand the game gives him."""
    if seat not in ruleset.to_act(state):
        return False
    view = ruleset.view(state, seat)
    if key.startswith("doudizhu"):
        return view["phase"] == "playing" and len(view["hand"]) == 20
    if key.startswith("mahjong"):
        return view["phase"] == "turn" and view.get("current") == seat
    if key in ("paohuzi", "shuangwang"):
        return view["phase"] == "discard"
    return True


def _drive(key: str, table_id: int, user: User, *, to_end: bool) -> None:
    """Make the seats' moves through the service until the player's turn (or the hand's end)."""
    for _ in range(3000):
        _, hand, state = current_state(table_id)
        if hand is None:
            assert to_end, "the hand ended before the player's turn"
            return
        ruleset = registry.get(hand.game)
        mine = _engine_seat(hand, user)
        if not to_end and _players_turn(key, ruleset, state, mine):
            return
        acting = sorted(ruleset.to_act(state))
        if not acting:
            return
        seat = acting[0]
        mover = User.objects.get(pk=hand.players[seat]["user_id"])
        action = _choose(key, ruleset, state, seat, seat == mine)
        tables.move_submit(
            table_id=table_id, user=mover, action=action, expected_seq=None, action_id=None
        )
        if to_end:
            time.sleep(0.03)  # about a bot's pace, so the watching socket keeps up on a busy box
    raise AssertionError("the hand did not reach the wanted point")


def _problems(page, selector: str, overlapped: bool) -> list[str]:
    found = page.evaluate(PROBE, [selector, overlapped])
    assert found, f"nothing matched {selector}"
    return [
        f"{f['what']} at {f['rect']}: inside={f['inside']} hit={f['hit']} ({f['hitWhat']})"
        for f in found
        if not (f["inside"] and f["hit"])
    ]


def _no_scroll(page) -> list[str]:
    """The page does not scroll either way (a landscape phone: the whole table on one screen)."""
    size = page.evaluate(
        "[document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight,"
        " innerWidth, innerHeight]"
    )
    view = page.viewport_size
    if size[0] > view["width"] + 1 or size[1] > view["height"] + 1:
        return [f"the page scrolls: scroll {size[:2]} for a screen of {size[2:]}"]
    return []


def _check_landscape(page, name: str) -> list[str]:
    """Sideways, with no scrolling at all: the hand, every button, the opponents with their
    counts, the turn marker, the countdown, the table's centre, 記牌器 and pot are on screen
    and each is what a finger hits there."""
    errors = _no_scroll(page)
    errors += _problems(page, HAND, True) + _problems(page, ACTIONS, False)
    for label, selector, always in LANDSCAPE:
        if not always and not page.evaluate("(s) => !!document.querySelector(s)", selector):
            continue
        errors += [f"{label}: {e}" for e in _problems(page, selector, False)]
    shot(page, name)
    return errors


def _check_turn(page, name: str) -> list[str]:
    size = page.viewport_size
    if _landscape((size["width"], size["height"])):
        return _check_landscape(page, name)
    # as a player does: the hand and its buttons scrolled to the bottom of the screen together
    # (the chat bar and the hall panel below the board stay out of the way); they must fit
    page.evaluate(
        """(sel) => { const r = [...document.querySelectorAll(sel)]
              .map(e => e.getBoundingClientRect()).filter(b => b.height > 0);
            const bottom = Math.max(...r.map(b => b.bottom)) + window.scrollY;
            window.scrollTo(0, Math.max(0, bottom - window.innerHeight + 2)); }""",
        f"{HAND}, {ACTIONS}",
    )
    page.wait_for_timeout(100)
    # against the width asked for: a mobile browser widens its layout viewport to a page that
    # overflows (innerWidth grows with it), which would hide the overflow
    width = [page.evaluate("document.scrollingElement.scrollWidth"), page.viewport_size["width"]]
    errors = [f"the page scrolls sideways: {width}"] if width[0] > width[1] else []
    errors += _problems(page, HAND, True) + _problems(page, ACTIONS, False)
    shot(page, name)
    return errors


def _check_settlement(page, name: str) -> list[str]:
    page.wait_for_selector("#settlement .rake", state="attached", timeout=30000)
    page.wait_for_timeout(300)  # the pushes of the hand's end have arrived
    errors = []
    size = page.viewport_size
    if _landscape((size["width"], size["height"])):
        # sideways the panel shows whole on the one screen (what is longer scrolls inside it)
        errors += _no_scroll(page) + _problems(page, "#settlement", False)
    for selector in SETTLEMENT:
        page.evaluate(
            "(s) => document.querySelector(s).scrollIntoView({block: 'nearest'})", selector
        )
        page.wait_for_timeout(50)
        errors += [f"{selector}: {e}" for e in _problems(page, selector, False)]
    page.evaluate("document.querySelector('#settlement').scrollIntoView({block: 'nearest'})")
    shot(page, name)
    return errors


def _open(browser, port: int, user: User, table_id: int, size: tuple[int, int]):
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        is_mobile=size[0] < 1000,
        has_touch=size[0] < 1000,
    )
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": login_cookie(user).split("=", 1)[1],
                "url": f"http://127.0.0.1:{port}",
            }
        ]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"script error: {e}"))
    page.goto(f"http://127.0.0.1:{port}/games/table/{table_id}/")
    page.wait_for_selector("#conn.ok", state="attached", timeout=15000)
    return page, errors


@pytest.mark.parametrize("key", list(ROOMS))
def test_every_table_fits_every_size_and_the_settlement_shows(servers, browser, key):
    """At 360×740, 390×844, 844×390, 740×360 and 1280×800 the player's whole hand and every
    action button are on screen and hit at their centre on his turn; sideways (844×390, 740×360)
    the page does not scroll and the opponents, their counts, the turn marker, the countdown, the
    table's centre and 記牌器 / pot are on screen and hit too; the settlement's rake line, seed,
    回放 link and countdown are on screen and hit (sideways the whole panel is on screen); the
    回放 link opens the replay."""
    room = _room(key)
    port = servers.daphne("web")
    user = _player(f"fit-{key.replace('_', '-')}")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    _drive(key, table.pk, user, to_end=False)
    failures: list[str] = []
    # a user holds at most 3 sockets on a table: one page at a time
    for w, h in SIZES:
        page, errors = _open(browser, port, user, table.pk, (w, h))
        page.wait_for_selector("#actions button", state="attached", timeout=10000)
        failures += [f"{w}x{h} turn: {e}" for e in _check_turn(page, f"{key}-{w}x{h}")]
        failures += [f"{w}x{h}: {e}" for e in errors]
        page.context.close()
    live, live_errors = _open(browser, port, user, table.pk, SIZES[1])
    _drive(key, table.pk, user, to_end=True)
    hand = Hand.objects.filter(table_id=table.pk).order_by("-number").first()
    assert hand.settled_at is not None
    try:
        live.wait_for_selector("#settlement .rake", state="attached", timeout=20000)
    except PlaywrightError:
        # a mahjong hand is ~150 moves made faster than a bot would: on a loaded machine the
        # socket's channel can pass its capacity and drop the last pushes, with nothing after
        # them to ask for a resync; a player's reload shows the table as it is (the fit of the
        # settlement is what is checked here, the pushes in test_live_numbers.py)
        live.reload()
        live.wait_for_selector("#settlement .rake", state="attached", timeout=30000)
    for w, h in SIZES:
        page, errors = (
            (live, live_errors)
            if (w, h) == SIZES[1]
            else _open(browser, port, user, table.pk, (w, h))
        )
        failures += [
            f"{w}x{h} settlement: {e}" for e in _check_settlement(page, f"{key}-{w}x{h}-settlement")
        ]
        failures += [f"{w}x{h}: {e}" for e in errors]
        if page is not live:
            page.context.close()
    assert not failures, "\n".join(failures)
    live.click("#settlement .seed-reveal a")
    live.wait_for_url(re.compile(rf"/games/replay/{hand.pk}/"))


def _scrolled_probe(page, selector: str, i: int) -> dict:
    """Scroll the i-th match into view and probe it. The wheel's panel is re-rendered by the
    socket when a round opens or closes, which can detach the element between the two steps:
    then the fresh element is located again (a finger would simply find the new button)."""
    for attempt in range(5):
        try:
            page.locator(selector).nth(i).scroll_into_view_if_needed(timeout=5000)
            return page.evaluate(PROBE, [selector, False])[i]
        except PlaywrightError as exc:
            if "not attached" not in str(exc) or attempt == 4:
                raise
            page.wait_for_timeout(200)
    raise AssertionError("unreachable")


def test_the_wheel_fits_every_size(servers, browser):
    """大豐收 at every size: no sideways scroll; every chip and every crop's bet button is on
    screen (scrolled to, as a finger would) and hit at its centre; the round's hash shows.
    Sideways (844×390, 740×360) the page does not scroll at all and the wheel is on screen."""
    room = Room.objects.create(
        name="豐收轉盤",
        game="dafengshou",
        variant="classic",
        seats=1,
        base_score=1,
        factor=1,
        min_beans=0,
        turn_seconds=15,
        extra={
            "bet_seconds": 60,
            "spin_seconds": 3,
            "chips": [10, 100, 1000],
            "player_limit": 5000,
            "round_limit": 100000,
        },
    )
    port = servers.daphne("web")
    user = _player("fit-wheel")
    failures: list[str] = []
    for w, h in SIZES:
        context = browser.new_context(
            viewport={"width": w, "height": h}, is_mobile=w < 1000, has_touch=w < 1000
        )
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": login_cookie(user).split("=", 1)[1],
                    "url": f"http://127.0.0.1:{port}",
                }
            ]
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(f"script error: {e}"))
        page.goto(f"http://127.0.0.1:{port}/games/wheel/{room.pk}/")
        page.wait_for_selector("#conn.ok", state="attached", timeout=15000)
        width = [page.evaluate("document.scrollingElement.scrollWidth"), w]
        if width[0] > width[1]:
            failures.append(f"{w}x{h}: the page scrolls sideways: {width}")
        if _landscape((w, h)):
            # sideways the wheel, its countdown, the chips and every crop are on one screen
            failures += [f"{w}x{h}: {e}" for e in _no_scroll(page)]
            failures += [f"{w}x{h} {e}" for e in _problems(page, "#wheel-ring, .wheel-top", False)]
        for selector in (".chip-pick", ".bet-obj", "#wheel-hash"):
            count = page.locator(selector).count()
            assert count, selector
            for i in range(count):
                found = _scrolled_probe(page, selector, i)
                if not (found["inside"] and found["hit"]):
                    failures.append(
                        f"{w}x{h} {found['what']} at {found['rect']}: "
                        f"inside={found['inside']} hit={found['hit']}"
                    )
        shot(page, f"dafengshou-{w}x{h}")
        failures += [f"{w}x{h}: {e}" for e in errors]
        context.close()
    assert not failures, "\n".join(failures)
