"""Live tables over real WebSockets against real Daphne processes."""

from __future__ import annotations

import json
import os
import time

import pytest

from games.engine import registry
from games.models import Hand, HandEvent, Table
from games.rules.doudizhu import legal_plays
from ledger.selectors import ledger_drift
from lobby import services as lobby_services
from tests.live.conftest import login_cookie, recv_json, ws_connect

pytestmark = [pytest.mark.live, pytest.mark.slow]
RULES = registry.get("doudizhu")


def choose(view: dict, seat: int) -> dict | None:
    """A scripted client's choice from its own view only."""
    if seat not in view["to_act"]:
        return None
    if view.get("can_play"):
        lead = view.get("lead")
        last = lead["cards"] if lead and lead["seat"] != seat else None
        plays = [p for p in legal_plays(view["hand"], last) if p != "pass"]
        if plays:
            cards, _, reading = plays[0].partition("/")
            return {"type": "play", "cards": cards, **({"as": reading} if reading else {})}
        return {"type": "pass"}
    options = view["options"]
    for preferred in (
        {"type": "bid", "call": True},
        {"type": "start", "mingpai": False},
        {"type": "ready"},
        {"type": "rob", "rob": False},
        {"type": "double", "double": False},
    ):
        if preferred in options:
            return preferred
    return options[0] if options else None


def state_at(hand: Hand, seq: int):
    """The engine state after the table's event ``seq`` (re-derived from seed + log)."""
    config = RULES.config_from_params(hand.params)
    state = RULES.new_game(config, hand.seed, 3)
    for event in HandEvent.objects.filter(hand=hand, seq__lte=seq).order_by("seq"):
        RULES.apply(state, event.seat, event.action)
    return state


def walk(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)
    else:
        yield value


PACE = 1 / 7


def play_hand(sockets: dict[int, object], frames: dict[int, list], *, stop_after=None):
    """Drive the seats' sockets until the hand is over (or ``stop_after`` actions)."""
    latest: dict[int, dict] = {
        seat: seat_frames[-1]
        for seat, seat_frames in frames.items()
        if seat_frames and seat_frames[-1]["type"] == "table" and seat_frames[-1]["view"]
    }
    acted_at: dict[int, int] = {}
    # a seat sends at most one message per PACE seconds: under the server's per-socket limit
    # (8/s after a burst of 20; past it the socket is closed with 1008, as a flood should be)
    sent_at: dict[int, float] = {}
    actions = 0
    deadline = time.time() + 120
    while time.time() < deadline:
        for seat, ws in sockets.items():
            try:
                frame = recv_json(ws, timeout=0.05)
            except TimeoutError:
                continue
            frames[seat].append(frame)
            if frame["type"] == "table" and frame["view"] is not None:
                if seat not in latest or frame["seq"] >= latest[seat]["seq"]:
                    latest[seat] = frame
        for seat, frame in latest.items():
            view = frame["view"]
            if view["phase"] == "over":
                continue
            if acted_at.get(seat) == frame["seq"]:
                continue
            if time.monotonic() - sent_at.get(seat, 0.0) < PACE:
                continue
            action = choose(view, seat)
            if action is None:
                continue
            acted_at[seat] = frame["seq"]
            sent_at[seat] = time.monotonic()
            sockets[seat].send(
                json.dumps(
                    {
                        "kind": "move",
                        "action": action,
                        "seq": frame["seq"],
                        "action_id": f"{seat}-{frame['seq']}",
                    }
                )
            )
            actions += 1
            if stop_after is not None and actions >= stop_after:
                return latest
        if (
            latest
            and all(f["view"]["phase"] == "over" and f["hand"]["settled"] for f in latest.values())
            and len(latest) == len(sockets)
        ):
            return latest
    raise AssertionError("hand did not finish over the sockets")


