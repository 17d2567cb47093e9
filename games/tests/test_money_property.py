"""One money property over every table game (issue 13 §7), on PostgreSQL with the real services.

For each game a table of real players in 托管 plays seeded hands through the table service and
the clock's steps (``due_seat_act``, ``table_tick``); each finished hand is settled by the real
``games.hand_settle`` task (Celery eager in tests). Before each hand every player's balance is
set at random, some near zero (0, 1, a few beans, about A). After each hand:

* the ledger sums to zero and matches every cached balance (``ledger_drift``, ``ledger_verify``);
* no balance is negative;
* 回收 A is taken once per player dealt in, at most what he holds (001);
* each player's change equals the rule of ``docs/rules/<game>.md`` applied to the hand's result,
  recomputed here from the result's payments (or 三張's stakes) without the settlement's code:
  losers pay Σ X·N (at most what they hold), shared among their winners in proportion (the
  remainder to the largest), then every player gives min(A, what he then holds);
* the payments follow from the scores: each player's Σ received − Σ paid is his 積分.

``LEYOU_MONEY_HANDS`` sets the hands per game (default 15 here, fixed seeds;
``bench/money_property.py`` runs hundreds, with ``LEYOU_MONEY_EVERY`` progress lines and
``LEYOU_MONEY_KEEP_GOING``: a failed hand is counted and reported, and the game plays on).
"""

from __future__ import annotations

import os
import random
import re
import time
from collections import defaultdict
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from games import caches, rendering
from games.engine import registry
from games.models import Hand, HandSeat, Seat, Table
from games.selectors import tables as table_selectors
from games.services import seating, tables
from games.tests.helpers import current_state
from ledger import services as ledger
from ledger.models import Account, Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services
from lobby.models import Room

# The suite runs each game in one rolled-back transaction. bench/money_property.py sets
# LEYOU_MONEY_COMMIT=1: hundreds of hands update the same few seat and table rows thousands of
# times, and inside one transaction no old row version can be pruned, so every UPDATE walks a
# longer chain (25 hands took 40 s at the start of a long run and 4 minutes after 100 hands).
# Committing as the services do in production keeps each hand as fast as the first.
COMMIT = os.environ.get("LEYOU_MONEY_COMMIT") == "1"
pytestmark = pytest.mark.django_db(transaction=COMMIT)

HANDS = int(os.environ.get("LEYOU_MONEY_HANDS", "15"))
# bench/money_property.py: a progress line every EVERY hands, and KEEP_GOING counts a hand whose
# checks fail and plays on (the test still fails at the end, naming every failed hand)
EVERY = int(os.environ.get("LEYOU_MONEY_EVERY", "0"))
KEEP_GOING = os.environ.get("LEYOU_MONEY_KEEP_GOING") == "1"
# bench/money_property.py --until: a wall-clock end (epoch seconds) for this run; a game stops
# playing there (after at least one hand) and says so
UNTIL = float(os.environ.get("LEYOU_MONEY_UNTIL", "0")) or float("inf")


# (id, room fields): the nine table games; the wheel (大豐收) is the last test below
GAMES = [
    (
        "doudizhu-classic",
        dict(
            game="doudizhu",
            variant="classic",
            seats=3,
            factor=10,
            rake=5,
            double_threshold=50,
            extra={},
        ),
    ),
    (
        "doudizhu-laizi",
        dict(
            game="doudizhu",
            variant="laizi",
            seats=3,
            factor=10,
            rake=5,
            double_threshold=50,
            extra={},
        ),
    ),
    (
        "doudizhu-menzhua",
        dict(
            game="doudizhu",
            variant="menzhua",
            seats=3,
            factor=10,
            rake=5,
            double_threshold=50,
            extra={},
        ),
    ),
    (
        "zhajinhua",
        dict(
            game="zhajinhua",
            variant="classic",
            seats=4,
            factor=1,
            rake=5,
            extra={
                "ante": 10,
                "chip_levels": [10, 20, 50],
                "unit_cap": 100,
                "round_cap": 4,
                "compare_from_round": 2,
                "escape_penalty": 50,
            },
        ),
    ),
    (
        "paohuzi-hunan",
        dict(
            game="paohuzi", variant="hunan", seats=3, factor=5, rake=5, extra={"variant": "hunan"}
        ),
    ),
    (
        "paohuzi-shuangwang",
        dict(
            game="paohuzi",
            variant="shuangwang",
            seats=3,
            factor=5,
            rake=5,
            extra={"variant": "shuangwang"},
        ),
    ),
    (
        "mahjong-huanle",
        dict(
            game="mahjong_huanle",
            variant="dazhong",
            seats=4,
            factor=2,
            rake=5,
            extra={"room_kind": "dazhong"},
        ),
    ),
    (
        "mahjong-yongzhou",
        dict(
            game="mahjong_yongzhou",
            variant="bao5",
            seats=4,
            factor=2,
            rake=5,
            extra={"bao_hu": 5, "qi_hu": 1},
        ),
    ),
    (
        "mahjong-yueqing",
        dict(game="mahjong_yueqing", variant="wuhanhua", seats=4, factor=2, rake=5, extra={}),
    ),
]


