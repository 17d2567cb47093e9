"""A phone held sideways fits the claim phases and a watcher's view without page scroll.

tests/browser/test_fit_all_games.py checks the player's own turn and the settlement. Here the
hand is driven through the tables service (the seats' 托管 moves, as the clock would make them)
to a discard the player may claim: 碰 / 槓 / 胡 / 吃 with their tiles in 歡樂, 永州 and 樂清
mahjong, 吃 (its groups of cards) / 碰 / 胡 in 跑胡子 and 雙王. At 844×390 and 740×360 the page
must not scroll either way, and every claim button (with the tiles or cards drawn in it), the
hand, the opponents, the turn marker, the countdown and the table's centre are inside the
viewport and are what a finger hits at their centre. The widest rows are built from a real
offer by swapping tiles / cards into the player's hand (from the wall or the others' hands, the
set kept whole): mahjong 胡 / 槓 / 碰 / 吃 three ways / 過, and 跑胡子 吃 some nine ways with the
比 each forces. A watcher of 斗地主 (no hand of his own) is checked the same way: the three
seats, the table's centre, the top bar and the folded 同桌玩家 pill on one screen. Screenshots:
``var/shots/<game>-<w>x<h>-claim.png``, ``…-claim-wide.png`` and
``doudizhu-<w>x<h>-watcher.png``.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts.models import User
from games.engine import registry
from games.services import seating, tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from tests.browser.conftest import shot
from tests.browser.test_fit_all_games import (
    LANDSCAPE,
    _check_landscape,
    _drive,
    _engine_seat,
    _no_scroll,
    _open,
    _player,
    _problems,
    _room,
)

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]

SIDEWAYS = [(844, 390), (740, 360)]
CLAIMS = {"chi", "peng", "gang", "hu"}
CLAIM_GAMES = ["mahjong_huanle", "mahjong_yongzhou", "mahjong_yueqing", "paohuzi", "shuangwang"]


def _claims(legal: list[dict]) -> list[dict]:
    return [a for a in legal if a.get("type") in CLAIMS]


def _drive_to_claim(table_id: int, user) -> list[dict]:
    """Play the seats' 托管 moves until a discard the player may claim is on offer; a rich offer
    (two claims or more: 吃 two ways, 碰 and 槓, 胡 and 碰) is waited for through the player's
    first three offers (his own 托管 move answers those), then any 碰 / 吃 / 槓 / 胡 is taken."""
    offers = hands = 0
    for _ in range(12000):
        _, hand, state = current_state(table_id)
        if hand is None:
            # the hand ended with no claim for the player: the next one is dealt (as the
            # next-hand countdown would), at most three more
            hands += 1
            assert hands <= 3, "no claim was offered to the player in four hands"
            with transaction.atomic():
                assert tables.hand_start_if_ready(tables.table_lock(table_id)) is not None
            continue
        ruleset = registry.get(hand.game)
        mine = _engine_seat(hand, user)
        acting = sorted(ruleset.to_act(state))
        assert acting, "nobody is to act"
        if mine in acting and state.phase == "claim":
            offer = _claims(ruleset.legal_actions(state, mine))
            if offer:
                offers += 1
                if len(offer) >= 2 or offers > 3:
                    return offer
        seat = mine if mine in acting else acting[0]
        mover = hand.players[seat]["user_id"]
        tables.move_submit(
            table_id=table_id,
            user=User.objects.get(pk=mover),
            action=ruleset.auto_action(state, seat),
            expected_seq=None,
            action_id=None,
        )
    raise AssertionError("no claim was offered to the player")


def _swap_in(state, seat: int, wanted: list[str]) -> None:
    """Give the seat's concealed hand the wanted tiles, each swapped with one of his others from
    the wall or another seat's concealed hand (the tile set is kept whole)."""
    from collections import Counter

    mine = state.hands[seat]
    need = list((Counter(wanted) - Counter(mine)).elements())
    spare = list((Counter(mine) - Counter(wanted)).elements())
    for t in need:
        give = spare.pop()
        mine[mine.index(give)] = t
        for pool in [state.wall] + [h for i, h in enumerate(state.hands) if i != seat]:
            if t in pool:
                pool[pool.index(t)] = give
                break
        else:
            raise AssertionError(f"no {t} left to swap in")


