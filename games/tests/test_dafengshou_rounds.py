"""大豐收's room-wide round on the real database: bets, stakes, the spin, payouts once."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.boards import dafengshou as board
from games.engine.chance import seed_commitment
from games.engine.errors import IllegalAction
from games.exceptions import DuplicateAction
from games.models import WheelBet, WheelRound, WheelWin
from games.rules.dafengshou.wheel import config_from_params, payout, spin
from games.selectors import dafengshou as dafengshou_selectors
from games.services import dafengshou
from ledger.models import Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby.models import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def wheel_room(db):
    return Room.objects.create(
        name="大豐收",
        game="dafengshou",
        variant="classic",
        seats=1,
        base_score=1,
        factor=1,
        min_beans=0,
        turn_seconds=15,
        extra={
            "bet_seconds": 15,
            "spin_seconds": 5,
            "chips": [10, 100, 1000],
            "player_limit": 2000,
            "round_limit": 3000,
        },
    )


def aid() -> str:
    return uuid.uuid4().hex


def bet(room, user, obj, amount, number=None, action_id=None):
    rnd = dafengshou.round_enter(room_id=room.pk)
    return dafengshou.bet_place(
        room_id=room.pk,
        user=user,
        round_number=number or rnd.number,
        object=obj,
        amount=amount,
        action_id=action_id or aid(),
    )


def due(rnd: WheelRound, field: str) -> None:
    """Move a stored deadline into the past, as time passing would."""
    WheelRound.objects.filter(pk=rnd.pk).update(**{field: timezone.now() - timedelta(seconds=1)})


def house(room) -> int:
    return dafengshou.house_account(room.pk).balance


def test_entering_opens_one_round_with_a_committed_seed(wheel_room, make_user):
    """The first visit opens a round; the hash commits to the seed; the view hides the seed."""
    first = dafengshou.round_enter(room_id=wheel_room.pk)
    again = dafengshou.round_enter(room_id=wheel_room.pk)
    assert first.pk == again.pk and first.phase == "betting" and first.number == 1
    assert first.seed_hash == seed_commitment(first.seed)
    assert 14 <= (first.closes_at - first.opened_at).total_seconds() <= 15
    view = dafengshou_selectors.dafengshou_view(wheel_room.pk, make_user(beans=100))
    assert view["seed_hash"] == first.seed_hash and "seed" not in view and "result" not in view
    assert first.seed not in str(view)


def test_a_bet_takes_the_stake_at_once(wheel_room, make_user):
    """A bet is recorded and its stake moves from the player to the room's bank."""
    user = make_user(beans=500)
    placed = bet(wheel_room, user, "watermelon", 100)
    assert balance_for_user(user) == 400 and house(wheel_room) == 100
    assert placed.round.totals["watermelon"] == 100 and placed.round.staked_total == 100
    stake = Transfer.objects.get(kind="stake")
    assert "西瓜" in stake.reason and stake.idempotency_key.startswith(f"wheel:{placed.round_id}:")
    view = dafengshou_selectors.dafengshou_view(wheel_room.pk, user)
    assert view["my_total"] == 100 and view["balance"] == 400


@pytest.mark.parametrize(
    "obj, amount, code",
    [("durian", 10, "illegal"), ("apple", 50, "illegal"), ("apple", "ten", "malformed")],
)
def test_unknown_crop_or_chip_is_refused_and_changes_nothing(
    wheel_room, make_user, obj, amount, code
):
    """A bet on an unknown object or in no chip size is refused; nothing moves."""
    user = make_user(beans=500)
    with pytest.raises(IllegalAction) as error:
        bet(wheel_room, user, obj, amount)
    assert error.value.code == code
    assert balance_for_user(user) == 500 and not WheelBet.objects.exists()
    assert WheelRound.objects.get().version == 0


