"""Reads for the live table: who may see it, snapshots (for every viewer), the viewer's seat."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction

from games.caches import ProcessCache
from games.models import Hand, HandEvent, HandSeat, Seat, Table


def seat_index_for_user(table_id: int, user) -> int | None:
    return Seat.objects.filter(table_id=table_id, user=user).values_list("index", flat=True).first()


INVITE_CODES_KEY = "leyou_invite_codes"  # session: the private tables' codes this user presented
PLAYER = "player"  # seated: the seat's own view
WATCHER = "watcher"  # not seated: the spectator view (no concealed card, no invite code)


def table_access(user, table: Table, *, codes=()) -> str | None:
    """Who may see a table's page and socket: ``PLAYER``, ``WATCHER`` or None (refused).

    - a seated player: ``PLAYER``;
    - a private table (私人桌): its owner (房主), staff, whoever presented its invite code
      (``codes``: the codes this viewer entered, kept in the session by the join view), and
      whoever was dealt a hand there (stood up between hands — he missed the hand's end, or
      left — he may come back from any session, code or not) watch;
      every other user is refused — the page answers 404, the socket closes 4404;
    - a public table: any logged-in user watches. The spectator view hides every concealed
      card (the engine's ``spectator_view``), so a live watcher learns nothing a seat could
      use and bean rooms need no delay (a delay would be needed only for an open view).
    Visitors who are not logged in are refused everywhere.
    """
    if user is None or not user.is_authenticated:
        return None
    if table.seats.filter(user=user).exists():
        return PLAYER
    if not table.is_private:
        return WATCHER
    if user.is_staff or table.owner_id == user.pk:
        return WATCHER
    if table.invite_code and table.invite_code in codes:
        return WATCHER
    if played_at(user, table):
        return WATCHER
    return None


def played_at(user, table: Table) -> bool:
    """Was the user dealt a hand at this table? A settled hand's line (HandSeat), or the
    newest hand's players (its settlement may still be on its way when he is stood up)."""
    if HandSeat.objects.filter(hand__table=table, user=user).exists():
        return True
    newest = table.hands.order_by("-number").values_list("players", flat=True).first()
    return any(isinstance(p, dict) and p.get("user_id") == user.pk for p in (newest or []))


def may_return(user, table: Table) -> bool:
    """May the user sit down again at this private table without its code (回到座位)? He was
    dealt a hand there, sits nowhere now, and a seat is free."""
    if user is None or not user.is_authenticated or not table.is_private:
        return False
    if table.status == Table.Status.CLOSED or Seat.objects.filter(user=user).exists():
        return False
    return table.seats.filter(user__isnull=True).exists() and played_at(user, table)


def table_access_by_id(*, user, table_id: int, codes=()) -> str | None:
    """``table_access`` for a table id; an unknown table is refused like a hidden one."""
    table = Table.objects.filter(pk=table_id).first()
    return None if table is None else table_access(user, table, codes=codes)


def table_for_user(user) -> Table | None:
    seat = Seat.objects.filter(user=user).select_related("table").first()
    return seat.table if seat else None


def table_snapshot(table_id: int) -> dict[str, Any] | None:
    """Everything needed to render the table for any viewer (hidden data included: server only).

    Read without the table lock, in statements a move may commit between: the seq is read
    again after the rows and the read repeated if it moved (every change bumps the seq in its
    own transaction), so the rows are always those of the seq the snapshot names. Under a
    stream of changes the last read takes the lock.
    """
    for _ in range(3):
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return None
        snapshot = _snapshot_read(table)
        if Table.objects.filter(pk=table_id).values_list("seq", flat=True).first() == table.seq:
            return snapshot
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        return None if table is None else _snapshot_read(table)


def _snapshot_read(table: Table) -> dict[str, Any]:
    seats = list(table.seats.select_related("user").order_by("index"))
    hand = table.hands.order_by("-number").first()
    last = None
    if hand is not None:  # the hand's last move, as the writer of that move pushed it
        last = (
            HandEvent.objects.filter(table_id=table.pk, hand_id=hand.pk)
            .order_by("-seq")
            .values("seat", "action")
            .first()
        )
    return snapshot_build(table, seats, hand, last)


def snapshot_build(
    table: Table, seats: list[Seat], hand: Hand | None, last_move: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The snapshot from rows already in hand (the writer builds it under its table lock).

    ``seats`` in index order with their users loaded, ``hand`` the table's newest hand,
    ``last_move`` its last move (engine seat and action: the effects a board shows).
    """
    return {
        "table": {
            "id": table.pk,
            "game": table.game,
            "seq": table.seq,
            "move_seq": table.move_seq,
            "status": table.status,
            "params": table.params,
            "is_private": table.is_private,
            "invite_code": table.invite_code,
            "owner_id": table.owner_id,
            "next_hand_at": table.next_hand_at.isoformat() if table.next_hand_at else None,
            "fill_deadline": table.fill_deadline.isoformat() if table.fill_deadline else None,
        },
        "seats": [
            {
                "index": s.index,
                "user_id": s.user_id,
                "name": str(s.user) if s.user else None,
                "avatar": s.user.avatar_seed if s.user else 0,
                "is_bot": s.is_bot,
                "auto": s.auto,
                "ready": s.ready,  # between hands: answered 繼續
                "online": s.is_bot or s.connections > 0,
                "deadline": s.deadline.isoformat() if s.deadline else None,
            }
            for s in seats
        ],
        "hand": None
        if hand is None
        else {
            "id": hand.pk,
            "number": hand.number,
            "status": hand.status,
            "seed_hash": hand.seed_hash,
            "seed": hand.seed if hand.status != Hand.Status.PLAYING else None,
            "state": hand.state,
            "result": hand.result,
            "params": hand.params,
            "players": hand.players,
            "settled": hand.settled_at is not None,
            "counter_seats": hand.counter_seats,
            "last": None
            if last_move is None
            else {"seat": last_move["seat"], "action": last_move["action"]},
        },
    }


# hand id -> (table seq, the hand's engine state at that seq) in this process, the newest
# seq only: decoded once from a snapshot for every render of that change, or handed over by
# this process's writer of that seq (``engine_state_remember``), so the sockets of a move
# made here decode nothing. One state per hand, not one per change: every state kept lives
# long enough to reach the collector's oldest generation, whose full walks are the loaded
# server's tail (docs/performance.md). Nothing mutates a state once it is here: the next move
# decodes its own from the hand's JSON.
engine_states: ProcessCache[int, tuple[int, Any]] = ProcessCache("engine_states", 5000)


def engine_state_get(hand_id: int, seq: int) -> Any | None:
    """The hand's engine state at ``seq`` if this process keeps it, else None."""
    kept = engine_states.get(hand_id)
    return kept[1] if kept is not None and kept[0] == seq else None


def engine_state_remember(hand_id: int, seq: int, state: Any) -> None:
    """Keep the engine state the hand is in at ``seq`` for this process's renders of it,
    unless a newer seq's is kept (a late render of an older change decodes its own).

    The caller hands the object over: it must be the state the hand's stored JSON at that seq
    decodes to, and it must not change afterwards.
    """
    kept = engine_states.get(hand_id)
    if kept is not None and kept[0] > seq:
        return
    engine_states.put(hand_id, (seq, state))


# table id -> the newest snapshot this process has read (shared by all its sockets of the table)
snapshots: ProcessCache[int, dict[str, Any]] = ProcessCache("snapshots", 5000)


def table_snapshot_cached(table_id: int, at_least: int | None) -> dict[str, Any] | None:
    """The snapshot from this process's cache when it is at ``seq`` ≥ ``at_least``, else read.

    Every change of a table bumps its seq, so a cached snapshot at or past the announced seq
    is as good as a new read. ``at_least=None`` always reads (connect, resync).
    """
    if at_least is not None:
        cached = table_snapshot_in_cache(table_id, at_least)
        if cached is not None:
            return cached
    snapshot = table_snapshot(table_id)
    if snapshot is not None:
        _snapshot_remember(table_id, snapshot)
    return snapshot


def table_snapshot_in_cache(table_id: int, at_least: int) -> dict[str, Any] | None:
    """This process's snapshot of the table if it is at ``seq`` ≥ ``at_least`` (no query)."""
    cached = snapshots.get(table_id)
    if cached is not None and cached["table"]["seq"] >= at_least:
        return cached
    return None


def table_snapshot_pushed(table_id: int, seq: int, encoded: str) -> dict[str, Any]:
    """The snapshot a broadcast carried, decoded once per process and change.

    The sockets of a table in this process share it: the first one decodes, the others find
    it in the cache at that seq (or newer).
    """
    cached = table_snapshot_in_cache(table_id, seq)
    if cached is not None:
        return cached
    snapshot = json.loads(encoded)
    _snapshot_remember(table_id, snapshot)
    return snapshot


def _snapshot_remember(table_id: int, snapshot: dict[str, Any]) -> None:
    """Keep the snapshot for the table's sockets in this process unless a newer one is kept."""
    cached = snapshots.get(table_id)
    if cached is not None and cached["table"]["seq"] > snapshot["table"]["seq"]:
        return
    snapshots.put(table_id, snapshot)


def seat_in_snapshot(snapshot: dict[str, Any], user_id: int) -> int | None:
    """The viewer's seat at the table, from the snapshot itself (no extra query)."""
    return next((s["index"] for s in snapshot["seats"] if s["user_id"] == user_id), None)
