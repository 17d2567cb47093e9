"""大豐收's room-wide live round (百人押注): open, bet, close and spin, pay, open the next.

One :class:`~games.models.WheelRound` row per round is the authority. Its stored deadlines
drive it: the clock (``games.clock.sweep`` → :func:`due_rounds_run`) closes the betting window
at ``closes_at`` (the wheel spins from the committed seed) and pays at ``settle_at``, when the
light has stopped on the result; settling opens the next round while anyone is watching.

* Every write locks the round row first (one writer per round, so the per-round limit holds
  and a bet never lands after the close), then the ledger accounts (``transfer_create`` locks
  them in id order): the same order everywhere, so no deadlock.
* A bet's stake leaves the player's account in the same transaction that records the bet
  (``WheelBet``); the spin's payouts are written as ``WheelWin`` rows at the close and paid at
  the settlement with one idempotency key per round and player, so a repeated clock tick or
  a retried task never pays twice.
* Each room's bank is its own system account (``house:wheel:<room>``): no hot row shared by
  all rooms, and its balance is the room's house result.
* The seed never leaves the server before the round is settled; only its hash is shown.
* Fan-out (``games.realtime.publish``, which never blocks this database thread on the
  channel layer), after commit: a phase change (open, close, settle) sends ``dafengshou.changed``
  (room, round number, version) and each socket renders its own player's whole board from
  the database; a bet sends ``dafengshou.bet`` carrying only public figures (the per-crop totals,
  the round total and how many players bet), which sockets coalesce into a few small frames
  a second without reading the database. Totals are absolute, so a lost message is repaired
  by the next one, and a lost phase change by the next push or a reconnect. The lobby hears
  ``lobby.changed`` when a round's bettor count changes (a first bet, a new round).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games import realtime
from games.engine import registry
from games.engine.chance import new_seed, seed_commitment
from games.engine.errors import ErrorCode, IllegalAction
from games.exceptions import (
    DuplicateAction,
    MalformedMessage,
    NotEnoughBeans,
    UnknownDafengshouRoom,
)
from games.models import WheelBet, WheelRound, WheelWin
from games.rules.dafengshou import HOUSE, OBJECTS
from games.rules.dafengshou.wheel import OBJECT_NAMES_ZH
from ledger import services as ledger
from ledger.exceptions import InsufficientBeans

logger = logging.getLogger("leyou.dafengshou")

GAME = "dafengshou"
DEFAULT_BET_SECONDS = 15  # the betting window (room extra "bet_seconds")
DEFAULT_SPIN_SECONDS = 6  # the light running to the result (room extra "spin_seconds")
RESULT_HOLD_SECONDS = 3  # the settled round's result stays lit this long into the next window
ACTIVE_SECONDS = 300  # rounds keep coming this long after the last visit, bet or ping
MAX_ACTION_ID = 40

# lobby registers room_id -> the room's params if it is an open 大豐收 room, else None
_room_source: Callable[[int], dict | None] | None = None


def room_source_set(func: Callable[[int], dict | None]) -> None:
    """Let the lobby supply an open 大豐收 room's live params (games never imports lobby)."""
    global _room_source
    _room_source = func


def _room_params(room_id: int) -> dict:
    params = _room_source(room_id) if _room_source else None
    if params is None or params.get("game") != GAME:
        raise UnknownDafengshouRoom(_("沒有這個大豐收場次，或場次暫停開放"))
    return params


def _ruleset():
    return registry.get(GAME)


def timings(params: dict[str, Any]) -> tuple[int, int]:
    """The round's (betting window, spin) lengths in seconds, from the room snapshot."""
    bet = int(params.get("bet_seconds") or DEFAULT_BET_SECONDS)
    spin = int(params.get("spin_seconds") or DEFAULT_SPIN_SECONDS)
    return max(3, bet), max(2, spin)


def result_hold(params: dict[str, Any]) -> float:
    """Seconds the settled round's result stays lit on the next round's board (at most a third
    of the betting window).

    The light stops at 85 % of the spin and the settlement opens the next round at its end,
    so without a hold the result would be lit for 15 % of the spin (0.9 s by default), and
    only on a page whose timer happened to run in that instant.
    """
    bet, _spin = timings(params)
    return min(RESULT_HOLD_SECONDS, bet / 3)