def test_player_and_round_limits(wheel_room, make_user):
    """Above the per-player or the per-round limit: over_limit, nothing changes."""
    alice, bob = make_user(beans=5000), make_user(beans=5000)
    bet(wheel_room, alice, "apple", 1000)
    bet(wheel_room, alice, "rice", 1000)
    with pytest.raises(IllegalAction) as error:
        bet(wheel_room, alice, "corn", 10)  # player limit 2000
    assert error.value.code == "over_limit"
    bet(wheel_room, bob, "apple", 1000)
    with pytest.raises(IllegalAction) as error:
        bet(wheel_room, bob, "apple", 10)  # round limit 3000
    assert error.value.code == "over_limit"
    assert balance_for_user(alice) == 3000 and balance_for_user(bob) == 4000
    assert WheelRound.objects.get().staked_total == 3000


def test_more_than_you_have_is_refused(wheel_room, make_user):
    """A stake the player cannot cover: not_enough_beans, no bet, no transfer."""
    user = make_user(beans=90)
    with pytest.raises(dafengshou.NotEnoughBeans):
        bet(wheel_room, user, "apple", 100)
    assert balance_for_user(user) == 90 and not WheelBet.objects.exists()
    assert not Transfer.objects.filter(kind="stake").exists()


def test_a_bet_after_the_window_is_refused(wheel_room, make_user):
    """Past the deadline (even before the clock closes it), or on an old round: window_closed."""
    user = make_user(beans=500)
    rnd = dafengshou.round_enter(room_id=wheel_room.pk)
    due(rnd, "closes_at")
    with pytest.raises(IllegalAction) as error:
        bet(wheel_room, user, "apple", 10, number=rnd.number)
    assert error.value.code == "window_closed"
    assert dafengshou.round_close(round_id=rnd.pk)
    with pytest.raises(IllegalAction) as error:
        bet(wheel_room, user, "apple", 10, number=rnd.number)
    assert error.value.code == "window_closed"
    due(rnd, "settle_at")
    assert dafengshou.round_settle(round_id=rnd.pk)
    with pytest.raises(IllegalAction) as error:  # the next round is open, but not this one
        dafengshou.bet_place(
            room_id=wheel_room.pk,
            user=user,
            round_number=rnd.number,
            object="apple",
            amount=10,
            action_id=aid(),
        )
    assert error.value.code == "window_closed"
    assert balance_for_user(user) == 500 and not WheelBet.objects.exists()


def test_a_duplicate_action_id_is_refused(wheel_room, make_user):
    """The same client action id twice in a round: one bet, one stake."""
    user = make_user(beans=500)
    bet(wheel_room, user, "apple", 10, action_id="same-id")
    with pytest.raises(DuplicateAction):
        bet(wheel_room, user, "apple", 10, action_id="same-id")
    assert balance_for_user(user) == 490 and WheelBet.objects.count() == 1


def test_the_spin_pays_what_the_engine_says_exactly_once(wheel_room, make_user):
    """Close and settle pay each bettor the payout of the seed's outcome, once; the ledger
    balances; a repeated tick, a second settle or a second payment changes nothing."""
    users = [make_user(beans=3000) for _ in range(3)]
    stakes = [{"apple": 100, "orange": 10}, {"rice": 1000}, {"watermelon": 100, "apple": 10}]
    for user, bets in zip(users, stakes):
        for obj, amount in bets.items():
            bet(wheel_room, user, obj, amount)
    rnd = WheelRound.objects.get()
    assert not dafengshou.round_close(round_id=rnd.pk)  # not due yet
    due(rnd, "closes_at")
    assert dafengshou.due_rounds_run() == 1
    rnd.refresh_from_db()
    assert rnd.phase == "spinning" and rnd.outcome["cell"] is not None
    view = dafengshou_selectors.dafengshou_view(wheel_room.pk, users[0])
    assert view["result"]["lit"] == rnd.outcome["lit"] and "seed" not in view  # not yet
    assert not dafengshou.round_close(round_id=rnd.pk)
    assert dafengshou.due_rounds_run() == 0  # the light is still running
    due(rnd, "settle_at")
    assert dafengshou.due_rounds_run() == 1
    assert dafengshou.due_rounds_run() == 0 and not dafengshou.round_settle(round_id=rnd.pk)
    rnd.refresh_from_db()
    config = config_from_params(rnd.params)
    outcome = spin(config, rnd.seed)
    assert rnd.outcome["cell"] == outcome[0]
    expected = [payout(config, bets, outcome) for bets in stakes]
    for user, bets, paid in zip(users, stakes, expected):
        assert balance_for_user(user) == 3000 - sum(bets.values()) + paid
        win = WheelWin.objects.get(round=rnd, user=user)
        assert (win.staked, win.payout) == (sum(bets.values()), paid)
        dafengshou.win_pay(win, rnd)  # a retried payment …
        assert balance_for_user(user) == 3000 - sum(bets.values()) + paid  # … pays nothing
    assert Transfer.objects.filter(kind="payout").count() == sum(1 for p in expected if p)
    assert rnd.paid_total == sum(expected) and rnd.staked_total == 1220
    assert house(wheel_room) == 1220 - sum(expected)
    assert ledger_drift() == []
    nxt = WheelRound.objects.get(phase="betting")  # the next round opened at once
    assert nxt.number == 2 and nxt.seed != rnd.seed
    view = dafengshou_selectors.dafengshou_view(wheel_room.pk, users[1])
    assert view["history"][0]["seed"] == rnd.seed and view["number"] == 2
    assert view["my_last"]["net"] == expected[1] - 1000
    verify = dafengshou_selectors.round_verify(wheel_room.pk, 1)
    assert verify["hash_ok"] and verify["spin_ok"]
    rtp = dafengshou_selectors.room_rtp(wheel_room.pk, wheel_room.params())
    assert rtp["rounds"] == 1 and rtp["measured"] == sum(expected) / 1220
    assert 0.9 < rtp["expected"] < 1


