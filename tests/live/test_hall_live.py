"""The hall over real sockets: an invitation reaches the friend's lobby at once (issue #15 §3).

A real Daphne process, PostgreSQL and the Redis channel layer; the owner's invitation is
written by this test process, so the push crosses processes through the layer, as between
two servers.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request

import pytest
from websockets.sync.client import connect

from accounts import services as account_services
from lobby import services as lobby_services
from lobby.models import Room
from tests.live.conftest import login_cookie

pytestmark = [pytest.mark.live, pytest.mark.slow]


def _room() -> Room:
    return Room.objects.create(
        name="好友場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=10,
        rake=5,
        min_beans=0,
        max_beans=None,
        double_threshold=1000,
        turn_seconds=20,
        bot_wait_seconds=0,
    )


def _lobby(port: int, cookie: str):
    return connect(
        f"ws://127.0.0.1:{port}/ws/lobby/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=10,
    )


def _frames_until(ws, needle: str, timeout: float = 8.0) -> str:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            frame = ws.recv(timeout=max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if needle in frame:
            return frame
    raise AssertionError(f"no frame with {needle!r}")


def test_invitation_arrives_in_the_friends_lobby_and_not_from_a_blocked_player(servers, make_user):
    """The friend's open lobby socket gets the invitation (his list, out of band, with the
    one-click join and no form or CSRF token) within a second or two of the send; the owner's
    lobby page, served by the same Daphne, shows the friend 在大廳; once the friend blocks the
    owner a new invitation is refused and nothing arrives."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the push crosses processes through the Redis channel layer")
    room = _room()
    owner, friend = make_user(beans=5000), make_user(beans=5000)
    account_services.follow_create(user=owner, other_id=friend.pk)
    account_services.follow_create(user=friend, other_id=owner.pk)
    port = servers.daphne("web")
    with _lobby(port, login_cookie(friend)) as ws:
        lobby_services.private_create(user=owner, room_id=room.pk)
        invitation = lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
        frame = _frames_until(ws, 'id="invitations"')
        assert 'hx-swap-oob="true"' in frame
        assert f'data-invitation="{invitation.pk}"' in frame
        assert f"/invitations/{invitation.pk}/accept/" in frame and str(owner) in frame
        assert "csrfmiddlewaretoken" not in frame and "<form" not in frame
        page = (
            urllib.request.urlopen(
                urllib.request.Request(
                    f"http://127.0.0.1:{port}/", headers={"Cookie": login_cookie(owner)}
                ),
                timeout=10,
            )
            .read()
            .decode()
        )
        assert f'data-user="{friend.pk}"' in page and "在大廳" in page
        account_services.block_create(user=friend, other_id=owner.pk)
        account_services.follow_create(user=owner, other_id=friend.pk)
        with pytest.raises(lobby_services.UnknownInvite):
            lobby_services.invitation_send(user=owner, recipient_id=friend.pk)
        with pytest.raises(AssertionError):
            _frames_until(ws, 'id="invitations"', timeout=2.0)