def house_account(room_id: int):
    """The room's bank (a system account: it may go below zero on a lucky round)."""
    return ledger.system_account(f"house:wheel:{room_id}")


def _publish(room_id: int, message: dict[str, Any], *, lobby: bool = False) -> None:
    try:
        realtime.publish(realtime.dafengshou_group(room_id), message)
        if lobby:
            realtime.publish(realtime.LOBBY_GROUP, {"type": "lobby.changed"})
    except Exception:  # the change is saved; sockets resync on the next push or reconnect
        logger.exception("dafengshou broadcast failed for room %s: %s", room_id, message["type"])


def _broadcast_on_commit(room_id: int, number: int, version: int, *, lobby: bool = False) -> None:
    message = {
        "type": "dafengshou.changed",
        "room_id": room_id,
        "number": number,
        "version": version,
    }
    # after commit: nobody is told of a spin or a new round that could still roll back
    transaction.on_commit(lambda: _publish(room_id, message, lobby=lobby))


def _bet_broadcast_on_commit(rnd: WheelRound, bettors: int, *, lobby: bool) -> None:
    """Tell the room's sockets the round's new public totals (never who staked what)."""
    message = {
        "type": "dafengshou.bet",
        "room_id": rnd.room_id,
        "number": rnd.number,
        "version": rnd.version,
        "totals": dict(rnd.totals),
        "round_total": rnd.staked_total,
        "bettors": bettors,
    }
    # after commit: nobody is told of a bet that could still roll back
    transaction.on_commit(lambda: _publish(rnd.room_id, message, lobby=lobby))


def _lock_live(room_id: int) -> WheelRound | None:
    # The row lock makes this transaction the round's only writer until it commits.
    return (
        WheelRound.objects.select_for_update()
        .filter(room_id=room_id)
        .exclude(phase=WheelRound.Phase.SETTLED)
        .first()
    )


def _open(
    room_id: int, params: dict, number: int, now: datetime, active_until: datetime
) -> WheelRound:
    seed = new_seed()
    bet_seconds, _spin = timings(params)
    _ruleset().config_from_params(params)  # refuse a broken odds table before opening
    return WheelRound.objects.create(
        room_id=room_id,
        number=number,
        seed=seed,
        seed_hash=seed_commitment(seed),
        params=params,
        opened_at=now,
        closes_at=now + timedelta(seconds=bet_seconds),
        active_until=active_until,
        totals={o: 0 for o, _zh in OBJECTS},
    )


def round_enter(*, room_id: int) -> WheelRound:
    """Return the room's live round, opening one if none runs; mark the room as watched.

    Raises UnknownDafengshouRoom for a room that is not an open 大豐收 room (a round already
    running in a room that was just closed is still returned, so it can finish).
    """
    now = timezone.now()
    active_until = now + timedelta(seconds=ACTIVE_SECONDS)
    with transaction.atomic():
        live = _lock_live(room_id)
        if live is not None:
            if live.active_until < active_until - timedelta(seconds=30):
                live.active_until = active_until
                live.save(update_fields=["active_until"])
            return live
        params = _room_params(room_id)
        last = (
            WheelRound.objects.filter(room_id=room_id)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
        )
        try:
            with transaction.atomic():
                live = _open(room_id, params, (last or 0) + 1, now, active_until)
        except IntegrityError:
            # another process opened it between our read and our insert
            return (
                WheelRound.objects.filter(room_id=room_id)
                .exclude(phase=WheelRound.Phase.SETTLED)
                .get()
            )
        _broadcast_on_commit(room_id, live.number, live.version)
        return live


def room_touch(*, room_id: int) -> None:
    """Keep the rounds coming while a socket is open (the page pings now and then)."""
    until = timezone.now() + timedelta(seconds=ACTIVE_SECONDS)
    WheelRound.objects.filter(
        room_id=room_id, active_until__lt=until - timedelta(seconds=30)
    ).exclude(phase=WheelRound.Phase.SETTLED).update(active_until=until)