def cells(html: str, css: str) -> list[int]:
    """The ring cells of a rendered board that carry the class ``css``."""
    found = re.findall(r'<g class="wr-cell ([^"]*)" data-cell="(\d+)"', html)
    return sorted(int(cell) for classes, cell in found if css in classes.split())


def first_round_settled(room, user) -> WheelRound:
    """``user`` bets 10 on 蘋果 in the room's first round, which the clock closes and
    settles (opening round 2); the settled round, fresh from the database."""
    bet(room, user, "apple", 10)
    rnd = WheelRound.objects.get()
    due(rnd, "closes_at")
    assert dafengshou.due_rounds_run() == 1
    due(rnd, "settle_at")
    assert dafengshou.due_rounds_run() == 1
    rnd.refresh_from_db()
    return rnd


def test_the_next_rounds_board_keeps_the_settled_result_lit_for_the_hold(wheel_room, make_user):
    """Settling opens the next round at once, and the light stopped only 15 % of the spin
    before: the new round's board lights the settled round's result (in its HTML, so a page
    that was busy when the light stopped still shows it) for ``result_hold`` seconds after
    the settlement, then only outlines it; a page that missed the stop never saw it before."""
    user = make_user(beans=1000)
    rnd = first_round_settled(wheel_room, user)
    view = dafengshou_selectors.dafengshou_view(wheel_room.pk, user)
    assert (view["number"], view["phase"]) == (2, "betting")
    hold = dafengshou.result_hold(rnd.params)
    assert hold == 3  # a 15 s window: 3 s (at most a third of the window)
    assert view["result_hold_until"] == rnd.settled_at + timedelta(seconds=hold)
    html = board.render_html(view)
    assert cells(html, "lit") == sorted(rnd.outcome["lit"]) != []
    assert f'data-result-hold="{view["result_hold_until"].isoformat()}"' in html
    # past the hold: the result is only outlined (上局), as it was before
    WheelRound.objects.filter(pk=rnd.pk).update(settled_at=rnd.settled_at - timedelta(seconds=hold))
    html = board.render_html(dafengshou_selectors.dafengshou_view(wheel_room.pk, user))
    assert cells(html, "lit") == [] and cells(html, "last") == sorted(rnd.outcome["lit"])