def _rich_mahjong_claim(table_id: int, user) -> list[dict]:
    """Drive to a discard of a 3–7 suited tile by the seat before the player, offered to him,
    then give the
    player three of that tile, its neighbours and two runs of another suit: 胡 (where the room
    lets that hand win), 槓, 碰, 吃 three ways (with their tiles) and 過 are offered at once, the
    widest claim row a discard can make."""
    hands = 0
    for _ in range(12000):
        _, hand, state = current_state(table_id)
        if hand is None:
            hands += 1  # no such discard this hand: the next one is dealt, at most five more
            assert hands <= 5, "no discard fit to claim in six hands"
            with transaction.atomic():
                assert tables.hand_start_if_ready(tables.table_lock(table_id)) is not None
            continue
        ruleset = registry.get(hand.game)
        mine = _engine_seat(hand, user)
        claim = state.claim if state.phase == "claim" else None
        wild = ruleset.wild_kinds(state)
        if (
            claim
            and claim["kind"] == "discard"
            and claim["from"] == (mine - 1) % state.seats
            and claim["options"][mine]  # a real offer to him (so his countdown runs)
            and claim["responses"][mine] is None
        ):
            tile = claim["tile"]
            suit, n = tile[0], int(tile[1:]) if tile[1:].isdigit() else 0
            near = [f"{suit}{k}" for k in (n - 2, n - 1, n + 1, n + 2)]
            if suit in "WTB" and 3 <= n <= 7 and not ({tile, *near} & set(wild)):
                wanted = [tile] * 3 + near[1:3]
                rest = next(x for x in "WTB" if x != suit)
                sets = [f"{rest}{k}" for k in range(1, 7)]
                if len(state.hands[mine]) == 13 and not set(sets) & set(wild):
                    # and two runs: the discard also completes his hand (胡 where the room
                    # allows it): 345, 567, the pair 55, and the runs
                    wanted += [near[0], near[3], *sets]
                else:
                    wanted += [near[0], near[3]]
                pool = [t for h in [state.wall, *state.hands] for t in h]
                if all(pool.count(t) >= wanted.count(t) for t in set(wanted)):
                    _swap_in(state, mine, wanted)
                    claim["options"] = ruleset._claim_options(state, claim["from"], tile)
                    claim["responses"] = [None] * state.seats
                    with transaction.atomic():
                        hand.refresh_from_db()
                        hand.state = ruleset.state_to_json(state)
                        hand.save(update_fields=["state"])
                    offer = _claims(ruleset.legal_actions(state, mine))
                    assert {"gang", "peng"} <= {a["type"] for a in offer}, offer
                    return offer
        acting = sorted(ruleset.to_act(state))
        seat = acting[0]
        tables.move_submit(
            table_id=table_id,
            user=User.objects.get(pk=hand.players[seat]["user_id"]),
            action=ruleset.auto_action(state, seat),
            expected_seq=None,
            action_id=None,
        )
    raise AssertionError("no discard fit to claim")


@pytest.mark.parametrize("key", [k for k in CLAIM_GAMES if k.startswith("mahjong")])
def test_the_widest_mahjong_claim_row_fits_a_phone_held_sideways(servers, browser, key):
    """胡 (where the room allows), 槓, 碰, 吃 three ways (each with its tiles) and 過 offered at
    once: at 844×390 and 740×360
    the page does not scroll and every button and its tiles, the hand and the table are on
    screen and hit at their centre."""
    room = _room(key)
    port = servers.daphne("web")
    user = _player(f"wide-{key.replace('_', '-')}")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    offer = _rich_mahjong_claim(table.pk, user)
    failures: list[str] = []
    for w, h in SIDEWAYS:
        page, errors = _open(browser, port, user, table.pk, (w, h))
        page.wait_for_selector("#actions button[data-action='gang']", state="attached")
        assert page.locator("#actions button").count() == len(offer) + 1  # and 過
        failures += [
            f"{w}x{h} wide: {e}" for e in _check_landscape(page, f"{key}-{w}x{h}-claim-wide")
        ]
        inner = "#actions .btn-tiles .mj-t"
        if page.locator(inner).count():
            failures += [f"{w}x{h} wide tiles: {e}" for e in _problems(page, inner, False)]
        failures += [f"{w}x{h}: {e}" for e in errors]
        page.context.close()
    assert not failures, f"offer {offer}\n" + "\n".join(failures)


def _phz_wanted(card: int) -> list[int]:
    """For a card of rank 3–8 on offer: the card, its two neighbours each side and two of the
    other case (小 / 大) — 吃 nine ways (一句話, 絞 and the 比 each forces)."""
    other = card + 10 if card < 10 else card - 10
    return [card, card - 2, card - 1, card + 1, card + 2, other, other]