def expected_changes(
    payments: list[dict], n: int, a: int, held: dict[int, int]
) -> tuple[dict[int, int], dict[int, int]]:
    """The rule of docs/rules (DESIGN §4, 001, 002), recomputed on its own: (change, A taken)."""
    change = dict.fromkeys(held, 0)
    debts: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for p in payments:
        if p["points"] > 0 and p["from"] != p["to"]:
            debts[p["from"]].append((p["to"], p["points"] * n))
    for loser, owed in debts.items():
        per_winner: dict[int, int] = defaultdict(int)
        for winner, beans in owed:
            per_winner[winner] += beans
        due = sum(per_winner.values())
        paid = min(held[loser], due)
        change[loser] -= paid
        got = {w: (paid * b) // due for w, b in per_winner.items()}
        top = sorted(per_winner, key=lambda w: (-per_winner[w], w))[0]
        got[top] += paid - sum(got.values())
        for w, beans in got.items():
            change[w] += beans
    taken = {seat: min(a, held[seat] + change[seat]) for seat in held}
    return {seat: change[seat] - taken[seat] for seat in held}, taken


class _Panel(HTMLParser):
    """The settlement panel's table rows (cell texts) and its 回收 line, from rendered HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # > 0 inside #settlement
        self.rows: list[list[str]] = []
        self.rake_text = ""
        self._cell: list[str] | None = None
        self._in_rake = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id") == "settlement":
            self.depth = 1
        elif self.depth:
            self.depth += tag not in ("br", "img", "input", "use")
        if not self.depth:
            return
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "p" and attrs.get("class") == "rake":
            self._in_rake = True

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "p":
            self._in_rake = False
        self.depth -= tag not in ("br", "img", "input", "use")

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._in_rake:
            self.rake_text += data


def _signed(text: str) -> int:
    return int(text.replace("+", "").replace("−", "-").replace(",", ""))


def panel_check(table_id: int, hand: Hand, user) -> dict[str, int]:
    """Recompute every seat's beans from the rendered settlement panel (issue 13 §3); return the
    checks made. 歡樂豆 = 積分 × N − A unless the panel marks the seat 以所持為限; 積分 from the
    game's own lines where the panel itemises them per pair."""
    checks: dict[str, int] = defaultdict(int)
    snapshot = table_selectors.table_snapshot(table_id)
    caches.clear_all()
    seat = next(i for i, p in enumerate(hand.players) if p["user_id"] == user.pk)
    panel = _Panel()
    panel.feed(rendering.render_html(snapshot, seat, user))
    n = int(re.search(r"N = (\d+)", panel.rake_text).group(1))
    a = int(re.search(r"A = (\d+)", panel.rake_text).group(1))
    assert (n, a) == (int(hand.params["factor"]), int(hand.params["rake"]))
    names = [p["name"] for p in hand.players]
    seat_rows = [r for r in panel.rows if len(r) == 3 and r[0] != "玩家"]
    assert len(seat_rows) == len(names)
    shown: dict[int, int] = {}
    for row in seat_rows:
        who = next(i for i, name in enumerate(names) if row[0].startswith(name))
        score, beans_text = _signed(row[1]), row[2]
        beans = _signed(beans_text.split()[0])
        shown[who] = score
        if "以所持為限" in beans_text:
            assert beans != score * n - a
            checks["panel: short seat marked"] += 1
        else:
            assert beans == score * n - a, (row, n, a)
            checks["panel: beans = 積分 × N − A"] += 1
        assert beans == hand.result["beans"][who]
    lines = [r for r in panel.rows if len(r) == 2 and r[0] not in ("項目",)]
    labels = [r[0] for r in lines]
    if hand.game == "doudizhu" and hand.result.get("escaped_seat") is None:
        base = int(next(v for k, v in lines if k == "底分"))
        capped = "封頂" in labels
        pairs = [(k, int(v.lstrip("×"))) for k, v in lines if k.startswith("對局倍數")]
        assert len(pairs) == 2
        landlord = hand.result["extra"]["landlord"]
        if not capped and hand.params.get("variant") != "laizi":
            total = 0
            for label, m in pairs:
                farmer = next(i for i, name in enumerate(names) if name in label)
                assert abs(shown[farmer]) == base * m, (label, shown)
                total += shown[farmer]
            assert shown[landlord] == -total
            checks["panel: 斗地主 積分 = 底分 × pair 倍數"] += 1
    if hand.game == "mahjong_huanle":
        pays = [v for k, v in lines if "→" in k and "=" in v]
        dealer_doubled = any("莊家×2" in v for v in pays)
        assert any(k == "莊家" for k in labels) == dealer_doubled
        for v in pays:
            parts, total = v.split("=")
            product = 1
            for number in re.findall(r"\d+", parts):
                product *= int(number)
            assert product == int(total)
        checks["panel: 歡樂麻將 莊家 line only when it doubled"] += 1
    return checks


def _random_balance(rng: random.Random, a: int) -> int:
    return rng.choice(
        [
            0,
            1,
            3,
            a - 1,
            a,
            a + 2,
            30,
            120,
            rng.randint(0, 400),
            rng.randint(0, 5000),
            rng.randint(0, 5000),
        ]
    )


def _set_balance(user, beans: int) -> None:
    diff = beans - balance_for_user(user)
    if diff:
        ledger.staff_grant(staff=None, user=user, amount=diff, reason="test setup", correction=True)


def _play_hand(table_id: int, limit: int = 3000) -> Hand:
    for _ in range(limit):
        table, hand, state = current_state(table_id)
        if hand is None:
            return Hand.objects.filter(table_id=table_id).order_by("-number").first()
        ruleset = registry.get(hand.game)
        index = min(tables.table_seats(hand, ruleset.to_act(state)))  # 三張: engine → table seat
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table_id, seat_index=index)
    raise AssertionError("hand did not finish")


