"""Private tables are private (私人桌): page, socket and replay follow ``table_access`` /
``replay_access``, and the invite code (邀請碼) reaches its owner and seated players only."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import rendering
from games.models import Hand, Seat
from games.selectors import tables as table_selectors
from games.services import seating
from games.tests.test_tables_service import _full_table, _play_out
from lobby import services as lobby_services


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _private(room, make_user):
    owner = make_user(beans=5000)
    table = lobby_services.private_create(user=owner, room_id=room.pk)
    return table, owner


@pytest.mark.django_db
def test_a_stranger_gets_404_on_a_private_table_page_and_players_see_it(room, make_user):
    """A logged-in stranger (even guessing the next id) gets 404; the owner sees the code."""
    table, owner = _private(room, make_user)
    url = reverse("games:table", args=[table.pk])
    stranger = _client(make_user(beans=5000))
    response = stranger.get(url)
    assert response.status_code == 404
    assert table.invite_code not in response.content.decode()
    assert Client().get(url).status_code == 302  # not logged in: to the login page
    page = _client(owner).get(url)
    assert page.status_code == 200 and table.invite_code in page.content.decode()


@pytest.mark.django_db
def test_who_came_with_the_code_may_watch_after_standing_up_without_the_code(room, make_user):
    """A friend who joined by the code sees the page; after he stands up he still may watch
    (the session holds the code he presented), but the code itself is no longer shown."""
    table, _ = _private(room, make_user)
    friend = make_user(beans=5000)
    client = _client(friend)
    response = client.post(reverse("lobby:private_join"), {"code": table.invite_code})
    assert response.status_code == 302
    url = reverse("games:table", args=[table.pk])
    assert table.invite_code in client.get(url).content.decode()  # seated: the code
    seating.seat_leave(table_id=table.pk, user=friend)
    assert not Seat.objects.filter(user=friend).exists()
    page = client.get(url)
    assert page.status_code == 200 and table.invite_code not in page.content.decode()
    # the same user in a session that never presented the code is refused
    assert _client(friend).get(url).status_code == 404


@pytest.mark.django_db
def test_the_right_code_for_a_full_table_lets_the_friend_watch(room, make_user):
    """A full private table: a fourth friend with the code is told 牌桌已滿 and watches (no
    seat, no code in his page); a wrong code still leads home."""
    table, _ = _private(room, make_user)
    for _ in range(2):
        lobby_services.private_join(user=make_user(beans=5000), code=table.invite_code)
    fourth = make_user(beans=5000)
    client = _client(fourth)
    response = client.post(reverse("lobby:private_join"), {"code": table.invite_code}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:table", args=[table.pk])
    html = response.content.decode()
    assert "牌桌已滿" in html and table.invite_code not in html
    assert not Seat.objects.filter(user=fourth).exists()
    response = client.post(reverse("lobby:private_join"), {"code": "ZZZZZZ"})
    assert response.url == reverse("lobby:home")


@pytest.mark.django_db
def test_a_public_table_is_watched_without_concealed_cards_or_code(room, make_user):
    """Any logged-in user watches a public table: the spectator view, never a hand."""
    table, users = _full_table(room, make_user)
    watcher = make_user(beans=5000)
    snapshot = table_selectors.table_snapshot(table.pk)
    assert table_selectors.table_access(watcher, table) == table_selectors.WATCHER
    assert table_selectors.table_access(users[0], table) == table_selectors.PLAYER
    frame = json.loads(rendering.render_json(snapshot, None, watcher))
    assert frame["view"] == json.loads(rendering.render_json(snapshot, None, None))["view"]
    mine = json.loads(rendering.render_json(snapshot, 0, users[0]))
    assert "hand" in mine["view"] and frame["view"].get("hand") is None
    assert _client(watcher).get(reverse("games:table", args=[table.pk])).status_code == 200


@pytest.mark.django_db
def test_the_invite_code_is_absent_from_every_non_seated_frame(room, make_user):
    """JSON and HTML frames: the code for seated players and the owner, never for others."""
    table, owner = _private(room, make_user)
    friend = make_user(beans=5000)
    lobby_services.private_join(user=friend, code=table.invite_code)
    snapshot = table_selectors.table_snapshot(table.pk)
    code = table.invite_code
    for seat, user in ((0, owner), (1, friend)):
        frame = json.loads(rendering.render_json(snapshot, seat, user))
        assert frame["table"]["invite_code"] == code
        assert code in rendering.render_html(snapshot, seat, user)
    staff = make_user(beans=5000)
    staff.is_staff = True
    staff.save()
    for user in (None, staff, make_user()):
        frame = rendering.render_json(snapshot, None, user)
        assert code not in frame and code not in rendering.render_html(snapshot, None, user)
    # the owner standing up keeps seeing his own code
    seating.seat_leave(table_id=table.pk, user=owner)
    snapshot = table_selectors.table_snapshot(table.pk)
    assert json.loads(rendering.render_json(snapshot, None, owner))["table"]["invite_code"] == code


async def _socket(table_id: int, cookie: str):
    from config.asgi import application

    comm = WebsocketCommunicator(
        application,
        f"/ws/table/{table_id}/?format=json",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())],
    )
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_strangers_socket_to_a_private_table_is_refused(room, make_user):
    """The stranger's socket closes 4404 and changes nothing; the owner's frame has the code;
    a friend who presented the code but stood up gets frames without it."""
    from tests.live.conftest import login_cookie

    table, owner = await sync_to_async(_private)(room, make_user)
    stranger = await sync_to_async(make_user)(beans=5000)
    await sync_to_async(table.refresh_from_db)()
    seq = table.seq
    comm, connected, code = await _socket(table.pk, await sync_to_async(login_cookie)(stranger))
    assert not connected and code == 4404
    await sync_to_async(table.refresh_from_db)()
    assert table.seq == seq

    comm, connected, _ = await _socket(table.pk, await sync_to_async(login_cookie)(owner))
    assert connected
    frame = json.loads(await comm.receive_from(timeout=5))
    assert frame["table"]["invite_code"] == table.invite_code
    await comm.disconnect()

    def friend_joined_and_left() -> str:
        friend = make_user(beans=5000)
        client = _client(friend)
        client.post(reverse("lobby:private_join"), {"code": table.invite_code})
        seating.seat_leave(table_id=table.pk, user=friend)
        return f"sessionid={client.cookies['sessionid'].value}"

    cookie = await sync_to_async(friend_joined_and_left)()
    comm, connected, _ = await _socket(table.pk, cookie)
    assert connected
    raw = await comm.receive_from(timeout=5)
    assert json.loads(raw)["seat"] is None and table.invite_code not in raw
    await comm.disconnect()


@pytest.mark.django_db
def test_replays_go_to_the_hands_players_and_staff_then_public_after_a_day(
    room, make_user, django_capture_on_commit_callbacks
):
    """A finished public hand: players and staff at once, other users after 24 h, visitors
    never; a private table's hand: its players and staff only, however old."""
    table, users = _full_table(room, make_user)
    hand = Hand.objects.get(table=table)
    Seat.objects.filter(table=table).update(auto=True)
    with django_capture_on_commit_callbacks(execute=True):
        _play_out(table.pk)
    hand.refresh_from_db()
    url = reverse("games:replay", args=[hand.pk])
    stranger = _client(make_user())
    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert Client().get(url).status_code == 302  # to the login page
    assert stranger.get(url).status_code == 404
    page = _client(users[1]).get(url)
    assert page.status_code == 200 and "24 小時後" in page.content.decode()
    assert _client(staff).get(url).status_code == 200
    Hand.objects.filter(pk=hand.pk).update(finished_at=timezone.now() - timedelta(hours=25))
    assert stranger.get(url).status_code == 200
    table.is_private = True
    table.save(update_fields=["is_private"])
    assert stranger.get(url).status_code == 404
    assert _client(users[2]).get(url).status_code == 200