def test_friends_list_follows_a_friend_sitting_down_over_the_lobby_socket(
    servers, make_user, monkeypatch
):
    """While a player's lobby socket is open, his friends list is pushed again when a friend
    sits down at a public table (在玩 斗地主, with a 觀戰 link), without a reload and without a
    form; a friend who hides himself (不公開) is pushed as 不公開."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the server process and this one share the database and the layer")
    monkeypatch.setenv("LEYOU_LOBBY_PRESENCE_SECONDS", "0.3")
    room = _room()
    viewer, friend = make_user(beans=5000), make_user(beans=5000)
    account_services.follow_create(user=viewer, other_id=friend.pk)
    account_services.follow_create(user=friend, other_id=viewer.pk)
    port = servers.daphne("web")
    with _lobby(port, login_cookie(viewer)) as ws:
        import time

        time.sleep(1.0)  # the socket has looked at the list once
        table = lobby_services.quick_join(user=friend, room_id=room.pk)
        frame = _frames_until(ws, "在玩")
        assert 'id="friend-list"' in frame and 'hx-swap-oob="true"' in frame
        assert f"/games/table/{table.pk}/" in frame and "<form" not in frame
        account_services.privacy_set(user=friend, presence="nobody")
        frame = _frames_until(ws, "不公開")
        assert f"/games/table/{table.pk}/" not in frame


def _watch_frame(ws, test, timeout: float = 8.0) -> str:
    """The next lobby frame whose watch list passes ``test`` (frames before it are skipped)."""
    import time

    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            frame = ws.recv(timeout=max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if 'id="watch-list"' in frame:
            watch = frame[frame.index('id="watch-list"') :]
            seen.append(watch[:300])
            if test(watch):
                return watch
    raise AssertionError(f"no watch list as expected; saw {seen[-3:]}")


def test_watch_list_is_live_and_drops_a_table_whose_player_turns_watching_off(servers, make_user):
    """A logged-in lobby socket (a real Daphne; the changes made by this process cross through
    the Redis layer) gets the watch list swapped in out of band when a public table starts (its
    players and 0 watching), when a watcher opens the table (1 watching), when a seated player
    turns 允許觀戰 off (the table is gone at once; a new watcher's socket is refused with
    ``watching_off`` and the page with 403 and the reason), when he turns it on again (back),
    and when the table finishes (gone). A private table never appears; no form, no token. The
    viewer's friends list says his friend is watching as soon as the friend's socket opens."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the push crosses processes through the Redis channel layer")
    from games.services import seating, spectators
    from tests.live.conftest import recv_json, ws_connect

    room = _room()
    viewer, player, watcher = (make_user(beans=5000) for _ in range(3))
    owner = make_user(beans=5000)
    account_services.follow_create(user=viewer, other_id=watcher.pk)  # friends: his presence
    account_services.follow_create(user=watcher, other_id=viewer.pk)
    port = servers.daphne("web", 8121)
    with _lobby(port, login_cookie(viewer)) as ws:
        private = lobby_services.private_create(user=owner, room_id=room.pk)
        seating.bots_fill(table_id=private.pk, by_user=owner)  # a private table, running
        table = lobby_services.quick_join(user=player, room_id=room.pk)
        seating.bots_fill(table_id=table.pk)
        watch = _watch_frame(ws, lambda w: f'data-table="{table.pk}"' in w)
        assert 'hx-swap-oob="true"' in watch[:60] or 'hx-swap-oob="true"' in watch
        assert f'data-table="{table.pk}" data-watchers="0"' in watch
        assert f'data-table="{private.pk}"' not in watch
        assert str(player) in watch and f"/games/table/{table.pk}/" in watch
        assert "<form" not in watch and "csrfmiddlewaretoken" not in watch

        with ws_connect(port, table.pk, login_cookie(watcher)) as table_ws:
            assert recv_json(table_ws)["type"] != "error"
            _watch_frame(ws, lambda w: f'data-table="{table.pk}" data-watchers="1"' in w)
            # his friend's list says he is watching, long before the 20 s presence beat
            friends = _frames_until(ws, "presence-watching")
            assert 'id="friend-list"' in friends and f'data-user="{watcher.pk}"' in friends
            spectators.watching_set(user=player, allow=False)
            _watch_frame(ws, lambda w: f'data-table="{table.pk}"' not in w)
        # the watcher comes back: refused, with the reason, socket and page alike
        with ws_connect(port, table.pk, login_cookie(watcher)) as table_ws:
            refused = recv_json(table_ws)
            assert refused["type"] == "error" and refused["code"] == "watching_off"
            assert "不允許觀戰" in refused["message"]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/games/table/{table.pk}/",
            headers={"Cookie": login_cookie(watcher)},
        )
        with pytest.raises(urllib.error.HTTPError) as refused_page:
            urllib.request.urlopen(request, timeout=10)
        assert refused_page.value.code == 403
        assert "不允許觀戰" in refused_page.value.read().decode()

        spectators.watching_set(user=player, allow=True)
        _watch_frame(ws, lambda w: f'data-table="{table.pk}"' in w)
        seating.seat_leave(table_id=table.pk, user=player)  # 逃跑: the hand ends, the table closes
        _watch_frame(ws, lambda w: f'data-table="{table.pk}"' not in w)