@pytest.mark.parametrize("game_id,fields", GAMES, ids=[g[0] for g in GAMES])
def test_every_bean_follows_the_rule(
    game_id, fields, make_user, django_capture_on_commit_callbacks
):
    """Every hand: ledger sums to zero, no balance below zero, A once, the rule to the bean."""
    rng = random.Random(f"money:{game_id}")
    room = Room.objects.create(
        name=f"錢 {game_id}",
        base_score=1,
        min_beans=0,
        max_beans=None,
        turn_seconds=20,
        bot_wait_seconds=0,
        **fields,
    )
    a = room.rake
    users = [make_user(beans=5000) for _ in range(room.seats)]
    pot_game = room.game == "zhajinhua"
    with django_capture_on_commit_callbacks(execute=True):
        table = lobby_services.quick_join(user=users[0], room_id=room.pk)
        for user in users[1:]:
            seating.seat_take(table_id=table.pk, user=user)
    Seat.objects.filter(table=table).update(auto=True, connections=1)
    checks = defaultdict(int)
    played = 0
    failures: list[str] = []
    started = time.monotonic()
    # the first hand was dealt on joining (三張's antes already taken): each had 5000 before;
    # later hands get fresh balances before the deal
    held = {u.pk: 5000 for u in users}
    while played < HANDS:
        with django_capture_on_commit_callbacks(execute=True):
            hand = _play_hand(table.pk)
        hand.refresh_from_db()
        assert hand.settled_at is not None, "the settlement task ran"
        played += 1
        try:
            players = hand.players
            before = {seat: held[p["user_id"]] for seat, p in enumerate(players)}
            after = {seat: balance_for_user(p["user_id"]) for seat, p in enumerate(players)}
            result = hand.result
            extra = result.get("extra") or {}
            changes = {seat: after[seat] - before[seat] for seat in before}
            assert [changes[s] for s in range(len(players))] == result["beans"]
            assert {r.seat: r.beans for r in HandSeat.objects.filter(hand=hand)} == changes
            checks["beans shown = ledger"] += 1
            assert all(b >= 0 for b in after.values()), after
            checks["no balance negative"] += 1
            if pot_game:
                # docs/rules/zhajinhua.md: stakes go to the pot as made; the winner takes the pot
                # less A once (at most the pot); an escaper also pays the room's penalty.
                stakes = extra["stakes"]
                pot_total = sum(stakes)
                rake = min(a, pot_total)
                winner = result["winners"][0]
                penalties = {int(k): v for k, v in (extra.get("escape_penalties") or {}).items()}
                for seat in before:
                    won = pot_total - rake if seat == winner else 0
                    assert changes[seat] == won - stakes[seat] - penalties.get(seat, 0)
                assert result["rake"] == rake
                assert Account.objects.get(code=ledger.POT).balance == 0
                checks["pot rule to the bean, pot emptied"] += 1
            else:
                payments = extra.get("payments", [])
                net = defaultdict(int)
                for p in payments:
                    net[p["from"]] -= p["points"]
                    net[p["to"]] += p["points"]
                assert [net[s] for s in range(len(players))] == list(result["scores"]), (
                    "the payments follow from the scores"
                )
                checks["payments = scores"] += 1
                want, taken = expected_changes(payments, int(hand.params["factor"]), a, before)
                assert changes == want, (result["lines"], payments, before)
                checks["rule of docs/rules to the bean"] += 1
                assert result["rake"] == sum(taken.values()) == -sum(changes.values())
                assert all(0 <= t <= a for t in taken.values())
                transfer = Transfer.objects.filter(idempotency_key=f"hand:{hand.pk}").first()
                if transfer is not None:
                    assert sum(p.amount for p in transfer.postings.all()) == 0
                checks["A once per player"] += 1
                for key, count in panel_check(table.pk, hand, users[0]).items():
                    checks[key] += count
            assert ledger_drift() == []
            call_command("ledger_verify")
            checks["ledger sums to zero, ledger_verify"] += 1
        except (AssertionError, CommandError) as error:
            if not KEEP_GOING:
                raise
            failures.append(f"hand {hand.number}: {str(error)[:400]}")
            print(f"\n{game_id}: FAILED hand {hand.number}: {str(error)[:400]}", flush=True)
        if EVERY and played % EVERY == 0:
            print(
                f"\n{game_id}: progress {played} hands; {sum(checks.values())} checks; "
                f"{len(failures)} failures; {time.monotonic() - started:.0f} s",
                flush=True,
            )
        if played == HANDS:
            break
        if time.time() > UNTIL:
            print(f"\n{game_id}: stopped by the time budget at {played} hands", flush=True)
            break
        fresh = [_random_balance(rng, a) for _ in users]
        if pot_game:
            ante = int(room.extra["ante"])
            for i in rng.sample(range(len(users)), 2):  # at least two can pay the 底注
                fresh[i] = max(fresh[i], ante + rng.choice([0, 5, 40, 300]))
        for user, beans in zip(users, fresh):
            _set_balance(user, beans)
        held = {u.pk: balance_for_user(u) for u in users}
        Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(seconds=1))
        # every player answers 繼續 between hands (one who never does is stood up after the
        # room's idle_hands_limit, which this test of the money does not exercise)
        Seat.objects.filter(table=table).update(auto=True, connections=1, hands_unanswered=0)
        with django_capture_on_commit_callbacks(execute=True):
            seating.table_tick(table_id=table.pk)
        table.refresh_from_db()
        assert table.status == Table.Status.PLAYING, "every player (min_beans 0) plays on"
        dealt = table.hands.order_by("-number").first()
        assert dealt.number == hand.number + 1 and dealt.status == Hand.Status.PLAYING
        if pot_game:  # only those who can pay the 底注 are dealt in
            assert {p["user_id"] for p in dealt.players} == {
                u.pk for u, beans in zip(users, fresh) if beans >= ante
            }
            checks["dealt only those who can pay the 底注"] += 1
        else:
            assert len(dealt.players) == room.seats
    print(
        f"\n{game_id}: {played} hands; checks {dict(checks)}; failures {len(failures)}; "
        f"{time.monotonic() - started:.0f} s",
        flush=True,
    )
    assert not failures, failures


