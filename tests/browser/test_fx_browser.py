"""Sound and motion at a live 斗地主 table in Chromium, from real frames over real sockets.

The board the server pushes names the last move's effects (``data-fx``, games/fx.py) and
static/js/fx.js plays them, recording each in ``window.__fx``. A bomb must produce "bomb" with
its sound and its burst; with the top bar's mute switch on, the same push produces no sound;
under prefers-reduced-motion no animation runs; a reload replays nothing and the switch
stays as the player left it.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import services as accounts
from games.models import Hand, Table
from ledger import services as ledger
from lobby import services as lobby_services
from lobby.models import Room
from tests.browser.conftest import shot
from tests.live.conftest import login_cookie, recv_json, ws_connect

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

# the hands the test deals (seat 0 is the landlord and leads): a bomb, a bigger bomb, a rocket
HANDS = ["33336899", "4444TJQ", "BR57KKA"]


def _user(n: int):
    user = accounts.user_register(username=f"fxer{n}", password="pw-123456", nickname=f"音效{n}")
    ledger.staff_grant(staff=None, user=user, amount=50000, reason="test", correction=True)
    return user


def _deal_bombs(table: Table) -> None:
    """Put the hand straight into play with HANDS (a test deal; the service keeps the seq)."""
    hand = Hand.objects.get(table=table)
    state = dict(hand.state)
    state.update(
        hands=list(HANDS),
        phase="playing",
        landlord=0,
        turn=0,
        lead=None,
        last=[None, None, None],
        passes=0,
        plays_count=[0, 0, 0],
        played=["", "", ""],
        bombs=[],
        winner=None,
        looked=[True, True, True],
        started=[True, True, True],
        ready=[True, True, True],
    )
    hand.state = state
    hand.save(update_fields=["state"])
    table.seats.update(deadline=timezone.now() + timedelta(minutes=10))
    table.seq += 1
    table.move_seq = table.seq
    table.save(update_fields=["seq", "move_seq"])


def _fx(page) -> list[dict]:
    return page.evaluate("window.__fx")


def _wait_fx(page, name: str, count: int = 1, timeout: float = 10.0) -> list[dict]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = [e for e in _fx(page) if e["name"] == name]
        if len(got) >= count:
            return got
        time.sleep(0.05)
    raise AssertionError(f"no {name!r} effect: {_fx(page)}")


def _play(page, ranks: str) -> None:
    for rank in ranks:
        # the cards overlap: tap the visible left edge of each, as a player does
        page.locator(f"#my-hand .card[data-rank='{rank}']:not(.selected)").first.click(
            position={"x": 6, "y": 78}
        )
    page.click("[data-play]")


def test_a_bomb_sounds_and_bursts_mute_silences_it_reduced_motion_stills_it(servers, browser):
    """Real pushes over real sockets: 炸彈 → "bomb" with sound and burst; muted → no sound;
    reduced motion → no animation; 王炸 → "rocket"; a reload plays nothing, mute remembered."""
    room = Room.objects.create(
        name="音效場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        max_beans=None,
        double_threshold=100000,
        turn_seconds=120,
        bot_wait_seconds=600,
    )
    users = [_user(i) for i in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    _deal_bombs(table)
    port = servers.daphne()  # no clock: nobody but the players acts
    base = f"http://127.0.0.1:{port}"

    def page_for(user, **options):
        context = browser.new_context(viewport={"width": 1000, "height": 760}, **options)
        name, value = login_cookie(user).split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": base}])
        page = context.new_page()
        page.goto(f"{base}/games/table/{table.pk}/")
        page.wait_for_selector("#conn.ok", state="attached", timeout=15000)
        page.wait_for_selector("#board[data-phase=playing]", timeout=10000)
        return page

    me = page_for(users[0])
    still = page_for(users[2], reduced_motion="reduce")
    assert _fx(me) == [] and _fx(still) == []  # the board a page opens with plays nothing
    assert me.get_attribute("#fx-mute", "aria-pressed") == "false"

    # seat 0 plays 3333: every seat's push names "bomb"
    _play(me, "3333")
    bomb = _wait_fx(me, "bomb")[0]
    assert bomb == {"name": "bomb", "sound": True, "motion": True}
    me.wait_for_selector(".fx-layer .fx-burst", state="attached", timeout=2000)
    shot(me, "fx-bomb")
    assert me.get_attribute("#board", "data-fx") == "bomb"
    # a card flying in (fx-travel, raised above its neighbours) never takes a tap meant for the
    # button it passes over: a 吃 button under a travelling card once missed its tap
    assert me.evaluate(TRAVELLING_TAKES_TAPS) == "none"
    assert _wait_fx(still, "bomb")[0] == {"name": "bomb", "sound": True, "motion": False}
    assert still.locator(".fx-anim").count() == 0
    assert still.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")

    # mute: the next bomb (seat 1's 4444, sent over its own socket) is silent at seat 0
    me.click("#fx-mute")
    assert me.get_attribute("#fx-mute", "aria-pressed") == "true"
    assert me.evaluate("localStorage.getItem('leyou.fx.muted')") == "1"
    ws = ws_connect(port, table.pk, login_cookie(users[1]))
    frame = recv_json(ws)
    while frame.get("type") != "table" or not (frame.get("view") or {}).get("can_play"):
        frame = recv_json(ws)
    ws.send(
        json.dumps(
            {
                "kind": "move",
                "action": {"type": "play", "cards": "4444"},
                "seq": frame["seq"],
                "action_id": "fx-4444",
            }
        )
    )
    muted = _wait_fx(me, "bomb", 2)[1]
    assert muted == {"name": "bomb", "sound": False, "motion": True}
    assert _wait_fx(still, "bomb", 2)[1]["sound"] is True

    # seat 2 (reduced motion) answers with 王炸 from its page: "rocket" everywhere
    still.wait_for_selector("#board [data-play]", timeout=10000)
    _play(still, "BR")
    assert _wait_fx(me, "rocket")[0] == {"name": "rocket", "sound": False, "motion": True}
    assert _wait_fx(still, "rocket")[0] == {"name": "rocket", "sound": True, "motion": False}
    assert still.locator(".fx-anim").count() == 0
    ws.close()

    # a reload replays nothing; the switch is as the player left it
    me.reload()
    me.wait_for_selector("#conn.ok", state="attached", timeout=15000)
    time.sleep(0.5)
    assert _fx(me) == []
    assert me.get_attribute("#fx-mute", "aria-pressed") == "true"
    me.click("#fx-mute")
    assert me.evaluate("localStorage.getItem('leyou.fx.muted')") == "0"


TRAVELLING_TAKES_TAPS = """() => {
  const card = document.querySelector('#board .played svg');
  card.classList.add('fx-travel');
  const taps = getComputedStyle(card.querySelector('text') || card).pointerEvents;
  card.classList.remove('fx-travel');
  return taps;
}"""

URGENT_STATE = """() => [...document.querySelectorAll('#board .clock[data-deadline]')]
  .map((el) => ({
  seat: (el.closest('[data-seat]:not(#board)') || {dataset: {}}).dataset.seat ?? null,
  left: (el.querySelector('b') || {}).textContent,
  urgent: el.classList.contains('fx-urgent'),
  animation: getComputedStyle(el).animationName,
}))"""


def test_the_own_clock_turns_urgent_in_its_last_seconds(servers, browser):
    """A room with an 8-second turn: in the last 5 s the clock of the player to act turns
    ``fx-urgent`` on his own page (and ticks), while the same clock on an opponent's page does
    not; under prefers-reduced-motion his clock has no animation but still counts down."""
    from games.engine import registry
    from games.services import tables
    from games.tests.helpers import current_state

    room = Room.objects.create(
        name="快速場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        max_beans=None,
        double_threshold=100000,
        turn_seconds=8,
        bot_wait_seconds=600,
    )
    users = [_user(10 + i) for i in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    port = servers.daphne()  # no clock: the turn does not run out into a 托管 move
    base = f"http://127.0.0.1:{port}"
    by_uid = {u.pk: u for u in users}
    # to a move of one seat after which one other seat is to act (not the moment when every
    # seat answers at once), so an opponent's page shows a clock that is not his own
    for _ in range(20):
        _, hand, state = current_state(table.pk)
        ruleset = registry.get(hand.game)
        first = sorted(ruleset.to_act(state))[0]
        action = ruleset.legal_actions(state, first)[0]
        after = ruleset.state_from_json(hand.state)
        ruleset.apply(after, first, action)
        if (
            len(ruleset.to_act(state)) == 1
            and len(ruleset.to_act(after)) == 1
            and set(ruleset.to_act(after)) != set(ruleset.to_act(state))
        ):  # e.g. not the last 叫分 that makes the bidder the landlord who then leads
            break
        tables.move_submit(
            table_id=table.pk,
            user=by_uid[hand.players[first]["user_id"]],
            action=action,
            expected_seq=None,
            action_id=None,
        )
    nxt = sorted(ruleset.to_act(after))[0]  # whose 8 s the test watches
    assert nxt != first
    actor = by_uid[hand.players[nxt]["user_id"]]
    other = by_uid[hand.players[next(e for e in range(3) if e != nxt)]["user_id"]]

    def page_for(user, **options):
        context = browser.new_context(viewport={"width": 1000, "height": 760}, **options)
        name, value = login_cookie(user).split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": base}])
        page = context.new_page()
        page.goto(f"{base}/games/table/{table.pk}/")
        page.wait_for_selector("#conn.ok", state="attached", timeout=15000)
        return page

    mine, theirs = page_for(actor), page_for(other)
    still = page_for(actor, reduced_motion="reduce")
    # the first seat moves now that every page is open: the watched seat's 8 s start here
    mover = by_uid[hand.players[first]["user_id"]]
    tables.move_submit(
        table_id=table.pk, user=mover, action=action, expected_seq=None, action_id=None
    )
    actor_seat = str(Table.objects.get(pk=table.pk).seats.get(user=actor).index)
    mine.wait_for_selector(
        f"#board [data-seat='{actor_seat}'] .clock.fx-urgent", state="attached", timeout=20000
    )
    shot(mine, "fx-urgent-clock")
    clocks = mine.evaluate(URGENT_STATE)
    assert [c["seat"] for c in clocks if c["urgent"]] == [actor_seat], clocks
    assert _wait_fx(mine, "tick")[0] == {"name": "tick", "sound": True, "motion": True}
    # the opponent sees the same clock counting, never urgent-animated on his page
    seen = theirs.evaluate(URGENT_STATE)
    assert any(c["seat"] == actor_seat and c["left"].isdigit() for c in seen), seen
    assert not any(c["urgent"] for c in seen), seen
    assert not [e for e in _fx(theirs) if e["name"] == "tick"]
    # reduced motion: no animation on the clock, but it reads the seconds left (≤ 5)
    still.wait_for_selector(f"#board [data-seat='{actor_seat}'] .clock.urgent", timeout=10000)
    calm = [c for c in still.evaluate(URGENT_STATE) if c["seat"] == actor_seat]
    assert calm and not calm[0]["urgent"] and calm[0]["animation"] == "none", calm
    assert calm[0]["left"].isdigit() and 0 <= int(calm[0]["left"]) <= 5, calm
    assert _wait_fx(still, "tick")[0] == {"name": "tick", "sound": True, "motion": False}