def _seat_three(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table, users


def test_two_daphne_processes_serve_one_table_and_frames_hide_other_hands(servers, room, make_user):
    """Seats on two server processes play a full hand; every frame is exactly that seat's view.

    Each frame is compared with the engine's view re-derived from seed + log at the frame's seq,
    and no frame carries another seat's concealed hand.
    """
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two processes need the Redis channel layer (REDIS_URL)")
    port_a, port_b = servers.daphne("a"), servers.daphne("b")
    table, users = _seat_three(room, make_user)
    ports = {0: port_a, 1: port_b, 2: port_a}
    sockets = {
        seat: ws_connect(ports[seat], table.pk, login_cookie(u)) for seat, u in enumerate(users)
    }
    frames = {seat: [] for seat in sockets}
    play_hand(sockets, frames)
    for ws in sockets.values():
        ws.close()
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is not None
    checked = 0
    for seat, seat_frames in frames.items():
        for frame in seat_frames:
            if frame["type"] != "table" or frame["view"] is None or frame["hand"]["id"] != hand.pk:
                continue
            state = state_at(hand, frame["seq"])
            view = dict(frame["view"])
            # the platform adds whether the seat owns the 記牌器 (free in this room)
            assert view.pop("counter_price") == 0 and view.pop("counter_owned") is True
            assert view == json.loads(json.dumps(RULES.view(state, seat)))
            shown = frame["view"]["shown"]
            for other in range(3):
                concealed = state.hands[other]
                if other == seat or str(other) in shown or other in shown or len(concealed) < 2:
                    continue
                assert concealed not in set(walk(frame)), f"seat {seat} saw seat {other}'s hand"
            checked += 1
    assert checked > 20
    assert ledger_drift() == []


def test_server_killed_mid_hand_restarts_and_continues_from_the_log(servers, room, make_user):
    """Kill -9 the server mid-hand; a new process continues the same hand from the event log."""
    port = servers.daphne("web")
    table, users = _seat_three(room, make_user)
    cookies = [login_cookie(u) for u in users]
    sockets = {seat: ws_connect(port, table.pk, cookies[seat]) for seat in range(3)}
    frames = {seat: [] for seat in sockets}
    play_hand(sockets, frames, stop_after=12)
    time.sleep(0.5)
    seq_before = Table.objects.get(pk=table.pk).seq
    events_before = HandEvent.objects.filter(table=table).count()
    servers.kill("web")
    for ws in sockets.values():
        ws.close()
    servers.daphne("web", port=port)
    sockets = {seat: ws_connect(port, table.pk, cookies[seat]) for seat in range(3)}
    first = recv_json(sockets[0])
    assert first["seq"] >= seq_before  # the snapshot on reconnect continues where it was
    assert HandEvent.objects.filter(table=table).count() >= events_before
    frames = {seat: [first] if seat == 0 else [] for seat in sockets}
    play_hand(sockets, frames)
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.FINISHED
    # the whole log replays to the stored final state
    state = state_at(hand, 10**9)
    assert RULES.state_to_json(state) == hand.state
    for ws in sockets.values():
        ws.close()


def _next_error(ws) -> dict:
    """The next error frame; table pushes (another seat's 在線, a lease renewal) may come first."""
    while True:
        frame = recv_json(ws)
        if frame["type"] != "table":
            return frame


def test_bad_frames_get_errors_and_flooding_closes_1008(servers, room, make_user):
    """Malformed, oversized and stale frames get error frames; a flood is closed with 1008."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    port = servers.daphne("web")
    table, users = _seat_three(room, make_user)
    ws = ws_connect(port, table.pk, login_cookie(users[0]))
    snapshot = recv_json(ws)
    assert snapshot["type"] == "table"
    ws.send("{not json")
    assert _next_error(ws) == {"type": "error", "code": "malformed", "message": "訊息格式不正確"}
    ws.send(json.dumps({"kind": "move", "action": {"type": "start"}, "pad": "x" * 5000}))
    assert _next_error(ws)["code"] == "too_large"
    ws.send(
        json.dumps(
            {
                "kind": "move",
                "action": {"type": "start", "mingpai": False},
                # before the hand's last change (another seat's 在線 is not one)
                "seq": Table.objects.get(pk=table.pk).move_seq - 1,
                "action_id": "stale-1",
            }
        )
    )
    assert _next_error(ws)["code"] == "stale_seq"
    assert recv_json(ws)["type"] == "table"  # and a fresh snapshot to resync
    assert not HandEvent.objects.filter(action_id="stale-1").exists()
    before = Table.objects.get(pk=table.pk).move_seq
    events = HandEvent.objects.count()
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            ws.send(json.dumps({"kind": "resync"}))
        for _ in range(400):
            ws.recv(timeout=5)
    assert closed.value.rcvd.code == 1008
    # the flood moved nothing (the seq moves only as the closed socket's seat goes 離線)
    assert Table.objects.get(pk=table.pk).move_seq == before
    assert HandEvent.objects.count() == events
    # a cross-site socket is refused at the handshake
    with pytest.raises(InvalidStatus):
        ws_connect(port, table.pk, login_cookie(users[1]), origin="http://evil.example")
