"""大豐收's pushes: published without blocking, a bet carries only public totals, and a
socket coalesces other players' bets into a few small frames while a phase change still
pushes the whole board."""

from __future__ import annotations

import json
import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import realtime
from games.boards import dafengshou as board
from games.consumers import dafengshou as dafengshou_consumer
from games.models import WheelRound
from games.selectors import dafengshou as dafengshou_selectors
from games.services import dafengshou
from lobby.models import Room


def make_room(**extra) -> Room:
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
            "player_limit": 5000,
            "round_limit": 100000,
            **extra,
        },
    )


def place(room, user, obj="apple", amount=10):
    rnd = dafengshou.round_enter(room_id=room.pk)
    return dafengshou.bet_place(
        room_id=room.pk,
        user=user,
        round_number=rnd.number,
        object=obj,
        amount=amount,
        action_id=uuid.uuid4().hex,
    )


@pytest.fixture
def published(monkeypatch):
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(
        dafengshou.realtime, "publish", lambda group, message, **kw: sent.append((group, message))
    )
    return sent


@pytest.mark.django_db
def test_the_wheel_publishes_through_realtime_after_commit(
    make_user, published, django_capture_on_commit_callbacks
):
    """No ``async_to_sync(group_send)``: every push goes through ``realtime.publish``, and
    only once the transaction committed."""
    import inspect

    assert "async_to_sync" not in inspect.getsource(dafengshou)
    room = make_room()
    user = make_user(beans=1000)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        place(room, user)
    assert published == [] and callbacks  # nothing before the commit
    for callback in callbacks:
        callback()
    kinds = [m["type"] for _g, m in published]
    assert kinds.count("dafengshou.bet") == 1 and "lobby.changed" in kinds


@pytest.mark.django_db
def test_a_bet_push_carries_only_public_totals_and_the_lobby_hears_first_bets(
    make_user, published, django_capture_on_commit_callbacks
):
    """A bet's message holds the per-crop totals, the round total and the bettor count: no
    player, no stake of anyone's own, no seed. The lobby is told when the bettor count
    changes (a player's first bet), not on every bet."""
    room = make_room()
    alice, bob = make_user(beans=5000), make_user(beans=5000)
    with django_capture_on_commit_callbacks(execute=True):
        place(room, alice, "apple", 100)
        place(room, alice, "rice", 10)
        place(room, bob, "apple", 10)
    rnd = WheelRound.objects.get(room_id=room.pk)
    bets = [m for g, m in published if m["type"] == "dafengshou.bet"]
    assert all(
        g == realtime.dafengshou_group(room.pk)
        for g, m in published
        if m["type"] == "dafengshou.bet"
    )
    assert [m["version"] for m in bets] == [1, 2, 3]
    last = bets[-1]
    assert set(last) == {"type", "room_id", "number", "version", "totals", "round_total", "bettors"}
    assert last["totals"]["apple"] == 110 and last["totals"]["rice"] == 10
    assert (last["round_total"], last["bettors"]) == (120, 2)
    assert rnd.seed not in json.dumps(published)
    assert [m["type"] for _g, m in published].count("lobby.changed") == 2  # alice's, bob's first


@pytest.mark.django_db
def test_a_phase_change_still_pushes_the_whole_board(
    make_user, published, django_capture_on_commit_callbacks
):
    """The close and the settlement send ``wheel.changed`` (each socket redraws its board);
    settling a round that had bets tells the lobby (its bettor count restarts at 0)."""
    room = make_room()
    with django_capture_on_commit_callbacks(execute=True):
        place(room, make_user(beans=1000))
    rnd = WheelRound.objects.get(room_id=room.pk)
    WheelRound.objects.filter(pk=rnd.pk).update(closes_at=timezone.now() - timedelta(1))
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert dafengshou.round_close(round_id=rnd.pk)
        WheelRound.objects.filter(pk=rnd.pk).update(settle_at=timezone.now() - timedelta(1))
        assert dafengshou.round_settle(round_id=rnd.pk)
    kinds = [m["type"] for _g, m in published]
    assert kinds == ["dafengshou.changed", "dafengshou.changed", "lobby.changed"]


def test_the_totals_fragment_is_top_level_swaps_by_id_and_nothing_private():
    """Each total is its own top-level element with an id the board also has (the htmx ws
    extension swaps only top-level children)."""
    event = {
        "number": 3,
        "version": 7,
        "totals": {"apple": 30, "rice": 1000},
        "round_total": 1030,
        "bettors": 2,
    }
    html = board.render_totals(event)
    for crop in board.CROP_STYLE:
        assert f'id="wheel-total-{crop}" hx-swap-oob="true"' in html
    assert 'id="wheel-total-apple" hx-swap-oob="true" data-version="7">全場 30<' in html
    assert 'id="wheel-round-total" hx-swap-oob="true"' in html and ">1030<" in html
    assert 'id="wheel-bettors" hx-swap-oob="true">2<' in html
    assert "wheel-board" not in html and "wheel-balance" not in html
    data = json.loads(board.render_totals(event, as_json=True))
    assert data["type"] == "totals" and data["totals"]["grape"] == 0