def _stood_up_after_a_hand(room, make_user):
    """A private table of three friends, one hand played out; the third had no socket open at
    its end (his connection dropped), so the step between hands stands him up."""
    table, owner = _private(room, make_user)
    friends = [make_user(beans=5000) for _ in range(2)]
    for friend in friends:
        lobby_services.private_join(user=friend, code=table.invite_code)
    Seat.objects.filter(table=table).update(auto=True)
    _play_out(table.pk)
    assert Hand.objects.get(table=table).status == Hand.Status.FINISHED
    Seat.objects.filter(table=table).exclude(user=friends[1]).update(connections=1)
    Seat.objects.filter(table=table, user=friends[1]).update(connections=0)
    table.refresh_from_db()
    table.next_hand_at = timezone.now() - timedelta(seconds=1)
    table.save(update_fields=["next_hand_at"])
    seating.table_tick(table_id=table.pk)
    assert not Seat.objects.filter(user=friends[1]).exists()  # stood up
    return table, friends[1]


@pytest.mark.django_db
def test_a_player_stood_up_from_a_private_table_may_come_back_without_the_code(room, make_user):
    """A friend dealt in at a private table and stood up between hands (he missed the hand's
    end) opens the table again from a session that never presented the code (another device,
    a new login): he watches it (200), he is not refused. A stranger still gets 404."""
    table, friend = _stood_up_after_a_hand(room, make_user)
    url = reverse("games:table", args=[table.pk])
    page = _client(friend).get(url)
    assert page.status_code == 200
    assert table.invite_code not in page.content.decode()  # no seat: no code shown
    assert table_selectors.table_access(friend, table) == table_selectors.WATCHER
    assert _client(make_user(beans=5000)).get(url).status_code == 404


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stood_up_players_socket_to_his_private_table_is_let_in(room, make_user):
    """The same over the socket: his reconnect is accepted (a watcher's frame, no code), where
    a stranger's closes 4404 (the handshake a proxy shows as 403)."""
    from tests.live.conftest import login_cookie

    table, friend = await sync_to_async(_stood_up_after_a_hand)(room, make_user)
    comm, connected, code = await _socket(table.pk, await sync_to_async(login_cookie)(friend))
    assert connected, code
    raw = await comm.receive_from(timeout=5)
    assert json.loads(raw)["seat"] is None and table.invite_code not in raw
    await comm.disconnect()
    stranger = await sync_to_async(make_user)(beans=5000)
    comm, connected, code = await _socket(table.pk, await sync_to_async(login_cookie)(stranger))
    assert not connected and code == 4404