def _bets_by_user(rnd: WheelRound) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = defaultdict(dict)
    rows = rnd.bets.values("user_id", "object").annotate(total=Sum("amount"))
    for row in rows:
        out[row["user_id"]][row["object"]] = row["total"]
    return dict(out)


def bet_place(
    *, room_id: int, user, round_number: int | None, object: Any, amount: Any, action_id: Any
) -> WheelBet:
    """押注: stake one chip on one crop in the room's current round.

    The stake leaves the player's account in the same transaction that records the bet.
    Raises (and changes nothing): IllegalAction ``window_closed`` (the round is not open for
    bets, or ``round_number`` is not the current round), ``illegal`` (unknown crop, not a chip
    size), ``over_limit`` (per-player or per-round limit), ``malformed``; NotEnoughBeans;
    DuplicateAction for an ``action_id`` already accepted in this round.
    """
    if (
        not isinstance(action_id, str)
        or not 0 < len(action_id) <= MAX_ACTION_ID
        or not action_id.isprintable()
    ):  # a NUL would reach PostgreSQL as a DataError
        raise MalformedMessage(_("押注需要 action_id"))
    if isinstance(amount, str) and amount.isdigit():
        amount = int(amount)  # form values arrive as strings
    with transaction.atomic():
        rnd = _lock_live(room_id)
        now = timezone.now()
        if (
            rnd is None
            or rnd.phase != WheelRound.Phase.BETTING
            or rnd.closes_at <= now
            or (round_number is not None and rnd.number != round_number)
        ):
            raise IllegalAction(
                ErrorCode.WINDOW_CLOSED, "betting is closed", {"reason": "betting_closed"}
            )
        if rnd.bets.filter(user=user, action_id=action_id).exists():
            raise DuplicateAction(_("這一注已經收到了"))
        ruleset = _ruleset()
        config = ruleset.config_from_params(rnd.params)
        mine = _bets_by_user(rnd).get(user.pk, {})
        others = {o: rnd.totals.get(o, 0) - mine.get(o, 0) for o in rnd.totals}
        # The engine checks the bet: this player's slot, everyone else as one slot (round limit).
        state = ruleset.new_game(config, rnd.seed, 2)
        state.bets = [dict(mine), others]
        ruleset.apply(state, 0, {"type": "bet", "object": object, "amount": amount})
        try:
            ledger.transfer_create(
                postings=[
                    (ledger.account_for_user(user), -amount),
                    (house_account(room_id), amount),
                ],
                kind=ledger.TransferKind.STAKE,
                reason=f"大豐收 第{rnd.number}局 押{OBJECT_NAMES_ZH[object]} {amount}",
                idempotency_key=f"wheel:{rnd.pk}:bet:{user.pk}:{action_id}",
            )
        except InsufficientBeans:
            raise NotEnoughBeans(
                format_lazy(_("歡樂豆不足，押 {amount} 需要 {amount} 豆"), amount=amount)
            ) from None
        bet = WheelBet.objects.create(
            round=rnd, user=user, object=object, amount=amount, action_id=action_id
        )
        rnd.totals = {**rnd.totals, object: rnd.totals.get(object, 0) + amount}
        rnd.staked_total += amount
        rnd.version += 1
        rnd.save(update_fields=["totals", "staked_total", "version"])
        bettors = rnd.bets.values("user_id").distinct().count()
        # the lobby shows the round's bettor count: only a player's first bet changes it
        _bet_broadcast_on_commit(rnd, bettors, lobby=not mine)
    return bet