# 大豐收 (docs/rules/dafengshou.md): the crop order of the odds table, big cells pay the crop's
# odds, small cells 2, the payout includes the stake; RING is the wheel's layout (data).
WHEEL_CROPS = ("apple", "orange", "grape", "corn", "watermelon", "peach", "pumpkin", "rice")


def test_wheel_every_bean_follows_the_odds(make_user):
    """大豐收 rounds with random bets from balances near zero: a bet beyond the balance is
    refused and changes nothing; each player's change = Σ lit cells' stake × odds − stakes;
    the house account takes the rest; the ledger sums to zero; no balance negative."""
    from games.models import WheelRound
    from games.rules.dafengshou.wheel import RING
    from games.services import dafengshou

    rng = random.Random("money:wheel")
    odds = {
        "apple": 5,
        "orange": 10,
        "grape": 15,
        "corn": 20,
        "watermelon": 20,
        "peach": 30,
        "pumpkin": 40,
        "rice": 90,
    }  # the room's odds (稻穗 90, not the default 100)
    room = Room.objects.create(
        name="錢 大豐收",
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
            "player_limit": 5000,
            "round_limit": 100000,
            "odds": [odds[c] for c in WHEEL_CROPS],
        },
    )
    users = [make_user(beans=0) for _ in range(4)]
    rounds, refused, lit_paid, wheel_checks = 0, 0, 0, 0
    started = time.monotonic()
    for _ in range(max(HANDS, 4) * 3):
        if rounds >= 4 and time.time() > UNTIL:
            print(f"\ndafengshou: stopped by the time budget at {rounds} rounds", flush=True)
            break
        for user in users:
            _set_balance(user, rng.choice([0, 5, 10, 15, 120, rng.randint(0, 3000)]))
        before = {u.pk: balance_for_user(u) for u in users}
        house_before = dafengshou.house_account(room.pk).balance
        rnd = dafengshou.round_enter(room_id=room.pk)
        staked: dict[int, dict[str, int]] = {u.pk: defaultdict(int) for u in users}
        for user in users:
            for _ in range(rng.randint(0, 4)):
                crop, chip = rng.choice(WHEEL_CROPS), rng.choice([10, 100, 1000])
                left = before[user.pk] - sum(staked[user.pk].values())
                try:
                    dafengshou.bet_place(
                        room_id=room.pk,
                        user=user,
                        round_number=rnd.number,
                        object=crop,
                        amount=chip,
                        action_id=os.urandom(8).hex(),
                    )
                except dafengshou.NotEnoughBeans:
                    assert chip > left  # refused only for want of beans
                    assert balance_for_user(user) == left
                    refused += 1
                    wheel_checks += 1
                    continue
                assert chip <= left
                staked[user.pk][crop] += chip
        past = timezone.now() - timedelta(seconds=1)
        WheelRound.objects.filter(pk=rnd.pk).update(closes_at=past)
        dafengshou.due_rounds_run()
        WheelRound.objects.filter(pk=rnd.pk).update(settle_at=past)
        dafengshou.due_rounds_run()
        rnd.refresh_from_db()
        assert rnd.phase == "settled"
        lit = rnd.outcome["lit"]
        total_change = 0
        for user in users:
            win = 0
            for cell in lit:
                kind, crop = RING[cell]
                if crop is None:
                    continue
                win += staked[user.pk][crop] * (odds[crop] if kind == "big" else 2)
            change = balance_for_user(user) - before[user.pk]
            assert change == win - sum(staked[user.pk].values())
            assert balance_for_user(user) >= 0
            wheel_checks += 2
            lit_paid += win > 0
            total_change += change
        assert dafengshou.house_account(room.pk).balance - house_before == -total_change
        assert ledger_drift() == []
        wheel_checks += 2
        rounds += 1
        if EVERY and rounds % EVERY == 0:
            print(
                f"\ndafengshou: progress {rounds} rounds; {time.monotonic() - started:.0f} s",
                flush=True,
            )
    call_command("ledger_verify")
    assert refused > 0 and lit_paid > 0  # both branches were exercised
    print(
        f"\ndafengshou: {rounds} rounds; {wheel_checks} checks; {refused} bets refused for "
        f"want of beans, {lit_paid} winning bettors; odds rule, house = −Σ players, ledger; "
        f"{time.monotonic() - started:.0f} s",
        flush=True,
    )