@pytest.mark.django_db
def test_a_stood_up_player_sits_down_again_at_his_private_table_without_the_code(room, make_user):
    """回到座位: the table's panel offers it to him (not to a stranger); the POST seats him
    again, code or not; a stranger's POST is 404 and changes nothing; he may not take a second
    seat elsewhere meanwhile."""
    table, friend = _stood_up_after_a_hand(room, make_user)
    client = _client(friend)  # a session that never presented the code
    panel = client.get(reverse("lobby:table_panel", args=[table.pk])).content.decode()
    assert reverse("lobby:table_return", args=[table.pk]) in panel
    stranger = make_user(beans=5000)
    url = reverse("lobby:table_return", args=[table.pk])
    assert _client(stranger).post(url).status_code == 404
    assert not Seat.objects.filter(user=stranger).exists()
    response = client.post(url)
    assert response.status_code == 302 and response.url == reverse("games:table", args=[table.pk])
    assert Seat.objects.filter(table=table, user=friend).exists()
    panel = client.get(reverse("lobby:table_panel", args=[table.pk])).content.decode()
    assert "table-return" not in panel  # seated: nothing to return to


@pytest.mark.django_db
def test_watching_off_still_lets_a_stood_up_player_sit_down_again(room, make_user):
    """A seated player turned 允許觀戰 off: the stood-up friend's page is the refusal (403, no
    board), which offers him his way back to a seat; a stranger with the code gets no such
    button."""
    from games.models import WatchPreference

    table, friend = _stood_up_after_a_hand(room, make_user)
    seated = Seat.objects.filter(table=table, user__isnull=False).first().user
    WatchPreference.objects.update_or_create(user=seated, defaults={"allow_watching": False})
    page = _client(friend).get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 403
    assert reverse("lobby:table_return", args=[table.pk]) in page.content.decode()
    guest = _client(make_user(beans=5000))
    session = guest.session
    session[table_selectors.INVITE_CODES_KEY] = [table.invite_code]
    session.save()
    page = guest.get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 403 and "table-return" not in page.content.decode()