def _rich_paohuzi_claim(table_id: int, user) -> list[dict]:
    """Drive to a card of rank 3–8 offered to the player, that he may 吃 (discarded by the seat
    before him, or drawn by that seat or by him), then swap into his hand, from the wall or the
    others' hands, that card, its neighbours and two of the other case: 吃 is offered some nine
    ways, each a button with its groups of cards, as wide a claim row as 跑胡子 makes in
    practice. A hand that ends before such a card comes is followed by the next: the deal is
    random, and now and then a hand offers none."""
    from games.rules.paohuzi.ruleset import _chi_action, chi_options

    hands = 0
    for _ in range(12000):
        _, hand, state = current_state(table_id)
        if hand is None:
            hands += 1  # no such card this hand: the next one is dealt, at most five more
            assert hands <= 5, "no card fit to claim in six hands"
            with transaction.atomic():
                assert tables.hand_start_if_ready(tables.table_lock(table_id)) is not None
            continue
        ruleset = registry.get(hand.game)
        mine = _engine_seat(hand, user)
        win = state.window if state.phase == "claim" else None
        may_chi = win and (
            (win["from"] + 1) % 3 == mine or (win["src"] == "draw" and win["from"] == mine)
        )
        if (
            may_chi
            and win["shown"]
            and win["card"] < 20
            and 2 <= win["card"] % 10 <= 7
            and win["options"][mine]  # a real offer to him (so his countdown runs)
            and not any(win["decisions"])
            and state.hands[mine][win["card"]] < 2
            and win["card"] not in state.chou[mine]
        ):
            card = win["card"]
            wanted = _phz_wanted(card)
            have = state.hands[mine]
            spare = [k for k in range(20) if k not in wanted and 0 < have[k] < 3]
            ok = True
            for k in sorted(set(wanted)):
                while have[k] < wanted.count(k):
                    if not spare:
                        ok = False
                        break
                    give = spare[-1]
                    others = [h for i, h in enumerate(state.hands) if i != mine]
                    if k in state.wall:
                        state.wall[state.wall.index(k)] = give
                    elif any(h[k] for h in others):
                        h = next(h for h in others if h[k])
                        h[k] -= 1
                        h[give] += 1
                    else:
                        ok = False
                        break
                    have[k] += 1
                    have[give] -= 1
                    if have[give] == 0:
                        spare.pop()
            ways = chi_options(have, card)
            if ok and len(ways) >= 6:
                opts = [a for a in (win["options"][mine] or []) if a["type"] not in ("chi",)]
                chi = [_chi_action(w) for w in ways]
                if not opts:
                    opts = [{"type": "pass"}]
                win["options"][mine] = [*(a for a in opts if a["type"] != "pass"), *chi] + [
                    a for a in opts if a["type"] == "pass"
                ]
                with transaction.atomic():
                    hand.state = ruleset.state_to_json(state)
                    hand.save(update_fields=["state"])
                return _claims(ruleset.legal_actions(state, mine))
            _, hand, state = current_state(table_id)  # the swap did not do: undo it
            ruleset = registry.get(hand.game)
        acting = sorted(ruleset.to_act(state))
        seat = acting[0]
        tables.move_submit(
            table_id=table_id,
            user=User.objects.get(pk=hand.players[seat]["user_id"]),
            action=ruleset.auto_action(state, seat),
            expected_seq=None,
            action_id=None,
        )
    raise AssertionError("小七 was never on offer to the player")


@pytest.mark.parametrize("key", ["paohuzi", "shuangwang"])
def test_the_widest_paohuzi_claim_row_fits_a_phone_held_sideways(servers, browser, key):
    """吃 offered six ways or more (each with its groups of cards) and 過: at 844×390 and
    740×360 the page does not scroll and every button and its cards, the hand and the table are
    on screen and hit at their centre."""
    room = _room(key)
    port = servers.daphne("web")
    user = _player(f"wide-{key}")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    offer = _rich_paohuzi_claim(table.pk, user)
    assert sum(a["type"] == "chi" for a in offer) >= 6, offer
    failures: list[str] = []
    for w, h in SIDEWAYS:
        page, errors = _open(browser, port, user, table.pk, (w, h))
        page.wait_for_selector("#actions button[data-action='chi']", state="attached")
        shot_name = f"{key}-{w}x{h}-claim-wide"
        failures += [f"{w}x{h} wide: {e}" for e in _check_landscape(page, shot_name)]
        failures += [
            f"{w}x{h} wide cards: {e}" for e in _problems(page, "#actions .phz-btn-group", False)
        ]
        failures += [f"{w}x{h}: {e}" for e in errors]
        page.context.close()
    assert not failures, f"offer {offer}\n" + "\n".join(failures)


