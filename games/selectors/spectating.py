"""Reads for spectators (觀戰): who may watch, how many watch, and the delayed spectator view.

A watcher is a logged-in user at a table without a seat (``tables.table_access`` says who may:
any public table, a private one only with its code, as owner or staff). On top of that:

- nobody watches while a seated player has turned 允許觀戰 off (``watching_allowed``);
- in a bean room (歡樂豆場: the room's 房間係數 N > 0) the watcher sees the table late
  (``spectator_snapshot``): a move shows once ``spectator_delay_turns`` later moves have been
  made or ``spectator_delay_seconds`` have passed, whichever comes first (default one turn or
  15 s). The late view is re-derived from the hand's seed and the events shown (the event log
  is the authority), with the hand still "in play" (no result, no seed) until its last move
  shows, and no turn clock (it would tell the live turn). It is the engine's
  ``spectator_view`` of that state: no concealed card, ever. A new deal does not cut the
  previous hand short: its last moves, its end and its settlement show first
  (``_hand_before``), then the new deal.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.engine import registry
from games.engine.params import table_params_read
from games.models import Hand, HandEvent, Seat, SeatLease, Table, WatchPreference
from games.selectors import tables as table_selectors

# a watcher sees a hand's end and settlement for at least this long before the next deal
END_SHOWN_SECONDS = 6
END_SHOWN_TIME = timedelta(seconds=END_SHOWN_SECONDS)

# (hand id, table seq shown) -> the engine state JSON after the events shown (per process)
_delayed_states: dict[tuple[int, int], Any] = {}
_DELAYED_MAX = 2000


def watch_preference(user: Any) -> bool:
    """The user's 允許觀戰 (True when he never chose)."""
    value = (
        WatchPreference.objects.filter(user_id=user.pk)
        .values_list("allow_watching", flat=True)
        .first()
    )
    return True if value is None else bool(value)


def watching_allowed(table_id: int) -> bool:
    """Whether the table may be watched: no seated player has turned 允許觀戰 off."""
    return not WatchPreference.objects.filter(
        allow_watching=False,
        user_id__in=Seat.objects.filter(table_id=table_id, user__isnull=False).values("user_id"),
    ).exists()


def watchers_count(table_id: int) -> int:
    """How many users watch the table now: users with an open socket there and no seat."""
    seated = Seat.objects.filter(table_id=table_id, user__isnull=False).values("user_id")
    return (
        SeatLease.objects.filter(table_id=table_id)
        .exclude(user_id__in=seated)
        .values("user_id")
        .distinct()
        .count()
    )


def spectator_delay(params: dict[str, Any]) -> tuple[int, int]:
    """(turns, seconds) a watcher of a table with these params is behind; (0, 0): live.

    Only bean rooms (房間係數 N > 0) are delayed.
    """
    if not int(params.get("factor") or 0):
        return 0, 0
    room = table_params_read(params)
    return int(room["spectator_delay_turns"]), int(room["spectator_delay_seconds"])


def _visible_count(
    events: list[tuple[int, datetime]], turns: int, seconds: int, now: datetime
) -> int:
    """How many of the hand's events (oldest first) a watcher sees now (always a prefix)."""
    shown = 0
    cutoff = now - timedelta(seconds=seconds)
    for i, (_seq, created) in enumerate(events):
        later = len(events) - 1 - i
        if (turns and later >= turns) or (seconds and created <= cutoff):
            shown = i + 1
    return shown


def _state_after(
    hand: Hand, actions: list[tuple[int, dict[str, Any]]], key: tuple[int, int]
) -> Any:
    cached = _delayed_states.get(key)
    if cached is not None:
        return cached
    ruleset = registry.get(hand.game)
    state = ruleset.new_game(ruleset.config_from_params(hand.params), hand.seed, len(hand.players))
    for seat, action in actions:
        if action.get("type") == "escape":
            continue  # an escape changes the hand's status, not the engine state
        ruleset.apply(state, seat, action)
    encoded = ruleset.state_to_json(state)
    if len(_delayed_states) >= _DELAYED_MAX:
        _delayed_states.clear()
    _delayed_states[key] = encoded
    return encoded


def spectator_snapshot(
    table_id: int, *, now: datetime | None = None
) -> tuple[dict[str, Any] | None, datetime | None]:
    """The table as a watcher sees it now, and when the next hidden move will show (or None).

    Live (``table_selectors.table_snapshot``) when the room is not delayed or nothing is hidden;
    else a snapshot at the last move shown (see the module docstring). Server side only: the
    consumer renders the spectator view from it.
    """
    live = table_selectors.table_snapshot(table_id)
    if live is None or live["hand"] is None:
        return live, None
    turns, seconds = spectator_delay(live["table"]["params"] or {})
    if not turns and not seconds:
        return live, None
    now = now or timezone.now()
    before = _hand_before(live, seconds, now)
    if before is not None:
        return before
    hand_id = live["hand"]["id"]
    rows = list(
        HandEvent.objects.filter(hand_id=hand_id, seq__lte=live["table"]["seq"])
        .order_by("seq")
        .values_list("seq", "created_at", "seat", "action")
    )
    shown = _visible_count([(r[0], r[1]) for r in rows], turns, seconds, now)
    if shown == len(rows):
        return live, None
    # the state at a table seq is the state after the events up to it: the seq of the last
    # event shown (or just before the first hidden one) names exactly the state shown
    seq = rows[shown - 1][0] if shown else rows[0][0] - 1
    hand = Hand.objects.only("game", "params", "seed", "players").get(pk=hand_id)
    state = _state_after(hand, [(r[2], r[3]) for r in rows[:shown]], (hand_id, seq))
    reveal_at = rows[shown][1] + timedelta(seconds=seconds) if seconds else None
    snapshot = {
        "table": {
            **live["table"],
            "seq": seq,
            "move_seq": seq,
            "status": Table.Status.PLAYING,
            "next_hand_at": None,
        },
        "seats": [{**s, "deadline": None} for s in live["seats"]],
        "hand": {
            **live["hand"],
            "status": Hand.Status.PLAYING,
            "seed": None,
            "result": None,
            "settled": False,
            "state": state,
        },
        "delayed": True,
    }
    return snapshot, reveal_at