def round_close(*, round_id: int) -> bool:
    """封盤 and spin: close a round whose window is due; False if it is not (exactly once).

    The engine's close draws the outcome from ``Chance(seed, "spin")``; each bettor's payout
    is written as a WheelWin row, paid by :func:`round_settle` when the light stops.
    """
    with transaction.atomic():
        rnd = (
            WheelRound.objects.select_for_update()
            .filter(pk=round_id, phase=WheelRound.Phase.BETTING)
            .first()
        )  # the lock: one close, however many clocks tick
        now = timezone.now()
        if rnd is None or rnd.closes_at > now:
            return False
        ruleset = _ruleset()
        by_user = _bets_by_user(rnd)
        users = sorted(by_user)
        state = ruleset.new_game(
            ruleset.config_from_params(rnd.params), rnd.seed, max(1, len(users))
        )
        for slot, user_id in enumerate(users):
            state.bets[slot] = dict(by_user[user_id])
        events = ruleset.apply(state, HOUSE, {"type": "close"})
        spin = next(e.data for e in events if e.type == "spin")
        WheelWin.objects.bulk_create(
            [
                WheelWin(
                    round=rnd,
                    user_id=user_id,
                    staked=sum(by_user[user_id].values()),
                    payout=state.payouts[slot],
                )
                for slot, user_id in enumerate(users)
            ]
        )
        _bet, spin_seconds = timings(rnd.params)
        rnd.outcome = spin
        rnd.phase = WheelRound.Phase.SPINNING
        rnd.settle_at = now + timedelta(seconds=spin_seconds)
        rnd.version += 1
        rnd.save(update_fields=["outcome", "phase", "settle_at", "version"])
        _broadcast_on_commit(rnd.room_id, rnd.number, rnd.version)
    return True


def win_pay(win: WheelWin, rnd: WheelRound) -> Any:
    """派彩: pay one player's win of a round; the key (round, player) makes it at most once."""
    if win.payout <= 0:
        return None
    return ledger.transfer_create(
        postings=[
            (house_account(rnd.room_id), -win.payout),
            (ledger.account_for_user_id(win.user_id), win.payout),
        ],
        kind=ledger.TransferKind.PAYOUT,
        reason=f"大豐收 第{rnd.number}局 派彩",
        idempotency_key=f"wheel:{rnd.pk}:payout:{win.user_id}",
    )


def round_settle(*, round_id: int) -> bool:
    """Pay a spun round whose light has stopped, then open the next round if anyone watches.

    Returns False when there is nothing to do (already settled, or not due): exactly once.
    """
    with transaction.atomic():
        rnd = (
            WheelRound.objects.select_for_update()
            .filter(pk=round_id, phase=WheelRound.Phase.SPINNING)
            .first()
        )  # the lock: one settlement, however many clocks tick
        now = timezone.now()
        if rnd is None or rnd.settle_at is None or rnd.settle_at > now:
            return False
        paid = 0
        for win in rnd.wins.filter(payout__gt=0).order_by("user_id"):
            win_pay(win, rnd)
            paid += win.payout
        rnd.paid_total = paid
        rnd.phase = WheelRound.Phase.SETTLED
        rnd.settled_at = now
        rnd.version += 1
        rnd.save(update_fields=["paid_total", "phase", "settled_at", "version"])
        number, version = rnd.number, rnd.version
        if rnd.active_until > now:
            try:
                params = _room_params(rnd.room_id)
            except UnknownDafengshouRoom:
                params = None  # the operator closed the room: no next round
            if params is not None:
                nxt = _open(rnd.room_id, params, rnd.number + 1, now, rnd.active_until)
                number, version = nxt.number, nxt.version
        # the lobby's bettor count drops to 0 with the new round
        _broadcast_on_commit(rnd.room_id, number, version, lobby=rnd.staked_total > 0)
    return True


def due_rounds_run(now: datetime | None = None) -> int:
    """The clock's step: close every due window and settle every stopped spin."""
    now = now or timezone.now()
    steps = 0
    due = (
        (WheelRound.Phase.BETTING, "closes_at", round_close, "closing"),
        (WheelRound.Phase.SPINNING, "settle_at", round_settle, "settling"),
    )
    for phase, deadline, step, doing in due:
        for pk in WheelRound.objects.filter(phase=phase, **{f"{deadline}__lte": now}).values_list(
            "pk", flat=True
        )[:200]:
            try:
                steps += step(round_id=pk)
            except Exception:
                logger.exception("clock: %s dafengshou round %s failed", doing, pk)
    return steps