def test_no_next_round_when_nobody_watches_or_the_room_closed(wheel_room, make_user):
    """Settling opens a next round only while the room is watched and open."""
    rnd = dafengshou.round_enter(room_id=wheel_room.pk)
    WheelRound.objects.filter(pk=rnd.pk).update(active_until=timezone.now())
    due(rnd, "closes_at")
    dafengshou.due_rounds_run()
    due(rnd, "settle_at")
    dafengshou.due_rounds_run()
    assert not WheelRound.objects.exclude(phase="settled").exists()
    Room.objects.filter(pk=wheel_room.pk).update(is_open=False)
    with pytest.raises(dafengshou.UnknownDafengshouRoom):
        dafengshou.round_enter(room_id=wheel_room.pk)


def test_an_operators_odds_change_applies_from_the_next_round(wheel_room, make_user):
    """The round keeps the odds table it opened with; the next one takes the room's new one."""
    rnd = dafengshou.round_enter(room_id=wheel_room.pk)
    wheel_room.extra = {**wheel_room.extra, "odds": {"rice": 80}}
    wheel_room.save()
    assert config_from_params(WheelRound.objects.get(pk=rnd.pk).params).odds[7] == 100
    due(rnd, "closes_at")
    dafengshou.due_rounds_run()
    due(rnd, "settle_at")
    dafengshou.due_rounds_run()
    assert config_from_params(WheelRound.objects.get(number=2).params).odds[7] == 80


def test_the_admin_shows_the_rooms_measured_rtp(wheel_room, make_user, admin_client):
    """The room's admin page shows the measured return-to-player beside the configured one."""
    user = make_user(beans=500)
    bet(wheel_room, user, "apple", 100)
    rnd = WheelRound.objects.get()
    due(rnd, "closes_at")
    dafengshou.due_rounds_run()
    due(rnd, "settle_at")
    dafengshou.due_rounds_run()
    rnd.refresh_from_db()
    page = admin_client.get(f"/admin/lobby/room/{wheel_room.pk}/change/").content.decode()
    assert "大豐收返獎率" in page and f"<b>{rnd.paid_total / 100:.4f}</b>" in page
    listing = admin_client.get("/admin/lobby/room/").content.decode()
    assert f"{rnd.paid_total / 100:.2%}" in listing
    assert admin_client.get(f"/admin/games/wheelround/{rnd.pk}/change/").status_code == 200


def test_the_last_round_line_names_the_crop_in_the_page_language(wheel_room, make_user):
    """The centre of the next round's board says which crop the last round gave in the
    player's language (English showed 「Last round 蘋果」 beside 「蘋果 (apple)」 in the table
    below it): the name goes through the same game-term filter as the rest of the board."""
    from django.utils import translation

    from games.terms import term

    user = make_user(beans=1000)
    first_round_settled(wheel_room, user)
    with translation.override("en"):
        view = dafengshou_selectors.dafengshou_view(wheel_room.pk, user)
        name = view["last"]["name"]
        html = board.render_html(view)
        glossed = term(name)
    assert glossed != name  # English glosses the crop
    line = re.search(r'id="wheel-result-text">([^<]*)<', html)
    assert line is not None and glossed in line.group(1)


def test_the_crop_marks_follow_the_page_script(wheel_room, make_user):
    """The one-character marks on the wheel's cells and on the bet buttons are in the page's
    script: a 简体 page showed 蘋 on the wheel beside 苹果 on the button below it (seen on
    the 1280×800 简体 screenshot); English keeps the Chinese glyph as the icon."""
    from django.utils import translation

    user = make_user(beans=1000)
    first_round_settled(wheel_room, user)
    marks = {}
    for language in ("zh-hant", "zh-hans", "en"):
        with translation.override(language):
            html = board.render_html(dafengshou_selectors.dafengshou_view(wheel_room.pk, user))
        cells = set(re.findall(r'class="wr-mark[^"]*">([^<]*)<', html))
        buttons = set(
            re.findall(r'class="bet-icon"[^>]*>(?:<[^t][^>]*>)*<text[^>]*>([^<]*)<', html)
        )
        assert cells and buttons, language
        marks[language] = cells | buttons
        assert ("蘋" in cells) == ("蘋" in buttons), language
    assert "蘋" in marks["zh-hant"] and "蘋" not in marks["zh-hans"] and "苹" in marks["zh-hans"]
    assert marks["en"] == marks["zh-hant"]