def _hand_before(
    live: dict[str, Any], seconds: int, now: datetime
) -> tuple[dict[str, Any], datetime | None] | None:
    """The hand before the newest while the watcher has not reached the new deal, else None.

    A watcher is ``seconds`` behind: the previous hand's last moves, then its end and
    settlement panel, show before the next deal — the end for at least
    :data:`END_SHOWN_SECONDS`, however soon the players answered 繼續 — and the deal shows
    once the watcher's clock reaches it.
    """
    hand = live["hand"]
    if hand["number"] <= 1:
        return None
    started = Hand.objects.filter(pk=hand["id"]).values_list("started_at", flat=True).first()
    if started is None or now >= started + timedelta(seconds=seconds + END_SHOWN_SECONDS):
        return None  # past the latest moment the new deal can show (the end came before it)
    prev = Hand.objects.filter(table_id=live["table"]["id"], number=hand["number"] - 1).first()
    if prev is None or prev.finished_at is None:
        return None
    rows = list(
        HandEvent.objects.filter(hand_id=prev.pk)
        .order_by("seq")
        .values_list("seq", "created_at", "seat", "action")
    )
    if not rows:
        return None
    end_shown = rows[-1][1] + timedelta(seconds=seconds)
    deal_shown = max(started + timedelta(seconds=seconds), end_shown + END_SHOWN_TIME)
    if now >= deal_shown:
        return None
    shown = _visible_count([(r[0], r[1]) for r in rows], 0, seconds, now) if seconds else len(rows)
    finished = shown == len(rows)
    seq = rows[shown - 1][0] if shown else rows[0][0] - 1
    state = (
        prev.state
        if finished
        else _state_after(prev, [(r[2], r[3]) for r in rows[:shown]], (prev.pk, seq))
    )
    settled = prev.settled_at is not None
    snapshot = {
        "table": {
            **live["table"],
            # the settlement is a change the watcher sees: one more than the hand's last move
            "seq": seq + (1 if finished and settled else 0),
            "move_seq": seq,
            "status": Table.Status.PLAYING,
            "next_hand_at": None,
        },
        "seats": [{**s, "deadline": None} for s in live["seats"]],
        "hand": {
            "id": prev.pk,
            "number": prev.number,
            "status": prev.status if finished else Hand.Status.PLAYING,
            "seed_hash": prev.seed_hash,
            "seed": prev.seed if finished else None,
            "state": state,
            "result": prev.result if finished else None,
            "params": prev.params,
            "players": prev.players,
            "settled": settled and finished,
            "counter_seats": prev.counter_seats,
            "last": None,
        },
        "delayed": True,
    }
    reveal_at = deal_shown if finished else rows[shown][1] + timedelta(seconds=seconds)
    return snapshot, reveal_at


def tables_watchable(*, limit: int = 20) -> list[dict[str, Any]]:
    """Running public tables a player may watch from the lobby (觀戰), newest first.

    Tables where a seated player turned 允許觀戰 off are left out. Each: id, game title,
    room name, the seated players' names and the watcher count. Three queries in all.
    """
    refusing = WatchPreference.objects.filter(allow_watching=False).values("user_id")
    tables = list(
        Table.objects.filter(status=Table.Status.PLAYING, is_private=False)
        .exclude(seats__user_id__in=refusing)
        .order_by("-pk")[:limit]
    )
    ids = [t.pk for t in tables]
    seated: dict[int, list[tuple[int, str]]] = {}
    for seat in Seat.objects.filter(table_id__in=ids).select_related("user").order_by("index"):
        if seat.user_id is not None:
            seated.setdefault(seat.table_id, []).append((seat.user_id, str(seat.user)))
    watching: dict[int, set[int]] = {}
    for table_id, user_id in SeatLease.objects.filter(table_id__in=ids).values_list(
        "table_id", "user_id"
    ):
        if user_id not in {u for u, _ in seated.get(table_id, [])}:
            watching.setdefault(table_id, set()).add(user_id)
    out = []
    for table in tables:
        try:
            title = registry.get(table.game).title
        except KeyError:
            continue
        out.append(
            {
                "id": table.pk,
                "game": table.game,
                "title": title,
                "room_name": (table.params or {}).get("room_name", ""),
                "players": [name for _, name in seated.get(table.pk, [])],
                "watchers": len(watching.get(table.pk, ())),
            }
        )
    return out
