"""Chat and spectators over real WebSockets against a real Daphne process (issue 15 §1–§2)."""

from __future__ import annotations

import json
import time

import pytest

from games.engine import registry
from games.models import HandEvent, Table
from games.services import tables
from games.tests.helpers import current_state
from lobby import services as lobby_services
from tests.live.conftest import login_cookie, recv_json, ws_connect
from tests.live.test_live_table import choose, walk

pytestmark = [pytest.mark.live, pytest.mark.slow]
RULES = registry.get("doudizhu")


def _seat_three(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table, users


def next_of(ws, kind: str, timeout: float = 8.0) -> dict:
    """The next frame of type ``kind`` (frames of other types are skipped)."""
    deadline = time.time() + timeout
    while True:
        left = deadline - time.time()
        if left <= 0:
            raise TimeoutError(f"no {kind} frame")
        frame = recv_json(ws, timeout=left)
        if frame["type"] == kind:
            return frame


def frames_for(ws, seconds: float) -> list[dict]:
    """Every frame that arrives within ``seconds``."""
    out, deadline = [], time.time() + seconds
    while (left := deadline - time.time()) > 0:
        try:
            out.append(recv_json(ws, timeout=left))
        except TimeoutError:
            break
    return out


def _move(table_id: int) -> int:
    """One move of the seat to act, chosen from its own view, through the service: its seq."""
    table, _hand, state = current_state(table_id)
    seat = min(RULES.to_act(state))
    user = table.seats.get(index=seat).user
    action = choose(json.loads(json.dumps(RULES.view(state, seat))), seat)
    outcome = tables.move_submit(
        table_id=table_id, user=user, action=action, expected_seq=table.seq, action_id=None
    )
    return outcome.seq


def test_a_phrase_reaches_the_other_seats_and_a_watcher_and_bad_chat_changes_nothing(
    servers, room, make_user
):
    """A quick phrase goes to every seat and the watcher; hostile chat frames get error frames
    and change nothing (no event, no seq, no bubble anywhere); a mute hides the speaker."""
    room.extra = {"chat_throttle_seconds": 1}
    room.save()
    port = servers.daphne("web")
    table, users = _seat_three(room, make_user)
    watcher = make_user()
    seats = [ws_connect(port, table.pk, login_cookie(u)) for u in users]
    for ws in seats:
        assert next_of(ws, "table")["seat"] is not None
    spectator = ws_connect(port, table.pk, login_cookie(watcher))
    first = next_of(spectator, "table")
    assert first["seat"] is None and first["table"]["invite_code"] is None
    while next_of(seats[0], "watchers")["count"] != 1:  # the table shows its watcher
        pass
    seats[1].send(json.dumps({"kind": "chat", "phrase": "hurry"}))
    for ws in (seats[0], seats[2], spectator, seats[1]):
        bubble = next_of(ws, "chat")
        assert (bubble["seat"], bubble["kind"], bubble["value"]) == (1, "phrase", "hurry")
        assert bubble["text"] == "快點吧，我等到花兒都謝了"

    events, seq = HandEvent.objects.count(), Table.objects.get(pk=table.pk).seq
    hostile = [
        ({"kind": "chat", "text": "<b>hi</b>"}, "text_private_only"),
        ({"kind": "chat", "phrase": 123}, "malformed"),
        ({"kind": "chat"}, "malformed"),
        ({"kind": "chat", "phrase": "hurry", "emote": "smile"}, "malformed"),
        ({"kind": "chat", "phrase": "../../etc"}, "malformed"),
        ({"kind": "chat", "emote": "nope"}, "unknown_emote"),
        ({"kind": "chat", "text": "x" * 300}, "text_too_long"),
        ({"kind": "mute", "user": "abc", "on": True}, "malformed"),
        ({"kind": "mute", "user": users[2].pk, "on": True}, "mute_self"),
        ({"kind": "watching", "on": "maybe"}, "malformed"),
    ]
    time.sleep(1.1)
    for frame, code in hostile:
        seats[2].send(json.dumps(frame))
        assert next_of(seats[2], "error")["code"] == code, frame
    spectator.send(json.dumps({"kind": "chat", "phrase": "hurry"}))
    assert next_of(spectator, "error")["code"] == "not_seated"
    assert HandEvent.objects.count() == events
    assert Table.objects.get(pk=table.pk).seq == seq
    assert [f for f in frames_for(seats[0], 0.5) if f["type"] == "chat"] == []

    # seat 0 mutes seat 1 (for himself): seat 2 and the watcher still see seat 1
    seats[0].send(json.dumps({"kind": "mute", "user": users[1].pk, "on": True}))
    assert next_of(seats[0], "mutes")["muted"] == [{"user_id": users[1].pk, "name": str(users[1])}]
    time.sleep(1.1)
    seats[1].send(json.dumps({"kind": "chat", "emote": "thumb"}))
    assert next_of(seats[2], "chat")["value"] == "thumb"
    assert next_of(spectator, "chat")["value"] == "thumb"
    assert [f for f in frames_for(seats[0], 0.8) if f["type"] == "chat"] == []
    for ws in (*seats, spectator):
        ws.close()


def test_a_watcher_sees_no_concealed_card_and_a_bean_room_late(servers, room, make_user):
    """Bean room, one turn or 2 s: a move reaches the watcher only after the next move or
    the seconds; no watcher frame carries a concealed hand."""
    room.extra = {"spectator_delay_seconds": 2}
    room.save()
    port = servers.daphne("web")
    table, _users = _seat_three(room, make_user)
    spectator = ws_connect(port, table.pk, login_cookie(make_user()))
    seen = [next_of(spectator, "table")]
    first = _move(table.pk)
    early = frames_for(spectator, 1.0)
    assert all(f["seq"] < first for f in early if f["type"] == "table")
    seen += early
    late = next_of(spectator, "table", timeout=4)  # the 2 s pass: the move shows
    assert late["seq"] == first
    seen.append(late)
    second = _move(table.pk)
    third = _move(table.pk)
    shown = next_of(spectator, "table", timeout=3)  # a later move shows the one before
    assert shown["seq"] == second < third
    seen.append(shown)
    seen += frames_for(spectator, 0.5)
    assert all(f["seq"] < third for f in seen if f["type"] == "table")
    _, _, state = current_state(table.pk)
    for frame in seen:
        if frame["type"] != "table":
            continue
        assert frame["seat"] is None
        values = set(walk(frame))
        for hand in state.hands:
            assert hand not in values
    spectator.close()


def test_watching_off_ends_and_refuses_watching_and_watchers_count_toward_caps(
    servers, room, make_user
):
    """A seated player turning watching off closes the watcher's socket (4403) and refuses new
    ones; a watcher's sockets count toward the per-user socket cap (1008 past it)."""
    from websockets.exceptions import ConnectionClosed

    port = servers.daphne("web")
    table, users = _seat_three(room, make_user)
    watcher = make_user()
    cookie = login_cookie(watcher)
    watching = [ws_connect(port, table.pk, cookie) for _ in range(3)]
    for ws in watching:
        assert next_of(ws, "table")["seat"] is None
    extra = ws_connect(port, table.pk, cookie)
    assert next_of(extra, "error")["code"] == "too_many_sockets"
    with pytest.raises(ConnectionClosed) as closed:
        extra.recv(timeout=5)
    assert closed.value.rcvd.code == 1008
    for ws in watching[1:]:
        ws.close()

    player = ws_connect(port, table.pk, login_cookie(users[0]))
    next_of(player, "table")
    player.send(json.dumps({"kind": "watching", "on": False}))
    assert next_of(player, "watching")["allow"] is False
    assert next_of(watching[0], "error")["code"] == "watching_off"
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            watching[0].recv(timeout=5)
    assert closed.value.rcvd.code == 4403
    again = ws_connect(port, table.pk, cookie)
    assert next_of(again, "error")["code"] == "watching_off"
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            again.recv(timeout=5)
    assert closed.value.rcvd.code == 4403
    player.close()


def test_a_player_who_disallows_watching_sitting_down_ends_the_watching(servers, room, make_user):
    """A watcher of a waiting table is closed (4403) when a player with 允許觀戰 off sits."""
    from websockets.exceptions import ConnectionClosed

    from games.services import spectators

    port = servers.daphne("web")
    first = make_user(beans=5000)
    table = lobby_services.quick_join(user=first, room_id=room.pk)
    watcher = ws_connect(port, table.pk, login_cookie(make_user()))
    assert next_of(watcher, "table")["seat"] is None
    private = make_user(beans=5000)
    spectators.watching_set(user=private, allow=False)
    assert lobby_services.quick_join(user=private, room_id=room.pk).pk == table.pk
    assert next_of(watcher, "error")["code"] == "watching_off"
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            watcher.recv(timeout=5)
    assert closed.value.rcvd.code == 4403