@pytest.mark.parametrize("key", CLAIM_GAMES)
def test_a_claim_fits_a_phone_held_sideways(servers, browser, key):
    """With a 碰 / 吃 / 槓 / 胡 on offer to the player, at 844×390 and 740×360 the page does not
    scroll, and every claim button with its tiles or cards, the hand, the opponents and their
    counts, the turn marker, the countdown and the table's centre are on screen and hit at their
    centre."""
    room = _room(key)
    port = servers.daphne("web")
    user = _player(f"claim-{key.replace('_', '-')}")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    offer = _drive_to_claim(table.pk, user)
    kinds = sorted({a["type"] for a in offer})
    failures: list[str] = []
    for w, h in SIDEWAYS:
        page, errors = _open(browser, port, user, table.pk, (w, h))
        page.wait_for_selector("#actions button", state="attached", timeout=10000)
        for kind in kinds:
            assert page.locator(f"#actions button[data-action='{kind}']").count(), (kind, offer)
        failures += [f"{w}x{h} claim: {e}" for e in _check_landscape(page, f"{key}-{w}x{h}-claim")]
        # the tiles / cards drawn inside the claim buttons lie on screen too
        inner = "#actions .btn-tiles .mj-t, #actions .phz-btn-group"
        if page.locator(inner).count():
            failures += [f"{w}x{h} claim tiles: {e}" for e in _problems(page, inner, False)]
        failures += [f"{w}x{h}: {e}" for e in errors]
        page.context.close()
    assert not failures, f"offer {offer}\n" + "\n".join(failures)


def test_a_doudizhu_watcher_fits_a_phone_held_sideways(servers, browser):
    """A watcher of a running 斗地主 hand (no hand of his own) at 844×390 and 740×360: the page
    does not scroll, and the three seats, the turn marker, the table's centre, the top bar and
    記牌器 (where shown) are on screen and hit at their centre; the folded 同桌玩家 pill is on
    screen, hit, and shows its heading uncut."""
    room = _room("doudizhu")
    port = servers.daphne("web")
    user = _player("watched-ddz")
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    _drive("doudizhu", table.pk, user, to_end=False)
    watcher = _player("watcher-ddz")
    failures: list[str] = []
    for w, h in SIDEWAYS:
        page, errors = _open(browser, port, watcher, table.pk, (w, h))
        page.wait_for_selector("#board .seat-box", timeout=10000)
        page.wait_for_timeout(300)
        assert page.locator("#my-hand .card").count() == 0  # a watcher holds no hand
        assert page.locator("#board .seat-box").count() == 3
        failures += [f"{w}x{h} watcher: {e}" for e in _no_scroll(page)]
        failures += [f"{w}x{h} seats: {e}" for e in _problems(page, "#board .seat-box", False)]
        for label, selector, always in LANDSCAPE:
            if label in ("opponent", "opponent count", "countdown"):
                # a watcher sits nowhere (his three seats are checked above), and his late
                # view carries no deadline
                continue
            if (not always or label == "turn marker") and not page.evaluate(
                "(s) => !!document.querySelector(s)", selector
            ):
                continue
            failures += [f"{w}x{h} {label}: {e}" for e in _problems(page, selector, False)]
        # the hall's panel (同桌玩家 to follow) folds into a pill in the top bar: on screen, hit,
        # and its heading not cut by the pill's edge
        if page.locator("#hall-table-panel b").count():
            failures += [f"{w}x{h} pill: {e}" for e in _problems(page, "#hall-table-panel", False)]
            cut = page.evaluate(
                """() => { const p = document.querySelector('#hall-table-panel')
                    .getBoundingClientRect();
                  return [...document.querySelectorAll('#hall-table-panel b')]
                    .map(b => b.getBoundingClientRect())
                    .filter(b => b.top < p.top - 0.5 || b.bottom > p.bottom + 0.5).length; }"""
            )
            if cut:
                failures.append(f"{w}x{h} pill: {cut} heading(s) cut by the pill's edge")

        shot(page, f"doudizhu-{w}x{h}-watcher")
        failures += [f"{w}x{h}: {e}" for e in errors]
        page.context.close()
    assert not failures, "\n".join(failures)