@pytest.mark.django_db
def test_the_board_has_the_ids_the_totals_fragment_replaces(make_user):
    """The 大豐收 board renders every element id the pushed totals fragment replaces (one total
    per crop, the round total, the bettor count), so a push lands on the page."""
    room = make_room()
    user = make_user(beans=1000)
    place(room, user, "peach", 100)
    html = board.render_html(dafengshou_selectors.dafengshou_view(room.pk, user))
    for crop in board.CROP_STYLE:
        assert f'id="wheel-total-{crop}"' in html
    assert 'id="wheel-round-total"' in html and 'id="wheel-bettors">1<' in html


async def _frames(comm, seconds: float) -> list[dict]:
    """Every frame arriving within ``seconds`` (a receive timeout would kill the consumer)."""
    out, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not await comm.receive_nothing(timeout=0.05, interval=0.01):
            out.append(json.loads(await comm.receive_from()))
    return out


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_burst_of_bets_reaches_others_as_a_few_totals_frames(make_user):
    """Twenty bets by one player in a burst: another socket gets no board redraw for them,
    only totals frames, at most about one per TOTALS_INTERVAL, the last one exact; the
    bettor's own socket gets his board (his stake) after each of his bets."""
    from config.asgi import application

    room = await sync_to_async(make_room)()
    alice = await sync_to_async(make_user)(beans=10000)
    bob = await sync_to_async(make_user)(beans=10000)
    socks = {}
    for name, user in (("a", alice), ("b", bob)):
        from tests.live.conftest import login_cookie

        cookie = await sync_to_async(login_cookie)(user)
        comm = WebsocketCommunicator(
            application,
            f"/ws/wheel/{room.pk}/?format=json",
            headers=[(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())],
        )
        connected, _ = await comm.connect()
        assert connected
        first = json.loads(await comm.receive_from(timeout=5))
        assert first["type"] == "wheel"
        socks[name] = comm
    await _frames(socks["b"], 0.3)  # the open's push, if any
    started = time.monotonic()
    for i in range(20):
        await socks["a"].send_to(
            text_data=json.dumps(
                {"kind": "bet", "object": "apple", "amount": 10, "action_id": f"burst{i}"}
            )
        )
    own = []
    while len(own) < 20:
        frame = json.loads(await socks["a"].receive_from(timeout=5))
        if frame["type"] == "wheel":
            own.append(frame)
        assert frame["type"] != "error", frame
    assert own[-1]["objects"][0]["mine"] == 200 and own[-1]["my_total"] == 200
    seen = await _frames(socks["b"], 1.0)
    elapsed = time.monotonic() - started
    assert seen and all(f["type"] == "totals" for f in seen), [f["type"] for f in seen]
    assert len(seen) <= elapsed / dafengshou_consumer.TOTALS_INTERVAL + 2, (len(seen), elapsed)
    assert len(seen) < 20
    assert seen[-1]["totals"]["apple"] == 200 and seen[-1]["round_total"] == 200
    assert seen[-1]["bettors"] == 1 and "seed" not in json.dumps(seen)
    for comm in socks.values():
        await comm.disconnect()


@pytest.mark.django_db
def test_the_spinning_board_names_the_winning_crops_and_my_payout_not_the_seed(make_user):
    """While the light runs the board carries what the page shows when it stops: the crops
    that won (for their highlight) and this player's own stake and payout; never the seed."""
    from games.rules.dafengshou.wheel import config_from_params, payout, spin

    room = make_room()
    user = make_user(beans=5000)
    for crop in ("apple", "orange", "rice"):
        place(room, user, crop, 100)
    rnd = WheelRound.objects.get(room_id=room.pk)
    WheelRound.objects.filter(pk=rnd.pk).update(closes_at=timezone.now() - timedelta(1))
    assert dafengshou.round_close(round_id=rnd.pk)
    rnd.refresh_from_db()
    config = config_from_params(rnd.params)
    won = payout(config, {"apple": 100, "orange": 100, "rice": 100}, spin(config, rnd.seed))
    html = board.render_html(dafengshou_selectors.dafengshou_view(room.pk, user))
    ring = {c["cell"]: c for c in dafengshou._ruleset().ring(config)}
    crops = sorted({ring[c].get("object") for c in rnd.outcome["lit"]} - {None, ""})
    assert f'data-win-objects="{",".join(crops)}"' in html
    assert 'id="wheel-my-round" hidden' in html
    assert (f"派彩 <b>{won}</b> 豆" if won else "<b>沒有押中</b>") in html
    assert rnd.seed not in html
